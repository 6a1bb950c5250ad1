import { and, asc, eq, gt, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { type Page, toPage } from '../../http/pagination.ts';
import { cachedRead, forgetCachedReads } from '../../http/read-cache.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { emit } from '../events/index.ts';
import { deletionSteps, type ProfileDeletionContext } from './deletion.ts';
import { type Profile, type ProfileJson, renderProfile } from './json.ts';
import { profiles } from './tables.ts';

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
 * The profile new data of a request goes into (spec, Profile): the caller's profile when the
 * request is scoped to one, else the owner's default profile, which every owner has.
 */
export async function creationProfileId(db: Queryable, scope: Scope): Promise<string> {
  if (scope.profileId !== null) return scope.profileId;
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(live(scope.ownerId), eq(profiles.isDefault, true)))
    .limit(1);
  if (!row) throw new Error(`owner ${scope.ownerId} has no default profile`);
  return row.id;
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
 * The ids of the profiles whose deletion was asked for and is not finished, of one owner (or
 * of every owner, for background work over all of them): they are gone for every caller, but
 * their rows in other modules stay until the deletion job reaches them, so a module leaves
 * those rows out of what it shows or works on. Few at any time; cached like profile lists.
 */
export async function profilesBeingDeleted(db: Queryable, ownerId?: string): Promise<string[]> {
  return await cachedRead(`profiles being deleted\u0000${ownerId ?? ''}`, async () => {
    const rows = await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(ownerId === undefined ? undefined : eq(profiles.ownerId, ownerId), isNotNull(profiles.deletedAt)));
    return rows.map((r) => r.id);
  });
}

/** What a page of profiles is asked by. */
interface ProfilesQuery {
  externalId?: string | undefined;
  limit: number;
  after?: string | undefined;
}

/** A page of the caller's profiles, by id, as the API shows it. */
export async function listProfiles(db: Db, scope: Scope, query: ProfilesQuery): Promise<Page<ProfileJson>> {
  return toPage(await queryProfiles(db, scope, query), query.limit, renderProfile);
}

/**
 * All a page of listProfiles depends on, as a read cache key: the list's answer is kept, as lists
 * are read far more often than profiles change.
 */
export function profilesPageKey(scope: Scope, query: ProfilesQuery): string {
  // JSON, so that no value can be mistaken for another or for none (an external_id "undefined").
  return JSON.stringify([
    'profiles',
    scope.ownerId,
    scope.profileId,
    scope.visibleProfileIds ?? null,
    query.externalId ?? null,
    query.after ?? null,
    query.limit,
  ]);
}

/** The profiles a caller with no profile of its own sees: all, or a member's own. */
function visibleOnly(ids: readonly string[] | null): SQL | undefined {
  if (ids === null) return undefined;
  return ids.length === 0 ? sql`false` : inArray(profiles.id, [...ids]);
}

async function queryProfiles(db: Db, scope: Scope, query: ProfilesQuery): Promise<Profile[]> {
  return await db
    .select()
    .from(profiles)
    .where(
      and(
        live(scope.ownerId),
        scope.profileId === null ? visibleOnly(scope.visibleProfileIds) : eq(profiles.id, scope.profileId),
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
  input: { name: string; externalId?: string | undefined; postApprovalRequired?: boolean | undefined },
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
      postApprovalRequired: input.postApprovalRequired ?? false,
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
  patch: {
    name?: string | undefined;
    externalId?: string | null | undefined;
    postApprovalRequired?: boolean | undefined;
  },
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
        ...(patch.postApprovalRequired !== undefined ? { postApprovalRequired: patch.postApprovalRequired } : {}),
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
 * Revokes access to a profile at once (it, its keys and its bound endpoints are gone for every
 * caller: each module's revokeAccess step runs in this transaction) and queues the deletion
 * of its data; the job emits `profile.deleted` when it is done.
 */
export async function requestProfileDeletion(db: Db, scope: Scope, ref: string): Promise<Profile> {
  const profile = await getProfile(db, scope, ref);
  if (profile.isDefault) {
    throw new ApiError(409, 'default_profile', 'The default profile cannot be deleted.');
  }
  const steps = deletionSteps();
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(profiles)
      .set({ deletedAt: now() })
      .where(and(live(scope.ownerId), eq(profiles.id, profile.id)))
      .returning();
    if (!row) return undefined;
    for (const step of steps) await step.revokeAccess?.(tx, row);
    await enqueue(tx, 'delete_profile', { profile_id: profile.id }, { jobKey: `delete_profile:${profile.id}` });
    return row;
  });
  forgetCachedReads();
  if (!deleted) throw errors.profileNotFound(ref);
  return deleted;
}

/**
 * The background half of a deletion: each module's deleteData step in turn (a step that fails
 * fails the job, which runs again later from the first step; each step is safe to repeat), then
 * the profile row itself, with `profile.deleted` emitted in that transaction, so a retried job
 * neither deletes twice nor reports twice. The profile's rows in other modules reference it
 * without cascading, so a module that left data behind makes this fail instead of losing it
 * unheard.
 */
export async function completeProfileDeletion(
  context: ProfileDeletionContext,
  profileId: string,
): Promise<'deleted' | 'nothing_to_do'> {
  const { db, log } = context;
  const [profile] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), isNotNull(profiles.deletedAt)));
  if (!profile) return 'nothing_to_do';
  const fields = { component: 'profile-deletion', profile_id: profile.id, owner_id: profile.ownerId };
  for (const step of deletionSteps()) {
    if (!step.deleteData) continue;
    try {
      await step.deleteData(context, profile);
    } catch (error) {
      log.warn(
        { ...fields, module: step.module, err: error },
        `deleting the profile's ${step.module} data failed; the deletion job will run again`,
      );
      throw error;
    }
    log.info({ ...fields, module: step.module }, `deleted the profile's ${step.module} data`);
  }
  return await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(profiles)
      .where(and(eq(profiles.id, profile.id), isNotNull(profiles.deletedAt)))
      .for('update');
    if (!locked) return 'nothing_to_do';
    await tx.delete(profiles).where(eq(profiles.id, locked.id));
    await emit(tx, {
      ownerId: locked.ownerId,
      profileId: locked.id,
      type: 'profile.deleted',
      data: { profile: renderProfile(locked) },
    });
    log.info(fields, 'profile deleted');
    return 'deleted';
  });
}

function externalIdTaken(externalId: string): ApiError {
  return new ApiError(
    409,
    'external_id_taken',
    `Another profile already has the external_id ${JSON.stringify(externalId)}.`,
  );
}
