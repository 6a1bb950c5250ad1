import { date, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/**
 * A link to a read-only page of one profile's report, which a client opens without an account.
 * Its period is fixed when it is made, so every opening shows the same days. Only the token's
 * hash is kept. It works until it expires or is revoked; each opening is counted.
 */
export const reportLinks = pgTable(
  'report_links',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    /** SHA-256 (hex) of the link's token. */
    tokenHash: text('token_hash').notNull().unique('report_links_token_hash_key'),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    revokedAt: timestampColumn('revoked_at'),
    opens: integer('opens').notNull().default(0),
    firstOpenedAt: timestampColumn('first_opened_at'),
    lastOpenedAt: timestampColumn('last_opened_at'),
    createdAt: createdAt(),
  },
  (t) => [index('report_links_profile_idx').on(t.ownerId, t.profileId, t.id)],
);

export type ReportLink = typeof reportLinks.$inferSelect;
