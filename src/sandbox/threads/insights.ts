/**
 * Threads' insights: a post's lifetime figures, and the user's (`threads_insights`): a daily
 * series of views, totals over the range, link clicks, and today's follower count (asked
 * without a range).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import { param, requiredParam } from '../kit.ts';
import { graph } from '../meta/errors.ts';
import { dayEndTime, daysBetween, insightsRange, lifetimeInsights, refuseUnknownMetrics } from '../meta/insights.ts';
import { ownPost } from '../meta/ownership.ts';
import type { Store } from '../platform.ts';
import { findInsight, type InsightFigures, insightFigures } from '../store/insights.ts';
import { call, ownUserId, SCOPE } from './access.ts';

/** Threads has no insights before this moment (2024-04-13 07:00 UTC). */
const INSIGHTS_EPOCH = 1_712_991_600;

const USER_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count'];
const MEDIA_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
/** The metric names Threads has, per level: the control API refuses figures for any other. */
export const INSIGHT_METRICS = { account: USER_METRICS, post: MEDIA_METRICS };

/** One metric of threads_insights in its documented shape, or null when there is no data. */
async function userMetric(store: Store, who: Caller, metric: string, days: string[], figures: InsightFigures) {
  const head = { name: metric, period: 'day', title: metric, description: '' };
  const id = `${who.account.id}/insights/${metric}/day`;
  if (metric === 'followers_count') {
    const today = store.now().toISOString().slice(0, 10);
    const set = await findInsight(store, { accountId: who.account.id, postId: '', metric, day: today });
    const value = set === undefined ? who.account.followersCount : set.value;
    return value === null ? null : { ...head, total_value: { value }, id };
  }
  const daily: { day: string; value: number }[] = [];
  for (const day of days) {
    const value = figures.get(metric)?.get(day) ?? null;
    if (value !== null) daily.push({ day, value });
  }
  if (daily.length === 0) return null;
  if (metric === 'views') {
    const values = daily.map(({ day, value }) => ({ value, end_time: dayEndTime(day) }));
    return { ...head, values, id };
  }
  const total = daily.reduce((sum, d) => sum + d.value, 0);
  if (metric === 'clicks') {
    const link_url = `https://www.threads.net/@${encodeURIComponent(who.account.username)}`;
    return { ...head, link_total_values: [{ value: total, link_url }], id };
  }
  return { ...head, total_value: { value: total }, id };
}

function metricList(request: FastifyRequest, known: string[]): string[] {
  const metrics = requiredParam(request, graph, 'metric')
    .split(',')
    .map((m) => m.trim());
  refuseUnknownMetrics(metrics, known);
  return metrics;
}

export function insightRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/:id/insights', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.insights);
    const post = await ownPost(store, who, (request.params as { id: string }).id);
    const metrics = metricList(request, MEDIA_METRICS);
    return lifetimeInsights(store, who.account.id, post.id, metrics);
  });

  app.get('/:version/:id/threads_insights', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.insights);
    ownUserId(who, (request.params as { id: string }).id);
    const metrics = metricList(request, USER_METRICS);
    // Threads' insights reference: followers_count does not support since and until. It is
    // refused with either, as Threads refuses a parameter a metric does not take (code 100).
    const ranged = ['since', 'until'].some((name) => (param(request, name) ?? '') !== '');
    if (metrics.includes('followers_count') && ranged) {
      throw graph.badParameter('The since and until parameters are not supported for the followers_count metric');
    }
    const nowSeconds = Math.floor(store.now().getTime() / 1000);
    const { since, until } = insightsRange(request, nowSeconds);
    // "The earliest Unix timestamp that can be used is 1712991600, any timestamp before that
    // will be rejected", for since and until alike (https://developers.facebook.com/docs/threads/insights).
    // Threads documents no longest range and no refusal of an until still to come: none here.
    for (const [name, value] of [
      ['since', since],
      ['until', until],
    ] as const) {
      if (value < INSIGHTS_EPOCH) {
        throw graph.badParameter(`${name} must be a Unix time on or after ${INSIGHTS_EPOCH}`);
      }
    }
    if (until <= since) throw graph.badParameter('since must be before until');
    // Days still to come have no data: the days looked at end with today, however far until is.
    const endOfToday = (Math.floor(nowSeconds / 86_400) + 1) * 86_400;
    const days = daysBetween(since, Math.min(until, endOfToday));
    const daily = metrics.filter((m) => m !== 'followers_count');
    const figures = await insightFigures(store, { accountId: who.account.id, postId: '', metrics: daily, days });
    const data = [];
    for (const metric of metrics) {
      const entry = await userMetric(store, who, metric, days, figures);
      if (entry !== null) data.push(entry);
    }
    return { data, paging: { previous: '', next: '' } };
  });
}
