/**
 * Bluesky insights: the account's follower count (app.bsky.actor.getProfile `followersCount`, as
 * it is now: the daily history is the service's own daily readings) and a post's counts
 * (app.bsky.feed.getPosts `likeCount`, `repostCount`, `replyCount`, `quoteCount`). Bluesky counts no
 * views. Facts: docs/platforms.md, "Bluesky".
 */
import { invalidRequest } from '../errors.ts';
import { list, num, record } from '../http.ts';
import { accountInsightsRead, requireMetrics, setFigure } from '../insight-requests.ts';
import type { InsightsCapability } from '../types.ts';
import { type BlueskyContext, platform } from './api.ts';
import { BLUESKY_METRICS } from './definition.ts';
import { postOfUri } from './publishing.ts';
import { openSession } from './session.ts';

/** The service's metric names for a post view's counts. */
const POST_FIELDS: Readonly<Record<string, string>> = {
  likes: 'likeCount',
  reposts: 'repostCount',
  replies: 'replyCount',
  quotes: 'quoteCount',
};

export function blueskyInsights({ api, now }: BlueskyContext): InsightsCapability {
  return {
    async accountInsights(credentials, days, metrics) {
      const { today, figures, read } = accountInsightsRead(platform, BLUESKY_METRICS.account, { days, metrics }, now);
      // The count as it is now, no history: only today has a figure.
      if (metrics.includes('followers_count') && read.includes(today)) {
        const profile = await api.xrpc(openSession(credentials.accessToken), 'GET', 'app.bsky.actor.getProfile', {
          query: { actor: credentials.platformUserId },
        });
        setFigure(figures, today, 'followers_count', num(profile.followersCount));
      }
      return { figures, usagePercent: null };
    },

    async postInsights(credentials, postId, metrics) {
      requireMetrics(platform, BLUESKY_METRICS.post, metrics);
      if (postOfUri(postId) === null) throw invalidRequest(platform, `${postId} is not a Bluesky post's at:// URI`);
      const answer = await api.xrpc(openSession(credentials.accessToken), 'GET', 'app.bsky.feed.getPosts', {
        query: { uris: postId },
      });
      const post = list(answer.posts).map(record)[0];
      if (post === undefined) throw invalidRequest(platform, `Bluesky shows no post ${postId} (deleted, or hidden)`);
      return {
        figures: Object.fromEntries(metrics.map((m) => [m, num(post[POST_FIELDS[m] ?? ''])])),
        usagePercent: null,
      };
    },
  };
}
