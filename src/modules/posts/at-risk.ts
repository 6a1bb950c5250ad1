/**
 * The posts module's answer to what an account's end of access puts at risk: the posts with a
 * target on the account that is still to be published (awaiting approval, scheduled, or being
 * published), soonest first.
 */
import { and, inArray, sql } from 'drizzle-orm';
import type { PostsAtRisk, PostsAtRiskReader } from '../accounts/index.ts';
import { isWaitingTarget, posts, postTargets } from './tables.ts';

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
