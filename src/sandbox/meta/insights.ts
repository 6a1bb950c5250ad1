/** What Instagram's and Threads' insights share: days and ranges in Unix seconds, and post figures. */
import type { FastifyRequest } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { timeParam } from '../kit.ts';
import type { Store } from '../platform.ts';
import { insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { graph } from './errors.ts';
import { graphTime } from './fields.ts';

/** Unix seconds as a UTC day. */
export function dayOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/**
 * The UTC days in [since, until) given as Unix seconds (at least the first). The caller bounds
 * the range (Instagram's 30 days; Threads' since the insights epoch, up to today).
 */
export function daysBetween(since: number, until: number): string[] {
  const days: string[] = [];
  for (let t = Math.floor(since / 86_400) * 86_400; t < until || days.length === 0; t += 86_400) {
    days.push(dayOf(t));
  }
  return days;
}

/**
 * The `since` and `until` of an insights request, in Unix seconds. Instagram and Threads both
 * say that without them the range is "yesterday through today": from the start of yesterday
 * (a UTC day in the sandbox) until now; with `until` alone, from the start of the day before it.
 */
export function insightsRange(request: FastifyRequest, nowSeconds: number): { since: number; until: number } {
  const until = timeParam(request, graph, 'until') ?? nowSeconds;
  const since = timeParam(request, graph, 'since') ?? Math.floor(until / 86_400) * 86_400 - 86_400;
  return { since, until };
}

/** A time series' paging: the same request over the range just before (`previous`) and after (`next`). */
export function rangePaging(request: FastifyRequest, since: number, until: number): { previous: string; next: string } {
  const span = until - since;
  const at = (start: number) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    url.searchParams.set('since', String(start));
    url.searchParams.set('until', String(start + span));
    return url.toString();
  };
  return { previous: at(since - span), next: at(until) };
}

/** The `end_time` of a daily value: the end of its day (a UTC day in the sandbox), as a Graph time. */
export function dayEndTime(day: string): string {
  return graphTime(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS));
}

/**
 * A Graph post-insights answer: each metric with its lifetime figure; a metric without
 * data is left out, never 0.
 */
export async function lifetimeInsights(
  store: Store,
  accountId: string,
  postId: string,
  metrics: string[],
): Promise<{ data: Record<string, unknown>[] }> {
  const figures = await insightFigures(store, { accountId, postId, metrics, days: [LIFETIME_DAY] });
  const data = [];
  for (const metric of metrics) {
    const value = figures.get(metric)?.get(LIFETIME_DAY) ?? null;
    if (value === null) continue;
    data.push({
      name: metric,
      period: 'lifetime',
      values: [{ value }],
      title: metric,
      description: '',
      id: `${postId}/insights/${metric}/lifetime`,
    });
  }
  return { data };
}

/** Refuses the request, as Graph does, naming the first metric it does not have and those it has. */
export function refuseUnknownMetrics(metrics: readonly string[], known: readonly string[]): void {
  const unknown = metrics.findIndex((m) => !known.includes(m));
  if (unknown !== -1) {
    throw graph.badParameter(`metric[${unknown}] must be one of the following values: ${known.join(', ')}`);
  }
}
