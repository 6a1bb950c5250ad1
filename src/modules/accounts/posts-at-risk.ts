/**
 * What an account's end of access puts at risk: the posts waiting to be published on it. The
 * accounts module shows it (an account's `posts_at_risk`, the `account.expired`,
 * `account.disconnected` and `account.expiring` events) but does not keep posts: the module
 * that does registers a reader at start.
 */
import type { Queryable } from '../../db/connection.ts';
import { startupRegistry } from '../../registry.ts';

/** How many posts an account's end of access puts at risk, the first due, and the first ids. */
export interface PostsAtRisk {
  /** Posts waiting to be published on the account: awaiting approval, scheduled, or being published. */
  count: number;
  /** When the first of them is due (ISO 8601 UTC); null when none waits. */
  nextScheduledAt: string | null;
  /** The first 100 of them, soonest first. */
  postIds: string[];
}

/**
 * The posts at risk of each account of `accountIds` that has any (the others are left out);
 * with `from`, only those due at or after it.
 */
export type PostsAtRiskReader = (
  db: Queryable,
  accountIds: readonly string[],
  from?: Date,
) => Promise<Map<string, PostsAtRisk>>;

const readers = startupRegistry<PostsAtRiskReader>('posts-at-risk readers');

export function registerPostsAtRiskReader(reader: PostsAtRiskReader): void {
  readers.register(reader);
}

export const NOTHING_AT_RISK: PostsAtRisk = { count: 0, nextScheduledAt: null, postIds: [] };

/** What each account's end of access puts at risk, every account of `accountIds` answered. */
export async function postsAtRisk(
  db: Queryable,
  accountIds: readonly string[],
  from?: Date,
): Promise<Map<string, PostsAtRisk>> {
  const merged = new Map<string, PostsAtRisk>(accountIds.map((id) => [id, NOTHING_AT_RISK]));
  if (accountIds.length === 0) return merged;
  for (const reader of readers.items()) {
    for (const [id, risk] of await reader(db, accountIds, from)) {
      const before = merged.get(id) ?? NOTHING_AT_RISK;
      const next = [before.nextScheduledAt, risk.nextScheduledAt].filter((at): at is string => at !== null).sort()[0];
      merged.set(id, {
        count: before.count + risk.count,
        nextScheduledAt: next ?? null,
        postIds: [...before.postIds, ...risk.postIds].slice(0, 100),
      });
    }
  }
  return merged;
}

/** The risk of one account. */
export async function postsAtRiskOf(db: Queryable, accountId: string, from?: Date): Promise<PostsAtRisk> {
  return (await postsAtRisk(db, [accountId], from)).get(accountId) ?? NOTHING_AT_RISK;
}
