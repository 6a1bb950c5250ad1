/**
 * An organization's statistics: Organization Share Statistics
 * (`GET /rest/organizationalEntityShareStatistics?q=organizationalEntity`), lifetime for one
 * post or by day over `timeIntervals`, and its follower count (Network Sizes,
 * `GET /rest/networkSizes/{organization URN}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { caller, requireScope } from '../caller.ts';
import { param } from '../kit.ts';
import type { Store } from '../platform.ts';
import { findInsight, type InsightFigures, insightFigures, LIFETIME_DAY } from '../store/insights.ts';
import { findPost } from '../store/posts.ts';
import { administered, call, checkVersionHeaders, organizationUrn, SCOPE } from './access.ts';
import { linkedin, linkedinAnswer } from './answers.ts';

/** "returns share data only within the past 12 months, using a rolling 12-month window". */
const WINDOW_MS = 365 * DAY_MS;
/** totalShareStatistics' counts, as the control API sets them. */
const SHARE_COUNTS = [
  'impressionCount',
  'uniqueImpressionsCount',
  'clickCount',
  'likeCount',
  'commentCount',
  'shareCount',
];
/** The follower count Network Sizes answers, today's. */
const FOLLOWERS = 'firstDegreeSize';
/** The metric names the control API takes, per level. */
export const INSIGHT_METRICS = { account: [...SHARE_COUNTS, FOLLOWERS], post: SHARE_COUNTS };

const INTERVALS = /^\(timeRange:\(start:(\d+),end:(\d+)\),timeGranularityType:([A-Z]+)\)$/;
const POST_LIST = /^List\(urn:li:(?:share|ugcPost):(\d+)\)$/;

/**
 * `engagement`, the rate beside the counts. The pages read call it a rate without giving its
 * formula; the sandbox makes it from the same element's counts, interactions (clicks, likes,
 * comments, shares) over impressions, and leaves it out when those are not all known or no
 * impression was counted.
 */
function engagementOf(counts: Record<string, number>): number | undefined {
  const { impressionCount, clickCount, likeCount, commentCount, shareCount } = counts;
  if (impressionCount === undefined || impressionCount === 0) return undefined;
  const interactions = [clickCount, likeCount, commentCount, shareCount];
  if (interactions.some((n) => n === undefined)) return undefined;
  return interactions.reduce((sum: number, n) => sum + (n ?? 0), 0) / impressionCount;
}

/** One day's or the lifetime's counts and engagement: those with data, none at all when no count has any. */
function totals(figures: InsightFigures, day: string): Record<string, number> | null {
  const counts: Record<string, number> = {};
  for (const metric of SHARE_COUNTS) {
    const value = figures.get(metric)?.get(day) ?? null;
    if (value !== null) counts[metric] = value;
  }
  if (Object.keys(counts).length === 0) return null;
  const engagement = engagementOf(counts);
  return engagement === undefined ? counts : { ...counts, engagement };
}

/** `timeIntervals` as a range of whole days, refused where LinkedIn keeps no data. */
function daysOf(request: FastifyRequest, now: Date): { days: string[]; starts: number[] } | null {
  const value = param(request, 'timeIntervals');
  if (value === undefined) return null;
  const match = INTERVALS.exec(value);
  if (match === null) throw linkedin.badParameter(`Invalid value for param timeIntervals: ${value}`);
  const [start, end] = [Number(match[1]), Number(match[2])];
  if (match[3] !== 'DAY') throw linkedin.badParameter('The sandbox answers timeGranularityType DAY only');
  if (end <= start) throw linkedin.badParameter('timeRange.end must be after timeRange.start');
  if (start < now.getTime() - WINDOW_MS) {
    throw linkedin.badParameter('timeRange.start must be within the past 12 months');
  }
  const starts: number[] = [];
  for (let t = Math.floor(start / DAY_MS) * DAY_MS; t < end; t += DAY_MS) starts.push(t);
  return { days: starts.map((t) => new Date(t).toISOString().slice(0, 10)), starts };
}

export function statisticsRoutes(app: FastifyInstance, store: Store): void {
  app.get('/rest/organizationalEntityShareStatistics', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    if (param(request, 'q') !== 'organizationalEntity') throw linkedin.badParameter('q must be organizationalEntity');
    requireScope(who, call, SCOPE.organizationAdmin);
    const org = await administered(store, who, param(request, 'organizationalEntity') ?? '');
    const entity = organizationUrn(org.id);
    const posts = param(request, 'shares') ?? param(request, 'ugcPosts');
    if (posts !== undefined) {
      const id = POST_LIST.exec(posts)?.[1];
      const post = id === undefined ? undefined : await findPost(store, id);
      if (post === undefined || post.accountId !== org.id) {
        throw linkedinAnswer(403, 'ACCESS_DENIED', `Not enough permissions to access: ${posts}`, 100);
      }
      const figures = await insightFigures(store, {
        accountId: org.id,
        postId: post.id,
        metrics: SHARE_COUNTS,
        days: [LIFETIME_DAY],
      });
      const counts = totals(figures, LIFETIME_DAY);
      const share =
        param(request, 'shares') === undefined
          ? { ugcPost: `urn:li:ugcPost:${post.id}` }
          : { share: `urn:li:share:${post.id}` };
      return {
        paging: { count: 10, start: 0, links: [] },
        elements: counts === null ? [] : [{ organizationalEntity: entity, ...share, totalShareStatistics: counts }],
      };
    }
    const range = daysOf(request, store.now());
    if (range === null) throw linkedin.badParameter('The sandbox answers time-bound or per-post statistics only');
    const figures = await insightFigures(store, {
      accountId: org.id,
      postId: '',
      metrics: SHARE_COUNTS,
      days: range.days,
    });
    const elements = [];
    for (const [n, day] of range.days.entries()) {
      const counts = totals(figures, day);
      const start = range.starts[n] as number;
      if (counts !== null) {
        elements.push({
          organizationalEntity: entity,
          timeRange: { start, end: start + DAY_MS },
          totalShareStatistics: counts,
        });
      }
    }
    return { paging: { count: 10, start: 0, links: [] }, elements };
  });

  app.get('/rest/networkSizes/:urn', async (request) => {
    checkVersionHeaders(request, store.now());
    const who = await caller(store, request, call);
    if (param(request, 'edgeType') !== 'COMPANY_FOLLOWED_BY_MEMBER') {
      throw linkedin.badParameter('edgeType must be COMPANY_FOLLOWED_BY_MEMBER');
    }
    requireScope(who, call, SCOPE.organizationAdmin);
    const org = await administered(store, who, (request.params as { urn: string }).urn);
    const today = store.now().toISOString().slice(0, 10);
    const set = await findInsight(store, { accountId: org.id, postId: '', metric: FOLLOWERS, day: today });
    return { firstDegreeSize: set === undefined ? (org.followersCount ?? 0) : set.value };
  });
}
