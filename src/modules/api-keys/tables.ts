import { index, pgTable, text } from 'drizzle-orm/pg-core';
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
