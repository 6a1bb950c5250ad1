import { asc, eq, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { newId } from '../../ids.ts';
import { createKey } from '../api-keys/index.ts';
import { createDefaultProfile } from '../profiles/index.ts';
import { owners } from './tables.ts';

export type Owner = typeof owners.$inferSelect;

export interface NewOwner {
  name: string;
  email: string;
  /** Connected accounts allowed; undefined or null: unlimited. */
  accountLimit?: number | null | undefined;
}

export interface CreatedOwner {
  ownerId: string;
  defaultProfileId: string;
  /** The owner key in clear: shown once, stored only as a hash. */
  apiKey: string;
}

/** Creates an owner with its default profile and first owner key, in the caller's transaction. */
export async function insertOwner(tx: Tx, input: NewOwner): Promise<CreatedOwner> {
  const id = newId('owner');
  await tx.insert(owners).values({
    id,
    name: input.name,
    email: input.email,
    accountLimit: input.accountLimit ?? null,
    createdAt: now(),
  });
  const profile = await createDefaultProfile(tx, id);
  const key = await createKey(tx, { ownerId: id, profileId: null, name: 'created with the owner' });
  return { ownerId: id, defaultProfileId: profile.id, apiKey: key.key };
}

/** Creates an owner with its default profile and first owner key. */
export async function createOwner(db: Db, input: NewOwner): Promise<CreatedOwner> {
  return await db.transaction((tx) => insertOwner(tx, input));
}

/**
 * On the first start with an empty database, creates an owner so the new user has a key
 * to try the API with. Processes starting together agree through an advisory lock: only
 * one creates it. Returns undefined when an owner already existed.
 */
export async function createFirstOwnerIfNone(db: Db, input: NewOwner): Promise<CreatedOwner | undefined> {
  return await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7413902215)`);
    const existing = await tx.select({ id: owners.id }).from(owners).limit(1);
    if (existing.length > 0) return undefined;
    return await insertOwner(tx, input);
  });
}

export async function ownerExists(db: Db, ownerId: string): Promise<boolean> {
  const rows = await db.select({ id: owners.id }).from(owners).where(sql`${owners.id} = ${ownerId}`).limit(1);
  return rows.length > 0;
}

/** Every owner, oldest first (for the operator's CLI; the API has no owner listing). */
export async function listOwners(db: Db): Promise<Owner[]> {
  return await db.select().from(owners).orderBy(asc(owners.id));
}

export async function getOwner(db: Db, ownerId: string): Promise<Owner | undefined> {
  const [owner] = await db.select().from(owners).where(eq(owners.id, ownerId));
  return owner;
}

/**
 * Locks the owner's row until the transaction ends and answers it: what changes the
 * owner's totals (connected accounts against the plan's limit) takes turns through it.
 */
export async function lockOwner(tx: Tx, ownerId: string): Promise<Owner | undefined> {
  const [owner] = await tx.select().from(owners).where(eq(owners.id, ownerId)).for('update');
  return owner;
}
