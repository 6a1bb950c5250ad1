/**
 * Comments on the account's posts: its own (a post's first comment), other people's, the
 * replies under them, and hiding them.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { booleanParam, limitParam, requiredParam } from '../kit.ts';
import { graph } from '../meta/errors.ts';
import { graphTime, pick, requestedFields } from '../meta/fields.ts';
import { ownComment, ownPost } from '../meta/ownership.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import type { Store } from '../platform.ts';
import type { SandboxComment } from '../schema.ts';
import { recordActivity, recordCommentDeletion, recordHiding } from '../store/activity.ts';
import { addComment, deleteComment, findComment, listComments, setCommentHidden } from '../store/comments.ts';
import { notifyCommentAdded } from '../webhooks.ts';
import { call, SCOPE } from './access.ts';
import { instagramScopedId } from './ids.ts';
import { productType } from './media.ts';

/**
 * A comment as the IG Comment reference gives it: `from.id` is the author's Instagram-scoped
 * id (IGSID), the account's own too; `user` ("ID of IG User who created the IG Comment. Only
 * returned if the app user created the IG Comment") is how the account's own comments are told.
 */
export function renderComment(
  comment: SandboxComment,
  accountId: string,
  replies: SandboxComment[] | undefined,
  fields: Set<string>,
) {
  const own = comment.authorId === accountId;
  const values: Record<string, unknown> = {
    id: comment.id,
    text: comment.text,
    timestamp: graphTime(comment.createdAt),
    username: comment.authorUsername,
    from: { id: own ? instagramScopedId(accountId) : comment.authorId, username: comment.authorUsername },
    user: own ? { id: accountId } : undefined,
    hidden: comment.hidden,
    like_count: 0,
    parent_id: comment.parentId ?? undefined,
  };
  if (replies !== undefined) {
    values.replies = { data: replies.map((r) => renderComment(r, accountId, undefined, fields)) };
  }
  return pick(values, fields);
}

export function commentRoutes(app: FastifyInstance, store: Store): void {
  // A comment by the account itself on one of its posts (the first comment of a post).
  app.post('/:version/:id/comments', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.comments);
    const post = await ownPost(store, who, (request.params as { id: string }).id);
    const message = requiredParam(request, graph, 'message');
    if (productType(post) === 'STORY') throw graph.badParameter('Stories cannot be commented on');
    const comment = await addComment(store, {
      postId: post.id,
      parentId: null,
      authorId: who.account.id,
      authorUsername: who.account.username,
      text: message,
    });
    await recordActivity(store, {
      accountId: who.account.id,
      action: 'comment',
      targetId: post.id,
      detail: { comment_id: comment.id, message },
    });
    await notifyCommentAdded(store, comment);
    return { id: comment.id };
  });

  app.get('/:version/:id/comments', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.comments);
    const post = await ownPost(store, who, (request.params as { id: string }).id);
    const limit = limitParam(request, graph, 25, 50);
    const offset = afterCursor(request);
    const { comments, more } = await listComments(store, post.id, { parentId: null, limit, after: offset });
    const fields = requestedFields(request, ['id', 'text', 'timestamp']);
    const data = [];
    for (const comment of comments) {
      const replies = fields.has('replies')
        ? (await listComments(store, post.id, { parentId: comment.id, limit: 1000 })).comments
        : undefined;
      data.push(renderComment(comment, who.account.id, replies, fields));
    }
    return graphList(request, data, more, String((Number(offset ?? 0) || 0) + comments.length));
  });

  app.post('/:version/:id/replies', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.comments);
    const comment = await ownComment(store, who, (request.params as { id: string }).id);
    const message = requiredParam(request, graph, 'message');
    // "You can only reply to top-level comments; replies to a reply will be added to the
    // top-level comment. You cannot reply to hidden comments." (IG Comment Replies reference)
    const top = comment.parentId === null ? comment : await findComment(store, comment.parentId);
    if (!top) throw graph.notFound(comment.parentId ?? comment.id);
    if (comment.hidden || top.hidden) throw graph.badParameter('Hidden comments cannot be replied to');
    const reply = await addComment(store, {
      postId: comment.postId,
      parentId: top.id,
      authorId: who.account.id,
      authorUsername: who.account.username,
      text: message,
    });
    await recordActivity(store, {
      accountId: who.account.id,
      action: 'reply',
      targetId: comment.id,
      detail: { reply_id: reply.id, parent_id: top.id, message },
    });
    await notifyCommentAdded(store, reply);
    return { id: reply.id };
  });

  app.post('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.comments);
    const comment = await ownComment(store, who, (request.params as { id: string }).id);
    const hide = booleanParam(request, graph, 'hide');
    await setCommentHidden(store, comment.id, hide);
    await recordHiding(store, who.account.id, comment.id, hide);
    return { success: true };
  });

  // Comment Moderation: comments on the account's own media can be deleted; others answer as unknown.
  app.delete('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.comments);
    const comment = await ownComment(store, who, (request.params as { id: string }).id);
    await deleteComment(store, comment);
    await recordCommentDeletion(store, who.account.id, comment.id);
    return { success: true };
  });
}
