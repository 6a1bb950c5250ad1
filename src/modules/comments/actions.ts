/**
 * What the owner does to a comment: hide or unhide it on the platform, or set the inbox's own
 * reply status (replying is reply-workflow.ts). A platform's refusal marks the account where it
 * concerns it and answers as the API does.
 */
import { and, eq, ne } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Scope } from '../../http/scope.ts';
import { type AccountCredentials, commentsOf } from '../../platforms/index.ts';
import { type Account, accountById, actAsAccountAnswering } from '../accounts/index.ts';
import { type CommentAction, type CommentDeps, commentNotFound, findVisible, refusal, view } from './inbox.ts';
import type { CommentView } from './json.ts';
import { type Comment, comments, type ReplyStatus } from './tables.ts';

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

/** Runs an action as the account; a refusal marks the account where it concerns it, and answers as the API does. */
export async function acting<T>(
  deps: CommentDeps,
  account: Account,
  call: (credentials: AccountCredentials) => Promise<T>,
): Promise<T> {
  return await actAsAccountAnswering(
    { db: deps.db, secretKey: deps.secretKey, platforms: deps.platforms(), log: deps.log },
    account,
    'the platform refused a comment action',
    call,
  );
}

export async function actionable(
  deps: CommentDeps,
  scope: Scope,
  id: string,
  action: CommentAction,
): Promise<{ comment: Comment; account: Account }> {
  const comment = await findVisible(deps.db, scope, id);
  const account = await accountById(deps.db, comment.accountId);
  if (!account) throw commentNotFound(id);
  const refused = refusal(deps, account, comment, action);
  if (refused) throw refused();
  return { comment, account };
}

/** Hides or unhides the comment on the platform, then in the inbox. */
export async function setHidden(deps: CommentDeps, scope: Scope, id: string, hidden: boolean): Promise<CommentView> {
  const { comment, account } = await actionable(deps, scope, id, 'hide');
  const adapter = deps.platforms().adapter(account.platform);
  await acting(deps, account, (credentials) =>
    commentsOf(adapter).setHidden(credentials, comment.platformCommentId, hidden),
  );
  const [updated] = await deps.db
    .update(comments)
    .set({ hidden, updatedAt: now() })
    .where(eq(comments.id, comment.id))
    .returning();
  return await view(deps, updated ?? comment);
}
