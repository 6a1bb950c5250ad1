/** Instagram insights: an account's daily figures and a post's, by the service's metric names. */
import { num } from '../http.ts';
import {
  accountInsightsRead,
  platformNames,
  readRange,
  requireMetrics,
  runsWithin,
  setFigure,
} from '../insight-requests.ts';
import { dailyValues, metricValue } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { isNotEnoughViewers } from '../meta/graph-errors.ts';
import { type InsightsCapability, PlatformError } from '../types.ts';
import { INSTAGRAM_METRICS } from './definition.ts';
import { meNode } from './profile.ts';

const platform = 'instagram';

/** The account metrics the service offers that Instagram also answers as a daily series (time_series). */
const DAILY_SERIES_METRICS = ['reach'];
/** "There cannot be more than 30 days (2592000 s) between since and until", Instagram answers past it. */
const MAX_RANGE_DAYS = 30;

/** Service metric name -> Instagram's, where they differ (media insights say `saved`). */
const POST_METRIC_NAMES: Record<string, string> = { saves: 'saved' };

/** "(#100) The Media Insights API does not support the likes, comments metric for this media product type." */
const NOT_OFFERED = /does not support the (.+?) metrics? for this media product type/i;

/** The metrics (Instagram's names) a refusal says the media product type does not have; none for other refusals. */
function metricsNotOffered(error: PlatformError): string[] {
  if (error.detail.code !== 100) return [];
  const named = NOT_OFFERED.exec(error.detail.platformMessage ?? '')?.[1];
  return named === undefined ? [] : named.split(',').map((name) => name.trim());
}

export function instagramInsights({ graph, now }: GraphContext): InsightsCapability {
  return {
    /*
     * Daily values in the fewest calls the Instagram Account Insights reference allows
     * (https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights):
     * views, accounts_engaged, total_interactions, likes, comments, saves and shares exist only as
     * `metric_type=total_value`, one total over since..until, so a daily value costs a call per
     * day, in which every metric asked rides along. Only when reach alone is asked does its daily
     * series (`metric_type=time_series`) give up to 30 days a call. followers_count is a user
     * field read as it is now: one `/me` call, when today is asked. Days still to come cost
     * nothing (null). For N days up to today, all metrics: N calls, +1 with followers_count and
     * today; reach alone: one call per 30 days.
     */
    async accountInsights({ platformUserId, accessToken }, days, metrics) {
      const { at, today, figures, read } = accountInsightsRead(
        platform,
        INSTAGRAM_METRICS.account,
        { days, metrics },
        now,
      );
      const { graph: metered, meter } = graph.metered();
      const asked = metrics.filter((m) => m !== 'followers_count');
      const insights = (range: { since: number; until: number }, metricType: string) =>
        metered.get(`/${platformUserId}/insights`, accessToken, {
          metric: asked.join(','),
          period: 'day',
          metric_type: metricType,
          ...range,
        });
      if (asked.length > 0 && asked.every((m) => DAILY_SERIES_METRICS.includes(m))) {
        for (const run of runsWithin(read, MAX_RANGE_DAYS)) {
          const body = await insights(readRange(run[0] as string, run.at(-1) as string, at), 'time_series');
          for (const metric of asked) {
            const series = dailyValues(body, metric);
            for (const day of run) setFigure(figures, day, metric, series.get(day) ?? null);
          }
        }
      } else if (asked.length > 0) {
        for (const day of read) {
          const body = await insights(readRange(day, day, at), 'total_value');
          for (const metric of asked) setFigure(figures, day, metric, metricValue(body, metric));
        }
      }
      if (metrics.includes('followers_count') && read.includes(today)) {
        // A user field, not a metric: only today's count exists.
        const me = meNode(await metered.get('/me', accessToken, { fields: 'followers_count' }));
        setFigure(figures, today, 'followers_count', num(me.followers_count));
      }
      return { figures, usagePercent: meter.highest };
    },

    /*
     * One call, unless Instagram refuses metrics the post's media product type does not have (a
     * story has no likes, comments or saves): "(#100) The Media Insights API does not support
     * the likes, comments metric for this media product type" fails the whole request, so it is
     * asked again without them, which stay null. A story with fewer than 5 viewers answers "(#10)
     * Not enough viewers for the media to show insights": no figures for that post, and no
     * permission matter (IG Media Insights reference; docs/platforms.md, "Instagram media insights").
     */
    async postInsights({ accessToken }, postId, metrics) {
      requireMetrics(platform, INSTAGRAM_METRICS.post, metrics);
      const { graph: metered, meter } = graph.metered();
      const names = platformNames(metrics, POST_METRIC_NAMES);
      const figures: Record<string, number | null> = Object.fromEntries(metrics.map((m) => [m, null]));
      const notOffered = new Set<string>();
      for (;;) {
        const asked = names.filter((name) => !notOffered.has(name));
        if (asked.length === 0) break;
        let body: Record<string, unknown>;
        try {
          body = await metered.get(`/${postId}/insights`, accessToken, { metric: asked.join(',') });
        } catch (error) {
          if (!(error instanceof PlatformError)) throw error;
          if (isNotEnoughViewers(error)) break;
          const refused = metricsNotOffered(error).filter((name) => asked.includes(name));
          if (refused.length === 0) throw error;
          for (const name of refused) notOffered.add(name);
          continue;
        }
        metrics.forEach((metric, i) => {
          const name = names[i] as string;
          if (!notOffered.has(name)) figures[metric] = metricValue(body, name);
        });
        break;
      }
      return { figures, usagePercent: meter.highest };
    },
  };
}
