/**
 * YouTube insights: the YouTube Analytics API's `reports.query`
 * (youtubeanalytics.googleapis.com/v2/reports, `ids=channel==MINE`), by day for the channel and
 * over the video's life for a video (`filters=video==<id>`), and the channel's subscriber count
 * now (channels.list statistics). A day the report has no row for has no data (null, not 0).
 * Facts: docs/platforms.md, "YouTube insights".
 */

import { isDaySpent } from '../google/errors.ts';
import { list, num, record, str } from '../http.ts';
import { accountInsightsRead, requireMetrics, setFigure } from '../insight-requests.ts';
import { type InsightsCapability, PlatformError } from '../types.ts';
import type { YouTubeContext } from './channels.ts';
import { YOUTUBE_METRICS } from './definition.ts';

const platform = 'youtube';
/** The service's metric names for the report's metrics. */
const REPORT_METRICS: Readonly<Record<string, string>> = {
  views: 'views',
  watch_time_minutes: 'estimatedMinutesWatched',
  likes: 'likes',
  comments: 'comments',
  shares: 'shares',
  subscribers_gained: 'subscribersGained',
  subscribers_lost: 'subscribersLost',
};
/** A video's lifetime starts no earlier than YouTube itself (its first video: April 2005). */
const FIRST_DAY = '2005-04-01';

/** The report's rows as objects by column name. */
function rowsOf(answer: Record<string, unknown>): Record<string, unknown>[] {
  const names = list(answer.columnHeaders).map((h) => str(record(h).name) ?? '');
  return list(answer.rows).map((row) => Object.fromEntries(list(row).map((value, i) => [names[i] ?? '', value])));
}

export function youtubeInsights(context: YouTubeContext): InsightsCapability {
  const { google, now } = context;
  const reports = google.url('youtubeanalytics.googleapis.com', '/v2/reports');

  /**
   * The channel's statistics now (channels.list, 1 unit); null while the project's units are
   * kept for publishing or spent for the day, so the Analytics figures read beside them, which
   * cost no units, are still answered (today's subscribers then have no data, which replaces
   * no figure stored before).
   */
  async function channelStatistics(channelId: string, accessToken: string): Promise<Record<string, unknown> | null> {
    try {
      const answer = await context.reads.api(
        'GET',
        google.url('www.googleapis.com', '/youtube/v3/channels'),
        accessToken,
        { query: { part: 'statistics', id: channelId } },
      );
      return record(record(list(answer.items)[0]).statistics);
    } catch (error) {
      if (error instanceof PlatformError && (error.detail.code === 'quotaReserved' || isDaySpent(error))) return null;
      throw error;
    }
  }

  return {
    async accountInsights({ platformUserId, accessToken }, days, metrics) {
      const { today, figures, read } = accountInsightsRead(platform, YOUTUBE_METRICS.account, { days, metrics }, now);
      const daily = metrics.filter((m) => m !== 'followers_count');
      if (daily.length > 0 && read.length > 0) {
        const answer = await google.api('GET', reports, accessToken, {
          query: {
            ids: 'channel==MINE',
            startDate: read[0],
            endDate: read.at(-1),
            metrics: daily.map((m) => REPORT_METRICS[m]).join(','),
            dimensions: 'day',
            sort: 'day',
          },
        });
        for (const row of rowsOf(answer)) {
          const day = str(row.day);
          if (day === null || !read.includes(day)) continue;
          for (const metric of daily) setFigure(figures, day, metric, num(row[REPORT_METRICS[metric] ?? '']));
        }
      }
      if (metrics.includes('followers_count') && read.includes(today)) {
        const statistics = await channelStatistics(platformUserId, accessToken);
        setFigure(
          figures,
          today,
          'followers_count',
          statistics === null || statistics.hiddenSubscriberCount === true ? null : num(statistics.subscriberCount),
        );
      }
      return { figures, usagePercent: null };
    },

    async postInsights({ accessToken }, postId, metrics) {
      requireMetrics(platform, YOUTUBE_METRICS.post, metrics);
      const answer = await google.api('GET', reports, accessToken, {
        query: {
          ids: 'channel==MINE',
          startDate: FIRST_DAY,
          endDate: now().toISOString().slice(0, 10),
          metrics: metrics.map((m) => REPORT_METRICS[m]).join(','),
          filters: `video==${postId}`,
        },
      });
      const [row] = rowsOf(answer);
      return {
        figures: Object.fromEntries(
          metrics.map((m) => [m, row === undefined ? null : num(row[REPORT_METRICS[m] ?? ''])]),
        ),
        usagePercent: null,
      };
    },
  };
}
