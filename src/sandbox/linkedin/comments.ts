/**
 * An organization's posts and their comments: the Posts API's finder by author
 * (`GET /rest/posts?q=author`) and one post (`GET /rest/posts/{urn}`), and the Comments API
 * (`GET` and `POST /rest/socialActions/{target}/comments`, and "Delete a Comment", `DELETE
 * /rest/socialActions/{target}/comments/{id}?actor=`): comments on a post, or, with a comment's
 * URN as the target, the comments under it. Only the actor's own comment can be deleted. A comment is named
 * `urn:li:comment:(urn:li:activity:{post},{id})`; LinkedIn offers no hiding.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxComment, SandboxPost } from '../schema.ts';
import { recordActivity } from '../store/activity.ts';
import { addComment, deleteComment, findComment, listComments } from '../store/comments.ts';
import { findPost, listPosts } from '../store/posts.ts';
import { administered, call, checkVersionHeaders, organizationUrn, personUrn, SCOPE } from './access.ts';
import { linkedin, linkedinAnswer } from './answers.ts';
import { nonNegative } from './organizations.ts';

const POST_URN = /^urn:li:(?:share|ugcPost|activity):(\d+)$/;
const PERSON_URN = /^urn:li:person:[A-Za-z0-9_-]+$/;
const COMMENT_URN = /^urn:li:comment:\(urn:li:activity:(\d+),(\d+)\)$/;

const activityUrn = (postId: string) => `urn:li:activity:${postId}`;
const commentUrn = (c: SandboxComment) => `urn:li:comment:(${activityUrn(c.postId)},${c.id})`;

function paging(request: FastifyRequest): { start: number; count: number } {
  return {
    start: nonNegative(param(request, 'start'), 0, 'start'),
    count: Math.min(nonNegative(param(request, 'count'), 10, 'count'), 100),
  };
}

function renderPost(post: SandboxPost, author = organizationUrn(post.accountId)) {
  return {
    id: `urn:li:share:${post.id}`,
    author,
    commentary: post.caption ?? '',
    visibility: 'PUBLIC',
    lifecycleState: 'PUBLISHED',
    createdAt: post.createdAt.getTime(),
    publishedAt: post.createdAt.getTime(),
    lastModifiedAt: post.createdAt.getTime(),
  };
}

/**
 * A comment as the Comments API answers it: its author an organization (the page's own) or a
 * member; `commentsSummary` counts the comments under it.
 */
function renderComment(post: SandboxPost, comment: SandboxComment, replies: number) {
  const actor = comment.authorId === post.accountId ? organizationUrn(post.accountId) : personUrn(comment.authorId);
  const parent = comment.parentId === null ? undefined : `urn:li:comment:(${activityUrn(post.id)},${comment.parentId})`;
  return {
    id: comment.id,
    commentUrn: commentUrn(comment),
    $URN: commentUrn(comment),
    actor,
    object: activityUrn(post.id),
    message: { text: comment.text, attributes: [] },
    created: { actor, time: comment.createdAt.getTime() },
    lastModified: { actor, time: comment.createdAt.getTime() },
    commentsSummary: { selectedComments: [], totalFirstLevelComments: replies, aggregatedTotalComments: replies },
    ...(parent === undefined ? {} : { parentComment: parent }),
  };
}

/** The post a post or comment URN names, of an organization the caller administers. */
async function targetOf(
  store: Store,
  who: Caller,
  target: string,
): Promise<{ post: SandboxPost; parent: SandboxComment | null }> {
  const onComment = COMMENT_URN.exec(target);
  const postId = onComment?.[1] ?? POST_URN.exec(target)?.[1];
  const post = postId === undefined ? undefined : await findPost(store, postId);
  if (!post) throw linkedin.notFound(target);
  await administered(store, who, post.accountId);
  if (onComment === null) return { post, parent: null };
  const parent = await findComment(store, onComment[2] ?? '');
  if (!parent || parent.postId !== post.id) throw linkedin.notFound(target);
  return { post, parent };
}

export function commentRoutes(app: FastifyInstance, store: Store): void {
  app.get('/rest/posts', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    if (param(request, 'q') !== 'author') throw linkedin.badParameter('q must be author');
    const author = param(request, 'author') ?? '';
    const { start, count } = paging(request);
    if (PERSON_URN.test(author)) {
      // A member's posts: r_member_social, "granted to select developers only"; their own alone.
      requireScope(who, call, SCOPE.memberRead);
      if (author !== personUrn(who.account.id)) {
        throw linkedinAnswer(403, 'ACCESS_DENIED', `Not enough permissions to access: ${author}`, 100);
      }
      const { posts } = await listPosts(store, who.account.id, { limit: start + count });
      return { paging: { start, count, links: [] }, elements: posts.slice(start).map((p) => renderPost(p, author)) };
    }
    requireScope(who, call, SCOPE.organizationRead);
    const org = await administered(store, who, author);
    const { posts } = await listPosts(store, org.id, { limit: start + count });
    return { paging: { start, count, links: [] }, elements: posts.slice(start).map((p) => renderPost(p)) };
  });

  app.get('/rest/posts/:urn', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.organizationRead);
    return renderPost((await targetOf(store, who, (request.params as { urn: string }).urn)).post);
  });

  app.get('/rest/socialActions/:target/comments', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.organizationRead);
    const { post, parent } = await targetOf(store, who, (request.params as { target: string }).target);
    const { start, count } = paging(request);
    const { comments } = await listComments(store, post.id, { parentId: parent?.id ?? null, limit: start + count });
    const total = (await listComments(store, post.id, { parentId: parent?.id ?? null, limit: 10_000 })).comments.length;
    const elements = [];
    for (const c of comments.slice(start)) {
      const replies = (await listComments(store, post.id, { parentId: c.id, limit: 10_000 })).comments.length;
      elements.push(renderComment(post, c, replies));
    }
    return { paging: { start, count, total, links: [] }, elements };
  });

  app.post('/rest/socialActions/:target/comments', async (request, reply) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.organizationWrite);
    const target = (request.params as { target: string }).target;
    const { post, parent } = await targetOf(store, who, target);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const org = await administered(store, who, String(body.actor ?? ''));
    if (org.id !== post.accountId) {
      throw linkedinAnswer(403, 'ACCESS_DENIED', `${organizationUrn(org.id)} cannot comment as the post's author`, 100);
    }
    if (body.object !== activityUrn(post.id) && body.object !== `urn:li:share:${post.id}`) {
      throw linkedin.badParameter(`object must name the post commented on, ${activityUrn(post.id)}`);
    }
    if (parent !== null && body.parentComment !== target) {
      throw linkedin.badParameter('parentComment must be the comment the reply is created under');
    }
    const text = (body.message as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || text.trim() === '') throw linkedin.badParameter('message.text is required');
    const comment = await addComment(store, {
      postId: post.id,
      parentId: parent?.id ?? null,
      authorId: org.id,
      authorUsername: org.username,
      text,
    });
    const rendered = renderComment(post, comment, 0);
    await recordActivity(store, {
      accountId: org.id,
      action: parent === null ? 'comment' : 'reply',
      targetId: target,
      detail: {
        comment_urn: rendered.commentUrn,
        actor: body.actor,
        object: body.object,
        parent_comment: body.parentComment ?? null,
        message: text,
      },
    });
    return reply.code(201).header('x-restli-id', comment.id).send(rendered);
  });

  app.delete('/rest/socialActions/:target/comments/:id', async (request, reply) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.organizationWrite);
    const { target, id } = request.params as { target: string; id: string };
    const { post, parent } = await targetOf(store, who, target);
    const actor = param(request, 'actor');
    if (actor === undefined) throw linkedin.badParameter('actor is required');
    const org = await administered(store, who, actor);
    const comment = await findComment(store, id);
    // The comment must be under the target named: on the post (first level) or under the parent comment.
    if (!comment || comment.postId !== post.id || comment.parentId !== (parent?.id ?? null)) {
      throw linkedin.notFound(`urn:li:comment:(${activityUrn(post.id)},${id})`);
    }
    if (comment.authorId !== org.id) {
      throw linkedinAnswer(403, 'ACCESS_DENIED', `${actor} cannot delete a comment it did not write`, 100);
    }
    await deleteComment(store, comment);
    await recordActivity(store, {
      accountId: org.id,
      action: 'delete_comment',
      targetId: commentUrn(comment),
      detail: { target, actor },
    });
    return reply.code(204).send();
  });
}
