import { and, asc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { profiles } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { type Page, toPage } from '../../http/pagination.ts';
import { cachedRead, forgetCachedReads } from '../../http/read-cache.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { deleteAllProfileKeys } from '../api-keys/service.ts';
import { emit } from '../events/service.ts';
// webhooks/service.ts imports this module too; both only call each other at run time.
import { deleteProfileEndpoints } from '../webhooks/service.ts';

export type Profile = typeof profiles.$inferSelect;

export const DEFAULT_PROFILE_NAME = 'Default';

const live = (ownerId: string) => and(eq(profiles.ownerId, ownerId), isNull(profiles.deletedAt));

/** The predicate for "the profile named by `ref`": its id, or its external_id. */
function byRef(ref: string) {
  return looksLikeId('profile', ref) ? eq(profiles.id, ref) : eq(profiles.externalId, ref);
}

/** Finds a live profile of an owner by id or external_id. */
export async function findProfile(db: Queryable, ownerId: string, ref: string): Promise<Profile | undefined> {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(live(ownerId), byRef(ref)))
    .limit(1);
  return row;
}

/**
 * The profile `ref` names, within what the caller may see: a scoped caller sees only its
 * own profile, so any other reference is "not found" rather than "forbidden".
 */
export async function getProfile(db: Queryable, scope: Scope, ref: string): Promise<Profile> {
  const profile = await findProfile(db, scope.ownerId, ref);
  if (!profile || (scope.profileId !== null && profile.id !== scope.profileId)) throw errors.profileNotFound(ref);
  return profile;
}

/**
 * A page of the caller's profiles, as the API shows it. Cached (rendered), as lists are
 * read far more often than profiles change.
 */
export async function listProfiles(
  db: Db,
  scope: Scope,
  query: { externalId?: string | undefined; limit: number; after?: string | undefined },
): Promise<Page<RenderedProfile>> {
  const key = `profiles\u0000${scope.ownerId}\u0000${scope.profileId}\u0000${query.externalId}\u0000${query.after}\u0000${query.limit}`;
  return await cachedRead(key, async () => toPage(await queryProfiles(db, scope, query), query.limit, renderProfile));
}

async function queryProfiles(
  db: Db,
  scope: Scope,
  query: { externalId?: string | undefined; limit: number; after?: string | undefined },
): Promise<Profile[]> {
  return await db
    .select()
    .from(profiles)
    .where(
      and(
        live(scope.ownerId),
        scope.profileId === null ? undefined : eq(profiles.id, scope.profileId),
        query.externalId === undefined ? undefined : eq(profiles.externalId, query.externalId),
        query.after === undefined ? undefined : gt(profiles.id, query.after),
      ),
    )
    // Ids sort by creation time and the default profile is created with the owner, so it
    // comes first.
    .orderBy(asc(profiles.id))
    .limit(query.limit + 1);
}

export async function createDefaultProfile(tx: Tx, ownerId: string): Promise<Profile> {
  const at = now();
  const [row] = await tx
    .insert(profiles)
    .values({
      id: newId('profile'),
      ownerId,
      name: DEFAULT_PROFILE_NAME,
      isDefault: true,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * Creates a profile. With an `external_id` that a live profile already has, returns that
 * profile instead (`created: false`), also when identical requests race: the unique index
 * makes the loser's insert do nothing, and it then reads the winner's row.
 */
export async function createProfile(
  db: Db,
  scope: Scope,
  input: { name: string; externalId?: string | undefined },
): Promise<{ profile: Profile; created: boolean }> {
  if (scope.profileId !== null) {
    throw new ApiError(
      400,
      'profile_header_not_allowed',
      'Creating a profile is not scoped to a profile: send this request without the Service-Profile header.',
    );
  }
  const at = now();
  const [inserted] = await db
    .insert(profiles)
    .values({
      id: newId('profile'),
      ownerId: scope.ownerId,
      name: input.name,
      externalId: input.externalId ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({
      target: [profiles.ownerId, profiles.externalId],
      where: sql`${profiles.deletedAt} is null and ${profiles.externalId} is not null`,
    })
    .returning();
  if (inserted) {
    forgetCachedReads();
    return { profile: inserted, created: true };
  }
  const existing = input.externalId === undefined ? undefined : await findProfile(db, scope.ownerId, input.externalId);
  if (!existing) throw new Error('profile insert conflicted but no live profile has the external_id');
  return { profile: existing, created: false };
}

export async function updateProfile(
  db: Db,
  scope: Scope,
  ref: string,
  patch: { name?: string | undefined; externalId?: string | null | undefined },
): Promise<Profile> {
  const current = await getProfile(db, scope, ref);
  if (patch.externalId !== undefined && patch.externalId !== null && patch.externalId !== current.externalId) {
    const holder = await findProfile(db, scope.ownerId, patch.externalId);
    if (holder && holder.id !== current.id) throw externalIdTaken(patch.externalId);
  }
  try {
    const [updated] = await db
      .update(profiles)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.externalId !== undefined ? { externalId: patch.externalId } : {}),
        updatedAt: now(),
      })
      .where(and(live(scope.ownerId), eq(profiles.id, current.id)))
      .returning();
    forgetCachedReads();
    if (!updated) throw errors.profileNotFound(ref);
    return updated;
  } catch (error) {
    // Two PATCHes racing for one external_id: the unique index lets one win.
    if (isUniqueViolation(error) && patch.externalId) throw externalIdTaken(patch.externalId);
    throw error;
  }
}

/**
 * Revokes access to a profile at once (it and its keys are gone for every caller) and
 * queues the deletion of its data; the job emits `profile.deleted` when it is done.
 */
export async function requestProfileDeletion(db: Db, scope: Scope, ref: string): Promise<Profile> {
  const profile = await getProfile(db, scope, ref);
  if (profile.isDefault) {
    throw new ApiError(409, 'default_profile', 'The default profile cannot be deleted.');
  }
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(profiles)
      .set({ deletedAt: now() })
      .where(and(live(scope.ownerId), eq(profiles.id, profile.id)))
      .returning();
    if (!row) return undefined;
    await deleteAllProfileKeys(tx, scope.ownerId, profile.id);
    // Bound endpoints go with the profile at once: nothing of it may stay visible.
    await deleteProfileEndpoints(tx, scope.ownerId, profile.id);
    await enqueue(tx, 'delete_profile', { profile_id: profile.id }, { jobKey: `delete_profile:${profile.id}` });
    return row;
  });
  forgetCachedReads();
  if (!deleted) throw errors.profileNotFound(ref);
  return deleted;
}

/**
 * The background half of a deletion: removes the profile's data and the profile, and
 * emits `profile.deleted` in the same transaction, so a retried job neither deletes
 * twice nor reports twice.
 */
export async function deleteProfileData(db: Db, profileId: string): Promise<'deleted' | 'nothing_to_do'> {
  return await db.transaction(async (tx) => {
    const [profile] = await tx
      .select()
      .from(profiles)
      .where(and(eq(profiles.id, profileId), isNotNull(profiles.deletedAt)))
      .for('update');
    if (!profile) return 'nothing_to_do';
    await tx.delete(profiles).where(eq(profiles.id, profile.id));
    await emit(tx, {
      ownerId: profile.ownerId,
      profileId: profile.id,
      type: 'profile.deleted',
      data: { profile: renderProfile(profile) },
    });
    return 'deleted';
  });
}

export type RenderedProfile = ReturnType<typeof renderProfile>;

export function renderProfile(p: Profile) {
  return {
    id: p.id,
    name: p.name,
    external_id: p.externalId,
    is_default: p.isDefault,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

function externalIdTaken(externalId: string): ApiError {
  return new ApiError(
    409,
    'external_id_taken',
    `Another profile already has the external_id ${JSON.stringify(externalId)}.`,
  );
}

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : undefined;
  return [error, cause].some((e) => typeof e === 'object' && e !== null && 'code' in e && e.code === '23505');
}
