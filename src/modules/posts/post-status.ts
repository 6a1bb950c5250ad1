/**
 * A post's lock and its status. The status is computed from its targets' statuses and stored
 * in one statement, under the post's lock: every transaction that changes a post's targets
 * (their status, or which targets it has) takes that lock first, jobs and API alike, so the
 * statuses it is computed from stay so until the commit, and the stored status is exact.
 * Lock order, everywhere a post's targets change: the post's row, then target rows, so
 * concurrent jobs and requests of one post never deadlock.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { now } from '../../clock.ts';
import type { Tx } from '../../db/connection.ts';
import { type Post, type PostStatus, posts, postTargets } from './tables.ts';

/**
 * A post's status from its targets' (`status` names the targets' status column in the rows it
 * is aggregated over), as docs/posts.md states it: no targets or any `draft`: draft; all
 * cancelled: cancelled; any publishing, or scheduled beside published or failed ones: publishing; any
 * scheduled: scheduled; none failed: published; failed beside published: partially_published;
 * else failed. In SQL, so that storing it is one statement (refreshPostStatus).
 */
export function postStatusSql(status: SQL | PgColumn): SQL<PostStatus> {
  return sql<PostStatus>`case
    when count(*) = 0 or bool_or(${status} = 'draft') then 'draft'
    when bool_or(${status} = 'awaiting_approval') then 'awaiting_approval'
    when bool_and(${status} = 'cancelled') then 'cancelled'
    when bool_or(${status} = 'publishing') then 'publishing'
    when bool_or(${status} = 'scheduled') then
      case when bool_or(${status} in ('published', 'failed')) then 'publishing' else 'scheduled' end
    when not bool_or(${status} = 'failed') then 'published'
    when bool_or(${status} = 'published') then 'partially_published'
    else 'failed' end`;
}

/**
 * Locks a post's row: the first lock of every transaction that changes the post's targets
 * (jobs and API alike), so two of them never wait on each other's targets.
 */
export async function lockPost(tx: Tx, postId: string): Promise<void> {
  await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update');
}

/**
 * Recomputes and stores a post's status from its targets (call after changing any, under the
 * post's lock: every change of a target's status takes it, so the statuses read here stay so
 * until the commit).
 */
export async function refreshPostStatus(tx: Tx, postId: string): Promise<Post> {
  const [post] = await tx
    .update(posts)
    .set({
      status: sql`(select ${postStatusSql(postTargets.status)} from ${postTargets} where ${postTargets.postId} = ${postId})`,
      updatedAt: now(),
    })
    .where(eq(posts.id, postId))
    .returning();
  if (!post) throw new Error(`post ${postId} vanished while its status was refreshed`);
  return post;
}
