/** The user's own profile: `GET /2/users/me`, with the `user.fields` asked for. */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { findInsight } from '../store/insights.ts';
import { callOptions, SCOPE } from './access.ts';

/** The user as X answers it: id, name and username always, the other fields when asked for. */
export function renderUser(user: SandboxAccount, fields: readonly string[], followers: number) {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    ...(fields.includes('profile_image_url')
      ? { profile_image_url: `https://pbs.twimg.com/profile_images/${user.id}/avatar_normal.jpg` }
      : {}),
    ...(fields.includes('public_metrics')
      ? {
          public_metrics: {
            followers_count: followers,
            following_count: 0,
            tweet_count: 0,
            listed_count: 0,
            like_count: 0,
          },
        }
      : {}),
  };
}

export function userRoutes(app: FastifyInstance, store: Store): void {
  app.get('/2/users/me', async (request) => {
    const options = callOptions(store.now);
    const who = await caller(store, request, options);
    // "users.read tweet.read" (Users lookup, GET /2/users/me).
    requireScope(who, options, SCOPE.usersRead);
    requireScope(who, options, SCOPE.tweetRead);
    const fields = (param(request, 'user.fields') ?? '').split(',').filter((f) => f !== '');
    // Today's follower count as `PUT /_control/insights` set it, else the user's own.
    const today = store.now().toISOString().slice(0, 10);
    const set = await findInsight(store, {
      accountId: who.account.id,
      postId: '',
      metric: 'followers_count',
      day: today,
    });
    return { data: renderUser(who.account, fields, set?.value ?? who.account.followersCount) };
  });
}
