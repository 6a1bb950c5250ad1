/**
 * LinkedIn insights of an organization page: its posts' daily figures (Organization Share
 * Statistics, time-bound by day) and its follower count (Network Sizes). Facts: docs/platforms.md, "LinkedIn".
 */

import { DAY_MS } from '../../days.ts';
import { invalidRequest } from '../errors.ts';
import { list, num, record } from '../http.ts';
import { accountInsightsRead, requireMetrics, setFigure } from '../insight-requests.ts';
import { type InsightsCapability, PlatformError } from '../types.ts';
import type { LinkedInContext } from './api.ts';
import { isPerson, organizationUrn } from './author.ts';
import { LINKEDIN_METRICS } from './definition.ts';
import { LINKEDIN_SCOPE } from './scopes.ts';

const platform = 'linkedin';
/**
 * "returns share data only within the past 12 months, using a rolling 12-month window": days
 * before the window are no data, never asked (365 days before today, today included).
 */
const WINDOW_DAYS = 365;
/** The service's metric names for totalShareStatistics' fields. */
const SHARE_FIELDS: Readonly<Record<string, string>> = {
  views: 'impressionCount',
  clicks: 'clickCount',
  likes: 'likeCount',
  comments: 'commentCount',
  shares: 'shareCount',
  // A rate, not a count: the insights module gives it no total over days.
  engagement: 'engagement',
};

const POST_URN = /^urn:li:(share|ugcPost):\d+$/;

const elements = (answer: Record<string, unknown>) => list(answer.elements);

/** A Rest.li 2.0 query string: its structure (`(`, `:`, `,`) as is, each value percent-encoded. */
function timeIntervals(startMs: number, endMs: number): string {
  return `(timeRange:(start:${startMs},end:${endMs}),timeGranularityType:DAY)`;
}

/**
 * A member's own profile: its figures (Member Post Statistics, Member Follower Statistics) need
 * permissions the service does not request; the insights module asks nothing of an account
 * lacking them, and this refusal says the same to any other caller.
 */
function memberFiguresRefused(platformUserId: string): void {
  if (!isPerson(platformUserId)) return;
  throw new PlatformError('permission_missing', "linkedin: a member's figures need r_member_postAnalytics", {
    platform,
    missingScopes: [LINKEDIN_SCOPE.memberPostAnalytics],
  });
}

export function linkedinInsights(context: LinkedInContext): InsightsCapability {
  const { api, now } = context;
  return {
    /*
     * One call for every day asked within the rolling 12 months: the share statistics of the
     * first to the last day, by day, each element a day (`timeRange.start`); a day LinkedIn
     * answers no element for has no data (null). followers_count is the count now (Network
     * Sizes answers no history): only today has it, one call more.
     */
    async accountInsights({ platformUserId, accessToken }, days, metrics) {
      memberFiguresRefused(platformUserId);
      const oldest = new Date(now().getTime() - (WINDOW_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
      const { today, figures, read } = accountInsightsRead(
        platform,
        LINKEDIN_METRICS.account,
        { days, metrics },
        now,
        oldest,
      );
      const urn = organizationUrn(platformUserId);
      const daily = metrics.filter((m) => m !== 'followers_count');
      if (daily.length > 0 && read.length > 0) {
        const start = Date.parse(`${read[0]}T00:00:00Z`);
        const end = Date.parse(`${read.at(-1)}T00:00:00Z`) + DAY_MS;
        const query =
          `q=organizationalEntity&organizationalEntity=${encodeURIComponent(urn)}` +
          `&timeIntervals=${timeIntervals(start, end)}`;
        const answer = await api.restObject('GET', `/organizationalEntityShareStatistics?${query}`, accessToken);
        for (const element of elements(answer)) {
          const entry = record(element);
          const dayStart = num(record(entry.timeRange).start);
          if (dayStart === null) continue;
          const day = new Date(dayStart).toISOString().slice(0, 10);
          if (!read.includes(day)) continue;
          const totals = record(entry.totalShareStatistics);
          for (const metric of daily) setFigure(figures, day, metric, num(totals[SHARE_FIELDS[metric] ?? '']));
        }
      }
      if (metrics.includes('followers_count') && read.includes(today)) {
        const answer = await api.restObject('GET', `/networkSizes/${encodeURIComponent(urn)}`, accessToken, {
          query: { edgeType: 'COMPANY_FOLLOWED_BY_MEMBER' },
        });
        setFigure(figures, today, 'followers_count', num(answer.firstDegreeSize));
      }
      return { figures, usagePercent: null };
    },

    /*
     * A post's lifetime figures: the share statistics of the organization that posted it, for
     * that one post (`shares=List(...)` for a share, `ugcPosts=List(...)` for a UGC post),
     * without timeIntervals. No element: no data (null).
     */
    async postInsights({ platformUserId, accessToken }, postId, metrics) {
      memberFiguresRefused(platformUserId);
      requireMetrics(platform, LINKEDIN_METRICS.post, metrics);
      const post = POST_URN.exec(postId);
      if (post === null) throw invalidRequest(platform, `${postId} is not a post URN`);
      const field = post[1] === 'share' ? 'shares' : 'ugcPosts';
      const query =
        `q=organizationalEntity&organizationalEntity=${encodeURIComponent(organizationUrn(platformUserId))}` +
        `&${field}=List(${encodeURIComponent(postId)})`;
      const answer = await api.restObject('GET', `/organizationalEntityShareStatistics?${query}`, accessToken);
      const [element] = elements(answer);
      const totals = record(record(element).totalShareStatistics);
      return {
        figures: Object.fromEntries(metrics.map((m) => [m, num(totals[SHARE_FIELDS[m] ?? ''])])),
        usagePercent: null,
      };
    },
  };
}
