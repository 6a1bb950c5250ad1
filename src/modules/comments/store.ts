/**
 * Storing comments as they arrive, whichever way (a platform notice, a poll, our own reply):
 * each platform comment once per account, a post record for its post, and `comment.created`
 * exactly once for a comment by another person younger than 24 hours by the platform's own
 * time. That is decided by the transaction that stores the comment with its platform time, or,
 * for a comment stored while only a notice's arrival was known (`timeConfirmed: false`), by the
 * one that confirms its time: a conditional update that only one transaction can make.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import type { Queryable, Tx } from '../../db/connection.ts';
import { executeShaped, oneOfPart, valuesOf } from '../../db/prepared.ts';
import { newId } from '../../ids.ts';
import type { PlatformComment } from '../../platforms/index.ts';
import { type Account, accountsByIdsLocked } from '../accounts/index.ts';
import { emitAll, type NewEvent } from '../events/index.ts';
import { ensurePlatformPostsOfAccounts, type PlatformPostRef } from '../posts/index.ts';
import { type CommentInsert, insertComments } from './comment-insert.ts';
import { commentReplies, comments } from './tables.ts';

/**
 * PostgreSQL text (and jsonb, where events keep their data) cannot hold U+0000: a NUL a
 * platform sends is kept as U+FFFD, the one change made to what a platform wrote.
 */
function storable<T extends string | null>(text: T): T {
  return (text === null ? text : text.replaceAll('\u0000', '\uFFFD')) as T;
}

/** Spec, Limits: `comment.created` only for comments younger than this when they arrive. */
export const EVENT_MAX_AGE_MS = DAY_MS;

export interface StoreOptions {
  /**
   * When the source read the comments, if it tells their hidden state (a poll does; a notice
   * does not): a stored comment takes it over, unless it changed after that read (a hide
   * through the API while the poll was under way). Absent: a stored comment is left as it is.
   */
  hiddenReadAt?: Date;
}

/**
 * A comment to store. `timeConfirmed` false: `createdAt` is only when a notice of it arrived,
 * not the platform's time of the comment (absent: it is the platform's time).
 */
export type IncomingComment = PlatformComment & { timeConfirmed?: boolean };

/** What an event needs of a stored comment row. */
interface EventRow {
  id: string;
  postId: string;
  platformCommentId: string;
  platformParentId: string | null;
  authorId: string | null;
  authorUsername: string | null;
  text: string;
  commentedAt: Date;
  byAccount: boolean;
}

/**
 * Stores the account's comments (and a post record for each of their posts, and for `posts`),
 * answering the ids of the comments stored now. Comments already stored are not stored again.
 */
export async function storeComments(
  tx: Tx,
  accountId: string,
  incoming: readonly IncomingComment[],
  posts: readonly PlatformPostRef[],
  options: StoreOptions,
): Promise<string[]> {
  const { stored, events } = await storeOfAccounts(tx, [{ accountId, incoming, posts }], options);
  await emitAll(tx, events);
  return stored;
}

/** `storeComments` for several accounts' comments in one transaction, their events emitted together. */
export async function storeCommentsOfAccounts(
  tx: Tx,
  list: readonly { accountId: string; incoming: readonly IncomingComment[] }[],
): Promise<void> {
  const { events } = await storeOfAccounts(
    tx,
    list.map((entry) => ({ ...entry, posts: [] })),
    {},
  );
  await emitAll(tx, events);
}

/** An account's comments about to be inserted. */
interface AccountRows {
  account: Account;
  values: CommentInsert[];
}

/**
 * Stores the accounts' comments with their posts: the accounts read (and held) in one statement,
 * every account's posts read (and the missing ones made) together, then every account's new
 * comments in one insert. An account listed twice
 * is stored once, with both lists (of a comment in both, the later one's). The accounts are taken
 * in the order of their ids, and the rows in the order of their account and platform ids, so two
 * transactions storing comments of the same accounts take their locks in the same order.
 */
async function storeOfAccounts(
  tx: Tx,
  list: readonly { accountId: string; incoming: readonly IncomingComment[]; posts: readonly PlatformPostRef[] }[],
  options: StoreOptions,
): Promise<{ stored: string[]; events: NewEvent[] }> {
  const merged = new Map<string, { incoming: IncomingComment[]; posts: PlatformPostRef[] }>();
  for (const { accountId, incoming, posts } of list) {
    const entry = merged.get(accountId) ?? { incoming: [], posts: [] };
    entry.incoming.push(...incoming);
    entry.posts.push(...posts);
    merged.set(accountId, entry);
  }
  const ordered = [...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // The accounts as they are now, held (FOR SHARE) until the commit: a move (FOR UPDATE) waits,
  // so the comments, their posts and the events land in the profile each account is in.
  const held = await accountsByIdsLocked(
    tx,
    ordered.map(([id]) => id),
  );
  const kept: { account: Account; unique: IncomingComment[]; posts: PlatformPostRef[] }[] = [];
  for (const [id, { incoming, posts }] of ordered) {
    const account = held.get(id);
    if (!account || account.status === 'disconnected') continue;
    kept.push({ account, unique: await storableOnce(tx, account.id, incoming), posts });
  }
  const postIds = await ensurePlatformPostsOfAccounts(
    tx,
    kept.map(({ account, unique, posts }) => ({ account, refs: [...posts, ...unique.map((c) => ({ id: c.postId }))] })),
  );
  const accountsRows: AccountRows[] = kept.flatMap(({ account, unique }) => {
    const values = rowsOf(account, unique, postIds.get(account.id) ?? new Map());
    return values.length > 0 ? [{ account, values }] : [];
  });
  const at = now();
  const stored = await insertComments(
    tx,
    accountsRows.flatMap(({ account, values }) => values.map((row) => ({ account, row }))),
    at,
    options.hiddenReadAt,
  );
  const fresh: string[] = [];
  const events: NewEvent[] = [];
  for (const { account, values } of accountsRows) {
    const inserted = values.filter((v) => stored.has(v.id));
    // Comments stored before with the platform's time given now: an unconfirmed time is
    // confirmed (and the event decided), a confirmed one that differs corrected.
    const known = values.filter((v) => !stored.has(v.id) && v.timeConfirmed);
    const confirmed = await confirmTimes(tx, account.id, known, at);
    await correctTimes(tx, account.id, known, at);
    await takeEdits(
      tx,
      account.id,
      values.filter((v) => !stored.has(v.id)),
      at,
    );
    const decided = [...inserted.filter((v) => v.timeConfirmed), ...confirmed];
    fresh.push(...inserted.map((v) => v.id));
    events.push(...(await createdEvents(tx, account, decided, at)));
  }
  return { stored: fresh, events };
}

/**
 * The account's comments to store, each platform comment once, in the order of their platform
 * ids, without its own replies the service deleted.
 */
async function storableOnce(
  tx: Tx,
  accountId: string,
  incoming: readonly IncomingComment[],
): Promise<IncomingComment[]> {
  // One notice may repeat a comment; the batch insert must not name a row twice.
  const unique = [...new Map(incoming.map((c) => [c.id, c])).values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  const gone = await repliesDeleted(
    tx,
    accountId,
    unique.filter((c) => c.byAccount).map((c) => c.id),
  );
  return gone.size > 0 ? unique.filter((c) => !gone.has(c.id)) : unique;
}

/** The account's comments as rows to insert, each naming its post's record (`postIds`, by platform post id). */
function rowsOf(
  account: Account,
  unique: readonly IncomingComment[],
  postIds: ReadonlyMap<string, string>,
): CommentInsert[] {
  return unique.map((c): CommentInsert => {
    const postId = postIds.get(c.postId);
    if (postId === undefined) throw new Error(`no post record for ${account.platform} post ${c.postId}`);
    return {
      id: newId('comment'),
      postId,
      platformCommentId: c.id,
      platformPostId: c.postId,
      platformParentId: c.parentId,
      authorId: storable(c.authorId),
      authorUsername: storable(c.authorUsername),
      text: storable(c.text),
      commentedAt: c.createdAt,
      timeConfirmed: c.timeConfirmed !== false,
      hidden: c.hidden,
      rating: c.rating ?? null,
      editedAt: c.editedAt ?? null,
      byAccount: c.byAccount,
    };
  });
}

/**
 * Of the account's own comments `ids`, those that are replies the service deleted (or is
 * deleting) on the platform: a notice or a read of one that arrives after its deletion (the
 * platform's notices come late) must not bring it back.
 */
async function repliesDeleted(tx: Tx, accountId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: commentReplies.platformCommentId })
    .from(commentReplies)
    .innerJoin(comments, eq(comments.id, commentReplies.commentId))
    .where(
      and(
        eq(comments.accountId, accountId),
        inArray(commentReplies.status, ['deleting', 'deleted']),
        inArray(commentReplies.platformCommentId, ids),
      ),
    );
  return new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id])));
}

const EVENT_COLUMNS = {
  id: comments.id,
  postId: comments.postId,
  platformCommentId: comments.platformCommentId,
  platformParentId: comments.platformParentId,
  authorId: comments.authorId,
  authorUsername: comments.authorUsername,
  text: comments.text,
  commentedAt: comments.commentedAt,
  byAccount: comments.byAccount,
};

/**
 * Sets the platform's time (`v.t`) on the account's stored comments among `rows` that `which`
 * selects (over `comments` and `v`), answering them.
 */
function setPlatformTimes(
  tx: Tx,
  accountId: string,
  rows: readonly EventRow[],
  at: Date,
  which: { confirm: boolean; where: SQL },
) {
  const ids = sql.param(rows.map((r) => r.platformCommentId));
  const times = sql.param(rows.map((r) => r.commentedAt.toISOString()));
  return tx
    .update(comments)
    .set({ commentedAt: sql`v.t`, ...(which.confirm ? { timeConfirmed: true } : {}), updatedAt: at })
    .from(sql`unnest(${ids}::text[], ${times}::timestamptz[]) as v(id, t)`)
    .where(and(eq(comments.accountId, accountId), sql`${comments.platformCommentId} = v.id`, which.where))
    .returning(EVENT_COLUMNS);
}

/**
 * Takes the platform's time for the account's comments stored with an unconfirmed one, and
 * answers those it confirmed. Conditional on `not time_confirmed`: of two transactions
 * confirming the same comment, the second finds it confirmed (the row lock makes it wait and
 * look again), so the event is decided once.
 */
async function confirmTimes(tx: Tx, accountId: string, rows: readonly EventRow[], at: Date): Promise<EventRow[]> {
  if (rows.length === 0) return [];
  return await setPlatformTimes(tx, accountId, rows, at, { confirm: true, where: sql`not ${comments.timeConfirmed}` });
}

/** A confirmed time the platform now gives otherwise (stored before the service read times so) is corrected; no event. */
async function correctTimes(tx: Tx, accountId: string, rows: readonly EventRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await setPlatformTimes(tx, accountId, rows, at, { confirm: false, where: sql`${comments.commentedAt} <> v.t` });
}

/**
 * The words, author name and rating of the account's stored comments the platform says it
 * changed after they were stored (an `editedAt` later than the stored one: a review edited by
 * its author). An older read arriving late changes nothing; an edit is no new comment, so no event.
 */
async function takeEdits(
  tx: Tx,
  accountId: string,
  rows: readonly {
    platformCommentId: string;
    text: string;
    authorUsername: string | null;
    rating: number | null;
    editedAt: Date | null;
  }[],
  at: Date,
): Promise<void> {
  const edited = rows.flatMap((r) => (r.editedAt === null ? [] : [{ ...r, editedAt: r.editedAt }]));
  if (edited.length === 0) return;
  await tx
    .update(comments)
    .set({
      text: sql`v.words`,
      authorUsername: sql`v.author`,
      rating: sql`v.stars`,
      editedAt: sql`v.edited`,
      updatedAt: at,
    })
    .from(
      sql`unnest(${sql.param(edited.map((r) => r.platformCommentId))}::text[], ${sql.param(edited.map((r) => r.text))}::text[], ${sql.param(edited.map((r) => r.authorUsername))}::text[], ${sql.param(edited.map((r) => r.rating))}::integer[], ${sql.param(edited.map((r) => r.editedAt.toISOString()))}::timestamptz[]) as v(id, words, author, stars, edited)`,
    )
    .where(
      and(
        eq(comments.accountId, accountId),
        sql`${comments.platformCommentId} = v.id`,
        sql`(${comments.editedAt} is null or ${comments.editedAt} < v.edited)`,
      ),
    );
}

/** `comment.created` for each comment by another person younger than 24 hours by its platform time. */
async function createdEvents(
  tx: Tx,
  account: { id: string; ownerId: string; profileId: string; platform: string },
  rows: readonly EventRow[],
  at: Date,
): Promise<NewEvent[]> {
  const due = rows.filter((v) => !v.byAccount && at.getTime() - v.commentedAt.getTime() < EVENT_MAX_AGE_MS);
  if (due.length === 0) return [];
  const parents = await parentIds(
    tx,
    account.id,
    due.flatMap((v) => (v.platformParentId === null ? [] : [v.platformParentId])),
  );
  return due.map((v) => ({
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
  }));
}

/** Our ids of the account's comments with these platform ids. */
async function parentIds(tx: Tx, accountId: string, platformIds: readonly string[]): Promise<Map<string, string>> {
  if (platformIds.length === 0) return new Map();
  const idIs = oneOfPart(comments.platformCommentId, platformIds, 'platform_comment_ids');
  const rows = await executeShaped(
    tx,
    `comments by platform id, ${idIs.shape}`,
    (db) =>
      db
        .select({ id: comments.id, platformCommentId: comments.platformCommentId })
        .from(comments)
        .where(and(eq(comments.accountId, sql.placeholder('account_id')), idIs.sql)),
    valuesOf(idIs, { values: { account_id: accountId } }),
  );
  return new Map(rows.map((r) => [r.platformCommentId, r.id]));
}

/** Of these platform comment ids, those stored with their platform time for any of these accounts: by platform id, those accounts. */
export async function confirmedTimes(
  db: Queryable,
  accountIds: readonly string[],
  platformIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  if (accountIds.length === 0 || platformIds.length === 0) return found;
  const accountIs = oneOfPart(comments.accountId, accountIds, 'account_ids');
  const commentIs = oneOfPart(comments.platformCommentId, platformIds, 'platform_comment_ids');
  const rows = await executeShaped(
    db,
    `comments' times confirmed, ${accountIs.shape}, ${commentIs.shape}`,
    (handle) =>
      handle
        .select({ accountId: comments.accountId, platformCommentId: comments.platformCommentId })
        .from(comments)
        .where(and(accountIs.sql, commentIs.sql, eq(comments.timeConfirmed, true))),
    valuesOf(accountIs, commentIs),
  );
  for (const { accountId, platformCommentId } of rows) {
    found.set(platformCommentId, (found.get(platformCommentId) ?? new Set()).add(accountId));
  }
  return found;
}
