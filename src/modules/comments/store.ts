/**
 * Storing comments as they arrive, whichever way (a platform notice, a poll, our own reply):
 * each platform comment once per account, a post record for its post, and `comment.created`
 * exactly once, by the transaction that stored the comment, for a comment by another person
 * younger than 24 hours.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Tx } from '../../db/connection.ts';
import { newId } from '../../ids.ts';
import type { PlatformComment } from '../../platforms/index.ts';
import { accountById } from '../accounts/index.ts';
import { emit } from '../events/index.ts';
import { ensurePlatformPosts, type PlatformPostRef } from '../posts/index.ts';
import { comments } from './tables.ts';

/**
 * PostgreSQL text (and jsonb, where events keep their data) cannot hold U+0000: a NUL a
 * platform sends is kept as U+FFFD, the one change made to what a platform wrote.
 */
function storable<T extends string | null>(text: T): T {
  return (text === null ? text : text.replaceAll('\u0000', '\uFFFD')) as T;
}

/** Spec, Limits: `comment.created` only for comments younger than this when they arrive. */
export const EVENT_MAX_AGE_MS = 24 * 3600_000;

export interface StoreOptions {
  /**
   * When the source read the comments, if it tells their hidden state (a poll does; a notice
   * does not): a stored comment takes it over, unless it changed after that read (a hide
   * through the API while the poll was under way). Absent: a stored comment is left as it is.
   */
  hiddenReadAt?: Date;
}

/** Rows per insert: far below PostgreSQL's 65,535 parameters a statement (16 a row). */
const INSERT_CHUNK = 1000;

/**
 * Stores the account's comments (and a post record for each of their posts, and for `posts`),
 * answering the ids of the comments stored now. Comments already stored are not stored again.
 */
export async function storeComments(
  tx: Tx,
  accountId: string,
  incoming: readonly PlatformComment[],
  posts: readonly PlatformPostRef[],
  options: StoreOptions,
): Promise<string[]> {
  // The account as it is now, held (FOR SHARE) until the commit: a move (FOR UPDATE) waits,
  // so the comments, their posts and the event land in the profile the account is in.
  const account = await accountById(tx, accountId, 'share');
  if (!account || account.status === 'disconnected') return [];
  // One notice may repeat a comment; the batch insert below must not name a row twice. In
  // one order (by platform id), so concurrent inserts of the same comments cannot deadlock.
  const unique = [...new Map(incoming.map((c) => [c.id, c])).values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  const postIds = await ensurePlatformPosts(tx, account, [...posts, ...unique.map((c) => ({ id: c.postId }))]);
  if (unique.length === 0) return [];
  const at = now();
  const values = unique.map((c) => {
    const postId = postIds.get(c.postId);
    if (postId === undefined) throw new Error(`no post record for ${account.platform} post ${c.postId}`);
    return {
      id: newId('comment'),
      ownerId: account.ownerId,
      profileId: account.profileId,
      accountId: account.id,
      postId,
      platform: account.platform,
      platformCommentId: c.id,
      platformPostId: c.postId,
      platformParentId: c.parentId,
      authorId: storable(c.authorId),
      authorUsername: storable(c.authorUsername),
      text: storable(c.text),
      commentedAt: c.createdAt,
      hidden: c.hidden,
      byAccount: c.byAccount,
      createdAt: at,
      updatedAt: at,
    };
  });
  const stored = new Set<string>();
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    const insert = tx.insert(comments).values(values.slice(i, i + INSERT_CHUNK));
    const readAt = options.hiddenReadAt;
    const rows = readAt
      ? await insert
          .onConflictDoUpdate({
            target: [comments.accountId, comments.platformCommentId],
            set: { hidden: sql`excluded.hidden`, updatedAt: at },
            setWhere: sql`${comments.hidden} is distinct from excluded.hidden and ${comments.updatedAt} < ${readAt}`,
          })
          .returning({ id: comments.id, inserted: sql<boolean>`xmax = 0` })
      : await insert
          .onConflictDoNothing({ target: [comments.accountId, comments.platformCommentId] })
          .returning({ id: comments.id, inserted: sql<boolean>`true` });
    for (const row of rows) if (row.inserted) stored.add(row.id);
  }
  const fresh = values.filter((v) => stored.has(v.id));
  const parents = await parentIds(
    tx,
    account.id,
    fresh.flatMap((v) => (v.platformParentId === null ? [] : [v.platformParentId])),
  );
  for (const v of fresh) {
    if (v.byAccount || at.getTime() - v.commentedAt.getTime() >= EVENT_MAX_AGE_MS) continue;
    await emit(tx, {
      ownerId: account.ownerId,
      profileId: account.profileId,
      type: 'comment.created',
      data: {
        comment_id: v.id,
        account_id: account.id,
        post_id: v.postId,
        author_username: v.authorUsername,
        text: v.text,
        commented_at: v.commentedAt.toISOString(),
        platform: account.platform,
        platform_comment_id: v.platformCommentId,
        parent_id: v.platformParentId === null ? null : (parents.get(v.platformParentId) ?? null),
        author_id: v.authorId,
      },
    });
  }
  return fresh.map((v) => v.id);
}

/** Our ids of the account's comments with these platform ids. */
async function parentIds(tx: Tx, accountId: string, platformIds: readonly string[]): Promise<Map<string, string>> {
  if (platformIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: comments.id, platformCommentId: comments.platformCommentId })
    .from(comments)
    .where(and(eq(comments.accountId, accountId), inArray(comments.platformCommentId, [...new Set(platformIds)])));
  return new Map(rows.map((r) => [r.platformCommentId, r.id]));
}
