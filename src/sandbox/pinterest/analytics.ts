/**
 * Analytics: "Get user account analytics" (`GET /v5/user_account/analytics`: `daily_metrics` of each
 * day from `start_date` to `end_date`, at most 90 days back, and their `summary_metrics`, under the
 * group `all`) and "Get Pin analytics" (`GET /v5/pins/{pin_id}/analytics`: the pin's figures). A
 * day whose figures are all set to null through the control API is `PROCESSING` without metrics;
 * one null figure is left out of its day.
 */
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { pagesOf } from '../store/accounts.ts';
import { insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { findPost } from '../store/posts.ts';
import { callOptions, SCOPE } from './access.ts';
import { pinterest, pinterestAnswer } from './answers.ts';

/** The metric types the account's and a pin's analytics answer. */
const ACCOUNT_TYPES = ['IMPRESSION', 'SAVE', 'PIN_CLICK', 'OUTBOUND_CLICK', 'ENGAGEMENT'];
const PIN_TYPES = ['IMPRESSION', 'SAVE', 'PIN_CLICK', 'OUTBOUND_CLICK'];
/** The follower count `GET /v5/user_account` answers, today's. */
export const FOLLOWERS = 'follower_count';
/** The metric names the control API takes, per level. */
export const INSIGHT_METRICS = { account: [...ACCOUNT_TYPES, FOLLOWERS], post: PIN_TYPES };

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The days of `start_date`..`end_date`, as Pinterest bounds them (else its 400). */
function rangeOf(start: string | undefined, end: string | undefined, today: string): string[] {
  const valid = (d: string | undefined): d is string => d !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(d);
  if (!valid(start) || !valid(end)) throw pinterestAnswer(400, 'start_date and end_date are required (YYYY-MM-DD).');
  const first = Date.parse(`${start}T00:00:00Z`);
  const last = Date.parse(`${end}T00:00:00Z`);
  if (first < Date.parse(`${today}T00:00:00Z`) - 90 * DAY_MS) {
    throw pinterestAnswer(400, 'start_date cannot be more than 90 days back from today.');
  }
  if (last < first || last - first > 90 * DAY_MS)
    throw pinterestAnswer(400, 'end_date must be within 90 days after start_date.');
  const days: string[] = [];
  for (let at = first; at <= last; at += DAY_MS) days.push(dayOf(at));
  return days;
}

/** The types asked (`metric_types`, comma separated) among those the level has; none asked: all. */
function typesOf(raw: string | undefined, known: readonly string[]): string[] {
  if (raw === undefined || raw === '') return [...known];
  const asked = raw.split(',');
  const unknown = asked.filter((t) => !known.includes(t));
  if (unknown.length > 0) throw pinterestAnswer(400, `Invalid metric_types: ${unknown.join(', ')}`);
  return asked;
}

export function analyticsRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v5/user_account/analytics', async (request) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.userAccountsRead);
    const today = dayOf(store.now().getTime());
    const days = rangeOf(param(request, 'start_date'), param(request, 'end_date'), today);
    const types = typesOf(param(request, 'metric_types'), ACCOUNT_TYPES);
    const figures = await insightFigures(store, { accountId: who.account.id, postId: '', metrics: types, days });
    const summary: Record<string, number> = {};
    const daily = days.map((date) => {
      const metrics: Record<string, number> = {};
      for (const type of types) {
        const value = figures.get(type)?.get(date) ?? null;
        if (value === null) continue;
        metrics[type] = value;
        summary[type] = (summary[type] ?? 0) + value;
      }
      return Object.keys(metrics).length === 0
        ? { date, data_status: 'PROCESSING' }
        : { date, data_status: 'READY', metrics };
    });
    return { all: { daily_metrics: daily, summary_metrics: summary } };
  });

  app.get('/v5/pins/:pin_id/analytics', async (request) => {
    const options = callOptions();
    const who = await caller(store, request, options);
    requireScope(who, options, SCOPE.boardsRead);
    requireScope(who, options, SCOPE.pinsRead);
    const today = dayOf(store.now().getTime());
    rangeOf(param(request, 'start_date'), param(request, 'end_date'), today);
    const types = typesOf(param(request, 'metric_types'), PIN_TYPES);
    const id = (request.params as { pin_id: string }).pin_id;
    const pin = /^\d+$/.test(id) ? await findPost(store, id) : undefined;
    const boards = (await pagesOf(store, who.account.id)).map((b) => b.id);
    if (pin === undefined || !boards.includes(pin.accountId)) throw pinterest.notFound(`pin ${id}`);
    const figures = await insightFigures(store, {
      accountId: pin.accountId,
      postId: pin.id,
      metrics: types,
      days: [LIFETIME_DAY],
    });
    const summary: Record<string, number> = {};
    for (const type of types) {
      const value = figures.get(type)?.get(LIFETIME_DAY) ?? null;
      if (value !== null) summary[type] = value;
    }
    return { all: { summary_metrics: summary } };
  });
}
