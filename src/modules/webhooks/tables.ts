import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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

/**
 * The webhooks module's own copy of each event it delivers, written with the event's first
 * deliveries (the fan-out, in the event's transaction): what an attempt sends and the history
 * shows, so delivering never reads the events module's tables. `body` is the envelope as
 * serialised once when the event was recorded: every attempt sends exactly these bytes. A copy
 * lives as long as a delivery of it does (deleteOldDeliveries), or until its profile is deleted.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    eventId: uuid('event_id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** The event's profile (null for an owner-wide event); no reference, as events outlive their profile. */
    profileId: text('profile_id'),
    type: text('type').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  // The clean-up finds the copies past the history by it.
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
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
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.eventId, { onDelete: 'cascade' }),
    /** pending (an attempt is due at next_attempt_at), succeeded, failed (8 attempts), cancelled. */
    status: text('status').notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestampColumn('next_attempt_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_deliveries_history_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_created_idx').on(t.createdAt),
    // Deleting an event's copy (its profile's deletion, the history's end) finds its deliveries.
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

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
