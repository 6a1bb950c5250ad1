import { type Static, Type } from 'typebox';
import { daysFrom, dayText } from '../../days.ts';
import { At, Nullable } from '../../http/schemas.ts';
import { PLATFORMS, type Platform } from '../../platforms/index.ts';

// A count, or for a rate (`engagement`) a fraction: a number either way.
const Figure = (description: string) =>
  Nullable(Type.Number({ minimum: 0 }), `${description} null: the platform reported no data (not 0).`);

/**
 * Metrics that are a rate of each day (LinkedIn's `engagement`), not a count: days' rates do not
 * add up, so their total is null; each day's rate is in `values`.
 */
const RATES: ReadonlySet<string> = new Set(['engagement']);

/** A metric's total over the days so far, with the next day's value: summed, the last count, or none for a rate. */
function addUp(metric: string, total: number | null, value: number): number | null {
  if (RATES.has(metric)) return null;
  return metric === 'followers_count' ? value : (total ?? 0) + value;
}

const Day = (description: string) => Type.String({ format: 'date', description: `${description} YYYY-MM-DD, UTC.` });

const MissingPermission = Nullable(
  Type.String(),
  'The insights permission the account has not granted (`instagram_business_manage_insights`, `threads_manage_insights`, `rw_organization_admin` on LinkedIn): then every figure is null and the platform is not asked. Null when granted.',
);

export const AccountInsightsJson = Type.Object(
  {
    account_id: Type.String(),
    platform: Type.Enum(PLATFORMS),
    from: Day('First day of the range.'),
    to: Day('Last day of the range (included).'),
    metrics: Type.Record(
      Type.String(),
      Type.Object(
        {
          total: Figure(
            'The sum of the days; for `followers_count` (a count, not a flow) the last value known in the range; for a rate (`engagement`) null, as rates do not add up.',
          ),
          values: Type.Array(Type.Object({ date: Day('The day.'), value: Figure("The day's figure.") }), {
            description: 'One entry per day of the range, oldest first.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: "Each metric asked (all of the platform's by default), by name." },
    ),
    missing_permission: MissingPermission,
    synced_at: Nullable(At("When the account's figures were last read from the platform."), 'Null: never yet.'),
  },
  { additionalProperties: false },
);

export type AccountInsightsJson = Static<typeof AccountInsightsJson>;

export const PostInsightsJson = Type.Object(
  {
    post_id: Type.String(),
    account_id: Type.String({ description: 'The account whose copy of the post the figures are of.' }),
    platform: Type.Enum(PLATFORMS),
    metrics: Type.Record(Type.String(), Figure("The post's lifetime figure."), {
      description: "Each metric asked (all of the platform's by default), by name.",
    }),
    missing_permission: MissingPermission,
    synced_at: Nullable(At("When the post's figures were last read from the platform."), 'Null: never yet.'),
  },
  { additionalProperties: false },
);
export type PostInsightsJson = Static<typeof PostInsightsJson>;

/** A metric's stored days: `values[0]` is the day `start` (a day number, days.ts). */
export interface SeriesSlice {
  start: number;
  values: readonly (number | null)[];
}

/** What GET /v1/accounts/{id}/insights answers about, before it is rendered. */
export interface AccountFigures {
  accountId: string;
  platform: Platform;
  /** The first and last day (day numbers, days.ts), both included. */
  from: number;
  to: number;
  metrics: readonly string[];
  series: ReadonlyMap<string, SeriesSlice>;
  missingPermission: string | null;
  syncedAt: Date | null;
}

/**
 * An account's figures over the days `from`..`to` (day numbers): every day of each metric
 * (null where the platform had no data, or outside what is stored), and its total: the days'
 * sum (null when every day is null); for followers_count, a count rather than a flow, the last
 * value known in the range; for a rate, null.
 */
export function renderAccountInsights(answer: AccountFigures): AccountInsightsJson {
  const dates = daysFrom(answer.from, answer.to);
  const metrics: AccountInsightsJson['metrics'] = {};
  for (const metric of answer.metrics) {
    const slice = answer.series.get(metric);
    let total: number | null = null;
    const values = dates.map((date, i) => {
      const index = answer.from + i - (slice?.start ?? 0);
      const value = slice === undefined || index < 0 ? null : (slice.values[index] ?? null);
      if (value !== null) total = addUp(metric, total, value);
      return { date, value };
    });
    metrics[metric] = { total, values };
  }
  return {
    account_id: answer.accountId,
    platform: answer.platform,
    from: dayText(answer.from),
    to: dayText(answer.to),
    metrics,
    missing_permission: answer.missingPermission,
    synced_at: answer.syncedAt?.toISOString() ?? null,
  };
}

/**
 * renderAccountInsights written straight as JSON text, for the route: a year of every metric is
 * thousands of `{date, value}` objects, and building them for the schema's serializer took more
 * than twice the server's CPU of writing the text in one pass (bench/README.md). Numbers, day
 * texts and the fixed keys need no escaping; the id and permission go through JSON.stringify.
 * test/modules/insights-json.test.ts holds it to renderAccountInsights and the schema.
 */
export function accountInsightsText(answer: AccountFigures): string {
  const dates = daysFrom(answer.from, answer.to).map((date) => `{"date":"${date}","value":`);
  const parts: string[] = [];
  for (const metric of answer.metrics) {
    const slice = answer.series.get(metric);
    let total: number | null = null;
    const values: string[] = new Array(dates.length);
    for (let i = 0; i < dates.length; i++) {
      const index = answer.from + i - (slice?.start ?? 0);
      const value = slice === undefined || index < 0 ? null : (slice.values[index] ?? null);
      if (value !== null) total = addUp(metric, total, value);
      values[i] = `${dates[i]}${value === null ? 'null' : value}}`;
    }
    parts.push(`${JSON.stringify(metric)}:{"total":${total === null ? 'null' : total},"values":[${values.join(',')}]}`);
  }
  const syncedAt = answer.syncedAt === null ? null : answer.syncedAt.toISOString();
  return `{"account_id":${JSON.stringify(answer.accountId)},"platform":${JSON.stringify(answer.platform)},"from":"${dayText(answer.from)}","to":"${dayText(answer.to)}","metrics":{${parts.join(',')}},"missing_permission":${JSON.stringify(answer.missingPermission)},"synced_at":${JSON.stringify(syncedAt)}}`;
}

/** A post's lifetime figures on one account: each metric asked, null where none is stored. */
export function renderPostInsights(answer: {
  postId: string;
  accountId: string;
  platform: Platform;
  metrics: readonly string[];
  figures: Readonly<Record<string, number | null>>;
  missingPermission: string | null;
  syncedAt: Date | null;
}): PostInsightsJson {
  return {
    post_id: answer.postId,
    account_id: answer.accountId,
    platform: answer.platform,
    metrics: Object.fromEntries(answer.metrics.map((m) => [m, answer.figures[m] ?? null])),
    missing_permission: answer.missingPermission,
    synced_at: answer.syncedAt?.toISOString() ?? null,
  };
}
