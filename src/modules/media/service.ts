/**
 * Media records: the rules and the SQL. Every query carries the caller's owner, and the
 * profile when the caller is scoped to one; media of a profile being deleted are gone at once.
 */
import { and, desc, eq, lt, notInArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import {
  executeOneOf,
  oneOf,
  oneOfPlaceholders,
  preparedOutsideTransactions,
  preparedPerDb,
  textArray,
} from '../../db/prepared.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { startupRegistry } from '../../registry.ts';
import { creationProfileId, type ProfileDeletionStep, profilesBeingDeleted } from '../profiles/index.ts';
import type { IngestedFile, MediaType } from './ingest.ts';
import type { MediaStorage } from './storage.ts';
import { mediaStorage } from './stores.ts';
import { type MediaRow, media } from './tables.ts';

/** A medium as other modules see it. */
export interface MediaItem {
  id: string;
  ownerId: string;
  profileId: string;
  type: MediaType;
  mimeType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

export function toMediaItem(row: MediaRow): MediaItem {
  return {
    id: row.id,
    ownerId: row.ownerId,
    profileId: row.profileId,
    type: row.type === 'video' || row.type === 'document' ? row.type : 'image',
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
  };
}

/** Where each stored file of a medium is. */
export const storageKey = (mediaId: string, variant: 'original' | 'jpeg') => `${mediaId}/${variant}`;

const mediaNotFound = (id: string) => new ApiError(404, 'media_not_found', `No media with id ${JSON.stringify(id)}.`);

/** The caller's media: the owner's, of live profiles, and of the caller's profile when scoped. */
async function visibleTo(db: Queryable, scope: Scope) {
  return and(
    eq(media.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(media.profileId, scope.profileId),
    notInArray(media.profileId, await profilesBeingDeleted(db, scope.ownerId)),
  );
}

/**
 * Stores an ingested file as a new medium of the caller's profile (the default profile for an
 * owner key without a Service-Profile header).
 */
export async function createMedia(db: Db, storage: MediaStorage, scope: Scope, file: IngestedFile): Promise<MediaRow> {
  const profileId = await creationProfileId(db, scope);
  const id = newId('media');
  await storage.put(storageKey(id, 'original'), file.localPath, file.mimeType);
  try {
    const [row] = await db
      .insert(media)
      .values({
        id,
        ownerId: scope.ownerId,
        profileId,
        type: file.type,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
        width: file.width,
        height: file.height,
        durationSeconds: file.durationSeconds,
        createdAt: now(),
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  } catch (error) {
    await storage.delete(storageKey(id, 'original'));
    throw error;
  }
}

/** A page (`limit + 1` rows), newest first. */
export async function listMedia(
  db: Queryable,
  scope: Scope,
  query: { limit: number; after?: string | undefined },
): Promise<MediaRow[]> {
  return await db
    .select()
    .from(media)
    .where(and(await visibleTo(db, scope), query.after === undefined ? undefined : lt(media.id, query.after)))
    .orderBy(desc(media.id))
    .limit(query.limit + 1);
}

export async function getMedia(db: Queryable, scope: Scope, id: string): Promise<MediaRow> {
  const [row] = await db
    .select()
    .from(media)
    .where(and(await visibleTo(db, scope), eq(media.id, id)));
  if (!row) throw mediaNotFound(id);
  return row;
}

/** A check that may refuse deleting a medium (posts: `409 media_in_use`). */
export type MediaUseCheck = (tx: Tx, media: MediaItem) => Promise<ApiError | null>;

const useChecks = startupRegistry<MediaUseCheck>('media use checks');

export function registerMediaUseCheck(check: MediaUseCheck): void {
  useChecks.register(check);
}

/**
 * Deletes a medium and its files, unless a registered check objects (a post waiting to use it).
 * The row is locked first, so what a check looks at cannot start using it before the delete
 * commits. The files go after the commit: a failure there leaves a file no URL reaches.
 */
export async function deleteMedia(db: Db, storage: MediaStorage, scope: Scope, id: string): Promise<void> {
  const checks = useChecks.items();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(media)
      .where(and(await visibleTo(tx, scope), eq(media.id, id)))
      .for('update', { of: media });
    if (!row) throw mediaNotFound(id);
    for (const check of checks) {
      const objection = await check(tx, toMediaItem(row));
      if (objection) throw objection;
    }
    await tx.delete(media).where(and(eq(media.ownerId, scope.ownerId), eq(media.id, id)));
  });
  await deleteFiles(storage, id);
}

async function deleteFiles(storage: MediaStorage, id: string): Promise<void> {
  await storage.delete(storageKey(id, 'jpeg'));
  await storage.delete(storageKey(id, 'original'));
}

/**
 * The owner's media with these ids, in the order of `ids`, missing ones left out. Owner-scoped,
 * not profile-scoped: the posts module tells media of another profile apart itself. With
 * `lock: 'share'` (in a transaction) the rows stay as read until it ends: a deletion, which
 * locks the row FOR UPDATE before asking its use checks, waits, then sees the new user.
 */
export async function findMedia(
  db: Queryable,
  ownerId: string,
  ids: readonly string[],
  options: { lock?: 'share' } = {},
): Promise<MediaItem[]> {
  if (ids.length === 0) return [];
  const deleting = await profilesBeingDeleted(db, ownerId);
  // Every publication reads its media here: prepared, where it can be.
  const prepared = options.lock ? undefined : findMediaStatements(db);
  let rows: MediaRow[];
  if (prepared !== undefined) rows = await executeOneOf(prepared, ids, { ownerId, deleting });
  else {
    const query = mediaOf(db, ownerId, oneOf(media.id, ids), textArray(deleting));
    rows = options.lock ? await query.for(options.lock, { of: media }) : await query;
  }
  const byId = new Map(rows.map((row) => [row.id, toMediaItem(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The owner's media whose id is as `idIs` says, but none of a profile being deleted (`deleting`, a text[]). */
function mediaOf(db: Queryable, ownerId: string | Placeholder, idIs: SQL, deleting: SQL) {
  return db
    .select()
    .from(media)
    .where(and(eq(media.ownerId, ownerId), idIs, sql`${media.profileId} <> all(${deleting})`));
}

/** A post's one medium (the usual case) is read with the one-id statement, whose plan is kept (oneOf). */
const findMediaStatements = preparedOutsideTransactions((db) => {
  const ownerId = sql.placeholder('ownerId');
  const deleting = sql`${sql.placeholder('deleting')}::text[]`;
  const idIs = oneOfPlaceholders(media.id);
  return {
    one: mediaOf(db, ownerId, idIs.one, deleting).prepare('find_medium'),
    many: mediaOf(db, ownerId, idIs.many, deleting).prepare('find_media'),
  };
});

/** A medium by id alone, for serving a file whose signed URL was checked: the signature is the permission. */
export async function findMediaForServing(db: Db, id: string): Promise<MediaRow | undefined> {
  const [row] = await mediaByIdStatement(db).execute({ id });
  return row;
}

/** Prepared: every fetch of a file (each platform reading a post's media) reads its row. */
const mediaByIdStatement = preparedPerDb((db) =>
  db
    .select()
    .from(media)
    .where(eq(media.id, sql.placeholder('id')))
    .prepare('media_by_id'),
);

/** Notes that the JPEG variant of a medium is stored, with its size. */
export async function recordJpegVariant(db: Queryable, item: MediaItem, sizeBytes: number): Promise<void> {
  await db
    .update(media)
    .set({ jpegSizeBytes: sizeBytes })
    .where(and(eq(media.ownerId, item.ownerId), eq(media.id, item.id)));
}

export async function jpegVariantSize(db: Queryable, item: MediaItem): Promise<number | null> {
  const [row] = await db
    .select({ size: media.jpegSizeBytes })
    .from(media)
    .where(and(eq(media.ownerId, item.ownerId), eq(media.id, item.id)));
  if (!row) throw mediaNotFound(item.id);
  return row.size;
}

/**
 * The media module's part in deleting a profile: its media rows and files. The files go
 * first, so a step that fails half way and runs again still finds every row it must clear.
 */
export const mediaProfileDeletion: ProfileDeletionStep = {
  module: 'media',
  deleteData: async ({ db, files }, profile) => {
    const storage = mediaStorage(files);
    const where = and(eq(media.ownerId, profile.ownerId), eq(media.profileId, profile.id));
    const rows = await db.select({ id: media.id }).from(media).where(where);
    for (const { id } of rows) await deleteFiles(storage, id);
    await db.delete(media).where(where);
  },
};
