/**
 * What other modules read of the stored figures through index.ts (a profile's report): several
 * accounts' days at once, and several posts' lifetime figures. Nothing here asks a platform.
 */
import { sql } from 'drizzle-orm';
import { dayNumber, dayText } from '../../days.ts';
import type { Queryable } from '../../db/connection.ts';
import type { AccountState } from '../accounts/index.ts';
import { type InsightReadDeps, missingPermission } from './service.ts';
import { accountInsightSeries, insightSyncState, postInsights, seriesSlice } from './tables.ts';

/** An account's stored days, as GET /v1/accounts/{id}/insights would show them. */
export interface StoredDays {
  /** Each metric stored, one value a day from `from` to `to` (null: no data, or never read). */
  readonly metrics: ReadonlyMap<string, readonly (number | null)[]>;
  /** The insights permission the account lacks: then no figure is given, as the insights endpoints give none. */
  readonly missingPermission: string | null;
  readonly syncedAt: Date | null;
}

/** The days `from`..`to` (day numbers, both included) of every metric of each account, by account id: accounts the caller has already found within its scope. */
export async function storedDaysOf(
  deps: InsightReadDeps,
  accounts: readonly Pick<AccountState, 'id' | 'platform' | 'platformUserId' | 'scopes'>[],
  range: { from: number; to: number },
): Promise<Map<string, StoredDays>> {
  const answer = new Map<string, StoredDays>();
  if (accounts.length === 0) return answer;
  const ids = sql.param(accounts.map((a) => a.id));
  const from = dayText(range.from);
  const to = dayText(range.to);
  const slice = seriesSlice(from, to);
  const { rows: series } = await deps.db.execute<{
    account_id: string;
    metric: string;
    start: string;
    values: (number | null)[] | null;
  }>(
    sql`select ${accountInsightSeries.accountId} as account_id, ${accountInsightSeries.metric} as metric,
          ${slice.start} as start, ${slice.values} as values
        from ${accountInsightSeries} where ${accountInsightSeries.accountId} = any(${ids}::text[])`,
  );
  const { rows: synced } = await deps.db.execute<{ account_id: string; at: Date | null }>(
    sql`select ${insightSyncState.accountId} as account_id, ${insightSyncState.refreshedAt} as at
        from ${insightSyncState} where ${insightSyncState.accountId} = any(${ids}::text[])`,
  );
  const syncedAt = new Map(synced.map((r) => [r.account_id, r.at === null ? null : new Date(r.at)]));
  const days = range.to - range.from + 1;
  for (const account of accounts) {
    const lacking = missingPermission(deps, account);
    const metrics = new Map<string, (number | null)[]>();
    if (lacking === null) {
      for (const row of series) {
        if (row.account_id !== account.id) continue;
        const values = new Array<number | null>(days).fill(null);
        const offset = (dayNumber(row.start) as number) - range.from;
        for (const [i, value] of (row.values ?? []).entries()) {
          if (offset + i >= 0 && offset + i < days) values[offset + i] = value;
        }
        metrics.set(row.metric, values);
      }
    }
    answer.set(account.id, { metrics, missingPermission: lacking, syncedAt: syncedAt.get(account.id) ?? null });
  }
  return answer;
}

/** A post's lifetime figures on one account, as last read (null: no data); none where never read. */
export interface StoredPostFigures {
  readonly postId: string;
  readonly accountId: string;
  readonly figures: Readonly<Record<string, number | null>>;
  readonly syncedAt: Date;
}

/** The figures read of these posts on these accounts (a post's target each), which the caller has already found within its scope. */
export async function storedPostFiguresOf(
  db: Queryable,
  targets: readonly { postId: string; accountId: string }[],
): Promise<StoredPostFigures[]> {
  if (targets.length === 0) return [];
  const { rows: found } = await db.execute<{
    post_id: string;
    account_id: string;
    figures: Record<string, number | null>;
    at: Date;
  }>(
    sql`select ${postInsights.postId} as post_id, ${postInsights.accountId} as account_id, ${postInsights.figures} as figures,
          ${postInsights.syncedAt} as at
        from ${postInsights}
        join unnest(${sql.param(targets.map((t) => t.postId))}::text[], ${sql.param(targets.map((t) => t.accountId))}::text[])
          as asked(post_id, account_id)
          on asked.post_id = ${postInsights.postId} and asked.account_id = ${postInsights.accountId}`,
  );
  return found.map((r) => ({
    postId: r.post_id,
    accountId: r.account_id,
    figures: r.figures,
    syncedAt: new Date(r.at),
  }));
}
