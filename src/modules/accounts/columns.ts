/** What other modules' tables may reference of the accounts module: an account's id. */
import { text } from 'drizzle-orm/pg-core';
import { accounts } from './tables.ts';

/**
 * The account a row is about. Deleting the account (with its profile) deletes the row: a post
 * of another profile keeps its own record, but its entry for an account that no longer exists
 * goes with that account.
 */
export const accountIdColumn = () =>
  text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });

/**
 * The account a row is about, when it is about one (a reconnect link). Deleting the account
 * deletes the row: a link to reconnect an account that no longer exists has nothing left to do.
 */
export const optionalAccountIdColumn = () => text('account_id').references(() => accounts.id, { onDelete: 'cascade' });
