import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { optionalProfileIdColumn } from '../profiles/columns.ts';

/** Where an owner wants events delivered. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** Bound: only this profile's events. Null: every profile's. */
    profileId: optionalProfileIdColumn(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    active: boolean('active').notNull().default(true),
    /** The signing secret, encrypted under SECRET_KEY. */
    secretSealed: text('secret_sealed').notNull(),
    /** After a rotation, the old secret keeps signing too until `previousSecretExpiresAt`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestampColumn('previous_secret_expires_at'),
    /** Failed attempts in a row, across deliveries; 50 make the endpoint inactive. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** Why the service made the endpoint inactive (null when the owner did, or when active). */
    disabledReason: text('disabled_reason'),
    /** When the service made the endpoint inactive (null when the owner did, or when active). */
    disabledAt: timestampColumn('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_owner_idx').on(t.ownerId, t.id)],
);

/** One sending of one event to one endpoint, with its retries. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    ownerId: ownerIdColumn(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /**
     * The event it sends, read from the events module when attempted or shown (eventEnvelopes).
     * No reference: a reference would make every deleted event look for its deliveries, and a
     * profile's deliveries go in this module's deletion step, before its events (src/modules.ts).
     */
    eventId: uuid('event_id').notNull(),
    /** The event's profile (null for an owner-wide event): a profile's deletion finds its deliveries by it. */
    eventProfileId: text('event_profile_id'),
    /** pending (an attempt is due at next_attempt_at), succeeded, failed (8 attempts), cancelled. */
    status: text('status').notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestampColumn('next_attempt_at'),
    /**
     * Its first attempt, written by the update that records it: a delivery that succeeds at
     * once is one row. Retries are rows of `webhook_attempts`, so recording one never rewrites
     * what is stored already (up to 20 KB of answer an attempt). Empty for a delivery not yet
     * attempted, and for one a release before this column attempted first (its first attempt is
     * a row too).
     */
    attempts: jsonb('attempts').$type<StoredAttempt[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The history's index serves the list, an endpoint's deletion and the 30 days' clean-up
  // (deleteOldDeliveries): a delivery writes no index entry beyond it and its key.
  (t) => [index('webhook_deliveries_history_idx').on(t.endpointId, t.createdAt, t.id)],
);

/** One attempt of a delivery, as its `attempts` keeps it. */
export interface StoredAttempt {
  /** An ISO 8601 time, in UTC. */
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  /** Why there was no usable answer (timeout, refused address, ...); null when one came. */
  error: string | null;
  /** At most 20 KB of the answer. */
  response_body: string | null;
  succeeded: boolean;
}

/**
 * A delivery's attempts, oldest first: those its row keeps (its first) and its rows of
 * `webhook_attempts` (its retries; every attempt, for a delivery a release before
 * `webhook_deliveries.attempts` attempted first), in the shape the row keeps.
 */
export function attemptsInOrder(
  inRow: readonly StoredAttempt[],
  rows: readonly (typeof webhookAttempts.$inferSelect)[],
): StoredAttempt[] {
  return [...inRow, ...rows.map(storedAttempt)].sort((a, b) => Date.parse(a.attempted_at) - Date.parse(b.attempted_at));
}

/** An attempt kept as a row of `webhook_attempts`, in the shape a delivery's `attempts` keeps. */
function storedAttempt(row: typeof webhookAttempts.$inferSelect): StoredAttempt {
  return {
    attempted_at: row.attemptedAt.toISOString(),
    duration_ms: row.durationMs,
    status_code: row.statusCode,
    error: row.error,
    response_body: row.responseBody,
    succeeded: row.succeeded,
  };
}

/** A delivery's attempts after its first (every attempt, for deliveries releases before `webhook_deliveries.attempts` attempted first). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestampColumn('attempted_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    /** Why there was no usable answer (timeout, refused address, ...); null when one came. */
    error: text('error'),
    /** At most 20 KB of the answer. */
    responseBody: text('response_body'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);
