/**
 * Replies to a user's posts, as X's v2 reads them: the user's posts (`GET /2/users/:id/tweets`,
 * without replies), a conversation's posts (`GET /2/tweets/search/recent?query=conversation_id:<id>`,
 * the last 7 days), and hiding a reply in a conversation the caller started
 * (`PUT /2/tweets/:id/hidden`, `tweet.moderate.write`), and deleting the caller's own reply
 * (`DELETE /2/tweets/:id`). Replies live as the sandbox's comments.
 */
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxPost } from '../schema.ts';
import { recordActivity, recordCommentDeletion } from '../store/activity.ts';
import { deleteComment, findComment, listComments, setCommentHidden } from '../store/comments.ts';
import { findPost, listPosts } from '../store/posts.ts';
import { callOptions, SCOPE } from './access.ts';
import { invalidRequest, xDialect, xProblem } from './answers.ts';

/** "The recent search endpoint returns Posts from the last 7 days". */
const SEARCH_WINDOW_MS = 7 * DAY_MS;
const HIDE_SCOPE = 'tweet.moderate.write';

function maxResults(value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw invalidRequest(`max_results must be ${min} to ${max}`);
  return n;
}

/** A post's conversation: the post its chain of replies starts from ("conversation_id"). */
async function conversationOf(store: Store, post: SandboxPost): Promise<string> {
  let at = post;
  while (at.replyToId !== null) {
    const parent = await findPost(store, at.replyToId);
    if (parent === undefined) break;
    at = parent;
  }
  return at.id;
}

/**
 * A post's `text` as X's reads give it: `&`, `<` and `>` as HTML entities, and a post with media
 * ending in the t.co link to them ("intro to Tweet JSON": the media's `url` is in the text).
 */
function textOf(post: SandboxPost): string {
  const escaped = post.caption.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (post.mediaUrl === null || post.mediaType === 'TEXT') return escaped;
  const link = `https://t.co/${Buffer.from(post.id).toString('base64url').slice(-10)}`;
  return escaped === '' ? link : `${escaped} ${link}`;
}

/**
 * A timeline's `start_time`: "YYYY-MM-DDTHH:mm:ssZ", the oldest time of the posts given, "in
 * second granularity and is inclusive" ("User Posts timeline by User ID").
 */
function timeParam(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalidRequest(
      `Invalid 'start_time':'${value}'. 'start_time' must be a valid RFC 3339 date in the format YYYY-MM-DDTHH:mm:ssZ`,
    );
  }
  return Date.parse(value);
}

export function commentRoutes(app: FastifyInstance, store: Store): void {
  app.get('/2/users/:id/tweets', async (request) => {
    const options = callOptions(store.now);
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.tweetRead);
    requireScope(who, options, SCOPE.usersRead);
    const id = (request.params as { id: string }).id;
    if (id !== who.account.id) throw xDialect(store.now).notFound(id);
    const limit = maxResults(param(request, 'max_results'), 5, 100, 10);
    const excluded = (param(request, 'exclude') ?? '').split(',');
    const fields = (param(request, 'tweet.fields') ?? '').split(',');
    const sinceId = param(request, 'since_id');
    const since = sinceId === undefined ? undefined : await findPost(store, sinceId);
    // A since_id X does not know (or another's post) leaves nothing newer to tell here.
    if (sinceId !== undefined && since?.accountId !== id) return { meta: { result_count: 0 } };
    const startTime = timeParam(param(request, 'start_time'));
    const { posts } = await listPosts(store, id, { limit, replies: !excluded.includes('replies'), since });
    const data = [];
    for (const p of posts) {
      // Newest first: the posts from start_time on are the page's first, so none is lost here.
      if (startTime !== undefined && p.createdAt.getTime() < startTime) continue;
      data.push({
        id: p.id,
        text: textOf(p),
        created_at: p.createdAt.toISOString(),
        conversation_id: await conversationOf(store, p),
        ...(fields.includes('referenced_tweets') && p.replyToId !== null
          ? { referenced_tweets: [{ type: 'replied_to', id: p.replyToId }] }
          : {}),
        edit_history_tweet_ids: [p.id],
      });
    }
    // X leaves `data` out when nothing matches.
    return data.length === 0
      ? { meta: { result_count: 0 } }
      : { data, meta: { result_count: data.length, newest_id: data[0]?.id, oldest_id: data.at(-1)?.id } };
  });

  app.get('/2/tweets/search/recent', async (request) => {
    const options = callOptions(store.now);
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.tweetRead);
    requireScope(who, options, SCOPE.usersRead);
    const conversation = /^conversation_id:(\d+)$/.exec(param(request, 'query') ?? '')?.[1];
    if (conversation === undefined) throw invalidRequest('The sandbox searches conversation_id:<id> only');
    const limit = maxResults(param(request, 'max_results'), 10, 100, 10);
    const post = await findPost(store, conversation);
    const since = store.now().getTime() - SEARCH_WINDOW_MS;
    const { comments } = post === undefined ? { comments: [] } : await listComments(store, post.id, { limit: 1000 });
    const found = comments.filter((c) => c.createdAt.getTime() >= since).slice(0, limit);
    const users = new Map(found.map((c) => [c.authorId, c.authorUsername]));
    return {
      ...(found.length === 0
        ? {}
        : {
            data: found.map((c) => ({
              id: c.id,
              text: c.text,
              author_id: c.authorId,
              created_at: c.createdAt.toISOString(),
              conversation_id: conversation,
              referenced_tweets: [{ type: 'replied_to', id: c.parentId ?? conversation }],
              edit_history_tweet_ids: [c.id],
            })),
            includes: { users: [...users].map(([id, username]) => ({ id, username, name: username })) },
          }),
      meta: { result_count: found.length },
    };
  });

  app.put('/2/tweets/:id/hidden', async (request) => {
    const options = callOptions(store.now);
    const who = await caller(store, request, options);
    requireScope(who, options, HIDE_SCOPE);
    const id = (request.params as { id: string }).id;
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body.hidden !== 'boolean') throw invalidRequest('hidden must be true or false');
    const reply = /^\d+$/.test(id) ? await findComment(store, id) : undefined;
    const root = reply === undefined ? undefined : await findPost(store, reply.postId);
    if (reply === undefined || root === undefined) throw xDialect(store.now).notFound(id);
    // Only the author of the conversation's root may hide a reply in it.
    if (root.accountId !== who.account.id) {
      throw xProblem(403, 'Forbidden', 'You can only hide replies to conversations you started.', 'about:blank');
    }
    await setCommentHidden(store, reply.id, body.hidden);
    await recordActivity(store, {
      accountId: who.account.id,
      action: body.hidden ? 'hide' : 'unhide',
      targetId: reply.id,
      detail: {},
    });
    return { data: { hidden: body.hidden } };
  });

  // "Delete Post": the caller's own post only; a reply lives as a comment.
  app.delete('/2/tweets/:id', async (request) => {
    const options = callOptions(store.now);
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.tweetWrite);
    const id = (request.params as { id: string }).id;
    const reply = /^\d+$/.test(id) ? await findComment(store, id) : undefined;
    if (reply === undefined) throw xDialect(store.now).notFound(id);
    if (reply.authorId !== who.account.id) {
      throw xProblem(403, 'Forbidden', 'You are not allowed to delete this Tweet.', 'about:blank');
    }
    await deleteComment(store, reply);
    await recordCommentDeletion(store, who.account.id, reply.id);
    return { data: { deleted: true } };
  });
}
