/**
 * A profile's report: every account's headline figures over a period beside the period of the
 * same length before it, the profile's sums and its best posts, from the stored daily figures
 * and posts alone (nothing is asked of a platform to answer).
 */
import { now } from '../../clock.ts';
import { DAY_MS, dayOf, daysFrom, dayText, FIRST_DAY } from '../../days.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { type Platform, platformInfo } from '../../platforms/index.ts';
import { accountsOfProfile, type ReportedAccount } from '../accounts/index.ts';
import { type InsightReadDeps, rangeOf, storedDaysOf, storedPostFiguresOf } from '../insights/index.ts';
import { publishedCopiesOf } from '../posts/index.ts';
import { getProfile } from '../profiles/index.ts';
import {
  type AccountFigures,
  accountFigures,
  bestPosts,
  type Headlines,
  postEngagement,
  profileFigures,
} from './figures.ts';

/** How many of the period's posts a report ranks. */
const TOP_POSTS = 5;

export interface ReportQuery {
  from?: string | undefined;
  to?: string | undefined;
}

export interface ReportAccount extends AccountFigures {
  account: Pick<ReportedAccount, 'id' | 'platform' | 'username' | 'displayName' | 'status'>;
  missingPermission: string | null;
  syncedAt: Date | null;
}

export interface TopPost {
  postId: string;
  accountId: string;
  platform: Platform;
  source: 'api' | 'platform';
  text: string | null;
  permalink: string | null;
  publishedAt: Date;
  engagement: number;
  figures: Readonly<Record<string, number | null>>;
}

export interface ProfileReport {
  profile: { id: string; name: string };
  /** The period's first and last day. */
  from: string;
  to: string;
  /** Every day of the period, oldest first. */
  dates: string[];
  previous: { from: string; to: string };
  totals: Headlines;
  accounts: ReportAccount[];
  topPosts: TopPost[];
  generatedAt: Date;
}

/**
 * The period asked: with neither `from` nor `to`, the last whole calendar month (UTC) before
 * today, what a monthly report covers; otherwise as the insights endpoints take a range (`to`
 * today, `from` 29 days before it; at most 365 days; 400 `invalid_range`), and the previous
 * period must not start before the first day a date can name.
 */
export function periodOf(query: ReportQuery, today: number): { from: number; to: number } {
  if (query.from === undefined && query.to === undefined) return lastMonthOf(today);
  const period = rangeOf(query.from, query.to, today);
  if (period.from - (period.to - period.from + 1) < FIRST_DAY) {
    throw new ApiError(400, 'invalid_range', 'The previous period would start before 0001-01-01; give a later `from`.');
  }
  return period;
}

/** The calendar month before the one `today` falls in (day numbers, both included). */
export function lastMonthOf(today: number): { from: number; to: number } {
  const day = new Date(today * DAY_MS);
  const thisMonth = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1) / DAY_MS;
  const lastMonth = Date.UTC(day.getUTCFullYear(), day.getUTCMonth() - 1, 1) / DAY_MS;
  return { from: lastMonth, to: thisMonth - 1 };
}

/** GET /v1/profiles/{id}/report: the profile `ref` names, as the caller sees it (404 `profile_not_found`). */
export async function profileReport(
  deps: InsightReadDeps,
  scope: Scope,
  ref: string,
  query: ReportQuery,
): Promise<ProfileReport> {
  const period = periodOf(query, dayOf(now()));
  const profile = await getProfile(deps.db, scope, ref);
  return await reportOf(deps, profile, period);
}

/** The report of a profile over a period (day numbers, both included), whoever asks: the caller has found the profile. */
export async function reportOf(
  deps: InsightReadDeps,
  profile: { ownerId: string; id: string; name: string },
  period: { from: number; to: number },
): Promise<ProfileReport> {
  const length = period.to - period.from + 1;
  const first = period.from - length;
  const accounts = await accountsOfProfile(deps.db, profile);
  const stored = await storedDaysOf(deps, accounts, { from: first, to: period.to });
  const copies = await publishedCopiesOf(
    deps.db,
    profile,
    accounts.map((a) => a.id),
    { from: new Date(first * DAY_MS), to: new Date((period.to + 1) * DAY_MS) },
  );
  const reportAccounts = accounts.map((account): ReportAccount => {
    const days = stored.get(account.id);
    const figures = accountFigures(
      {
        figures: platformInfo(account.platform).reportFigures,
        metrics: days?.metrics ?? new Map(),
        // Counted: the posts published through the service; a platform post is known only once the service has seen it (a comment's post).
        postDays: copies
          .filter((c) => c.accountId === account.id && c.source === 'api')
          .map((c) => dayOf(c.publishedAt) - first),
      },
      length,
    );
    return {
      ...figures,
      account: {
        id: account.id,
        platform: account.platform,
        username: account.username,
        displayName: account.displayName,
        status: account.status,
      },
      missingPermission: days?.missingPermission ?? null,
      syncedAt: days?.syncedAt ?? null,
    };
  });
  const platformOf = new Map(accounts.map((a) => [a.id, a.platform]));
  const hidden = new Set(reportAccounts.filter((a) => a.missingPermission !== null).map((a) => a.account.id));
  // Posts of the period whose account has granted its figures: as GET /v1/posts/{id}/insights shows them.
  const inPeriod = copies.filter((c) => dayOf(c.publishedAt) >= period.from && !hidden.has(c.accountId));
  const read = await storedPostFiguresOf(deps.db, inPeriod);
  const figuresOf = new Map(read.map((r) => [`${r.postId} ${r.accountId}`, r.figures]));
  const ranked = inPeriod.map((copy) => {
    const platform = platformOf.get(copy.accountId) as Platform;
    const figures = figuresOf.get(`${copy.postId} ${copy.accountId}`) ?? {};
    return {
      ...copy,
      platform,
      figures,
      engagement: figuresOf.has(`${copy.postId} ${copy.accountId}`)
        ? postEngagement(platformInfo(platform).reportFigures, figures)
        : null,
    };
  });
  return {
    profile: { id: profile.id, name: profile.name },
    from: dayText(period.from),
    to: dayText(period.to),
    dates: daysFrom(period.from, period.to),
    previous: { from: dayText(first), to: dayText(period.from - 1) },
    totals: profileFigures(reportAccounts),
    accounts: reportAccounts,
    topPosts: bestPosts(ranked, TOP_POSTS),
    generatedAt: now(),
  };
}
