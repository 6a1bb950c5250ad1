/**
 * Pinterest insights: the account's daily figures ("Get user account analytics",
 * `GET /v5/user_account/analytics`, `daily_metrics` by UTC day, at most 90 days back), its follower
 * count as it is now (`GET /v5/user_account` `follower_count`: the daily history is the service's
 * own readings), and a pin's figures ("Get Pin analytics", `GET /v5/pins/{id}/analytics`,
 * `summary_metrics` over the last 90 days, the most Pinterest answers). A day whose `data_status`
 * is not `READY` has no data (null), never 0. Facts: docs/platforms.md, "Pinterest".
 */

import { DAY_MS } from '../../days.ts';
import { invalidRequest } from '../errors.ts';
import { list, num, record, str } from '../http.ts';
import { accountInsightsRead, requireMetrics, setFigure } from '../insight-requests.ts';
import type { InsightsCapability } from '../types.ts';
import type { PinterestContext } from './api.ts';
import { PINTEREST_METRICS } from './definition.ts';

const platform = 'pinterest';
const PIN_ID = /^\d{1,30}$/;
/** "start_date ... Cannot be more than 90 days back from today." */
const DAYS_BACK = 90;
/** Pinterest's metric for each of the service's. */
const METRIC_TYPES: Readonly<Record<string, string>> = {
  views: 'IMPRESSION',
  saves: 'SAVE',
  pin_clicks: 'PIN_CLICK',
  outbound_clicks: 'OUTBOUND_CLICK',
  engagement: 'ENGAGEMENT',
};

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The first day Pinterest answers for on `today`. */
function firstDay(today: string): string {
  return dayOf(Date.parse(`${today}T00:00:00Z`) - DAYS_BACK * DAY_MS);
}

/** Pinterest's answer for no split: its one group (`all`), else the first it gives. */
function groupOf(answer: Record<string, unknown>): Record<string, unknown> {
  return record(answer.all ?? Object.values(answer)[0]);
}

export function pinterestInsights({ api, now }: PinterestContext): InsightsCapability {
  return {
    async accountInsights({ accessToken }, days, metrics) {
      const { today, figures, read } = accountInsightsRead(platform, PINTEREST_METRICS.account, { days, metrics }, now);
      const asked = metrics.filter((m) => METRIC_TYPES[m] !== undefined);
      const start = read.find((day) => day >= firstDay(today));
      if (asked.length > 0 && start !== undefined) {
        const answer = await api.call('GET', '/user_account/analytics', accessToken, {
          query: {
            start_date: start,
            end_date: today,
            metric_types: asked.map((m) => METRIC_TYPES[m]).join(','),
          },
        });
        for (const item of list(groupOf(answer).daily_metrics)) {
          const daily = record(item);
          const day = str(daily.date);
          if (day === null || !read.includes(day)) continue;
          const values = record(daily.metrics);
          const ready = str(daily.data_status) === 'READY';
          for (const metric of asked) {
            setFigure(figures, day, metric, ready ? num(values[METRIC_TYPES[metric] ?? '']) : null);
          }
        }
      }
      // Pinterest answers the count as it is now, no history: only today has a figure.
      if (metrics.includes('followers_count') && read.includes(today)) {
        const account = await api.call('GET', '/user_account', accessToken);
        setFigure(figures, today, 'followers_count', num(account.follower_count));
      }
      return { figures, usagePercent: null };
    },

    async postInsights({ accessToken }, postId, metrics) {
      requireMetrics(platform, PINTEREST_METRICS.post, metrics);
      if (!PIN_ID.test(postId)) throw invalidRequest(platform, `${postId} is not a pin id`);
      const today = dayOf(now().getTime());
      const answer = await api.call('GET', `/pins/${postId}/analytics`, accessToken, {
        query: {
          start_date: firstDay(today),
          end_date: today,
          metric_types: metrics.map((m) => METRIC_TYPES[m]).join(','),
        },
      });
      const summary = record(groupOf(answer).summary_metrics);
      // A metric Pinterest leaves out is no data (null), never 0.
      return {
        figures: Object.fromEntries(metrics.map((m) => [m, num(summary[METRIC_TYPES[m] ?? ''])])),
        usagePercent: null,
      };
    },
  };
}
