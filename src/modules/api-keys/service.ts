import { and, asc, eq, gt } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable } from '../../db/connection.ts';
import { forgetIdempotentAnswers } from '../../http/idempotency.ts';
import { forgetCachedReads } from '../../http/read-cache.ts';
import { newId } from '../../ids.ts';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { generateKey, type KeyKind } from './key-material.ts';
import { apiKeys } from './tables.ts';

export interface ApiKeyRecord {
  id: string;
  ownerId: string;
  profileId: string | null;
  name: string | null;
  keyStart: string;
  createdAt: Date;
}

export interface KeyPrincipal {
  keyId: string;
  keyName: string | null;
  ownerId: string;
  /** The profile a profile key is locked to; null for an owner key. */
  profileId: string | null;
}

const recordColumns = {
  id: apiKeys.id,
  ownerId: apiKeys.ownerId,
  profileId: apiKeys.profileId,
  name: apiKeys.name,
  keyStart: apiKeys.keyStart,
  createdAt: apiKeys.createdAt,
};

/** Creates a key; the returned `key` is the only time it exists in clear. */
export async function createKey(
  db: Queryable,
  input: { ownerId: string; profileId: string | null; name?: string | null },
): Promise<ApiKeyRecord & { key: string; kind: KeyKind }> {
  const kind: KeyKind = input.profileId === null ? 'owner' : 'profile';
  const material = generateKey(kind);
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      ownerId: input.ownerId,
      profileId: input.profileId,
      name: input.name ?? null,
      keyHash: material.hash,
      keyStart: material.start,
      createdAt: now(),
    })
    .returning(recordColumns);
  if (!row) throw new Error('insert returned no row');
  return { ...row, key: material.key, kind };
}

/** The key whose SHA-256 is `keyHash` (sha256Hex). */
export async function findPrincipal(db: Queryable, keyHash: string): Promise<KeyPrincipal | undefined> {
  const [row] = await db
    .select({ keyId: apiKeys.id, keyName: apiKeys.name, ownerId: apiKeys.ownerId, profileId: apiKeys.profileId })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row;
}

/** Every key of an owner, owner keys and profile keys, oldest first (for the CLI). */
export async function listOwnerKeys(db: Queryable, ownerId: string): Promise<ApiKeyRecord[]> {
  return await db.select(recordColumns).from(apiKeys).where(eq(apiKeys.ownerId, ownerId)).orderBy(asc(apiKeys.id));
}

export async function listProfileKeys(
  db: Queryable,
  ownerId: string,
  profileId: string,
  page: { limit: number; after?: string | undefined },
): Promise<ApiKeyRecord[]> {
  return await db
    .select(recordColumns)
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.ownerId, ownerId),
        eq(apiKeys.profileId, profileId),
        page.after === undefined ? undefined : gt(apiKeys.id, page.after),
      ),
    )
    .orderBy(asc(apiKeys.id))
    .limit(page.limit + 1);
}

/**
 * Deletes one of an owner's keys (only a key of `profileId`, when given); answers the deleted
 * key's profile (null for an owner key), or undefined when there was no such key. The key
 * stops working at once, in every process.
 */
export async function deleteKey(
  db: Db,
  target: { ownerId: string; keyId: string; profileId?: string | undefined },
): Promise<{ profileId: string | null } | undefined> {
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(apiKeys)
      .where(
        and(
          eq(apiKeys.id, target.keyId),
          eq(apiKeys.ownerId, target.ownerId),
          target.profileId === undefined ? undefined : eq(apiKeys.profileId, target.profileId),
        ),
      )
      .returning({ id: apiKeys.id, profileId: apiKeys.profileId });
    await forgetIdempotentAnswers(
      tx,
      rows.map((r) => r.id),
    );
    return rows[0];
  });
  if (deleted === undefined) return undefined;
  forgetCachedReads();
  return { profileId: deleted.profileId };
}

/**
 * The api-keys module's part in deleting a profile: its keys stop working in the request's
 * transaction (the profiles module forgets cached reads after its commit), with the answers
 * kept for their Idempotency-Keys.
 */
export const apiKeysProfileDeletion: ProfileDeletionStep = {
  module: 'api-keys',
  revokeAccess: async (tx, profile) => {
    const rows = await tx
      .delete(apiKeys)
      .where(and(eq(apiKeys.ownerId, profile.ownerId), eq(apiKeys.profileId, profile.id)))
      .returning({ id: apiKeys.id });
    await forgetIdempotentAnswers(
      tx,
      rows.map((r) => r.id),
    );
  },
};
