import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { date, doublePrecision, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../../db/columns.ts';
import { accountIdColumn } from '../accounts/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { postIdColumn } from '../posts/columns.ts';

/**
 * An account's daily figures of one metric, one array element per UTC day from `first_day`:
 * a year's query of every metric reads one row per metric instead of one per day. An element
 * is null when the platform reported no data that day (or the day was never read), never 0.
 * Keyed by account, so the figures follow an account that moves; the account's deletion
 * (with its profile) deletes them, after the insights module's own deletion step did.
 *
 * Read `values` through `array_to_json` (seriesSlice): drizzle would turn a null element into 0.
 */
export const accountInsightSeries = pgTable(
  'account_insight_series',
  {
    accountId: accountIdColumn(),
    metric: text('metric').notNull(),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    /** Counts, and rates (LinkedIn's `engagement`): double precision holds both (counts exactly up to 2^53). */
    values: doublePrecision('values').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.metric] })],
);

/**
 * The days `from`..`to` (dates, both included) of a series row: the first of them it holds
 * (`start`, a date's text) and its values from then, as JSON, so a null element stays null. A
 * range before the row's first day starts at that day; one past its last stored day is empty.
 */
export function seriesSlice(from: SQL | Placeholder | string, to: SQL | Placeholder | string) {
  const { firstDay, values } = accountInsightSeries;
  return {
    start: sql<string>`greatest(${from}::date, ${firstDay})::text`,
    values: sql<
      (number | null)[] | null
    >`array_to_json(${values}[greatest(${from}::date - ${firstDay}, 0) + 1 : ${to}::date - ${firstDay} + 1])`,
  };
}

/** A published post's lifetime figures on one account (the post's target there); null: no data. */
export const postInsights = pgTable(
  'post_insights',
  {
    postId: postIdColumn(),
    accountId: accountIdColumn(),
    figures: jsonb('figures').$type<Record<string, number | null>>().notNull(),
    syncedAt: timestampColumn('synced_at').notNull(),
  },
  // By account too: a refresh reads which of the account's posts were read, and deleting an account deletes its rows.
  (t) => [primaryKey({ columns: [t.postId, t.accountId] }), index('post_insights_account_idx').on(t.accountId)],
);

/**
 * Where each account on a platform with insights stands: when it is next refreshed, when its figures
 * were last read, how far back its history still has to be read, and which days a refresh
 * missed.
 */
export const insightSyncState = pgTable('insight_sync_state', {
  accountId: accountIdColumn().primaryKey(),
  nextRefreshAt: timestampColumn('next_refresh_at').notNull(),
  /** The end of the last good refresh of the account's figures: the API's `synced_at`. */
  refreshedAt: timestampColumn('refreshed_at'),
  /** The oldest day the history reaches back to: 364 days before the account was first seen. */
  historyFrom: date('history_from', { mode: 'string' }).notNull(),
  /** The newest day of the history still to read (it is read backwards); null once it is all read. */
  historyCursor: date('history_cursor', { mode: 'string' }),
  /**
   * Every day up to this one is read, or left to the history (or the gap) to read: a refresh
   * that finds it older than the day before its own 3 days records the days between as a gap.
   */
  readTo: date('read_to', { mode: 'string' }).notNull(),
  /** Days no refresh read (the account was expired, lacked the permission, or the workers stopped), read before the history. */
  gapFrom: date('gap_from', { mode: 'string' }),
  gapTo: date('gap_to', { mode: 'string' }),
  /** When the periodic schedule may start the history reading again if no job carried it on. */
  historyNextAt: timestampColumn('history_next_at').notNull(),
  /**
   * `reading` while a gap or the history has days left to read, `read` once every day is read
   * (history-workflow.ts); a gap a refresh finds sets it reading again.
   */
  history: text('history', { enum: ['reading', 'read'] })
    .notNull()
    .default('reading'),
  /** Why the last refresh or history read failed, for operators (null after a good one). */
  lastError: text('last_error'),
});

/**
 * The last manual sync per owner (owner-wide calls) or per profile (calls limited to one
 * profile): POST /v1/insights/sync runs at most once per 5 minutes for each.
 */
export const insightManualSyncs = pgTable('insight_manual_syncs', {
  /** `owner:<owner id>` or `profile:<profile id>`. */
  scopeKey: text('scope_key').primaryKey(),
  ownerId: ownerIdColumn(),
  /** The profile of a profile-wide key's row (null for owner-wide), so the profile's deletion removes it. */
  profileId: text('profile_id'),
  requestedAt: timestampColumn('requested_at').notNull(),
});

export type InsightSyncState = typeof insightSyncState.$inferSelect;
