/**
 * Writing figures read from a platform. The refresh and the history reading of one account
 * may run at the same time: each writes in a transaction that first locks the account's
 * sync state row, so their read-modify-write of the same series cannot interleave.
 */
import { sql } from 'drizzle-orm';
import { appendTo } from '../../append-to.ts';
import { now } from '../../clock.ts';
import { dayNumber, dayOf, dayText } from '../../days.ts';
import type { Tx } from '../../db/connection.ts';
import type { DailyMetrics } from '../../platforms/index.ts';
import { newAccountDays, REFRESH_INTERVAL_MS } from './schedule.ts';
import { accountInsightSeries, type InsightSyncState, insightSyncState, postInsights } from './tables.ts';

/**
 * The account's sync state, locked FOR UPDATE until the transaction ends. An account read
 * before the periodic schedule first saw it (a manual sync within a minute of the connection)
 * gets its row here, as the schedule would make it, with the history due at once.
 */
export async function lockSyncState(tx: Tx, accountId: string): Promise<InsightSyncState> {
  const at = now();
  await tx
    .insert(insightSyncState)
    .values({
      accountId,
      nextRefreshAt: new Date(at.getTime() + REFRESH_INTERVAL_MS),
      ...newAccountDays(dayOf(at)),
      historyNextAt: at,
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(insightSyncState)
    .where(sql`${insightSyncState.accountId} = ${accountId}`)
    .for('update');
  return row as InsightSyncState;
}

type SeriesRow = {
  metric: string;
  first_day: string;
  values: (number | null)[];
};

/**
 * Stores daily figures of an account. A newer reading of a day replaces the older one, but
 * "no data" (null) never replaces a figure: a platform that stops reporting a day (or an
 * adapter that can only read followers_count today) must not erase what was read before.
 */
export async function storeDailyFigures(tx: Tx, accountId: string, figures: DailyMetrics): Promise<void> {
  const byMetric = new Map<string, [number, number | null][]>();
  for (const [day, values] of Object.entries(figures)) {
    const number = dayNumber(day);
    if (number === null) continue;
    for (const [metric, value] of Object.entries(values)) {
      appendTo(byMetric, metric, [number, value]);
    }
  }
  if (byMetric.size === 0) return;
  const existing = await tx.execute<SeriesRow>(sql`
    select metric, first_day::text as first_day, array_to_json(${accountInsightSeries.values}) as values
    from ${accountInsightSeries}
    where ${accountInsightSeries.accountId} = ${accountId}
      and ${accountInsightSeries.metric} = any(${sql.param([...byMetric.keys()])}::text[])`);
  const stored = new Map(existing.rows.map((row) => [row.metric, row]));
  const rows = [];
  for (const [metric, written] of byMetric) {
    const merged = mergeSeries(stored.get(metric), written);
    if (merged !== null)
      rows.push(
        sql`(${accountId}, ${metric}, ${merged.firstDay}::date, ${sql.param(merged.values)}::double precision[])`,
      );
  }
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into ${accountInsightSeries} (account_id, metric, first_day, values)
    values ${sql.join(rows, sql`, `)}
    on conflict (account_id, metric) do update set first_day = excluded.first_day, values = excluded.values`);
}

/** The series with `written` laid over it; null when there is nothing to store (only nulls, no row yet). */
function mergeSeries(
  row: SeriesRow | undefined,
  written: [number, number | null][],
): { firstDay: string; values: (number | null)[] } | null {
  const numbers = written.filter(([, value]) => value !== null);
  if (row === undefined && numbers.length === 0) return null;
  const rowFirst = row === undefined ? null : (dayNumber(row.first_day) as number);
  const days = [
    ...written.map(([day]) => day),
    ...(rowFirst === null ? [] : [rowFirst, rowFirst + (row?.values.length ?? 1) - 1]),
  ];
  const first = Math.min(...days);
  const last = Math.max(...days);
  const values: (number | null)[] = new Array(last - first + 1).fill(null);
  if (row !== undefined && rowFirst !== null) {
    row.values.forEach((value, i) => {
      values[rowFirst - first + i] = value;
    });
  }
  for (const [day, value] of numbers) values[day - first] = value;
  return { firstDay: dayText(first), values };
}

/** A post's lifetime figures on one account, as read now; as for days, no data never replaces a figure. */
export async function storePostFigures(
  tx: Tx,
  postId: string,
  accountId: string,
  figures: Record<string, number | null>,
  at: Date,
): Promise<void> {
  await tx
    .insert(postInsights)
    .values({ postId, accountId, figures, syncedAt: at })
    .onConflictDoUpdate({
      target: [postInsights.postId, postInsights.accountId],
      set: {
        // Every metric either reading has; the new figure where it has one, else the old.
        figures: sql`(excluded.figures || ${postInsights.figures}) || jsonb_strip_nulls(excluded.figures)`,
        syncedAt: at,
      },
    });
}
