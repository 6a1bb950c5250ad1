/**
 * Deleting a reply the account sent through the API, on the platform: the reply is marked
 * `deleting` before the platform is asked, `deleted` once the platform confirmed it (the reply
 * stays in the comment's `replies`, showing it), and the account's own comment it became goes.
 */
import { and, eq } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId } from '../../ids.ts';
import { transition } from '../../jobs/workflow.ts';
import { commentsOf } from '../../platforms/index.ts';
import { acting, actionable } from './actions.ts';
import { type CommentDeps, findVisible } from './inbox.ts';
import { replies } from './reply-workflow.ts';
import { type CommentReply, commentReplies, comments } from './tables.ts';

const replyNotFound = (id: string) =>
  new ApiError(404, 'reply_not_found', `No reply ${JSON.stringify(id)} to this comment.`);

/** Why a reply in this state cannot be deleted (null: it can, or it already was). */
function notDeletable(reply: CommentReply): ApiError | null {
  if (reply.status === 'sending') {
    return new ApiError(
      409,
      'reply_not_deletable',
      "The reply is still being sent; delete it once it is `sent` (see the comment's `replies`).",
      { reply_id: reply.id, status: reply.status },
    );
  }
  if (reply.status === 'failed') {
    return new ApiError(409, 'reply_not_deletable', 'The reply was never sent: nothing is on the platform to delete.', {
      reply_id: reply.id,
      status: reply.status,
    });
  }
  return null;
}

/** The comment's reply `replyId`, if it has one by that id. */
async function replyOf(deps: CommentDeps, commentId: string, replyId: string): Promise<CommentReply | undefined> {
  if (!looksLikeId('commentReply', replyId)) return undefined;
  const [reply] = await deps.db
    .select()
    .from(commentReplies)
    .where(and(eq(commentReplies.id, replyId), eq(commentReplies.commentId, commentId)));
  return reply;
}

/**
 * Deletes the account's reply `replyId` to comment `commentId` on the platform. A reply already
 * deleted answers as it is, whatever the account's state now (deleting twice is no error); one
 * still `sending` or `failed` is 409 `reply_not_deletable`. A reply left `deleting` (a crash, or
 * another request at the same time) is asked of the platform again: a platform that no longer
 * has it counts as deleted.
 */
export async function deleteReply(
  deps: CommentDeps,
  scope: Scope,
  commentId: string,
  replyId: string,
): Promise<CommentReply> {
  const reply = await replyOf(deps, (await findVisible(deps.db, scope, commentId)).id, replyId);
  if (reply?.status === 'deleted') return reply;
  // What the platform and the account allow is checked before the reply's own state.
  const { comment, account } = await actionable(deps, scope, commentId, 'delete_reply');
  if (reply === undefined) throw replyNotFound(replyId);
  const refused = notDeletable(reply);
  if (refused) throw refused;
  const platformId = reply.platformCommentId;
  if (platformId === null) throw new Error('a sent reply without its platform id');
  // This request owns the deletion when it marked the reply, or finds it left `deleting` by a
  // request that died; a request racing another's deletion asks the platform too (its not-found
  // counts as deleted) but leaves the state to the owner.
  const owned = reply.status === 'deleting' || (await transition(deps.db, replies, reply.id, 'delete')) !== null;
  const { deleteReply: deleteOnPlatform } = commentsOf(deps.platforms().adapter(account.platform));
  if (deleteOnPlatform === undefined)
    throw new Error(`${account.platform} allows deleting replies but its adapter cannot`);
  try {
    await acting(deps, account, (credentials) => deleteOnPlatform(credentials, platformId, comment.platformCommentId));
  } catch (error) {
    // The platform still has the reply: it is `sent` again, and the answer says why.
    if (owned) await transition(deps.db, replies, reply.id, 'keep');
    throw error;
  }
  return await deps.db.transaction(async (tx) => {
    const removed = await transition(tx, replies, reply.id, 'remove', { set: { deletedAt: now() } });
    if (removed === null) {
      // Another request moved it meanwhile: answered as it stands.
      const [row] = await tx.select().from(commentReplies).where(eq(commentReplies.id, reply.id));
      if (!row) throw new Error('the reply record is gone');
      return row;
    }
    // The account's own comment the reply became (GET /v1/comments/{id} showed it) is gone from the platform.
    await tx
      .delete(comments)
      .where(
        and(
          eq(comments.accountId, account.id),
          eq(comments.platformCommentId, platformId),
          eq(comments.byAccount, true),
        ),
      );
    return removed;
  });
}
