import { and, eq, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { newUuid } from '../../ids.ts';
import { startupRegistry } from '../../registry.ts';
import { events } from './tables.ts';

/** Every event type the service emits. */
export const EVENT_TYPES = [
  'account.connected',
  'account.expired',
  'account.disconnected',
  'account.expiring',
  'post.published',
  'post.failed',
  'post.approved',
  'post.changes_requested',
  'comment.created',
  'profile.deleted',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  ownerId: string;
  /** The profile the event belongs to (the envelope's `profile_id`). */
  profileId: string | null;
  type: EventType;
  data: Record<string, unknown>;
}

/** An event as subscribers see it: recorded, in the transaction of the change it reports. */
export interface RecordedEvent {
  id: string;
  ownerId: string;
  profileId: string | null;
  type: EventType;
  /** The envelope (id, type, created_at, profile_id, data) as JSON text, serialised once. */
  body: string;
}

/**
 * What a module that must hear of every event registers at start (the webhooks module: its
 * fan-out). It runs inside the emitter's transaction, so what it writes exists exactly when
 * the change does; it is given every event one `emit` or `emitAll` records, in their order.
 */
export type EventSubscriber = (tx: Tx, events: readonly RecordedEvent[]) => Promise<void>;

const subscribers = startupRegistry<EventSubscriber>('event subscribers');

/** Registers a subscriber, while the process starts (src/modules.ts). */
export function subscribe(run: EventSubscriber): void {
  subscribers.register(run);
}

/**
 * Records an event and hands it to no one (`webhook.test` is delivered to one endpoint only,
 * by its sender). The envelope is serialised once here: every delivery attempt sends exactly
 * these bytes.
 */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(tx, [event]);
  if (!recorded) throw new Error('no event recorded');
  return recorded;
}

async function recordEvents(tx: Tx, list: readonly NewEvent[]): Promise<RecordedEvent[]> {
  const createdAt = now();
  const rows = list.map((event) => {
    const id = newUuid();
    const body = JSON.stringify({
      id,
      type: event.type,
      created_at: createdAt.toISOString(),
      profile_id: event.profileId,
      data: event.data,
    });
    return {
      id,
      ownerId: event.ownerId,
      profileId: event.profileId,
      type: event.type,
      data: event.data,
      body,
      createdAt,
    };
  });
  if (rows.length > 0) await tx.insert(events).values(rows);
  return rows.map(({ id, ownerId, profileId, type, body }) => ({ id, ownerId, profileId, type, body }));
}

/**
 * Records an event in the transaction of the change it reports and runs every subscriber in
 * it (the outbox pattern): the event and what subscribers make of it exist exactly when the
 * change does.
 */
export async function emit(tx: Tx, event: NewEvent): Promise<{ id: string }> {
  const [emitted] = await emitAll(tx, [event]);
  if (!emitted) throw new Error('no event emitted');
  return emitted;
}

/** `emit` for several events of one change, in one statement each for recording them and for each subscriber. */
export async function emitAll(tx: Tx, list: readonly NewEvent[]): Promise<{ id: string }[]> {
  if (list.length === 0) return [];
  const run = subscribers.items();
  const recorded = await recordEvents(tx, list);
  for (const subscriber of run) await subscriber(tx, recorded);
  return recorded.map(({ id }) => ({ id }));
}

/** What a recorded event is to one that sends it: its type, and the envelope's bytes. */
interface EventEnvelope {
  type: EventType;
  body: string;
}

/**
 * The type and envelope of each of these events that is still recorded, by id: what the
 * webhooks module sends (an attempt, a resend) and shows (a delivery's history) reads here
 * instead of keeping a copy, one prepared statement for however many ids.
 */
export async function eventEnvelopes(db: Db, ids: readonly string[]): Promise<Map<string, EventEnvelope>> {
  if (ids.length === 0) return new Map();
  const rows = await eventEnvelopesStatement(db).execute({ ids: [...new Set(ids)] });
  return new Map(rows.map((r) => [r.id, { type: r.type as EventType, body: r.body }]));
}

const eventEnvelopesStatement = preparedPerDb((db) =>
  db
    .select({ id: events.id, type: events.type, body: events.body })
    .from(events)
    .where(sql`${events.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('event_envelopes'),
);

/** Deletes a profile's events (its deletion; src/modules.ts registers this as the events module's step). */
export async function deleteProfileEvents(db: Queryable, ownerId: string, profileId: string): Promise<void> {
  await db.delete(events).where(and(eq(events.ownerId, ownerId), eq(events.profileId, profileId)));
}
