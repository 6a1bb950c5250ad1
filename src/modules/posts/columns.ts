/** What other modules' tables may reference of the posts module: a post's id. */
import { text } from 'drizzle-orm/pg-core';
import { posts } from './tables.ts';

/** The post a row belongs to; deleting the post deletes the row. */
export const postIdColumn = () =>
  text('post_id')
    .notNull()
    .references(() => posts.id, { onDelete: 'cascade' });
