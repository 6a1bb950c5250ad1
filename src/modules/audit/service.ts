import { userInfo } from 'node:os';
import { and, desc, eq, gte, lt, lte } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { deleteInBatches } from '../../db/batched-delete.ts';
import type { Db, Queryable } from '../../db/connection.ts';
import { newRequestId } from '../../http/error-handler.ts';
import type { RequestOrigin } from '../../http/request-origin.ts';
import { newId } from '../../ids.ts';
import { type AuditActorType, type AuditEntry, type AuditVia, auditEntries } from './tables.ts';

/** Who made a change: an API key or a member (through the API or a dashboard session), or a link a client was sent. */
export type AuditActor =
  | { type: 'api_key'; id: string; name: string | null }
  | { type: 'member'; id: string; name: string }
  | { type: Exclude<AuditActorType, 'api_key' | 'member'>; id: string };

/**
 * The system user running this process. A container may run it under a uid without a name
 * (userInfo() then throws): the uid stands for it.
 */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/**
 * Records a change the operator made with a command of the CLI (`switchboard keys create`): the
 * operator is named by the system user that ran it, and the entry has no address or status.
 */
export async function recordCommand(
  db: Queryable,
  change: { ownerId: string; profileId: string | null; command: string; objectId: string },
): Promise<void> {
  await recordAuditEntry(db, {
    ownerId: change.ownerId,
    profileId: change.profileId,
    actor: { type: 'operator', id: operatorName() },
    via: 'cli',
    operation: `switchboard ${change.command}`,
    objectId: change.objectId,
    status: 0,
    origin: { requestId: newRequestId(), ip: null, userAgent: null },
  });
}

export interface NewAuditEntry {
  ownerId: string;
  profileId: string | null;
  actor: AuditActor;
  via: AuditVia;
  operation: string;
  objectId: string | null;
  status: number;
  origin: RequestOrigin;
}

/** A header's text is kept up to this length: enough to tell browsers and clients apart. */
const MAX_HEADER_TEXT = 512;

/** Records one change; in the change's own transaction where the caller has one. */
export async function recordAuditEntry(db: Queryable, entry: NewAuditEntry): Promise<void> {
  await db.insert(auditEntries).values({
    id: newId('auditEntry'),
    ownerId: entry.ownerId,
    profileId: entry.profileId,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorName: 'name' in entry.actor ? entry.actor.name : null,
    via: entry.via,
    operation: entry.operation,
    objectId: entry.objectId,
    status: entry.status,
    requestId: entry.origin.requestId,
    ip: entry.origin.ip,
    userAgent: entry.origin.userAgent?.slice(0, MAX_HEADER_TEXT) ?? null,
    createdAt: now(),
  });
}

export interface AuditFilters {
  actorId?: string | undefined;
  profileId?: string | undefined;
  objectId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The owner's entries, newest first, from the one after `after` (an entry id). */
export async function listAuditEntries(
  db: Queryable,
  ownerId: string,
  filters: AuditFilters,
  page: { limit: number; after?: string | undefined },
): Promise<AuditEntry[]> {
  return await db
    .select()
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.ownerId, ownerId),
        filters.actorId === undefined ? undefined : eq(auditEntries.actorId, filters.actorId),
        filters.profileId === undefined ? undefined : eq(auditEntries.profileId, filters.profileId),
        filters.objectId === undefined ? undefined : eq(auditEntries.objectId, filters.objectId),
        filters.from === undefined ? undefined : gte(auditEntries.createdAt, filters.from),
        filters.to === undefined ? undefined : lte(auditEntries.createdAt, filters.to),
        page.after === undefined ? undefined : lt(auditEntries.id, page.after),
      ),
    )
    .orderBy(desc(auditEntries.id))
    .limit(page.limit + 1);
}

/** Entries one statement of the retention deletes at most. */
const RETENTION_BATCH = 5_000;

/** Deletes the entries older than the retention time, in batches; answers how many went. */
export async function deleteOldAuditEntries(db: Db, retentionMs: number, batch = RETENTION_BATCH): Promise<number> {
  const cutoff = new Date(now().getTime() - retentionMs);
  return await deleteInBatches(db, auditEntries, auditEntries.id, lt(auditEntries.createdAt, cutoff), batch);
}
