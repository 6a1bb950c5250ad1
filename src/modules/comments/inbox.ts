/**
 * The inbox query: comments in the caller's scope, newest first, each with its parent, the
 * replies sent through the service and what its account allows now. Every read carries the
 * owner and the accounts the caller sees; comments are keyed by account, so they follow a
 * moved account.
 */
import { and, eq, gte, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import type { BaseLogger } from 'pino';
import type { Db, Queryable } from '../../db/connection.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId } from '../../ids.ts';
import { missingScopes, type Platform, type PlatformSet, platformInfo } from '../../platforms/index.ts';
import { type AccountState, accountStates } from '../accounts/index.ts';
import { profilesBeingDeleted } from '../profiles/index.ts';
import type { CommentView } from './json.ts';
import { type Comment, type CommentReply, commentReplies, comments, type ReplyStatus } from './tables.ts';

export interface CommentDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
  log: Pick<BaseLogger, 'info' | 'warn'>;
}

export const commentNotFound = (id: string) =>
  new ApiError(404, 'comment_not_found', `No comment ${JSON.stringify(id)}.`);

async function visible(db: Queryable, scope: Scope): Promise<SQL | undefined> {
  return and(
    eq(comments.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(comments.profileId, scope.profileId),
    notInArray(comments.profileId, await profilesBeingDeleted(db, scope.ownerId)),
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
      await visible(deps.db, scope),
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

/** The listed row's columns, qualified (drizzle leaves a one-table query's columns bare, which subqueries would take for their own). */
const THIS = {
  accountId: sql.raw('"comments"."account_id"'),
  platformParentId: sql.raw('"comments"."platform_parent_id"'),
};

/**
 * The comments `where` selects, newest first, each with its parent's id (one query), the
 * replies sent through us for those that have any (a second query only then), and what its
 * account allows now (the accounts module's answer).
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
    })
    .from(comments)
    .where(where)
    // As the inbox indexes are ordered (drizzle's desc() is DESC NULLS LAST), so they give the order.
    .orderBy(sql`${comments.commentedAt} desc nulls last`, sql`${comments.id} desc nulls last`)
    .limit(limit);
  const [states, replies] = await Promise.all([
    accountStates(
      deps.db,
      rows.map((r) => r.comment.accountId),
    ),
    repliesOf(
      deps.db,
      rows.filter((r) => r.comment.hasReplies).map((r) => r.comment.id),
    ),
  ]);
  return rows.map(({ comment, parentId }) => {
    const account = states.get(comment.accountId);
    return {
      comment,
      parentId,
      replies: replies.get(comment.id) ?? [],
      canReply: account !== undefined && refusal(deps, account, comment, 'reply') === null,
      canHide: account !== undefined && refusal(deps, account, comment, 'hide') === null,
    };
  });
}

/** The replies sent through us to each of these comments, oldest first. */
async function repliesOf(db: Db, commentIds: readonly string[]): Promise<Map<string, CommentReply[]>> {
  const byComment = new Map<string, CommentReply[]>();
  if (commentIds.length === 0) return byComment;
  for (const reply of await repliesStatement(db).execute({ ids: [...commentIds] })) {
    const list = byComment.get(reply.commentId);
    if (list === undefined) byComment.set(reply.commentId, [reply]);
    else list.push(reply);
  }
  return byComment;
}

const repliesStatement = preparedPerDb((db) =>
  db
    .select()
    .from(commentReplies)
    .where(sql`${commentReplies.commentId} = any(${sql.placeholder('ids')}::text[])`)
    .orderBy(commentReplies.commentId, commentReplies.id)
    .prepare('comment_replies_of'),
);

/** What the owner does to a comment on the platform (deleting one of its replies is done through the comment). */
export type CommentAction = 'reply' | 'hide' | 'delete_reply';

/** The platform's rule that allows each action. */
const RULE_OF = { reply: 'reply', hide: 'hide', delete_reply: 'deleteReply' } as const;

/** Each action in words, for the refusals. */
const DOING: Record<CommentAction, { unsupported: string; gerund: string }> = {
  reply: { unsupported: 'reply to comments', gerund: 'replying' },
  hide: { unsupported: 'hide comments', gerund: 'hiding' },
  delete_reply: { unsupported: 'delete their replies', gerund: 'deleting a reply' },
};

/**
 * Why `action` cannot be done on the comment now, as the API answers it (made only when thrown:
 * a list asks this twice per row); null when it can. Checked before any platform call, so a
 * refusal never reaches the platform.
 */
export function refusal(
  deps: Pick<CommentDeps, 'platforms'>,
  account: AccountState,
  comment: Comment,
  action: CommentAction,
): (() => ApiError) | null {
  const platform = account.platform;
  const rules = platformInfo(platform).comments;
  if (rules === null) {
    return () =>
      new ApiError(
        422,
        'unsupported_platform',
        `${platformInfo(platform).label} offers no comment API to ordinary apps: comments cannot be read, replied to or hidden there.`,
      );
  }
  if (!rules[RULE_OF[action]]) {
    return () =>
      new ApiError(
        422,
        'unsupported_platform',
        `${platformInfo(platform).label} does not let apps ${DOING[action].unsupported}.`,
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
  const missing = missingScopes(deps.platforms().adapter(platform), action, account.scopes, account.platformUserId);
  if (missing === null) {
    // The platform does the action, but not for this kind of account (a LinkedIn member's own profile).
    return () =>
      new ApiError(
        422,
        'unsupported_platform',
        `${platformInfo(platform).label} does not let apps ${DOING[action].unsupported} for this account.`,
        { account_id: account.id },
      );
  }
  if (missing.length > 0) {
    return () =>
      new ApiError(
        422,
        'permission_missing',
        `The account has not granted ${missing.join(', ')}, which ${DOING[action].gerund} needs; reconnect it with that permission.`,
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

export async function findVisible(db: Queryable, scope: Scope, id: string, lock = false): Promise<Comment> {
  if (!looksLikeId('comment', id)) throw commentNotFound(id);
  const query = db
    .select()
    .from(comments)
    .where(and(await visible(db, scope), eq(comments.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw commentNotFound(id);
  return row;
}

export async function view(deps: Pick<CommentDeps, 'db' | 'platforms'>, comment: Comment): Promise<CommentView> {
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
