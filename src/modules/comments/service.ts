/**
 * The inbox: listing comments in the caller's scope, the inbox's own reply status, and the
 * actions that reach the platform (reply, hide). Every read carries the owner and the
 * accounts the caller sees; comments are keyed by account, so they follow a moved account.
 */
import { and, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { BaseLogger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import {
  COMMENT_PLATFORMS,
  missingScopes,
  type Platform,
  PlatformError,
  type PlatformSet,
  platformInfo,
  type ReplyOutcome,
} from '../../platforms/index.ts';
import {
  type Account,
  type AccountMoveStep,
  type AccountState,
  accountById,
  accountStateOf,
  accountsToSync,
  credentialsOf,
  noteAccountFailure,
} from '../accounts/index.ts';
import { ensurePlatformPosts } from '../posts/index.ts';
import { isLiveProfile, type ProfileDeletionStep } from '../profiles/index.ts';
import type { CommentView } from './json.ts';
import {
  type Comment,
  type CommentReply,
  commentReplies,
  commentSyncState,
  comments,
  type ReplyStatus,
} from './tables.ts';

export interface CommentDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
  log: Pick<BaseLogger, 'info' | 'warn'>;
}

/** POST /v1/comments/sync reads an account at most this often. */
export const MANUAL_SYNC_GAP_MS = 60_000;

const commentNotFound = (id: string) => new ApiError(404, 'comment_not_found', `No comment ${JSON.stringify(id)}.`);

function visible(scope: Scope): SQL | undefined {
  return and(
    eq(comments.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(comments.profileId, scope.profileId),
    isLiveProfile(comments.profileId, scope.ownerId),
  );
}

export interface CommentListQuery {
  accountId?: string | undefined;
  postId?: string | undefined;
  replyStatus?: ReplyStatus | undefined;
  hidden?: boolean | undefined;
  platform?: Platform | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
  /** `<commented_at ISO>|<id>` of the last comment of the previous page. */
  after?: string | undefined;
}

/** A page (`limit + 1` rows) of the inbox: comments by other people, newest `commented_at` first. */
export async function listComments(
  deps: Pick<CommentDeps, 'db' | 'platforms'>,
  scope: Scope,
  query: CommentListQuery,
): Promise<(CommentView & { id: string })[]> {
  if (query.accountId !== undefined && !looksLikeId('account', query.accountId)) return [];
  if (query.postId !== undefined && !looksLikeId('post', query.postId)) return [];
  let position: SQL | undefined;
  if (query.after !== undefined) {
    const [at = '', id = ''] = query.after.split('|');
    position = sql`(${comments.commentedAt}, ${comments.id}) < (${new Date(at)}, ${id})`;
  }
  const views = await selectViews(
    deps,
    and(
      visible(scope),
      eq(comments.byAccount, false),
      query.accountId === undefined ? undefined : eq(comments.accountId, query.accountId),
      query.postId === undefined ? undefined : eq(comments.postId, query.postId),
      query.replyStatus === undefined ? undefined : eq(comments.replyStatus, query.replyStatus),
      query.hidden === undefined ? undefined : eq(comments.hidden, query.hidden),
      query.platform === undefined ? undefined : eq(comments.platform, query.platform),
      query.from === undefined ? undefined : gte(comments.commentedAt, query.from),
      query.to === undefined ? undefined : lte(comments.commentedAt, query.to),
      position,
    ),
    query.limit + 1,
  );
  return views.map((view) => ({ ...view, id: `${view.comment.commentedAt.toISOString()}|${view.comment.id}` }));
}

/** A reply as json_agg gives a comment_replies row (times as text). */
interface ReplyRow {
  id: string;
  comment_id: string;
  text: string;
  status: CommentReply['status'];
  container_id: string | null;
  polls: number;
  platform_comment_id: string | null;
  sent_at: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

const replyOf = (r: ReplyRow): CommentReply => ({
  id: r.id,
  commentId: r.comment_id,
  text: r.text,
  status: r.status,
  containerId: r.container_id,
  polls: r.polls,
  platformCommentId: r.platform_comment_id,
  sentAt: r.sent_at === null ? null : new Date(r.sent_at),
  error: r.error,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The listed row's columns, qualified (drizzle leaves a one-table query's columns bare, which subqueries would take for their own). */
const THIS = {
  id: sql.raw('"comments"."id"'),
  accountId: sql.raw('"comments"."account_id"'),
  platformParentId: sql.raw('"comments"."platform_parent_id"'),
};

/**
 * The comments `where` selects, newest first, each with its parent's id, the replies sent
 * through us and what its account allows now: one query, one round trip.
 */
async function selectViews(
  deps: Pick<CommentDeps, 'db' | 'platforms'>,
  where: SQL | undefined,
  limit: number,
): Promise<CommentView[]> {
  const rows = await deps.db
    .select({
      comment: comments,
      parentId: sql<
        string | null
      >`(select p.id from ${comments} p where p.account_id = ${THIS.accountId} and p.platform_comment_id = ${THIS.platformParentId})`,
      replies: sql<
        ReplyRow[]
      >`(select coalesce(json_agg(r order by r.id), '[]'::json) from ${commentReplies} r where r.comment_id = ${THIS.id})`,
      account: accountStateOf(THIS.accountId),
    })
    .from(comments)
    .where(where)
    // As the inbox indexes are ordered (drizzle's desc() is DESC NULLS LAST), so they give the order.
    .orderBy(sql`${comments.commentedAt} desc nulls last`, sql`${comments.id} desc nulls last`)
    .limit(limit);
  return rows.map(({ comment, parentId, replies, account }) => ({
    comment,
    parentId,
    replies: replies.map(replyOf),
    canReply: account !== null && refusal(deps, account, comment, 'reply') === null,
    canHide: account !== null && refusal(deps, account, comment, 'hide') === null,
  }));
}

/**
 * Why `action` cannot be done on the comment now, as the API answers it (made only when thrown:
 * a list asks this twice per row); null when it can. Checked before any platform call, so a
 * refusal never reaches the platform.
 */
function refusal(
  deps: Pick<CommentDeps, 'platforms'>,
  account: AccountState,
  comment: Comment,
  action: 'reply' | 'hide',
): (() => ApiError) | null {
  const platform = account.platform as Platform;
  const rules = platformInfo(platform).comments;
  if (!rules[action]) {
    return () =>
      new ApiError(
        422,
        'unsupported_platform',
        `${platformInfo(platform).label} offers no comment API to ordinary apps: comments cannot be read, replied to or hidden there.`,
      );
  }
  if (account.status !== 'connected') {
    return () =>
      new ApiError(
        409,
        'account_not_connected',
        `The account is ${account.status}; reconnect it (a connect link) before acting on its comments.`,
        { account_id: account.id, status: account.status },
      );
  }
  const missing = missingScopes(deps.platforms().adapter(platform), action, account.scopes) ?? [];
  if (missing.length > 0) {
    return () =>
      new ApiError(
        422,
        'permission_missing',
        `The account has not granted ${missing.join(', ')}, which ${action === 'reply' ? 'replying' : 'hiding'} needs; reconnect it with that permission.`,
        { account_id: account.id, permission: missing[0], missing_permissions: missing },
      );
  }
  if (action === 'reply' && comment.byAccount) {
    return () =>
      new ApiError(409, 'comment_not_repliable', "This comment is the account's own; reply to comments by others.");
  }
  if (action === 'reply' && comment.hidden && !rules.replyToHidden) {
    return () =>
      new ApiError(
        409,
        'comment_not_repliable',
        `${platformInfo(platform).label} does not allow replies to a hidden comment; unhide it first.`,
      );
  }
  if (action === 'hide' && comment.platformParentId !== null && !rules.hideReplies) {
    return () =>
      new ApiError(
        409,
        'comment_not_hideable',
        `${platformInfo(platform).label} hides top-level replies only (with everything under them), not a nested reply.`,
      );
  }
  return null;
}

async function findVisible(db: Queryable, scope: Scope, id: string, lock = false): Promise<Comment> {
  if (!looksLikeId('comment', id)) throw commentNotFound(id);
  const query = db
    .select()
    .from(comments)
    .where(and(visible(scope), eq(comments.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw commentNotFound(id);
  return row;
}

async function view(deps: Pick<CommentDeps, 'db' | 'platforms'>, comment: Comment): Promise<CommentView> {
  const [one] = await selectViews(deps, eq(comments.id, comment.id), 1);
  if (!one) throw new Error('a comment without its view');
  return one;
}

export async function getComment(
  deps: Pick<CommentDeps, 'db' | 'platforms'>,
  scope: Scope,
  id: string,
): Promise<CommentView> {
  return await view(deps, await findVisible(deps.db, scope, id));
}

/** Sets the inbox's status; nothing changes on the platform. Every transition is allowed. */
export async function setReplyStatus(
  deps: Pick<CommentDeps, 'db' | 'platforms'>,
  scope: Scope,
  id: string,
  status: ReplyStatus,
): Promise<CommentView> {
  const comment = await findVisible(deps.db, scope, id);
  const [updated] = await deps.db
    .update(comments)
    .set({ replyStatus: status, updatedAt: now() })
    .where(and(eq(comments.id, comment.id), ne(comments.replyStatus, status)))
    .returning();
  return await view(deps, updated ?? comment);
}

/** What a platform's refusal of an action means for the API caller (the account is noted first). */
function platformFailure(error: PlatformError): ApiError {
  const platform = error.detail.platform;
  const details = {
    platform,
    platform_code: error.detail.code === undefined ? null : String(error.detail.code),
    platform_message: error.detail.platformMessage ?? error.message,
  };
  switch (error.kind) {
    case 'token_expired':
    case 'access_revoked':
      return new ApiError(
        409,
        'account_not_connected',
        `${platformInfo(platform).label} says the account's access ${error.kind === 'token_expired' ? 'expired' : 'was revoked'}; reconnect it.`,
        details,
      );
    case 'permission_missing': {
      const missing = error.detail.missingScopes ?? [];
      return new ApiError(
        422,
        'permission_missing',
        `${platformInfo(platform).label} refused for lack of a permission${missing.length > 0 ? ` (${missing.join(', ')})` : ''}; reconnect the account with it.`,
        { ...details, permission: missing[0] ?? null, missing_permissions: missing },
      );
    }
    case 'rate_limited': {
      const wait = Math.max(1, Math.ceil(error.detail.retryAfterSeconds ?? 60));
      return new ApiError(
        429,
        'platform_rate_limited',
        `${platformInfo(platform).label} limits the calls for this account now; retry after ${wait} s.`,
        details,
        { 'Retry-After': String(wait) },
      );
    }
    case 'unsupported':
      return new ApiError(422, 'unsupported_platform', error.message, details);
    default:
      return new ApiError(
        502,
        'platform_error',
        `${platformInfo(platform).label} refused: ${details.platform_message}`,
        details,
      );
  }
}

/** Runs an action as the account; a refusal marks the account where it concerns it, and answers as the API does. */
async function acting<T>(deps: CommentDeps, account: Account, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await deps.db.transaction((tx) => noteAccountFailure(tx, account.id, error));
    deps.log.warn(
      { account_id: account.id, platform: account.platform, kind: error.kind, err: error.message },
      'the platform refused a comment action',
    );
    throw platformFailure(error);
  }
}

async function actionable(
  deps: CommentDeps,
  scope: Scope,
  id: string,
  action: 'reply' | 'hide',
): Promise<{ comment: Comment; account: Account }> {
  const comment = await findVisible(deps.db, scope, id);
  const account = await accountById(deps.db, comment.accountId);
  if (!account) throw commentNotFound(id);
  const refused = refusal(deps, account, comment, action);
  if (refused) throw refused();
  return { comment, account };
}

/** Wait before reading a pending Threads reply container again: 2 s, growing, at most 30 s. */
function replyPollWaitMs(polls: number): number {
  return Math.min(30_000, 2000 * 1.5 ** polls);
}

/** Reply containers not published by then are given up (Threads expires containers after 24 h). */
const REPLY_GIVE_UP_MS = 3600_000;

/**
 * Replies as the account. The reply is recorded (first as `sending`; `failed` with the reason
 * when the platform refuses) and the comment becomes `replied`; a sent
 * reply is also stored as the account's own comment (so the platform's notice of it is
 * not a new comment). A Threads reply whose container is still processing is `sending`,
 * published by a job.
 */
export async function replyToComment(deps: CommentDeps, scope: Scope, id: string, text: string): Promise<CommentReply> {
  const { comment, account } = await actionable(deps, scope, id, 'reply');
  const adapter = deps.platforms().adapter(account.platform as Platform);
  // Recorded before the platform is asked, so a reply the platform took is never lost from
  // view, whatever happens to this request afterwards (it stays `sending`).
  const at = now();
  const [asked] = await deps.db
    .insert(commentReplies)
    .values({ id: newId('commentReply'), commentId: comment.id, text, status: 'sending', createdAt: at, updatedAt: at })
    .returning();
  if (!asked) throw new Error('the reply was not stored');
  let outcome: ReplyOutcome;
  try {
    outcome = await acting(deps, account, () =>
      adapter.reply(credentialsOf(deps.secretKey, account), comment.platformCommentId, text),
    );
  } catch (error) {
    await deps.db
      .update(commentReplies)
      .set({ status: 'failed', error: error instanceof Error ? error.message : String(error), updatedAt: now() })
      .where(eq(commentReplies.id, asked.id));
    throw error;
  }
  return await deps.db.transaction(async (tx) => {
    const done = now();
    const [reply] = await tx
      .update(commentReplies)
      .set(
        outcome.state === 'sent'
          ? { status: 'sent' as const, platformCommentId: outcome.id, sentAt: done, updatedAt: done }
          : { containerId: outcome.containerId, updatedAt: done },
      )
      .where(eq(commentReplies.id, asked.id))
      .returning();
    if (!reply) throw new Error('the reply record is gone');
    await tx.update(comments).set({ replyStatus: 'replied', updatedAt: done }).where(eq(comments.id, comment.id));
    if (outcome.state === 'sent') await storeOwnReply(tx, account, comment, outcome.id, text, done);
    else {
      await enqueue(
        tx,
        'send_comment_reply',
        { reply_id: reply.id },
        { runAt: new Date(done.getTime() + replyPollWaitMs(0)), jobKey: `send_comment_reply:${reply.id}` },
      );
    }
    return reply;
  });
}

async function storeOwnReply(tx: Tx, account: Account, parent: Comment, platformId: string, text: string, at: Date) {
  await tx
    .insert(comments)
    .values({
      id: newId('comment'),
      ownerId: account.ownerId,
      profileId: account.profileId,
      accountId: account.id,
      postId: parent.postId,
      platform: account.platform,
      platformCommentId: platformId,
      platformPostId: parent.platformPostId,
      platformParentId: parent.platformCommentId,
      authorId: account.platformUserId,
      authorUsername: account.username,
      text,
      commentedAt: at,
      byAccount: true,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({ target: [comments.accountId, comments.platformCommentId] });
}

/** The job of a `sending` reply: publishes its container once the platform has processed it. */
export async function sendPendingReply(deps: CommentDeps, replyId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db
    .select({ reply: commentReplies, comment: comments })
    .from(commentReplies)
    .innerJoin(comments, eq(comments.id, commentReplies.commentId))
    .where(eq(commentReplies.id, replyId));
  if (row?.reply.status !== 'sending' || row.reply.containerId === null) return;
  const { reply, comment } = row;
  const account = await accountById(db, comment.accountId);
  const fail = async (message: string) => {
    await db
      .update(commentReplies)
      .set({ status: 'failed', error: message, updatedAt: now() })
      .where(and(eq(commentReplies.id, reply.id), eq(commentReplies.status, 'sending')));
    deps.log.warn({ reply_id: reply.id, comment_id: comment.id, err: message }, 'a reply could not be sent');
  };
  if (account?.status !== 'connected') return await fail('the account is no longer connected');
  const { containerId } = row.reply;
  if (containerId === null) return;
  let outcome: ReplyOutcome;
  try {
    outcome = await deps
      .platforms()
      .adapter(account.platform as Platform)
      .finishReply(credentialsOf(deps.secretKey, account), containerId);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await db.transaction((tx) => noteAccountFailure(tx, account.id, error));
    if (error.passing) {
      if (now().getTime() - reply.createdAt.getTime() > REPLY_GIVE_UP_MS) return await fail(error.message);
      return await waitAgain(db, reply, error.detail.retryAfterSeconds);
    }
    return await fail(error.message);
  }
  if (outcome.state === 'pending') {
    if (now().getTime() - reply.createdAt.getTime() > REPLY_GIVE_UP_MS) {
      return await fail('the platform was still processing the reply after an hour');
    }
    return await waitAgain(db, reply);
  }
  await db.transaction(async (tx) => {
    const at = now();
    const [sent] = await tx
      .update(commentReplies)
      .set({ status: 'sent', platformCommentId: outcome.id, sentAt: at, updatedAt: at })
      .where(and(eq(commentReplies.id, reply.id), eq(commentReplies.status, 'sending')))
      .returning();
    if (sent) await storeOwnReply(tx, account, comment, outcome.id, reply.text, at);
  });
}

async function waitAgain(db: Db, reply: CommentReply, retryAfterSeconds?: number): Promise<void> {
  await db.transaction(async (tx) => {
    const wait = Math.max(replyPollWaitMs(reply.polls + 1), (retryAfterSeconds ?? 0) * 1000);
    await tx
      .update(commentReplies)
      .set({ polls: reply.polls + 1, updatedAt: now() })
      .where(eq(commentReplies.id, reply.id));
    await enqueue(
      tx,
      'send_comment_reply',
      { reply_id: reply.id },
      { runAt: new Date(now().getTime() + wait), jobKey: `send_comment_reply:${reply.id}` },
    );
  });
}

/** Hides or unhides the comment on the platform, then in the inbox. */
export async function setHidden(deps: CommentDeps, scope: Scope, id: string, hidden: boolean): Promise<CommentView> {
  const { comment, account } = await actionable(deps, scope, id, 'hide');
  const adapter = deps.platforms().adapter(account.platform as Platform);
  await acting(deps, account, () =>
    adapter.setHidden(credentialsOf(deps.secretKey, account), comment.platformCommentId, hidden),
  );
  const [updated] = await deps.db
    .update(comments)
    .set({ hidden, updatedAt: now() })
    .where(eq(comments.id, comment.id))
    .returning();
  return await view(deps, updated ?? comment);
}

/**
 * POST /v1/comments/sync: queues a poll of each account now. At most once a minute per
 * account: any account read by a sync less than a minute ago makes it 429 and queues nothing.
 */
export async function syncComments(
  deps: CommentDeps,
  scope: Scope,
  accountIds: readonly string[] | undefined,
): Promise<Account[]> {
  const accounts = await accountsToSync(deps.db, scope, accountIds, COMMENT_PLATFORMS, (unsupported) => {
    const label = platformInfo(unsupported[0]?.platform as Platform).label;
    return new ApiError(
      422,
      'unsupported_platform',
      `${label} offers no comment API to ordinary apps; nothing to sync.`,
      {
        account_ids: unsupported.map((a) => a.id),
      },
    );
  });
  if (accounts.length === 0) return [];
  return await deps.db.transaction(async (tx) => {
    const at = now();
    const ids = accounts.map((a) => a.id);
    const taken = await tx
      .insert(commentSyncState)
      .values(ids.map((accountId) => ({ accountId, nextPollAt: at, lastManualSyncAt: at })))
      .onConflictDoUpdate({
        target: commentSyncState.accountId,
        set: { lastManualSyncAt: at },
        setWhere: sql`${commentSyncState.lastManualSyncAt} is null or ${commentSyncState.lastManualSyncAt} <= ${new Date(at.getTime() - MANUAL_SYNC_GAP_MS)}`,
      })
      .returning({ accountId: commentSyncState.accountId });
    if (taken.length < ids.length) {
      const free = new Set(taken.map((t) => t.accountId));
      const limited = ids.filter((id) => !free.has(id));
      const rows = await tx
        .select({ last: commentSyncState.lastManualSyncAt })
        .from(commentSyncState)
        .where(inArray(commentSyncState.accountId, limited));
      const latest = Math.max(...rows.map((r) => r.last?.getTime() ?? 0));
      const wait = Math.max(1, Math.ceil((latest + MANUAL_SYNC_GAP_MS - at.getTime()) / 1000));
      throw new ApiError(
        429,
        'sync_rate_limited',
        `Comments of an account are synced at most once a minute; retry after ${wait} s.`,
        { account_ids: limited },
        { 'Retry-After': String(wait) },
      );
    }
    for (const id of ids) {
      await enqueue(tx, 'poll_comments', { account_id: id }, { jobKey: `poll_comments:${id}` });
    }
    return accounts;
  });
}

/** A moved account's comments go to its new profile, naming posts that profile shows (platform-posts.ts). */
export const commentsFollowAccount: AccountMoveStep = async (tx, account) => {
  await tx.update(comments).set({ profileId: account.profileId }).where(eq(comments.accountId, account.id));
  const rows = await tx
    .selectDistinct({ platformPostId: comments.platformPostId })
    .from(comments)
    .where(eq(comments.accountId, account.id));
  if (rows.length === 0) return;
  const posts = await ensurePlatformPosts(
    tx,
    account,
    rows.map((r) => ({ id: r.platformPostId })),
  );
  for (const [platformPostId, postId] of posts) {
    await tx
      .update(comments)
      .set({ postId })
      .where(
        and(
          eq(comments.accountId, account.id),
          eq(comments.platformPostId, platformPostId),
          ne(comments.postId, postId),
        ),
      );
  }
};

/** A profile's comments go with it (before its accounts, which would take them along anyway). */
export const commentsProfileDeletion: ProfileDeletionStep = {
  module: 'comments',
  deleteData: async ({ db }, profile) => {
    await db.delete(comments).where(and(eq(comments.ownerId, profile.ownerId), eq(comments.profileId, profile.id)));
  },
};
