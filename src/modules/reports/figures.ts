/**
 * A report's figures, from the stored days and posts alone: each account's headline figures over
 * a period and the period before it, the profile's sums, and the best posts. Null stays "no
 * data" throughout: a sum is null only when every figure it adds is null, and a change needs
 * both periods' figures.
 */
import type { ReportFigures } from '../../platforms/index.ts';

/** The headline figures, in the order a report shows them. */
export const HEADLINES = ['followers', 'views', 'engagement'] as const;
export type Headline = (typeof HEADLINES)[number];

/** A figure of the period beside the period before. */
export interface Figure {
  value: number | null;
  previous: number | null;
  change: number | null;
  /** `change` as a fraction of `previous` (0.25 is 25% more); null without a change or when `previous` is 0. */
  changeRatio: number | null;
}

/** Followers: counts, not flows; `value` is the last count known in the period, `start` the first. */
export interface FollowersFigure extends Figure {
  start: number | null;
}

export interface Headlines {
  followers: FollowersFigure;
  views: Figure;
  engagement: Figure;
  postsPublished: Figure;
}

/** One day of an account: its headline figures that day (null: no data). */
export interface ReportDay {
  followers: number | null;
  views: number | null;
  engagement: number | null;
  postsPublished: number;
}

/** What an account's part of a report is made of. */
export interface AccountInput {
  /** Null where the platform offers no insights: every headline but the posts is then not offered. */
  figures: ReportFigures | null;
  /** Each stored metric, a value a day over the previous period and the period, in that order. */
  metrics: ReadonlyMap<string, readonly (number | null)[]>;
  /** The day (0 = the previous period's first) each of its posts was published on. */
  postDays: readonly number[];
}

export interface AccountFigures extends Headlines {
  notOffered: Headline[];
  /** The period's days, oldest first. */
  days: ReportDay[];
}

/** Which metrics make each headline of the platform (none: not offered). */
function metricsOf(figures: ReportFigures | null): Record<Headline, readonly string[]> {
  if (figures === null) return { followers: [], views: [], engagement: [] };
  return {
    followers: figures.followers === null ? [] : [figures.followers],
    views: figures.views,
    engagement: figures.engagement.account,
  };
}

/** The sum of numbers that may be null: null only when every one is (or there are none). */
export function sumKnown(values: Iterable<number | null>): number | null {
  let sum: number | null = null;
  for (const value of values) if (value !== null) sum = (sum ?? 0) + value;
  return sum;
}

export function figure(value: number | null, previous: number | null): Figure {
  const change = value === null || previous === null ? null : value - previous;
  return {
    value,
    previous,
    change,
    changeRatio: change === null || previous === 0 ? null : change / (previous as number),
  };
}

/** An account's headlines over a period of `length` days, the previous period's `length` days before it. */
export function accountFigures(input: AccountInput, length: number): AccountFigures {
  const used = metricsOf(input.figures);
  // Each headline's value a day over both periods: the sum of its metrics that day.
  const daily = (headline: Headline): (number | null)[] =>
    Array.from({ length: 2 * length }, (_, day) =>
      sumKnown(used[headline].map((metric) => input.metrics.get(metric)?.[day] ?? null)),
    );
  const followers = daily('followers');
  const views = daily('views');
  const engagement = daily('engagement');
  const posts = new Array<number>(2 * length).fill(0);
  for (const day of input.postDays) posts[day] = (posts[day] ?? 0) + 1;
  const before = (values: (number | null)[]) => values.slice(0, length);
  const during = (values: (number | null)[]) => values.slice(length);
  const lastKnown = (values: (number | null)[]) => values.findLast((v) => v !== null) ?? null;
  return {
    followers: {
      ...figure(lastKnown(during(followers)), lastKnown(before(followers))),
      start: during(followers).find((v) => v !== null) ?? null,
    },
    views: figure(sumKnown(during(views)), sumKnown(before(views))),
    engagement: figure(sumKnown(during(engagement)), sumKnown(before(engagement))),
    postsPublished: figure(sumKnown(during(posts)) ?? 0, sumKnown(before(posts)) ?? 0),
    notOffered: HEADLINES.filter((headline) => used[headline].length === 0),
    days: Array.from({ length }, (_, i) => ({
      followers: followers[length + i] ?? null,
      views: views[length + i] ?? null,
      engagement: engagement[length + i] ?? null,
      postsPublished: posts[length + i] ?? 0,
    })),
  };
}

/**
 * A sum of the accounts' figures, each period the sum of its known figures; the change is like
 * for like: the sum of the changes of the accounts known in both periods, as a fraction of those
 * accounts' previous figures. An account known in one period only (connected during it, say)
 * adds to its `value` or `previous` but not to the change, which would otherwise count its
 * whole figure as growth.
 */
export function sumOfFigures(figures: readonly Figure[]): Figure {
  const compared = figures.filter((f) => f.change !== null);
  const change = compared.length === 0 ? null : compared.reduce((n, f) => n + (f.change as number), 0);
  const base = compared.reduce((n, f) => n + (f.previous as number), 0);
  return {
    value: sumKnown(figures.map((f) => f.value)),
    previous: sumKnown(figures.map((f) => f.previous)),
    change,
    changeRatio: change === null || base === 0 ? null : change / base,
  };
}

/** The profile's headlines: each the sum of its accounts' (`sumOfFigures`). */
export function profileFigures(accounts: readonly Headlines[]): Headlines {
  return {
    followers: {
      ...sumOfFigures(accounts.map((a) => a.followers)),
      start: sumKnown(accounts.map((a) => a.followers.start)),
    },
    views: sumOfFigures(accounts.map((a) => a.views)),
    engagement: sumOfFigures(accounts.map((a) => a.engagement)),
    postsPublished: sumOfFigures(accounts.map((a) => a.postsPublished)),
  };
}

/** A post's engagement on its platform: the sum of the post metrics the platform's engagement is; null: no data. */
export function postEngagement(
  figures: ReportFigures | null,
  stored: Readonly<Record<string, number | null>>,
): number | null {
  return sumKnown((figures?.engagement.post ?? []).map((metric) => stored[metric] ?? null));
}

/** The best `count` of the posts by engagement (a post without data is not ranked), the newer first on a tie. */
export function bestPosts<P extends { engagement: number | null; publishedAt: Date; postId: string }>(
  posts: readonly P[],
  count: number,
): (P & { engagement: number })[] {
  return posts
    .filter((p): p is P & { engagement: number } => p.engagement !== null)
    .sort(
      (a, b) =>
        b.engagement - a.engagement ||
        b.publishedAt.getTime() - a.publishedAt.getTime() ||
        (a.postId < b.postId ? -1 : 1),
    )
    .slice(0, count);
}
