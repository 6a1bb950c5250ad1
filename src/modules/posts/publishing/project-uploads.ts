/**
 * A project's daily upload allowance, counted by the service (YouTube's videos.insert, per Google
 * project): an upload takes one of the day's before it is tried, as the platform counts refused
 * calls too; a platform answer that the day is spent closes the day for every target of the project.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/connection.ts';
import type { DailyUploads, Platform } from '../../../platforms/index.ts';
import { projectUploadDays } from '../tables.ts';

/** Takes one upload of the day's allowance at `at`; false: none is left (the day is counted spent). */
export async function takeUpload(db: Queryable, platform: Platform, uploads: DailyUploads, at: Date): Promise<boolean> {
  if (uploads.limit <= 0) return false;
  const taken = await db
    .insert(projectUploadDays)
    .values({ platform, project: uploads.project, day: uploads.day(at), uploads: 1 })
    .onConflictDoUpdate({
      target: [projectUploadDays.platform, projectUploadDays.project, projectUploadDays.day],
      set: { uploads: sql`${projectUploadDays.uploads} + 1` },
      setWhere: and(lt(projectUploadDays.uploads, uploads.limit), eq(projectUploadDays.spent, false)),
    })
    .returning({ uploads: projectUploadDays.uploads });
  return taken.length > 0;
}

/** The platform answered that the day's quota is spent: no other upload is tried that day. */
export async function markSpent(db: Queryable, platform: Platform, uploads: DailyUploads, at: Date): Promise<void> {
  await db
    .insert(projectUploadDays)
    .values({ platform, project: uploads.project, day: uploads.day(at), spent: true })
    .onConflictDoUpdate({
      target: [projectUploadDays.platform, projectUploadDays.project, projectUploadDays.day],
      set: { spent: true },
    });
}

/**
 * Gives back an upload whose call was refused for a lapsed token: the step runs again with a
 * renewed one and takes it again.
 */
export async function giveBack(db: Queryable, platform: Platform, uploads: DailyUploads, at: Date): Promise<void> {
  await db
    .update(projectUploadDays)
    .set({ uploads: sql`greatest(${projectUploadDays.uploads} - 1, 0)` })
    .where(
      and(
        eq(projectUploadDays.platform, platform),
        eq(projectUploadDays.project, uploads.project),
        eq(projectUploadDays.day, uploads.day(at)),
      ),
    );
}
