/** What other modules read of posts: the published copies of an account's posts, the posts of a profile. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/connection.ts';
import { posts, postTargets } from './tables.ts';

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
