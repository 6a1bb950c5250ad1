import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';

export const profiles = pgTable(
  'profiles',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    name: text('name').notNull(),
    externalId: text('external_id'),
    isDefault: boolean('is_default').notNull().default(false),
    /** Every post made in the profile needs the client's approval unless it says otherwise. */
    postApprovalRequired: boolean('post_approval_required').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set when deletion is requested: from then on the profile is gone for every caller. */
    deletedAt: timestampColumn('deleted_at'),
  },
  (t) => [
    uniqueIndex('profiles_owner_external_id_key')
      .on(t.ownerId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.externalId} is not null`),
    uniqueIndex('profiles_owner_default_key').on(t.ownerId).where(sql`${t.isDefault}`),
    index('profiles_owner_id_idx').on(t.ownerId, t.id),
  ],
);
