/**
 * What posts waiting to be published (awaiting approval, scheduled, or being published) mean to
 * other modules: they hold their account in its profile and their media in storage, and they
 * are what an account's end of access puts at risk (soonest first).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { AccountMoveCheck, PostsAtRisk, PostsAtRiskReader } from '../accounts/index.ts';
import type { MediaUseCheck } from '../media/index.ts';
import { isWaitingTarget, posts, postTargets } from './tables.ts';

/**
 * True when the account has a post target waiting to be published (awaiting approval,
 * scheduled, or being published right now). Call it in the transaction that acts on the answer, after locking
 * the account row FOR UPDATE: creating or retrying a post locks its accounts FOR SHARE,
 * which conflicts with that lock, so no target can start waiting until the transaction
 * commits.
 */
async function accountHasWaitingPosts(tx: Queryable, accountId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(and(eq(postTargets.accountId, accountId), isWaitingTarget(postTargets.status)))
    .limit(1);
  return row !== undefined;
}

/** An account with posts waiting to be published stays in its profile until they are done. */
export const waitingPostsHoldAccount: AccountMoveCheck = async (tx, account) =>
  (await accountHasWaitingPosts(tx, account.id))
    ? new ApiError(
        409,
        'account_has_scheduled_posts',
        'The account has posts waiting to be published; wait until they are published or delete them, then move it.',
      )
    : null;

/**
 * A medium a post waiting to be published (or a draft) uses, as its own or in its options (see
 * optionMediaRefs), stays until that post is done or changed.
 */
export const waitingPostsHoldMedia: MediaUseCheck = async (tx, media) => {
  const [row] = await tx
    .select({ id: posts.id })
    .from(posts)
    .where(
      and(
        eq(posts.ownerId, media.ownerId),
        // The post's own media, or a `media_ids` list within its options (an X thread's later posts).
        sql`(${media.id} = any(${posts.mediaIds}) or jsonb_path_exists(${posts.platformOptions}, 'strict $.**.media_ids[*] ? (@ == $id)', jsonb_build_object('id', ${media.id}::text)))`,
        inArray(posts.status, ['draft', 'awaiting_approval', 'scheduled', 'publishing']),
      ),
    )
    .limit(1);
  return row
    ? new ApiError(
        409,
        'media_in_use',
        `Post ${row.id} (a draft or waiting to be published) uses this medium; delete or change that post first.`,
        { post_id: row.id },
      )
    : null;
};

export const waitingPostsAtRisk: PostsAtRiskReader = async (db, accountIds, from) => {
  const rows = await db
    .select({
      accountId: postTargets.accountId,
      count: sql<number>`count(*)::int`,
      next: sql<string | null>`to_char(min(${posts.scheduledAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      postIds: sql<string[]>`(array_agg(${posts.id} order by ${posts.scheduledAt}, ${posts.id}))[1:100]`,
    })
    .from(postTargets)
    .innerJoin(posts, sql`${posts.id} = ${postTargets.postId}`)
    .where(
      and(
        inArray(postTargets.accountId, [...accountIds]),
        isWaitingTarget(postTargets.status),
        from === undefined ? undefined : sql`${posts.scheduledAt} >= ${from.toISOString()}::timestamptz`,
      ),
    )
    .groupBy(postTargets.accountId);
  return new Map<string, PostsAtRisk>(
    rows.map((r) => [r.accountId, { count: r.count, nextScheduledAt: r.next, postIds: r.postIds }]),
  );
};
