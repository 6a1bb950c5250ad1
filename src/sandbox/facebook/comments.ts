/**
 * Comments on a page's posts: reading them (`filter`, `order`), the page's own replies, and
 * hiding other people's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { booleanParam, limitParam, param, requiredParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { graphTime, pick, requestedFields } from '../meta/fields.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxComment } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { recordActivity, recordCommentDeletion, recordHiding } from '../store/activity.ts';
import {
  addComment,
  commentsUnder,
  deleteComment,
  findComment,
  listComments,
  setCommentHidden,
} from '../store/comments.ts';
import { notifyCommentAdded } from '../webhooks.ts';
import { call, ownComment, ownPost, SCOPE, targetId } from './access.ts';

/** Graph's `from` is `{id, name}`: the page's own comments carry the page's name. */
export function renderComment(comment: SandboxComment, page: SandboxAccount, fields: Set<string>) {
  const byPage = comment.authorId === page.id;
  return pick(
    {
      id: comment.id,
      message: comment.text,
      created_time: graphTime(comment.createdAt),
      from: { id: comment.authorId, name: byPage ? page.name : comment.authorUsername },
      is_hidden: comment.hidden,
      can_hide: !byPage,
      parent: comment.parentId === null ? undefined : { id: comment.parentId },
      like_count: 0,
    },
    fields,
  );
}

/** Comments of a post or under a comment: `filter` toplevel | stream, `order` chronological | reverse_chronological. */
function selectComments(all: SandboxComment[], parentId: string | null, request: FastifyRequest): SandboxComment[] {
  const filter = param(request, 'filter') ?? 'toplevel';
  const order = param(request, 'order') ?? 'chronological';
  if (filter !== 'toplevel' && filter !== 'stream') throw graph.badParameter('filter must be toplevel or stream');
  if (!['chronological', 'reverse_chronological', 'ranked'].includes(order)) {
    throw graph.badParameter('order must be chronological, reverse_chronological or ranked');
  }
  let selected: SandboxComment[];
  if (filter === 'toplevel') selected = all.filter((c) => c.parentId === parentId);
  else if (parentId === null) selected = all;
  else selected = commentsUnder(all, parentId);
  const newestFirst = [...selected].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id),
  );
  return order === 'reverse_chronological' ? newestFirst : newestFirst.reverse();
}

export function commentRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/:id/comments', async (request) => {
    const who = await caller(store, request, call);
    const id = targetId(request, who);
    const comment = await findComment(store, id);
    const post = comment ? await ownPost(store, who, comment.postId) : await ownPost(store, who, id);
    requireScope(who, call, SCOPE.readUserContent);
    const all = (await listComments(store, post.id, { limit: 10_000 })).comments;
    const selected = selectComments(all, comment?.id ?? null, request);
    const limit = limitParam(request, graph, 25, 100);
    const offset = Number(afterCursor(request) ?? 0) || 0;
    const slice = selected.slice(offset, offset + limit);
    const fields = requestedFields(request, ['id', 'message', 'created_time', 'from']);
    const page = (await findAccount(store, post.accountId)) as SandboxAccount;
    return graphList(
      request,
      slice.map((c) => renderComment(c, page, fields)),
      offset + slice.length < selected.length,
      String(offset + slice.length),
    );
  });

  app.post('/:version/:id/comments', async (request) => {
    const who = await caller(store, request, call);
    const id = targetId(request, who);
    const target = await findComment(store, id);
    const post = target ? await ownPost(store, who, target.postId) : await ownPost(store, who, id);
    requireScope(who, call, SCOPE.manageEngagement);
    const message = requiredParam(request, graph, 'message');
    // Facebook threads are two levels deep: a reply to a reply joins its top-level comment.
    const reply = await addComment(store, {
      postId: post.id,
      parentId: target ? (target.parentId ?? target.id) : null,
      authorId: who.account.id,
      authorUsername: who.account.username,
      text: message,
    });
    await recordActivity(store, {
      accountId: who.account.id,
      action: 'reply',
      targetId: target ? target.id : post.id,
      detail: { reply_id: reply.id, message },
    });
    await notifyCommentAdded(store, reply);
    return { id: reply.id };
  });

  app.post('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    const comment = await ownComment(store, who, targetId(request, who));
    requireScope(who, call, SCOPE.manageEngagement);
    const hidden = booleanParam(request, graph, 'is_hidden');
    if (comment.authorId === who.account.id) {
      throw graphAnswer(400, 100, '(#100) A page cannot hide its own comments');
    }
    await setCommentHidden(store, comment.id, hidden);
    await recordHiding(store, who.account.id, comment.id, hidden);
    return { success: true };
  });

  // "delete a post or comment, on your Facebook Page Feed as the Page" (Page Content): any comment on the page's posts.
  app.delete('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    const comment = await ownComment(store, who, targetId(request, who));
    requireScope(who, call, SCOPE.manageEngagement);
    await deleteComment(store, comment);
    await recordCommentDeletion(store, who.account.id, comment.id);
    return { success: true };
  });
}
