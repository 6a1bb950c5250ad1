import { and, eq, type SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { PgColumn, WithSubqueryWithSelection } from 'drizzle-orm/pg-core';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { executeShaped, executeSqlShaped, preparedPerDb, valuesOf } from '../../db/prepared.ts';
import { effectCount, withEffects } from '../../db/with-effects.ts';
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
  'report.sent',
  'report.failed',
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

/** An event as subscribers see it: recorded by the statement their parts join, in the transaction of the change it reports. */
export interface RecordedEvent {
  id: string;
  ownerId: string;
  profileId: string | null;
  type: EventType;
  /** The envelope (id, type, created_at, profile_id, data) as JSON text, serialised once. */
  body: string;
}

/**
 * What a subscriber adds to the statement that records events: CTEs (data-modifying ones run
 * whatever reads them) and effects (SELECTs that act, run by their count: db/with-effects.ts).
 * Their names are the subscriber's own, unlike any other subscriber's. A part acts only on
 * the events in that statement's CTE `recorded_events` (their `id`s, as recorded): a statement
 * that reports a change made in it records them only when the change took effect.
 */
export interface EventStatementPart {
  /**
   * Names everything the part's text depends on, as a statement part's shape does
   * (db/prepared.ts): what changes from one statement to the next is a placeholder, named with a
   * prefix of the subscriber's own, filled from `values`.
   */
  shape: string;
  with: readonly (readonly [name: string, query: SQL])[];
  effects: readonly (readonly [name: string, query: SQL])[];
  values: Readonly<Record<string, unknown>>;
}

/**
 * What a module that must hear of every event registers at start (the webhooks module: its
 * fan-out): given every event one `emit` or `emitAll` records, in their order, its part of the
 * statement that records them, or null when it has nothing to do for them. That statement runs
 * inside the emitter's transaction, so what a part writes exists exactly when the change does,
 * and costs no round trip of its own.
 */
export type EventSubscriber = (events: readonly RecordedEvent[]) => EventStatementPart | null;

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
  const rows = eventRows(list);
  if (rows.length > 0) await tx.insert(events).values(rows);
  return rows.map(recordedOf);
}

/** The rows of these events, each with its envelope serialised once. */
function eventRows(list: readonly NewEvent[]): (typeof events.$inferInsert & { body: string })[] {
  const createdAt = now();
  return list.map((event) => {
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
}

function recordedOf(row: ReturnType<typeof eventRows>[number]): RecordedEvent {
  return {
    id: row.id,
    ownerId: row.ownerId,
    profileId: row.profileId ?? null,
    type: row.type as EventType,
    body: row.body,
  };
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

/**
 * `emit` for several events of one change: one statement records them and runs every subscriber's
 * part, built once per shape (its events' and their subscribers') and prepared by its text:
 * parsing and planning a statement of this many parts cost PostgreSQL more than the writes it
 * makes, and building it cost the process more than PostgreSQL took to run it.
 */
export async function emitAll(tx: Tx, list: readonly NewEvent[]): Promise<{ id: string }[]> {
  if (list.length === 0) return [];
  const { part, recorded } = eventsStatement(list, sql`true`);
  await executeSqlShaped(
    tx,
    `events alone: ${part.shape}`,
    () => withEffects({ ...part, select: sql`1 as recorded`, from: sql`(values (1)) as recorded` }),
    part.values,
  );
  return recorded.map(({ id }) => ({ id }));
}

/** A change whose events are recorded in its own statement (emitInChange). */
export interface ChangeWithEvents {
  /**
   * Names everything the text of the change's part depends on (db/prepared.ts): its CTEs and
   * answer, `made` and `effects` as well; the events' part adds its own shape to it.
   */
  shape: string;
  /** The change's CTEs, in order, and the one answered; built on `handle`. */
  build: (handle: Queryable) => {
    with: readonly WithSubquery[];
    answer: WithSubqueryWithSelection<Record<string, PgColumn>, string>;
  };
  /** Holds (over the change's CTEs) when the change took effect. */
  made: SQL;
  /** The change's own effects: SELECTs over its CTEs. */
  effects: readonly SQL[];
  /** The values of the change's placeholders. */
  values: Readonly<Record<string, unknown>>;
}

/**
 * Records the events of a change made in the same statement, and runs every subscriber's part
 * in it: one round trip for the change, its events and their fan-out. The change's CTEs (over
 * the caller's own tables) come first; `made` holds when the change took effect, and only then
 * are the events recorded and acted on. Answers the rows of `answer`, one of the change's CTEs,
 * once the change's `effects` and the subscribers' have run. The statement is built once per
 * shape (the change's, with its events' and their subscribers'), every value a placeholder.
 */
export async function emitInChange(db: Queryable, list: readonly NewEvent[], change: ChangeWithEvents) {
  const { part } = eventsStatement(list, change.made);
  const effects = [...change.effects, ...part.effects.map(([, query]) => query)];
  return await executeShaped(
    db,
    `${change.shape}; ${part.shape}`,
    (handle) => {
      const built = change.build(handle);
      return handle
        .with(...built.with, ...part.with.map(([name, query]) => handle.$with(name, {}).as(query)))
        .select()
        .from(built.answer)
        .where(and(...effects.map((effect) => sql`${effectCount(effect)} >= 0`)));
    },
    valuesOf({ values: change.values }, part),
  );
}

function eventsStatement(
  list: readonly NewEvent[],
  when: SQL,
): { part: EventStatementPart; recorded: RecordedEvent[] } {
  const rows = eventRows(list);
  const recorded = rows.map(recordedOf);
  if (rows.length === 0) return { part: { shape: 'no events', with: [], effects: [], values: {} }, recorded };
  // Arrays, not a row of values each: the statement's text is the same for any number of events.
  const p = (name: string) => sql.placeholder(`events_${name}`);
  const insert = sql`insert into ${events} (id, owner_id, profile_id, type, data, body, created_at)
    select e.id, e.owner_id, e.profile_id, e.type, e.data::jsonb, e.body, e.created_at
    from unnest(${p('ids')}::uuid[], ${p('owner_ids')}::text[], ${p('profile_ids')}::text[],
      ${p('types')}::text[], ${p('data')}::text[], ${p('bodies')}::text[],
      ${p('created_at')}::timestamptz[]) as e(id, owner_id, profile_id, type, data, body, created_at)
    where ${when} returning id`;
  const parts = subscribers.items().flatMap((subscriber) => subscriber(recorded) ?? []);
  return {
    part: {
      shape: ['events', ...parts.map((part) => part.shape)].join(', '),
      with: [['recorded_events', insert], ...parts.flatMap((part) => part.with)],
      effects: parts.flatMap((part) => part.effects),
      values: valuesOf(
        {
          values: {
            events_ids: rows.map((r) => r.id),
            events_owner_ids: rows.map((r) => r.ownerId),
            events_profile_ids: rows.map((r) => r.profileId ?? null),
            events_types: rows.map((r) => r.type),
            events_data: rows.map((r) => JSON.stringify(r.data)),
            events_bodies: rows.map((r) => r.body),
            events_created_at: rows.map((r) => r.createdAt.toISOString()),
          },
        },
        ...parts,
      ),
    },
    recorded,
  };
}

/** What a recorded event is to one that sends it: its type, and the envelope's bytes. */
interface EventEnvelope {
  type: EventType;
  body: string;
}

/**
 * The type and envelope of each of these events that is still recorded, by id: what the
 * webhooks module sends (an attempt, a resend) and shows (a delivery's history) reads here
 * instead of keeping a copy, in one prepared statement. One event's (a webhook job's deliveries
 * are one event's) is read by a statement of its own: given an array, PostgreSQL planned the read
 * again at every call, a one-element array's custom plan being cheaper than the generic one.
 */
export async function eventEnvelopes(db: Db, ids: readonly string[]): Promise<Map<string, EventEnvelope>> {
  const unique = [...new Set(ids)];
  const [only] = unique;
  if (only === undefined) return new Map();
  const rows =
    unique.length === 1
      ? await eventEnvelopeStatement(db).execute({ id: only })
      : await eventEnvelopesStatement(db).execute({ ids: unique });
  return new Map(rows.map((r) => [r.id, { type: r.type as EventType, body: r.body }]));
}

function envelopesWhere(db: Db, name: string, where: SQL) {
  return db.select({ id: events.id, type: events.type, body: events.body }).from(events).where(where).prepare(name);
}

const eventEnvelopeStatement = preparedPerDb((db) =>
  envelopesWhere(db, 'event_envelope', sql`${events.id} = ${sql.placeholder('id')}::uuid`),
);

const eventEnvelopesStatement = preparedPerDb((db) =>
  envelopesWhere(db, 'event_envelopes', sql`${events.id} = any(${sql.placeholder('ids')}::uuid[])`),
);

/** Deletes a profile's events (its deletion; src/modules.ts registers this as the events module's step). */
export async function deleteProfileEvents(db: Queryable, ownerId: string, profileId: string): Promise<void> {
  await db.delete(events).where(and(eq(events.ownerId, ownerId), eq(events.profileId, profileId)));
}
