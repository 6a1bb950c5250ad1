import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { optionalProfileIdColumn } from '../profiles/columns.ts';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    /** Null for an owner key. */
    profileId: optionalProfileIdColumn(),
    name: text('name'),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters of the key, shown in lists so a user can tell keys apart. */
    keyStart: text('key_start').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_profile_id_idx').on(t.ownerId, t.profileId, t.id)],
);

/**
 * Dashboard sessions: an API key exchanged for a cookie. A session acts as its key, so
 * deleting the key (or its profile's keys) ends its sessions.
 */
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    id: text('id').primaryKey(),
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie's token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    /** Last request, written at most once a minute; the idle limit counts from it. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The absolute limit: the session ends then however busy it is. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('dashboard_sessions_key_id_idx').on(t.keyId),
    index('dashboard_sessions_expires_at_idx').on(t.expiresAt),
  ],
);
