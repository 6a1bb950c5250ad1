/**
 * The Business Profile Performance API (businessprofileperformance.googleapis.com/v1):
 * `locations.fetchMultiDailyMetricsTimeSeries` for one of the caller's locations, the figures
 * the control API sets (`PUT /_control/insights` with the DailyMetric names) or made up, a
 * DatedValue per day with data, its `value` an int64 string left out when it is zero.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { googleRpc as google } from '../google/answers.ts';
import type { Store } from '../platform.ts';
import { insightFigures } from '../store/insights.ts';
import { businessCaller, callerLocation } from './access.ts';

/** The DailyMetric values the sandbox answers (BUSINESS_FOOD_ORDERS and _MENU_CLICKS among Google's too). */
const DAILY_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  'BUSINESS_CONVERSATIONS',
  'BUSINESS_DIRECTION_REQUESTS',
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_BOOKINGS',
  'BUSINESS_FOOD_ORDERS',
  'BUSINESS_FOOD_MENU_CLICKS',
];
export const INSIGHT_METRICS = { account: DAILY_METRICS, post: [] };
/** How far back the API answers: "up to 18 months" of data (not checked further here). */
const MAX_DAYS = 550;

/** A query's Google Date `<prefix>.year`, `.month`, `.day` as YYYY-MM-DD, or Google's 400. */
function dateParam(request: FastifyRequest, prefix: string): string {
  const query = request.query as Record<string, unknown>;
  const part = (name: string) => Number(query[`${prefix}.${name}`]);
  const [year, month, day] = [part('year'), part('month'), part('day')];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (!Number.isInteger(year) || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) {
    throw google.badParameter(`Invalid ${prefix}.`);
  }
  return at.toISOString().slice(0, 10);
}

export function performanceRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v1/locations/:call', async (request) => {
    const { call } = request.params as { call: string };
    const [id, method] = call.split(':');
    if (method !== 'fetchMultiDailyMetricsTimeSeries') throw google.unknownPath(request.url.split('?')[0] ?? '');
    const who = await businessCaller(store, request);
    const location = await callerLocation(store, who, `locations/${id}`);
    const raw = (request.query as Record<string, unknown>).dailyMetrics;
    const metrics = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
    if (metrics.length === 0) throw google.badParameter('dailyMetrics is required.');
    for (const metric of metrics) {
      if (!DAILY_METRICS.includes(metric)) throw google.badParameter(`Invalid value at 'daily_metrics' (${metric}).`);
    }
    const start = dateParam(request, 'dailyRange.startDate');
    const end = dateParam(request, 'dailyRange.endDate');
    const days: string[] = [];
    for (let t = Date.parse(start); t <= Date.parse(end); t += DAY_MS)
      days.push(new Date(t).toISOString().slice(0, 10));
    if (days.length === 0 || days.length > MAX_DAYS) throw google.badParameter('Invalid dailyRange.');
    const figures = await insightFigures(store, { accountId: location.id, postId: '', metrics, days });
    return {
      multiDailyMetricTimeSeries: [
        {
          dailyMetricTimeSeries: metrics.map((metric) => ({
            dailyMetric: metric,
            timeSeries: {
              datedValues: days.flatMap((day) => {
                const value = figures.get(metric)?.get(day) ?? null;
                if (value === null) return [];
                const [year, month, date] = day.split('-').map(Number);
                return [{ date: { year, month, day: date }, ...(value === 0 ? {} : { value: String(value) }) }];
              }),
            },
          })),
        },
      ],
    };
  });
}
