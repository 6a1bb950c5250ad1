import { sql } from 'drizzle-orm';
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns.ts';
import { accountIdColumn } from '../accounts/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/**
 * Posts and their targets (one per account). Only what moving an account needs to know
 * exists so far: whether the account has targets waiting to be published. The posts
 * issue adds the rest.
 */
export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('posts_profile_idx').on(t.ownerId, t.profileId, t.id)],
);

export const postTargets = pgTable(
  'post_targets',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: accountIdColumn(),
    /** scheduled and publishing are waiting; published and failed are done. */
    status: text('status').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('post_targets_waiting_idx').on(t.accountId).where(sql`${t.status} in ('scheduled', 'publishing')`)],
);
