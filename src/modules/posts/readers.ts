/** What other modules read of posts: the published copies of an account's posts, the posts of a profile. */
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/connection.ts';
import { type PostSource, posts, postTargets } from './tables.ts';

/** A post's published copy on one account: what its figures are read by. */
export interface PublishedTarget {
  postId: string;
  accountId: string;
  platformPostId: string;
  publishedAt: Date | null;
}

/**
 * Every post published on the account (through the API or seen on the platform), newest
 * first: both kinds carry a `published` target with the platform's id.
 */
export async function publishedTargetsOf(db: Queryable, accountId: string): Promise<PublishedTarget[]> {
  const rows = await db
    .select({
      postId: postTargets.postId,
      accountId: postTargets.accountId,
      platformPostId: postTargets.platformPostId,
      publishedAt: postTargets.publishedAt,
    })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.accountId, accountId),
        eq(postTargets.status, 'published'),
        sql`${postTargets.platformPostId} is not null`,
      ),
    )
    .orderBy(sql`${postTargets.publishedAt} desc nulls last`, desc(postTargets.postId));
  return rows.map((r) => ({ ...r, platformPostId: r.platformPostId as string }));
}

/** The ids of a profile's posts: for a module's profile deletion step. */
export async function postIdsOfProfile(db: Queryable, profile: { ownerId: string; id: string }): Promise<string[]> {
  const rows = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.ownerId, profile.ownerId), eq(posts.profileId, profile.id)));
  return rows.map((r) => r.id);
}

/** A profile's post published on one of its accounts: what a report counts and ranks. */
export interface PublishedCopy {
  postId: string;
  accountId: string;
  source: PostSource;
  text: string | null;
  permalink: string | null;
  publishedAt: Date;
}

/**
 * The profile's posts published on these accounts from `from` (included) to `to` (excluded),
 * oldest first: API posts, and platform posts the service has seen (a comment's post).
 */
export async function publishedCopiesOf(
  db: Queryable,
  profile: { ownerId: string; id: string },
  accountIds: readonly string[],
  period: { from: Date; to: Date },
): Promise<PublishedCopy[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .select({
      postId: postTargets.postId,
      accountId: postTargets.accountId,
      source: posts.source,
      text: posts.text,
      permalink: postTargets.permalink,
      publishedAt: postTargets.publishedAt,
    })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(
      and(
        eq(posts.ownerId, profile.ownerId),
        eq(posts.profileId, profile.id),
        inArray(postTargets.accountId, [...accountIds]),
        eq(postTargets.status, 'published'),
        gte(postTargets.publishedAt, period.from),
        lt(postTargets.publishedAt, period.to),
      ),
    )
    .orderBy(asc(postTargets.publishedAt), asc(postTargets.postId));
  return rows.map((r) => ({ ...r, publishedAt: r.publishedAt as Date }));
}
