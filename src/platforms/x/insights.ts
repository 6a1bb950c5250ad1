/**
 * X insights: the account's follower count (`GET /2/users/me` public_metrics, as it is now: the
 * daily history is the service's own daily readings) and a post's lifetime figures
 * (`GET /2/tweets/:id` public_metrics). Facts: docs/platforms.md, "X".
 */
import { invalidRequest } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import { accountInsightsRead, requireMetrics, setFigure } from '../insight-requests.ts';
import type { InsightsCapability } from '../types.ts';
import type { XContext } from './api.ts';
import { X_METRICS } from './definition.ts';

const platform = 'x';
const POST_ID = /^\d{1,19}$/;
/** The service's metric names for a post's public_metrics fields. */
const POST_FIELDS: Readonly<Record<string, string>> = {
  views: 'impression_count',
  likes: 'like_count',
  replies: 'reply_count',
  reposts: 'retweet_count',
  quotes: 'quote_count',
  bookmarks: 'bookmark_count',
};

export function xInsights({ api, now }: XContext): InsightsCapability {
  return {
    async accountInsights({ accessToken }, days, metrics) {
      const { today, figures, read } = accountInsightsRead(platform, X_METRICS.account, { days, metrics }, now);
      // X answers the count as it is now, no history: only today has a figure.
      if (metrics.includes('followers_count') && read.includes(today)) {
        const me = await api.call('GET', '/users/me', accessToken, { query: { 'user.fields': 'public_metrics' } });
        setFigure(figures, today, 'followers_count', num(record(record(me.data).public_metrics).followers_count));
      }
      return { figures, usagePercent: null };
    },

    async postInsights({ accessToken }, postId, metrics) {
      requireMetrics(platform, X_METRICS.post, metrics);
      if (!POST_ID.test(postId)) throw invalidRequest(platform, `${postId} is not an X post id`);
      const answer = await api.call('GET', `/tweets/${postId}`, accessToken, {
        query: { 'tweet.fields': 'public_metrics' },
      });
      if (answer.data === undefined) {
        const detail = str(record(list(answer.errors)[0]).detail) ?? `X has no post ${postId}`;
        throw invalidRequest(platform, detail);
      }
      const counts = record(record(answer.data).public_metrics);
      // A count X leaves out is no data (null), never 0.
      return {
        figures: Object.fromEntries(metrics.map((m) => [m, num(counts[POST_FIELDS[m] ?? ''])])),
        usagePercent: null,
      };
    },
  };
}
