import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';

export const owners = pgTable('owners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  /** Connected accounts the owner's plan allows; null means unlimited. */
  accountLimit: integer('account_limit'),
  createdAt: createdAt(),
});
