/** What other modules' tables may reference of the owners module: its rows' ids. */
import { text } from 'drizzle-orm/pg-core';
import { owners } from './tables.ts';

/** The owner a row belongs to; deleting the owner deletes it. */
export const ownerIdColumn = () =>
  text('owner_id')
    .notNull()
    .references(() => owners.id, { onDelete: 'cascade' });
