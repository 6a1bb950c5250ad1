/** Account and post figures: those the control API set, and made-up ones (stable) for every other day. */
import { createHash } from 'node:crypto';
import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxInsights } from '../schema.ts';

/** Sets figures of one account (or post): one statement, the last value given for a day winning. */
export async function setInsights(
  store: Store,
  key: { accountId: string; postId: string; metric: string },
  values: readonly { day: string; value: number | null }[],
): Promise<void> {
  // One row per day: PostgreSQL refuses to update the same row twice in one statement.
  const byDay = new Map(values.map(({ day, value }) => [day, value]));
  if (byDay.size === 0) return;
  await store.db
    .insert(sandboxInsights)
    .values([...byDay].map(([day, value]) => ({ ...key, day, value })))
    .onConflictDoUpdate({
      target: [sandboxInsights.accountId, sandboxInsights.postId, sandboxInsights.metric, sandboxInsights.day],
      set: { value: sql`excluded.value` },
    });
}

/** Post figures are lifetime totals, kept under this one day. */
export const LIFETIME_DAY = '1970-01-01';

/** The figure set through the control API for this key, if any (`insightFigures` makes one up otherwise). */
export async function findInsight(
  store: Store,
  key: { accountId: string; postId: string; metric: string; day: string },
): Promise<{ value: number | null } | undefined> {
  const [row] = await store.db
    .select({ value: sandboxInsights.value })
    .from(sandboxInsights)
    .where(
      and(
        eq(sandboxInsights.accountId, key.accountId),
        eq(sandboxInsights.postId, key.postId),
        eq(sandboxInsights.metric, key.metric),
        eq(sandboxInsights.day, key.day),
      ),
    );
  return row;
}

/** Figures by metric, then by day: a number, or null for "no data". */
export type InsightFigures = Map<string, Map<string, number | null>>;

/** A figure never set: made up from a hash, so the same key always answers the same. */
function madeUpFigure(accountId: string, postId: string, metric: string, day: string): number {
  const digest = createHash('sha256').update(`${accountId}/${postId}/${metric}/${day}`).digest();
  return digest.readUInt16BE(0) % 500;
}

/**
 * The figures of `metrics` on `days` for one account (or, with `postId`, one post): those set
 * through the control API (null = no data) read in one query, a made-up one (stable across
 * calls) for every other day up to today, and no data for days still to come.
 */
export async function insightFigures(
  store: Store,
  key: { accountId: string; postId: string; metrics: readonly string[]; days: readonly string[] },
): Promise<InsightFigures> {
  const figures: InsightFigures = new Map(key.metrics.map((metric) => [metric, new Map()]));
  if (key.metrics.length === 0 || key.days.length === 0) return figures;
  const days = [...key.days].sort();
  const rows = await store.db
    .select({ metric: sandboxInsights.metric, day: sandboxInsights.day, value: sandboxInsights.value })
    .from(sandboxInsights)
    .where(
      and(
        eq(sandboxInsights.accountId, key.accountId),
        eq(sandboxInsights.postId, key.postId),
        inArray(sandboxInsights.metric, [...key.metrics]),
        // The days asked are a range in practice; a gap in them only reads rows that are left unused.
        gte(sandboxInsights.day, days[0] as string),
        lte(sandboxInsights.day, days.at(-1) as string),
      ),
    );
  const set = new Map(rows.map((r) => [`${r.metric}/${r.day}`, r.value]));
  const today = store.now().toISOString().slice(0, 10);
  for (const [metric, byDay] of figures) {
    for (const day of key.days) {
      const found = set.get(`${metric}/${day}`);
      if (found !== undefined) byDay.set(day, found);
      else byDay.set(day, day > today ? null : madeUpFigure(key.accountId, key.postId, metric, day));
    }
  }
  return figures;
}
