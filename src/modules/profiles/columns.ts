/**
 * What other modules' tables may reference of the profiles module: its rows' ids. Deleting a
 * profile row does not cascade: each module deletes its own data of the profile through its
 * registered deletion step (see deletion.ts), and a row left behind makes the deletion fail
 * loudly instead of vanishing unheard.
 */
import { text } from 'drizzle-orm/pg-core';
import { profiles } from './tables.ts';

/** The profile a row belongs to. */
export const profileIdColumn = () =>
  text('profile_id')
    .notNull()
    .references(() => profiles.id);

/** The profile a row is bound to, if any (a profile key, a bound webhook endpoint). */
export const optionalProfileIdColumn = () => text('profile_id').references(() => profiles.id);
