/**
 * Reading a post: `GET /2/tweets/:id` with `tweet.fields=public_metrics` (its counts: impressions,
 * likes, replies, reposts, quotes, bookmarks), answered 200 with an `errors` entry for a post X
 * does not have, as X's lookups answer.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { findAccount } from '../store/accounts.ts';
import { insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { findPost } from '../store/posts.ts';
import { callOptions, SCOPE } from './access.ts';
import { PROBLEMS } from './answers.ts';

/** A post's counts, as public_metrics names them; `PUT /_control/insights` takes these names. */
export const POST_METRICS = [
  'impression_count',
  'like_count',
  'reply_count',
  'retweet_count',
  'quote_count',
  'bookmark_count',
];

export function postRoutes(app: FastifyInstance, store: Store): void {
  app.get('/2/tweets/:id', async (request) => {
    const options = callOptions(store.now);
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.tweetRead);
    requireScope(who, options, SCOPE.usersRead);
    const id = (request.params as { id: string }).id;
    const post = /^\d+$/.test(id) ? await findPost(store, id) : undefined;
    if (post === undefined) {
      return {
        errors: [
          {
            value: id,
            detail: `Could not find tweet with id: [${id}].`,
            title: 'Not Found Error',
            resource_type: 'tweet',
            parameter: 'id',
            resource_id: id,
            type: `${PROBLEMS}resource-not-found`,
          },
        ],
      };
    }
    const fields = (param(request, 'tweet.fields') ?? '').split(',');
    const author = param(request, 'expansions') === 'author_id' ? await findAccount(store, post.accountId) : undefined;
    const data: Record<string, unknown> = {
      id: post.id,
      text: post.caption,
      author_id: post.accountId,
      edit_history_tweet_ids: [post.id],
      ...(fields.includes('created_at') ? { created_at: post.createdAt.toISOString() } : {}),
    };
    if (fields.includes('public_metrics')) {
      const figures = await insightFigures(store, {
        accountId: post.accountId,
        postId: post.id,
        metrics: POST_METRICS,
        days: [LIFETIME_DAY],
      });
      // A count set to no data (null) is left out of the answer.
      const counts: Record<string, number> = {};
      for (const metric of POST_METRICS) {
        const value = figures.get(metric)?.get(LIFETIME_DAY) ?? null;
        if (value !== null) counts[metric] = value;
      }
      data.public_metrics = counts;
    }
    return {
      data,
      ...(author === undefined
        ? {}
        : { includes: { users: [{ id: author.id, name: author.name, username: author.username }] } }),
    };
  });
}
