/**
 * What other modules' tables may reference of the media module: a medium's id. Deleting a
 * medium is refused while a registered use check objects (posts waiting to use it), and a
 * reference left behind makes the delete fail loudly rather than leave a dangling id.
 */
import { text } from 'drizzle-orm/pg-core';
import { media } from './tables.ts';

/** A medium a row uses. */
export const mediaIdColumn = () =>
  text('media_id')
    .notNull()
    .references(() => media.id);
