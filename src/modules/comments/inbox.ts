/**
 * The inbox query: comments in the caller's scope, newest first, each with its parent, the
 * replies sent through the service and what its account allows now. Every read carries the
 * owner and the accounts the caller sees; comments are keyed by account, so they follow a
 * moved account.
 */
import { and, eq, notInArray, type SQL, sql } from 'drizzle-orm';
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
  const values: Record<string, unknown> = {
    ownerId: scope.ownerId,
    deleting: await profilesBeingDeleted(deps.db, scope.ownerId),
    limit: query.limit + 1,
  };
  const given = new Set<InboxFilter>();
  const give = (filter: InboxFilter, value: unknown) => {
    if (value === undefined || value === null) return;
    given.add(filter);
    values[filter] = value;
  };
  give('profileId', scope.profileId);
  give('accountId', query.accountId);
  give('postId', query.postId);
  give('replyStatus', query.replyStatus);
  give('platform', query.platform);
  give('from', query.from);
  give('to', query.to);
  if (query.hidden !== undefined) given.add(query.hidden ? 'hidden' : 'shown');
  if (query.after !== undefined) {
    const [at = '', id = ''] = query.after.split('|');
    give('after', new Date(at));
    values.afterId = id;
  }
  const rows = await inboxStatement(deps.db, given).execute(values);
  const views = await viewsOf(deps, rows);
  return views.map((view) => ({ ...view, id: `${view.comment.commentedAt.toISOString()}|${view.comment.id}` }));
}

/**
 * The inbox's filters, each a condition of the statement made for the set a request gives (its
 * value the placeholder of the same name; `after` the position after which the page begins, with
 * `afterId`). A request then only fills in values: the query is built once and parsed once per
 * connection, where one built for each request costs both every time. `hidden` and `shown` are
 * written into the statement: hidden comments are few, and only a statement that says `hidden`
 * may read the index of hidden ones.
 */
const INBOX_FILTERS = [
  'profileId',
  'accountId',
  'postId',
  'replyStatus',
  'platform',
  'from',
  'to',
  'hidden',
  'shown',
  'after',
] as const;
type InboxFilter = (typeof INBOX_FILTERS)[number];

function condition(filter: InboxFilter): SQL {
  const value = sql.placeholder(filter);
  switch (filter) {
    case 'profileId':
      return sql`${comments.profileId} = ${value}`;
    case 'accountId':
      return sql`${comments.accountId} = ${value}`;
    case 'postId':
      return sql`${comments.postId} = ${value}`;
    case 'replyStatus':
      return sql`${comments.replyStatus} = ${value}`;
    case 'platform':
      return sql`${comments.platform} = ${value}`;
    case 'from':
      return sql`${comments.commentedAt} >= ${value}::timestamptz`;
    case 'to':
      return sql`${comments.commentedAt} <= ${value}::timestamptz`;
    case 'hidden':
      return sql`${comments.hidden}`;
    case 'shown':
      return sql`not ${comments.hidden}`;
    case 'after':
      return sql`(${comments.commentedAt}, ${comments.id}) < (${value}::timestamptz, ${sql.placeholder('afterId')})`;
  }
}

/** The statements made so far, per database handle and set of filters (at most one a set). */
const inboxStatements = preparedPerDb(() => new Map<string, InboxStatement>());
type InboxStatement = ReturnType<typeof buildInboxStatement>;

function inboxStatement(db: Db, given: ReadonlySet<InboxFilter>): InboxStatement {
  const made = inboxStatements(db);
  const key = INBOX_FILTERS.map((f) => (given.has(f) ? '1' : '0')).join('');
  let statement = made.get(key);
  if (statement === undefined) {
    statement = buildInboxStatement(db, given, `comments_inbox_${Number.parseInt(key, 2).toString(36)}`);
    made.set(key, statement);
  }
  return statement;
}

function buildInboxStatement(db: Db, given: ReadonlySet<InboxFilter>, name: string) {
  return (
    db
      .select()
      .from(comments)
      .where(
        and(
          sql`${comments.ownerId} = ${sql.placeholder('ownerId')}`,
          sql`${comments.profileId} <> all(${sql.placeholder('deleting')}::text[])`,
          sql`not ${comments.byAccount}`,
          ...INBOX_FILTERS.filter((f) => given.has(f)).map(condition),
        ),
      )
      // As the inbox indexes are ordered (drizzle's desc() is DESC NULLS LAST), so they give the order.
      .orderBy(sql`${comments.commentedAt} desc nulls last`, sql`${comments.id} desc nulls last`)
      .limit(sql.placeholder('limit'))
      .prepare(name)
  );
}

/**
 * Each comment with the replies sent through us (read for those that have any) and what its
 * account allows now (the accounts module's answer); its parent's id is kept with it.
 */
async function viewsOf(deps: Pick<CommentDeps, 'db' | 'platforms'>, rows: readonly Comment[]): Promise<CommentView[]> {
  const [states, replies] = await Promise.all([
    accountStates(
      deps.db,
      rows.map((c) => c.accountId),
    ),
    repliesOf(
      deps.db,
      rows.filter((c) => c.hasReplies).map((c) => c.id),
    ),
  ]);
  return rows.map((comment) => {
    const account = states.get(comment.accountId);
    return {
      comment,
      parentId: comment.parentId,
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

/** The comment as the API shows it: `comment` is its row as just read or written (its parent's id is kept with it). */
export async function view(deps: Pick<CommentDeps, 'db' | 'platforms'>, comment: Comment): Promise<CommentView> {
  const [one] = await viewsOf(deps, [comment]);
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
