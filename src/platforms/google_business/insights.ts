/**
 * A location's figures from the Business Profile Performance API:
 * `locations.fetchMultiDailyMetricsTimeSeries` (businessprofileperformance.googleapis.com/v1),
 * every metric asked in one call over the days asked. A day the answer lists without a `value`
 * is 0 ("This will not be present when the value is zero", DatedValue); a day it does not list
 * has no data (null). Local posts have no figures there.
 * Facts: docs/platforms.md, "Google Business Profile insights".
 */
import { list, num, record, str } from '../http.ts';
import { accountInsightsRead, requireMetrics, setFigure } from '../insight-requests.ts';
import type { InsightsCapability } from '../types.ts';
import { GOOGLE_BUSINESS_METRICS } from './definition.ts';
import type { GoogleBusinessContext } from './locations.ts';

const platform = 'google_business';
/** The Performance API's DailyMetric of each of the service's metric names. */
const DAILY_METRICS: Readonly<Record<string, string>> = {
  impressions_desktop_maps: 'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  impressions_desktop_search: 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  impressions_mobile_maps: 'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  impressions_mobile_search: 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  calls: 'CALL_CLICKS',
  website_clicks: 'WEBSITE_CLICKS',
  direction_requests: 'BUSINESS_DIRECTION_REQUESTS',
  conversations: 'BUSINESS_CONVERSATIONS',
  bookings: 'BUSINESS_BOOKINGS',
};

/** A day as Google's Date (`{year, month, day}`) names it in a query: `<prefix>.year=...`. */
function dateQuery(prefix: string, day: string): Record<string, number> {
  const [year, month, date] = day.split('-').map(Number);
  return { [`${prefix}.year`]: year ?? 0, [`${prefix}.month`]: month ?? 0, [`${prefix}.day`]: date ?? 0 };
}

/** A Google Date as YYYY-MM-DD. */
function dayOf(value: unknown): string | null {
  const { year, month, day } = record(value);
  if (typeof year !== 'number' || typeof month !== 'number' || typeof day !== 'number') return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function googleBusinessInsights({ google, now }: GoogleBusinessContext): InsightsCapability {
  return {
    async accountInsights({ platformUserId, accessToken }, days, metrics) {
      const { figures, read } = accountInsightsRead(platform, GOOGLE_BUSINESS_METRICS.account, { days, metrics }, now);
      const first = read[0];
      const last = read.at(-1);
      if (metrics.length === 0 || first === undefined || last === undefined) return { figures, usagePercent: null };
      const location = platformUserId.slice(platformUserId.indexOf('/locations/') + 1);
      // `dailyMetrics` is repeated, once a metric: written in the URL, the range in the query.
      const asked = metrics.map((m) => `dailyMetrics=${DAILY_METRICS[m]}`).join('&');
      const answer = await google.api(
        'GET',
        `${google.url('businessprofileperformance.googleapis.com', `/v1/${location}:fetchMultiDailyMetricsTimeSeries`)}?${asked}`,
        accessToken,
        { query: { ...dateQuery('dailyRange.startDate', first), ...dateQuery('dailyRange.endDate', last) } },
      );
      const byDailyMetric = new Map(Object.entries(DAILY_METRICS).map(([name, daily]) => [daily, name]));
      for (const multi of list(answer.multiDailyMetricTimeSeries)) {
        for (const item of list(record(multi).dailyMetricTimeSeries)) {
          const series = record(item);
          const metric = byDailyMetric.get(str(series.dailyMetric) ?? '');
          if (metric === undefined || !metrics.includes(metric)) continue;
          for (const dated of list(record(series.timeSeries).datedValues)) {
            const point = record(dated);
            const day = dayOf(point.date);
            if (day === null || !read.includes(day)) continue;
            // An int64 as a string; absent when the value is zero.
            setFigure(figures, day, metric, point.value === undefined ? 0 : num(point.value));
          }
        }
      }
      return { figures, usagePercent: null };
    },

    async postInsights(_credentials, _postId, metrics) {
      // No figures per local post in the Performance API: any metric asked is unknown.
      requireMetrics(platform, GOOGLE_BUSINESS_METRICS.post, metrics);
      return { figures: {}, usagePercent: null };
    },
  };
}
