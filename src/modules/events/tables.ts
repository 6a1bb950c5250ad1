import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';

/**
 * The outbox: every event the service reports, written by `emit` in the transaction of
 * the change it reports. Subscribers (webhook fan-out) act on it in that transaction.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** No reference: a profile's events outlive it (profile.deleted names a profile that is gone). */
    profileId: text('profile_id'),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    /** The envelope as delivered, written once: every attempt sends exactly these bytes. */
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('events_owner_created_idx').on(t.ownerId, t.createdAt)],
);
