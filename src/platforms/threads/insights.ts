/** Threads insights: an account's daily figures and a post's, by the service's metric names. */
import { accountInsightsRead, readRange, requireMetrics, setFigure } from '../insight-requests.ts';
import { dailyValues, metricValue } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import type { InsightsCapability } from '../types.ts';
import { THREADS_METRICS } from './definition.ts';

const platform = 'threads';

/** Threads refuses insights `since` or `until` before this moment (2024-04-13 07:00 UTC): there is no data earlier. */
const INSIGHTS_EPOCH = 1_712_991_600;
/** The first day with figures: the day of INSIGHTS_EPOCH. */
const FIRST_DAY = new Date(INSIGHTS_EPOCH * 1000).toISOString().slice(0, 10);
/** The user metric Threads answers as a daily series (`values:[{value, end_time}]`); the others are totals. */
const DAILY_SERIES_METRICS = ['views'];

export function threadsInsights({ graph, now }: GraphContext): InsightsCapability {
  return {
    /*
     * Daily values in the fewest calls Threads' user insights allow
     * (https://developers.facebook.com/docs/threads/insights): likes, replies, reposts, quotes and
     * clicks come as one total over since..until, so a daily value costs a call per day, in which
     * every metric asked rides along. views alone is a daily series, and Threads documents no
     * longest range: then one call for every day asked. followers_count does not support since
     * and until (Threads refuses it with them): it is today's count, asked alone without a range,
     * only when today is read. Days before 2024-04-13 (Threads refuses an earlier since or until)
     * and days still to come cost nothing (null). For N days from 2024-04-13 up to today: N calls,
     * and one more for followers_count; views and followers_count alone: two calls.
     */
    async accountInsights({ platformUserId, accessToken }, days, metrics) {
      const { at, today, figures, read } = accountInsightsRead(
        platform,
        THREADS_METRICS.account,
        { days, metrics },
        now,
        FIRST_DAY,
      );
      const { graph: metered, meter } = graph.metered();
      const daily = metrics.filter((m) => m !== 'followers_count');
      const followers = metrics.includes('followers_count') && read.includes(today);
      const insights = async (first: string, last: string, asked: string[]) => {
        const { since, until } = readRange(first, last, at);
        return metered.get(`/${platformUserId}/threads_insights`, accessToken, {
          metric: asked.join(','),
          since: Math.max(since, INSIGHTS_EPOCH),
          until,
        });
      };
      if (daily.length > 0 && daily.every((m) => DAILY_SERIES_METRICS.includes(m))) {
        if (read.length > 0) {
          const body = await insights(read[0] as string, read.at(-1) as string, daily);
          for (const metric of daily) {
            const series = dailyValues(body, metric);
            for (const day of read) setFigure(figures, day, metric, series.get(day) ?? null);
          }
        }
      } else if (daily.length > 0) {
        for (const day of read) {
          const body = await insights(day, day, daily);
          for (const metric of daily) setFigure(figures, day, metric, metricValue(body, metric));
        }
      }
      if (followers) {
        const body = await metered.get(`/${platformUserId}/threads_insights`, accessToken, {
          metric: 'followers_count',
        });
        setFigure(figures, today, 'followers_count', metricValue(body, 'followers_count'));
      }
      return { figures, usagePercent: meter.highest };
    },

    async postInsights({ accessToken }, postId, metrics) {
      requireMetrics(platform, THREADS_METRICS.post, metrics);
      const { graph: metered, meter } = graph.metered();
      const body = await metered.get(`/${postId}/insights`, accessToken, { metric: metrics.join(',') });
      return {
        figures: Object.fromEntries(metrics.map((m) => [m, metricValue(body, m)])),
        usagePercent: meter.highest,
      };
    },
  };
}
