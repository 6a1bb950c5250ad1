/**
 * Replying to a comment as the account: the reply's workflow (sending, then sent or failed),
 * the call, and the job that publishes a reply the platform was still processing (Threads).
 */
import { eq } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { defineWorkflow, stateValues, transition, workflowTable } from '../../jobs/workflow.ts';
import {
  commentsOf,
  type Platform,
  PlatformError,
  platformInfo,
  pollWaitMs,
  type ReplyOutcome,
} from '../../platforms/index.ts';
import { type Account, accountById, actAsAccount, noteAccountFailure } from '../accounts/index.ts';
import { acting, actionable } from './actions.ts';
import type { CommentDeps } from './inbox.ts';
import { type Comment, type CommentReply, commentReplies, comments } from './tables.ts';

/**
 * A reply's states: recorded as `sending` before the platform is asked (so a reply the platform
 * took is never lost from view), then `sent` or `failed`. A reply the platform is still
 * processing (a Threads container) waits in `sending`, its job queued again. A sent reply the
 * owner deletes is `deleting` before the platform is asked (a crash leaves it there, and the
 * next DELETE asks again: a platform that no longer has it counts as done), then `deleted`, or
 * `sent` again when the platform refused.
 */
export const replyWorkflow = defineWorkflow({
  name: 'comment reply',
  states: {
    sending: { status: 'sending' },
    sent: { status: 'sent' },
    failed: { status: 'failed' },
    deleting: { status: 'deleting' },
    deleted: { status: 'deleted' },
  },
  initial: ['sending'],
  transitions: {
    /** The platform took it (Threads: processing it; the container is recorded and polled). */
    wait: { from: ['sending'] },
    send: { from: ['sending'], to: 'sent' },
    fail: { from: ['sending'], to: 'failed' },
    /** The owner asked to delete it: recorded before the platform is asked. */
    delete: { from: ['sent'], to: 'deleting' },
    /** The platform deleted it (or no longer has it). */
    remove: { from: ['deleting'], to: 'deleted' },
    /** The platform refused to delete it: it is still there. */
    keep: { from: ['deleting'], to: 'sent' },
  },
});

export const replies = workflowTable(replyWorkflow, commentReplies, commentReplies.id);

/**
 * When a reply container still processing is read again, after the `polls`-th read (from 0): as
 * the platform asks its containers to be read (its definition's processing rules; Threads: once
 * a minute), and never sooner than it asked. No jitter: the wait is the platform's processing time.
 */
function nextReplyRead(platform: Platform, polls: number, retryAfterSeconds = 0): Date {
  const rules = platformInfo(platform).publishing.processing;
  const waitMs = rules === null ? 0 : pollWaitMs(rules, polls);
  return new Date(now().getTime() + Math.max(waitMs, retryAfterSeconds * 1000));
}

/**
 * A reply container still processing this long after the reply was sent is given up, as long as
 * the platform asks its containers to be read for (Threads: 5 minutes), not read until it expires.
 */
function processingLimitMs(platform: Platform): number {
  return (platformInfo(platform).publishing.processing?.limitSeconds ?? 0) * 1000;
}

/** A reply whose reading keeps failing in passing is given up after an hour (Threads expires containers after 24 h). */
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
  const adapter = deps.platforms().adapter(account.platform);
  // Recorded before the platform is asked, so a reply the platform took is never lost from
  // view, whatever happens to this request afterwards (it stays `sending`).
  const at = now();
  const [asked] = await deps.db
    .insert(commentReplies)
    .values({
      id: newId('commentReply'),
      commentId: comment.id,
      text,
      status: 'sending',
      ...stateValues(replies, 'sending'),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!asked) throw new Error('the reply was not stored');
  let outcome: ReplyOutcome;
  try {
    outcome = await acting(deps, account, (credentials) =>
      commentsOf(adapter).reply(credentials, comment.platformCommentId, text),
    );
  } catch (error) {
    await transition(deps.db, replies, asked.id, 'fail', {
      set: { error: error instanceof Error ? error.message : String(error) },
    });
    throw error;
  }
  return await deps.db.transaction(async (tx) => {
    const done = now();
    const reply =
      outcome.state === 'sent'
        ? await transition(tx, replies, asked.id, 'send', { set: { platformCommentId: outcome.id, sentAt: done } })
        : await transition(tx, replies, asked.id, 'wait', { set: { containerId: outcome.containerId } });
    if (!reply) throw new Error('the reply record is gone');
    await tx.update(comments).set({ replyStatus: 'replied', updatedAt: done }).where(eq(comments.id, comment.id));
    if (outcome.state === 'sent') await storeOwnReply(tx, account, comment, outcome.id, text, done);
    else {
      await enqueue(
        tx,
        'send_comment_reply',
        { reply_id: reply.id },
        { runAt: nextReplyRead(account.platform, 0), jobKey: `send_comment_reply:${reply.id}` },
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
    await transition(db, replies, reply.id, 'fail', { set: { error: message } });
    deps.log.warn({ reply_id: reply.id, comment_id: comment.id, err: message }, 'a reply could not be sent');
  };
  if (account?.status !== 'connected') return await fail('the account is no longer connected');
  const { containerId } = row.reply;
  if (containerId === null) return;
  const adapter = deps.platforms().adapter(account.platform);
  const { finishReply } = commentsOf(adapter);
  if (finishReply === undefined) return await fail('the platform sends replies at once: there is nothing to finish');
  let outcome: ReplyOutcome;
  try {
    outcome = await actAsAccount(
      { db, secretKey: deps.secretKey, platforms: deps.platforms() },
      account,
      (credentials) => finishReply(credentials, containerId),
    );
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await db.transaction((tx) => noteAccountFailure(tx, account.id, error, account.connectedAt));
    if (error.passing) {
      if (now().getTime() - reply.createdAt.getTime() > REPLY_GIVE_UP_MS) return await fail(error.message);
      return await waitAgain(db, reply, account.platform, error.detail.retryAfterSeconds);
    }
    return await fail(error.message);
  }
  if (outcome.state === 'pending') {
    const limitMs = processingLimitMs(account.platform);
    if (now().getTime() - reply.createdAt.getTime() >= limitMs) {
      return await fail(
        `${platformInfo(account.platform).label} was still processing the reply ${Math.round(limitMs / 60_000)} minutes after it was sent, the longest it asks to be polled for`,
      );
    }
    return await waitAgain(db, reply, account.platform);
  }
  await db.transaction(async (tx) => {
    const at = now();
    const sent = await transition(tx, replies, reply.id, 'send', {
      set: { platformCommentId: outcome.id, sentAt: at },
    });
    if (sent) await storeOwnReply(tx, account, comment, outcome.id, reply.text, at);
  });
}

/** A reply still being processed waits in `sending` and its job is queued for the next read; one that moved on is left. */
async function waitAgain(db: Db, reply: CommentReply, platform: Platform, retryAfterSeconds?: number): Promise<void> {
  await db.transaction(async (tx) => {
    const waiting = await transition(tx, replies, reply.id, 'wait', { set: { polls: reply.polls + 1 } });
    if (!waiting) return;
    await enqueue(
      tx,
      'send_comment_reply',
      { reply_id: reply.id },
      {
        runAt: nextReplyRead(platform, reply.polls + 1, retryAfterSeconds),
        jobKey: `send_comment_reply:${reply.id}`,
      },
    );
  });
}
