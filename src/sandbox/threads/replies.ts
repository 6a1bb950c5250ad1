/**
 * Replies under the account's posts (Threads' reply management): reading them, the
 * account's own replies, and hiding a top-level reply with those under it.
 */
import type { FastifyInstance } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import { booleanParam, limitParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { graphTime, pick, requestedFields } from '../meta/fields.ts';
import { ownComment, ownPost } from '../meta/ownership.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import type { Store } from '../platform.ts';
import type { SandboxComment } from '../schema.ts';
import { recordHiding } from '../store/activity.ts';
import { commentsUnder, listComments, listCommentsBy, setCommentHidden } from '../store/comments.ts';
import { findPost } from '../store/posts.ts';
import { call, SCOPE } from './access.ts';
import { threadsReplyPermalink } from './ids.ts';

/** A reply as Threads' reply management gives it: a post of its author's in the conversation. */
export function renderReply(comment: SandboxComment, who: Caller, fields: Set<string>) {
  return pick(
    {
      id: comment.id,
      text: comment.text,
      username: comment.authorUsername,
      permalink: threadsReplyPermalink(comment),
      timestamp: graphTime(comment.createdAt),
      media_product_type: 'THREADS',
      media_type: 'TEXT_POST',
      shortcode: comment.id,
      is_reply: true,
      is_reply_owned_by_me: comment.authorId === who.account.id,
      hide_status: comment.hidden ? 'HIDDEN' : 'NOT_HUSHED',
      replied_to: { id: comment.parentId ?? comment.postId },
      root_post: { id: comment.postId },
    },
    fields,
  );
}

/** The ids of the replies nested under `reply`, at every depth. */
async function nestedUnder(store: Store, reply: SandboxComment): Promise<string[]> {
  const { comments } = await listComments(store, reply.postId, { limit: 10_000 });
  return commentsUnder(comments, reply.id).map((c) => c.id);
}

/** The replies under a post or a reply, newest first: direct ones, or (`all`) every depth. */
async function repliesUnder(store: Store, who: Caller, id: string, all: boolean): Promise<SandboxComment[]> {
  const post = await findPost(store, id);
  const postId = post ? (await ownPost(store, who, id)).id : (await ownComment(store, who, id)).postId;
  const { comments } = await listComments(store, postId, { limit: 10_000 });
  const parentOf = (c: SandboxComment) => c.parentId ?? c.postId;
  if (!all) return comments.filter((c) => parentOf(c) === id);
  if (post) return comments;
  return commentsUnder(comments, id);
}

export function replyRoutes(app: FastifyInstance, store: Store): void {
  for (const edge of ['replies', 'conversation'] as const) {
    app.get(`/:version/:id/${edge}`, async (request) => {
      const who = await caller(store, request, call);
      requireScope(who, call, SCOPE.basic);
      requireScope(who, call, SCOPE.readReplies);
      const { id } = request.params as { id: string };
      const limit = limitParam(request, graph, 25, 100);
      const offset = Number(afterCursor(request) ?? 0) || 0;
      // The user's own replies (GET /{threads-user-id}/replies), or the replies under a post or reply.
      const ownReplies = edge === 'replies' && (id === 'me' || id === who.account.id);
      const replies = ownReplies
        ? await listCommentsBy(store, who.account.id)
        : await repliesUnder(store, who, id, edge === 'conversation');
      const page = replies.slice(offset, offset + limit);
      const fields = requestedFields(request, ['id']);
      return graphList(
        request,
        page.map((r) => renderReply(r, who, fields)),
        offset + limit < replies.length,
        String(offset + page.length),
      );
    });
  }

  app.post('/:version/:id/manage_reply', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.manageReplies);
    const reply = await ownComment(store, who, (request.params as { id: string }).id);
    const hide = booleanParam(request, graph, 'hide');
    // Threads' reply management: top-level replies only, and the nested ones follow.
    if (reply.parentId !== null) {
      throw graphAnswer(
        400,
        100,
        '(#100) Only top-level replies can be hidden or unhidden; replies nested deeper follow their top-level reply',
      );
    }
    for (const id of [reply.id, ...(await nestedUnder(store, reply))]) await setCommentHidden(store, id, hide);
    await recordHiding(store, who.account.id, reply.id, hide);
    return { success: true };
  });
}
