/**
 * YouTube Analytics: `GET /v2/reports` on youtubeanalytics.googleapis.com (reports.query) for
 * the caller's channel (`ids=channel==MINE`): by day (`dimensions=day`), a row per day with data,
 * or in one row over the range, for the channel or one of its videos (`filters=video==<id>`,
 * its lifetime figures as the control API sets them).
 */
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { caller, requireScope } from '../caller.ts';
import { google, googleAnswer } from '../google/answers.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { pagesOf } from '../store/accounts.ts';
import { insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { findPost } from '../store/posts.ts';
import { call, SCOPE } from './access.ts';

/** The report's metrics the sandbox answers, as the control API sets them (`PUT /_control/insights`). */
const METRICS = [
  'views',
  'estimatedMinutesWatched',
  'likes',
  'comments',
  'shares',
  'subscribersGained',
  'subscribersLost',
];
export const INSIGHT_METRICS = { account: METRICS, post: METRICS };
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw google.badParameter(`Required parameter: ${name}`);
  return value;
}

export function analyticsRoutes(app: FastifyInstance, store: Store): void {
  app.get('/v2/reports', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.analytics);
    if (required(param(request, 'ids'), 'ids') !== 'channel==MINE') {
      throw google.badParameter('The sandbox answers ids=channel==MINE only.');
    }
    const start = required(param(request, 'startDate'), 'startDate');
    const end = required(param(request, 'endDate'), 'endDate');
    if (!DATE.test(start) || !DATE.test(end) || end < start) throw google.badParameter('Invalid startDate or endDate.');
    const metrics = required(param(request, 'metrics'), 'metrics').split(',');
    for (const metric of metrics) {
      if (!METRICS.includes(metric))
        throw google.badParameter(`Unknown identifier (${metric}) given in field parameters.metrics.`);
    }
    const dimensions = param(request, 'dimensions');
    if (dimensions !== undefined && dimensions !== 'day')
      throw google.badParameter('The sandbox answers dimensions=day only.');
    const [channel] = await pagesOf(store, who.account.id);
    if (channel === undefined) throw googleAnswer(403, 'forbidden', 'The user has no YouTube channel.');
    const filters = param(request, 'filters');
    let postId = '';
    if (filters !== undefined) {
      const videoId = /^video==(.+)$/.exec(filters)?.[1] ?? '';
      const post = await findPost(store, videoId);
      if (post === undefined || post.accountId !== channel.id) {
        throw googleAnswer(403, 'forbidden', 'The caller does not have permission to access the video.');
      }
      postId = post.id;
    }
    const columnHeaders = [
      ...(dimensions === 'day' ? [{ name: 'day', columnType: 'DIMENSION', dataType: 'STRING' }] : []),
      ...metrics.map((name) => ({ name, columnType: 'METRIC', dataType: 'INTEGER' })),
    ];
    const rows: unknown[][] = [];
    if (postId !== '') {
      // A video's figures are its lifetime's, whatever the range.
      const figures = await insightFigures(store, { accountId: channel.id, postId, metrics, days: [LIFETIME_DAY] });
      const values = metrics.map((m) => figures.get(m)?.get(LIFETIME_DAY) ?? null);
      if (values.some((v) => v !== null)) rows.push(values);
    } else {
      const days: string[] = [];
      for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += DAY_MS) {
        days.push(new Date(t).toISOString().slice(0, 10));
      }
      const figures = await insightFigures(store, { accountId: channel.id, postId: '', metrics, days });
      const totals = metrics.map(() => 0);
      let any = false;
      for (const day of days) {
        const values = metrics.map((m) => figures.get(m)?.get(day) ?? null);
        // A day without any figure has no row.
        if (values.every((v) => v === null)) continue;
        any = true;
        values.forEach((v, i) => {
          totals[i] = (totals[i] ?? 0) + (v ?? 0);
        });
        if (dimensions === 'day') rows.push([day, ...values]);
      }
      if (dimensions !== 'day' && any) rows.push(totals);
    }
    return { kind: 'youtubeAnalytics#resultTable', columnHeaders, rows };
  });
}
