/**
 * Posting: `POST /2/tweets` (text, a reply to a post, the media uploaded before it), answering
 * 201 with the post's id and text. Its text is checked against X's limit of 280 by X's weighted
 * count.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import type { Store } from '../platform.ts';
import { recordActivity, recordPublication } from '../store/activity.ts';
import { addComment, findComment } from '../store/comments.ts';
import { createPost, findPost } from '../store/posts.ts';
import { callOptions, SCOPE } from './access.ts';
import { invalidRequest, PROBLEMS, xProblem } from './answers.ts';
import { attachedMedia } from './media.ts';
import { weighted } from './weighted-text.ts';

const MAX_WEIGHT = 280;

function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidRequest(`${name} must be an object`);
  return value as Record<string, unknown>;
}

/** A poll as Create Post documents it: 2 to 4 options of at most 25 characters, 5 to 10,080 minutes. */
function checkedPoll(poll: Record<string, unknown>) {
  const { options, duration_minutes: minutes } = poll;
  if (!Array.isArray(options) || options.length < 2 || options.length > 4) {
    throw invalidRequest('poll.options must hold 2 to 4 options');
  }
  if (options.some((o) => typeof o !== 'string' || o === '' || [...o].length > 25)) {
    throw invalidRequest('each poll option has 1 to 25 characters');
  }
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 5 || minutes > 10_080) {
    throw invalidRequest('poll.duration_minutes must be 5 to 10080');
  }
  return { options: options as string[], duration_minutes: minutes };
}

export function publishingRoutes(app: FastifyInstance, store: Store): void {
  app.post('/2/tweets', async (request, reply) => {
    const options = callOptions(store.now, true);
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.tweetWrite);
    const body = jsonObject(request.body ?? null, 'The body');
    const text = body.text ?? '';
    if (typeof text !== 'string') throw invalidRequest('text must be a string');
    const mediaIds = body.media === undefined ? [] : jsonObject(body.media, 'media').media_ids;
    if (!Array.isArray(mediaIds)) throw invalidRequest('media.media_ids must be an array');
    if (text.trim() === '' && mediaIds.length === 0) throw invalidRequest('Post text or media is required.');
    const attached = await attachedMedia(store, who.account.id, mediaIds);
    if (weighted(text) > MAX_WEIGHT) {
      throw xProblem(
        403,
        'Forbidden',
        'You are not allowed to create a Tweet with this text: it is too long.',
        'about:blank',
      );
    }
    const poll = body.poll === undefined ? null : checkedPoll(jsonObject(body.poll, 'poll'));
    if (poll !== null && attached.urls.length > 0) throw invalidRequest('A post with a poll cannot have media.');
    let replyToId: string | null = null;
    if (body.reply !== undefined) {
      const target = String(jsonObject(body.reply, 'reply').in_reply_to_tweet_id ?? '');
      // A reply to a reply: it joins that conversation (kept as a comment under it).
      const answered = /^\d+$/.test(target) ? await findComment(store, target) : undefined;
      if (answered !== undefined) {
        const made = await addComment(store, {
          postId: answered.postId,
          parentId: answered.id,
          authorId: who.account.id,
          authorUsername: who.account.username,
          text,
        });
        await recordActivity(store, {
          accountId: who.account.id,
          action: 'reply',
          targetId: answered.id,
          detail: { reply_id: made.id, message: text },
        });
        return reply.code(201).send({ data: { id: made.id, text, edit_history_tweet_ids: [made.id] } });
      }
      const parent = /^\d+$/.test(target) ? await findPost(store, target) : undefined;
      if (parent === undefined || parent.accountId === undefined) {
        throw xProblem(
          400,
          'Invalid Request',
          'One or more parameters to your request was invalid.',
          `${PROBLEMS}invalid-request`,
          {
            errors: [
              {
                parameters: { 'reply.in_reply_to_tweet_id': [target] },
                message: 'The post you are replying to does not exist.',
              },
            ],
          },
        );
      }
      replyToId = parent.id;
    }
    const post = await createPost(store, who.account, {
      caption: text,
      mediaType: attached.type,
      mediaUrl: attached.urls[0] ?? null,
      viaApi: true,
      replyToId,
    });
    await recordPublication(
      store,
      post,
      {
        text,
        mediaUrls: attached.urls,
        type: post.mediaType,
        options: { reply_to: replyToId, ...(poll === null ? {} : { poll }) },
      },
      attached.received.length === 0 ? {} : { media: attached.received },
    );
    return reply.code(201).send({ data: { id: post.id, text, edit_history_tweet_ids: [post.id] } });
  });
}
