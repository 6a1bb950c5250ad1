/**
 * A project's daily quota, counted by the service (YouTube's, per Google project) in one row a
 * day that every process shares: its uploads (videos.insert, a bucket of calls of its own) and
 * the units of its other calls. An upload takes one of the day's before it is tried, as the
 * platform counts refused calls too; a platform answer that the day is spent closes the day for
 * every target and every read of the project.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/connection.ts';
import type { DailyUploads, Platform, ProjectUnits } from '../../../platforms/index.ts';
import { projectUploadDays } from '../tables.ts';

/**
 * Why an upload was not taken: the day's uploads are spent, or its units are, or the platform
 * answered that the day's quota is spent (`closed`), whatever the counts say.
 */
export type UploadRefusal = 'uploads' | 'units' | 'closed';

/** Takes one upload of the day's allowance at `at`; null when taken, else why not. */
export async function takeUpload(
  db: Queryable,
  platform: Platform,
  uploads: DailyUploads,
  at: Date,
): Promise<UploadRefusal | null> {
  if (uploads.limit <= 0) return 'uploads';
  const unitLimit = uploads.unitLimit;
  const key = { platform, project: uploads.project, day: uploads.day(at) };
  if (unitLimit !== undefined && unitLimit <= 0) return 'units';
  const taken = await db
    .insert(projectUploadDays)
    .values({ ...key, uploads: 1 })
    .onConflictDoUpdate({
      target: [projectUploadDays.platform, projectUploadDays.project, projectUploadDays.day],
      set: { uploads: sql`${projectUploadDays.uploads} + 1` },
      setWhere: and(
        lt(projectUploadDays.uploads, uploads.limit),
        eq(projectUploadDays.spent, false),
        unitLimit === undefined ? undefined : lt(projectUploadDays.units, unitLimit),
      ),
    })
    .returning({ uploads: projectUploadDays.uploads });
  if (taken.length > 0) return null;
  const [day] = await db
    .select({ uploads: projectUploadDays.uploads, units: projectUploadDays.units, spent: projectUploadDays.spent })
    .from(projectUploadDays)
    .where(dayOf(key));
  if (day?.spent === true) return 'closed';
  return unitLimit !== undefined && day !== undefined && day.uploads < uploads.limit && day.units >= unitLimit
    ? 'units'
    : 'uploads';
}

/** The platform answered that the day's quota is spent: no other upload is tried that day. */
export async function markSpent(db: Queryable, platform: Platform, uploads: DailyUploads, at: Date): Promise<void> {
  await closeDay(db, platform, uploads.project, uploads.day(at));
}

async function closeDay(db: Queryable, platform: Platform, project: string, day: string): Promise<void> {
  await db
    .insert(projectUploadDays)
    .values({ platform, project, day, spent: true })
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
    .where(dayOf({ platform, project: uploads.project, day: uploads.day(at) }));
}

function dayOf(key: { platform: Platform; project: string; day: string }) {
  return and(
    eq(projectUploadDays.platform, key.platform),
    eq(projectUploadDays.project, key.project),
    eq(projectUploadDays.day, key.day),
  );
}

/** The count of the projects' units the adapters are handed, in the same rows as the uploads. */
export function projectUnits(db: Queryable): ProjectUnits {
  return {
    async take(platform, project, day, units, ceiling) {
      const key = { platform, project, day };
      if (units <= ceiling) {
        const taken = await db
          .insert(projectUploadDays)
          .values({ ...key, units })
          .onConflictDoUpdate({
            target: [projectUploadDays.platform, projectUploadDays.project, projectUploadDays.day],
            set: { units: sql`${projectUploadDays.units} + ${units}` },
            setWhere: and(sql`${projectUploadDays.units} + ${units} <= ${ceiling}`, eq(projectUploadDays.spent, false)),
          })
          .returning({ units: projectUploadDays.units });
        if (taken[0] !== undefined) return { taken: true, used: taken[0].units, closed: false };
      }
      const [row] = await db
        .select({ units: projectUploadDays.units, spent: projectUploadDays.spent })
        .from(projectUploadDays)
        .where(dayOf(key));
      return { taken: false, used: row?.units ?? 0, closed: row?.spent ?? false };
    },
    close: (platform, project, day) => closeDay(db, platform, project, day),
  };
}
