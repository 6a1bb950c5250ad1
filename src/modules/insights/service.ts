/**
 * What the insights endpoints do: an account's daily figures over a range, a post's figures,
 * a manual sync (at most once per 5 minutes); and the module's part in deleting a profile.
 */
import { and, eq, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { dayNumber, dayOf, dayText, FIRST_DAY } from '../../days.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId } from '../../ids.ts';
import { missingScopes, type Platform, type PlatformSet, platformInfo, platformLabels } from '../../platforms/index.ts';
import {
  type Account,
  type AccountState,
  accountById,
  accountIdsOfProfile,
  accountsToSync,
  visibleAccountReader,
} from '../accounts/index.ts';
import { getPost, postIdsOfProfile } from '../posts/index.ts';
import { type ProfileDeletionStep, profilesBeingDeleted } from '../profiles/index.ts';
import type { AnswerCache, RenderedAnswer } from './answers.ts';
import {
  type AccountFigures,
  accountInsightsText,
  type PostInsightsJson,
  renderPostInsights,
  type SeriesSlice,
} from './json.ts';
import { INSIGHT_PLATFORMS, queueRefreshes } from './refresh.ts';
import { accountInsightSeries, insightManualSyncs, insightSyncState, postInsights, seriesSlice } from './tables.ts';

export interface InsightReadDeps {
  db: Db;
  platforms: () => PlatformSet;
}

/** What the routes need: the reads', and the rendered answers kept (answers.ts). */
export interface InsightRouteDeps extends InsightReadDeps {
  answers: AnswerCache;
}

/** The spec's limits on a range of days. */
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 365;
/** The spec's manual sync limit: once per 5 minutes per owner (or profile). */
const MANUAL_SYNC_GAP_MS = 5 * 60_000;

function invalidRange(message: string): ApiError {
  return new ApiError(400, 'invalid_range', message);
}

/**
 * The days asked: `to` defaults to today (UTC), `from` to 29 days before `to`; both included.
 * Any malformed or impossible date, `from` after `to`, or more than 365 days: 400 `invalid_range`.
 */
export function rangeOf(from: string | undefined, to: string | undefined, today: number): { from: number; to: number } {
  const last = to === undefined ? today : dayNumber(to);
  if (last === null) throw invalidRange(`to ${JSON.stringify(to)} is not a date (YYYY-MM-DD, a real UTC day).`);
  const first = from === undefined ? last - DEFAULT_RANGE_DAYS + 1 : dayNumber(from);
  if (first === null) throw invalidRange(`from ${JSON.stringify(from)} is not a date (YYYY-MM-DD, a real UTC day).`);
  if (first < FIRST_DAY) throw invalidRange('The range would start before 0001-01-01; give a later `from`.');
  if (first > last) throw invalidRange(`from (${dayText(first)}) is after to (${dayText(last)}).`);
  const days = last - first + 1;
  if (days > MAX_RANGE_DAYS) {
    throw invalidRange(`The range covers ${days} days; at most ${MAX_RANGE_DAYS} can be asked at once.`);
  }
  return { from: first, to: last };
}

/**
 * The metrics asked (all the platform's, in the spec's order, when none are named; spaces
 * around a name and repeated names ignored), or 400 `unknown_metric`.
 */
function metricsOf(asked: string | undefined, valid: readonly string[], what: string): string[] {
  if (asked === undefined) return [...valid];
  const names = [...new Set(asked.split(',').map((name) => name.trim()))];
  const unknown = names.filter((name) => !valid.includes(name));
  if (unknown.length > 0) {
    throw new ApiError(
      400,
      'unknown_metric',
      `${unknown.map((m) => JSON.stringify(m)).join(', ')} ${unknown.length === 1 ? 'is not a metric' : 'are not metrics'} of ${what}; valid: ${valid.join(', ')}.`,
      { unknown_metrics: unknown, valid_metrics: valid },
    );
  }
  return names;
}

function notSupported(platform: Platform, what: string): ApiError {
  return new ApiError(
    422,
    'insights_not_supported',
    `${platformInfo(platform).label} ${what} have no insights; insights exist for ${platformLabels(INSIGHT_PLATFORMS, 'and')}.`,
  );
}

/** The insights permission the account lacks, or null. */
export function missingPermission(
  deps: InsightReadDeps,
  account: Pick<AccountState, 'platform' | 'platformUserId' | 'scopes'>,
): string | null {
  const missing = missingScopes(
    deps.platforms().adapter(account.platform),
    'read_insights',
    account.scopes,
    account.platformUserId,
  );
  return missing?.[0] ?? null;
}

/**
 * GET /v1/accounts/{id}/insights, rendered: the answer kept from an earlier request when the
 * caller may see its account and nothing it is made of has changed since (answers.ts), else
 * read, rendered and kept.
 */
export async function accountInsightsAnswer(
  deps: InsightReadDeps,
  answers: AnswerCache,
  scope: Scope,
  id: string,
  query: AccountInsightsQuery,
): Promise<RenderedAnswer> {
  const range = rangeOf(query.from, query.to, dayOf(now()));
  if (!looksLikeId('account', id)) throw accountNotFound(id);
  const key = { accountId: id, ...range, metrics: query.metrics };
  const kept = answers.get(key);
  // One the caller may not see is read as any other, and refused there.
  if (kept !== undefined && (await visibleTo(deps.db, scope, kept))) return kept;
  const ticket = answers.ticket(key);
  const figures = await readFigures(deps, scope, id, range, query);
  return answers.keep(ticket, { ownerId: scope.ownerId, profileId: figures.profileId }, accountInsightsText(figures));
}

/** Whether the caller sees an account of this owner and profile (as visibleAccountReader decides, from the read cache). */
async function visibleTo(db: Db, scope: Scope, account: { ownerId: string; profileId: string }): Promise<boolean> {
  if (account.ownerId !== scope.ownerId) return false;
  if (scope.profileId !== null && scope.profileId !== account.profileId) return false;
  return !(await profilesBeingDeleted(db, scope.ownerId)).includes(account.profileId);
}

/** The account as the caller sees it, and beside it (at the same time) its last refresh and the asked days of each metric. */
async function readFigures(
  deps: InsightReadDeps,
  scope: Scope,
  id: string,
  range: { from: number; to: number },
  query: AccountInsightsQuery,
): Promise<AccountFigures & { profileId: string }> {
  const account = await accountWithFigures(deps.db, scope, id, { from: dayText(range.from), to: dayText(range.to) });
  if (!account) throw accountNotFound(id);
  const { metrics, missingPermission } = asked(deps, account, query);
  const series = new Map<string, SeriesSlice>();
  if (missingPermission === null) {
    for (const [metric, start, values] of account.series ?? []) {
      series.set(metric, { start: dayNumber(start) as number, values: values ?? [] });
    }
  }
  return {
    accountId: account.id,
    platform: account.platform,
    from: range.from,
    to: range.to,
    metrics,
    series,
    missingPermission,
    syncedAt: account.syncedAt ? new Date(account.syncedAt) : null,
    profileId: account.profileId,
  };
}

export interface AccountInsightsQuery {
  from?: string | undefined;
  to?: string | undefined;
  metrics?: string | undefined;
}

const accountNotFound = (id: string) => new ApiError(404, 'account_not_found', `No account ${JSON.stringify(id)}.`);

/** The metrics asked of this account and the permission it lacks; 422 where the platform has no insights. */
function asked(
  deps: InsightReadDeps,
  account: Pick<AccountState, 'platform' | 'platformUserId' | 'scopes'>,
  query: AccountInsightsQuery,
): { metrics: string[]; missingPermission: string | null } {
  const platform = account.platform;
  const offered = platformInfo(platform).insights?.account;
  if (offered === undefined) throw notSupported(platform, 'accounts');
  return {
    metrics: metricsOf(query.metrics, offered, `${platformInfo(platform).label} accounts`),
    missingPermission: missingPermission(deps, account),
  };
}

/**
 * An account's last refresh and the days `from`..`to` of each of its metrics (array slices),
 * beside the account itself: one named prepared statement, so each connection plans it once
 * (planning was about 40% of PostgreSQL's time for this query in the benchmark), and one round
 * trip (a second statement for the account cost the route a fifth of its throughput).
 */
const accountWithFigures = (() => {
  const id = sql.placeholder('id');
  const from = sql.placeholder('from');
  const to = sql.placeholder('to');
  const slice = seriesSlice(from, to);
  return visibleAccountReader('account_insights', {
    syncedAt: sql<
      string | null
    >`(select to_json(${insightSyncState.refreshedAt}) from ${insightSyncState} where ${insightSyncState.accountId} = ${id})`,
    series: sql<
      [string, string, (number | null)[] | null][] | null
    >`(select json_agg(json_build_array(${accountInsightSeries.metric}, ${slice.start}, ${slice.values}))
      from ${accountInsightSeries} where ${accountInsightSeries.accountId} = ${id})`,
  });
})();

/**
 * A post's figures on one of its accounts: the one named by `account_id`, else the post's only
 * account on a platform with insights (400 `account_id_required` when it has several).
 */
export async function postInsightsOf(
  deps: InsightReadDeps,
  scope: Scope,
  id: string,
  query: { account_id?: string | undefined; metrics?: string | undefined },
): Promise<PostInsightsJson> {
  const { post, targets } = await getPost(deps.db, scope, id);
  let target = targets[0];
  if (query.account_id !== undefined) {
    target = targets.find((t) => t.accountId === query.account_id);
    if (target === undefined) {
      throw new ApiError(
        404,
        'account_not_found',
        `The post ${post.id} was not made for the account ${JSON.stringify(query.account_id)}.`,
        { account_ids: targets.map((t) => t.accountId) },
      );
    }
  } else {
    const measured = targets.filter((t) => INSIGHT_PLATFORMS.includes(t.platform));
    if (measured.length > 1) {
      throw new ApiError(
        400,
        'account_id_required',
        `The post ${post.id} went to ${measured.length} accounts with insights; name one with account_id.`,
        { account_ids: measured.map((t) => t.accountId) },
      );
    }
    target = measured[0] ?? target;
  }
  if (target === undefined) {
    throw new ApiError(
      422,
      'insights_not_supported',
      `The post ${post.id} has no account on ${platformLabels(INSIGHT_PLATFORMS, 'or')}, where insights exist.`,
    );
  }
  const platform = target.platform;
  const offered = platformInfo(platform).insights?.post;
  if (offered === undefined) throw notSupported(platform, 'posts');
  const metrics = metricsOf(query.metrics, offered, `${platformInfo(platform).label} posts`);
  if (target.status !== 'published' || target.platformPostId === null) {
    throw new ApiError(
      409,
      'post_not_published',
      `The post ${post.id} is not published on the account ${target.accountId} (${target.status}); it has no figures yet.`,
    );
  }
  // The account may have moved to a profile the caller does not see: the post's figures are still the post's.
  const account = await accountById(deps.db, target.accountId);
  const permission = account === null ? null : missingPermission(deps, account);
  const [row] = await deps.db
    .select()
    .from(postInsights)
    .where(and(eq(postInsights.postId, post.id), eq(postInsights.accountId, target.accountId)));
  return renderPostInsights({
    postId: post.id,
    accountId: target.accountId,
    platform,
    metrics,
    figures: permission === null ? (row?.figures ?? {}) : {},
    missingPermission: permission,
    syncedAt: row?.syncedAt ?? null,
  });
}

/**
 * POST /v1/insights/sync: queues a refresh of the accounts named (default: every connected
 * account on a platform with insights the caller sees). Once per 5 minutes per owner, or per profile
 * for a call limited to one: the slot is taken in the same statement that checks it, so two
 * calls at once cannot both pass.
 */
export async function syncInsights(
  deps: InsightReadDeps,
  scope: Scope,
  accountIds: readonly string[] | undefined,
): Promise<Account[]> {
  const accounts = await accountsToSync(deps.db, scope, accountIds, INSIGHT_PLATFORMS, (unsupported) =>
    notSupported(unsupported[0].platform, 'accounts'),
  );
  // Nothing to read: nothing is queued, and the caller's 5 minutes are not taken.
  if (accounts.length === 0) return [];
  return await deps.db.transaction(async (tx) => {
    const at = now();
    const scopeKey = scope.profileId === null ? `owner:${scope.ownerId}` : `profile:${scope.profileId}`;
    const taken = await tx
      .insert(insightManualSyncs)
      .values({ scopeKey, ownerId: scope.ownerId, profileId: scope.profileId, requestedAt: at })
      .onConflictDoUpdate({
        target: insightManualSyncs.scopeKey,
        set: { requestedAt: at },
        setWhere: sql`${insightManualSyncs.requestedAt} <= ${new Date(at.getTime() - MANUAL_SYNC_GAP_MS)}`,
      })
      .returning({ scopeKey: insightManualSyncs.scopeKey });
    if (taken.length === 0) {
      const [last] = await tx
        .select({ at: insightManualSyncs.requestedAt })
        .from(insightManualSyncs)
        .where(eq(insightManualSyncs.scopeKey, scopeKey));
      const wait = Math.max(1, Math.ceil(((last?.at.getTime() ?? 0) + MANUAL_SYNC_GAP_MS - at.getTime()) / 1000));
      throw new ApiError(
        429,
        'sync_rate_limited',
        `Insights are synced at most once per 5 minutes ${scope.profileId === null ? 'per owner' : 'per profile'}; retry after ${wait} s.`,
        { retry_after_seconds: wait },
        { 'Retry-After': String(wait) },
      );
    }
    await queueRefreshes(
      tx,
      accounts.map((a) => a.id),
    );
    return accounts;
  });
}

/** The insights module's part in deleting a profile: its accounts' and posts' figures go. */
export const insightsProfileDeletion: ProfileDeletionStep = {
  module: 'insights',
  deleteData: async ({ db }, profile) => {
    // Each list as one array parameter: a profile may have more posts than a statement has parameters.
    const accountIds = sql.param(await accountIdsOfProfile(db, profile));
    const postIds = sql.param(await postIdsOfProfile(db, profile));
    await db.delete(accountInsightSeries).where(sql`${accountInsightSeries.accountId} = any(${accountIds}::text[])`);
    await db.delete(insightSyncState).where(sql`${insightSyncState.accountId} = any(${accountIds}::text[])`);
    await db
      .delete(postInsights)
      .where(
        sql`${postInsights.postId} = any(${postIds}::text[]) or ${postInsights.accountId} = any(${accountIds}::text[])`,
      );
    await db
      .delete(insightManualSyncs)
      .where(and(eq(insightManualSyncs.ownerId, profile.ownerId), eq(insightManualSyncs.profileId, profile.id)));
  },
};
