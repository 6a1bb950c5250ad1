/**
 * Instagram's insights: an account's (its daily series and totals over a range) and a
 * medium's lifetime figures, with the metrics each level and media product type has.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import { param, requiredParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import {
  dayEndTime,
  dayOf,
  daysBetween,
  insightsRange,
  lifetimeInsights,
  rangePaging,
  refuseUnknownMetrics,
} from '../meta/insights.ts';
import { ownPost } from '../meta/ownership.ts';
import type { Store } from '../platform.ts';
import { insightFigures } from '../store/insights.ts';
import { call, SCOPE } from './access.ts';
import { productType } from './media.ts';

/*
 * Account insights, as the Instagram Account Insights reference describes them
 * (https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights):
 * `metric_type=total_value` answers one total per metric over since..until; without it (or with
 * `time_series`) only the metrics that have a daily series may be asked, answered day by day.
 * `follower_count` is the number of new followers a day (the user field `followers_count` is the
 * count itself).
 */
const ACCOUNT_METRICS = [
  'views',
  'reach',
  'accounts_engaged',
  'total_interactions',
  'likes',
  'comments',
  'saves',
  'shares',
  'replies',
  'reposts',
  'profile_links_taps',
  'follows_and_unfollows',
  'follower_count',
];
const TIME_SERIES_METRICS = ['reach', 'follower_count'];
const METRIC_TYPES = ['time_series', 'total_value'];
/**
 * follower_count: "not available on Instagram business or creator accounts with fewer than 100
 * followers", and it "returns a maximum of 30 days of data" (the reference's limitations; the
 * sandbox reads the latter as: no data for days more than 30 days back).
 */
const FOLLOWER_COUNT_MIN_FOLLOWERS = 100;
const FOLLOWER_COUNT_DAYS = 30;
/*
 * Media metrics by media product type, as the IG Media Insights reference's table lists them
 * (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights;
 * a carousel album is a FEED post). Asking one a product type does not have fails the whole
 * request with code 100 naming it, as Instagram answers: "(#100) The Media Insights API does not
 * support the likes, comments metric for this media product type."
 */
const MEDIA_METRICS_BY_PRODUCT: Record<string, readonly string[]> = {
  FEED: [
    'comments',
    'follows',
    'likes',
    'profile_activity',
    'profile_visits',
    'reach',
    'reposts',
    'saved',
    'shares',
    'total_interactions',
    'views',
  ],
  REELS: [
    'comments',
    'ig_reels_avg_watch_time',
    'ig_reels_video_view_total_time',
    'likes',
    'reach',
    'reels_skip_rate',
    'reposts',
    'saved',
    'shares',
    'total_interactions',
    'views',
  ],
  STORY: [
    'follows',
    'link_clicks',
    'navigation',
    'profile_activity',
    'profile_visits',
    'reach',
    'replies',
    'reposts',
    'shares',
    'total_interactions',
    'views',
  ],
};
const MEDIA_METRICS = [...new Set(Object.values(MEDIA_METRICS_BY_PRODUCT).flat())].sort();
/** The metric names Instagram has, per level: the control API refuses figures for any other. */
export const INSIGHT_METRICS = { account: ACCOUNT_METRICS, post: MEDIA_METRICS };
/**
 * "Story media metrics with values less than 5 return an error code 10 with the message (#10)
 * Not enough viewers for the media to show insights" (the same reference's limitations).
 */
const STORY_MIN_FIGURE = 5;
const MAX_INSIGHT_SECONDS = 30 * 86_400;

/** The figure of a lifetime insights entry (`values:[{value}]`). */
function lifetimeValue(entry: Record<string, unknown>): number {
  const [first] = entry.values as { value: number }[];
  return first?.value ?? 0;
}

/*
 * Refused as Instagram refuses it: an unknown metric, a period other than day, a metric
 * without a daily series asked without metric_type=total_value (Instagram's words, as apps
 * quote its answer: "(#100) The following metrics (views) should be specified with parameter
 * metric_type=total_value"), more than 30 days between since and until. A metric without
 * data is left out, never 0. Simplification: Instagram's days end at 07:00 UTC (UTC−07:00),
 * the sandbox's at 00:00 UTC, as the service's days do.
 */
async function accountInsights(store: Store, request: FastifyRequest, who: Caller, metrics: string[]) {
  refuseUnknownMetrics(metrics, ACCOUNT_METRICS);
  const period = requiredParam(request, graph, 'period');
  if (period !== 'day') {
    // Instagram's other period, lifetime, is for the demographics metrics the sandbox does not serve.
    throw graph.badParameter(`Incompatible period (${period}) for these metrics: they take period=day`);
  }
  const metricType = param(request, 'metric_type') ?? 'time_series';
  if (!METRIC_TYPES.includes(metricType)) {
    throw graph.badParameter(`metric_type must be one of the following values: ${METRIC_TYPES.join(', ')}`);
  }
  const totalsOnly = metrics.filter((m) => !TIME_SERIES_METRICS.includes(m));
  if (metricType === 'time_series' && totalsOnly.length > 0) {
    throw graph.badParameter(
      `The following metrics (${totalsOnly.join(',')}) should be specified with parameter metric_type=total_value`,
    );
  }
  const { since, until } = insightsRange(request, Math.floor(store.now().getTime() / 1000));
  if (until - since > MAX_INSIGHT_SECONDS) {
    throw graph.badParameter('There cannot be more than 30 days (2592000 s) between since and until');
  }
  if (until <= since) throw graph.badParameter('since must be before until');
  const days = daysBetween(since, until);
  const figures = await insightFigures(store, { accountId: who.account.id, postId: '', metrics, days });
  const firstFollowerDay = dayOf(store.now().getTime() / 1000 - FOLLOWER_COUNT_DAYS * 86_400);
  const data = [];
  for (const metric of metrics) {
    const daily: { day: string; value: number }[] = [];
    for (const day of days) {
      const value = figures.get(metric)?.get(day) ?? null;
      if (value === null) continue;
      if (
        metric === 'follower_count' &&
        (who.account.followersCount < FOLLOWER_COUNT_MIN_FOLLOWERS || day < firstFollowerDay)
      ) {
        continue;
      }
      daily.push({ day, value });
    }
    // No data is an absent metric, never 0.
    if (daily.length === 0) continue;
    const head = { name: metric, period: 'day' };
    const tail = { title: metric, description: '', id: `${who.account.id}/insights/${metric}/day` };
    data.push(
      metricType === 'total_value'
        ? { ...head, ...tail, total_value: { value: daily.reduce((sum, d) => sum + d.value, 0) } }
        : { ...head, values: daily.map((d) => ({ value: d.value, end_time: dayEndTime(d.day) })), ...tail },
    );
  }
  return metricType === 'total_value' ? { data } : { data, paging: rangePaging(request, since, until) };
}

export function insightRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/:id/insights', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.insights);
    const { id } = request.params as { id: string };
    const metrics = requiredParam(request, graph, 'metric').split(',');
    if (id === who.account.id) return accountInsights(store, request, who, metrics);
    const post = await ownPost(store, who, id);
    refuseUnknownMetrics(metrics, MEDIA_METRICS);
    const product = productType(post);
    const offered = MEDIA_METRICS_BY_PRODUCT[product] ?? [];
    const notOffered = metrics.filter((m) => !offered.includes(m));
    if (notOffered.length > 0) {
      throw graph.badParameter(
        `The Media Insights API does not support the ${notOffered.join(', ')} metric for this media product type.`,
      );
    }
    const answer = await lifetimeInsights(store, who.account.id, post.id, metrics);
    if (product === 'STORY' && answer.data.some((d) => lifetimeValue(d) < STORY_MIN_FIGURE)) {
      throw graphAnswer(400, 10, '(#10) Not enough viewers for the media to show insights');
    }
    return answer;
  });
}
