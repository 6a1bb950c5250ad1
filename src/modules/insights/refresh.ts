/**
 * Reading figures from the platforms: the periodic schedule, the 6-hourly refresh of an
 * account (its last 3 days and its posts) and the reading of its history after it is first
 * seen. Each read asks the adapter for whole ranges of days; the adapters use the fewest calls
 * their platform allows (see their accountInsights).
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { phaseMs } from '../../jobs/phase.ts';
import { enqueue, jobSql } from '../../jobs/queue.ts';
import {
  missingScopes,
  PLATFORMS,
  type Platform,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import { type Account, accountById, connectedAccounts, credentialsOf, noteAccountFailure } from '../accounts/index.ts';
import { publishedTargetsOf } from '../posts/index.ts';
import { dayOf, daysFrom, dayText } from './days.ts';
import { HISTORY_DAYS, REFRESH_DAYS, REFRESH_INTERVAL_MS } from './schedule.ts';
import { lockSyncState, storeDailyFigures, storePostFigures } from './store.ts';
import { insightSyncState, postInsights } from './tables.ts';

export interface InsightDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
  log: Logger;
}

/** The platforms whose insights the service reads. */
export const INSIGHT_PLATFORMS: readonly Platform[] = PLATFORMS.filter(
  (p) => platformInfo(p).insights.account.length > 0,
);

/** Days read per history step: Instagram's longest since-until span, and a unit of progress kept. */
const HISTORY_STEP_DAYS = 30;
/** Steps per history job before it makes way for other jobs (the next job carries on at once). */
const HISTORY_STEPS_PER_JOB = 4;
/** How long a history job may be silent before the schedule starts the reading again. */
const HISTORY_LEASE_MS = 15 * 60_000;
/** A refresh reads again the figures of posts published within this many days, and of posts never read. */
const POST_REFRESH_DAYS = 30;
/** At most this many posts (newest first) per refresh: each one is a platform call. */
const POSTS_PER_REFRESH = 50;

/** A wait before the next history step from the share of its rate limit the platform reports used. */
function historyPause(usagePercent: number | null): number {
  if (usagePercent === null || usagePercent < 75) return 0;
  return usagePercent < 90 ? 15 * 60_000 : 60 * 60_000;
}

/**
 * Every minute: starts following each connected Instagram and Threads account not seen yet
 * (its first refresh at once when it was connected within the last 6 hours, else at its
 * phase; its history from now), then queues the refreshes and history readings that are due.
 */
export async function scheduleInsightRefreshes(deps: Pick<InsightDeps, 'db'>): Promise<number> {
  const at = now();
  const today = dayOf(at);
  return await deps.db.transaction(async (tx) => {
    const connected = await connectedAccounts(tx, INSIGHT_PLATFORMS);
    const ids = connected.map((a) => a.id);
    const recently = at.getTime() - REFRESH_INTERVAL_MS;
    const firstRefreshes = connected.map(({ id, connectedAt }) =>
      (connectedAt.getTime() > recently ? at : new Date(at.getTime() + phaseMs(id, REFRESH_INTERVAL_MS))).toISOString(),
    );
    await tx.execute(sql`
      insert into ${insightSyncState} (account_id, next_refresh_at, history_from, history_cursor, history_next_at)
      select id, first_refresh, ${dayText(today - HISTORY_DAYS + 1)}::date, ${dayText(today - REFRESH_DAYS)}::date, ${at}
      from unnest(${sql.param(ids)}::text[], ${sql.param(firstRefreshes)}::timestamptz[]) as t(id, first_refresh)
      on conflict do nothing`);
    const histories = await tx.execute(sql`
      with due as (
        update ${insightSyncState}
        set history_next_at = ${new Date(at.getTime() + HISTORY_LEASE_MS)}
        where ${insightSyncState.historyCursor} is not null
          and ${insightSyncState.historyNextAt} <= ${at}
          and ${insightSyncState.accountId} = any(${sql.param(ids)}::text[])
        returning account_id
      )
      select ${jobSql(
        'fill_insight_history',
        { account_id: sql`account_id` },
        { jobKey: sql`'fill_insight_history:' || account_id` },
      )} from due`);
    const refreshes = await tx.execute(sql`
      with due as (
        update ${insightSyncState}
        set next_refresh_at = ${new Date(at.getTime() + REFRESH_INTERVAL_MS)}
        where ${insightSyncState.nextRefreshAt} <= ${at}
          and ${insightSyncState.accountId} = any(${sql.param(ids)}::text[])
        returning account_id
      )
      select ${jobSql(
        'refresh_insights',
        { account_id: sql`account_id` },
        { jobKey: sql`'refresh_insights:' || account_id` },
      )} from due`);
    return histories.rows.length + refreshes.rows.length;
  });
}

/** Queues a refresh of these accounts now (a manual sync), in one statement; one pending refresh per account. */
export async function queueRefreshes(tx: Tx, accountIds: readonly string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await tx.execute(sql`
    select ${jobSql('refresh_insights', { account_id: sql`id` }, { jobKey: sql`'refresh_insights:' || id` })}
    from unnest(${sql.param(accountIds)}::text[]) as t(id)`);
}

/** The account and its adapter when its figures can be read now; null (and why, logged or noted) otherwise. */
async function readable(
  deps: InsightDeps,
  accountId: string,
  onMissingPermission: (tx: Tx, scope: string) => Promise<void>,
): Promise<{ account: Account; platform: Platform; adapter: PlatformAdapter } | null> {
  const account = await accountById(deps.db, accountId);
  if (account?.status !== 'connected') return null;
  const platform = account.platform as Platform;
  if (!INSIGHT_PLATFORMS.includes(platform)) return null;
  const adapter = deps.platforms().adapter(platform);
  const missing = missingScopes(adapter, 'read_insights', account.scopes) ?? [];
  if (missing.length > 0) {
    // No call the platform would refuse: the figures wait for the permission (a new connection).
    await deps.db.transaction(async (tx) => {
      await lockSyncState(tx, accountId);
      await onMissingPermission(tx, missing[0] as string);
    });
    return null;
  }
  return { account, platform, adapter };
}

async function noteError(tx: Tx, accountId: string, lastError: string): Promise<void> {
  await tx.update(insightSyncState).set({ lastError }).where(sql`${insightSyncState.accountId} = ${accountId}`);
}

/**
 * Refreshes an account: its last 3 days of figures, today's followers count, and its posts'
 * figures (those published within 30 days and those never read, 50 at most, newest first).
 * A failure is logged and noted; the next refresh (or the platform's wait, if longer) tries again.
 */
export async function refreshInsights(deps: InsightDeps, accountId: string): Promise<void> {
  const found = await readable(deps, accountId, (tx, scope) =>
    noteError(tx, accountId, `permission ${scope} not granted: no figures read`),
  );
  if (found === null) return;
  const { account, platform, adapter } = found;
  const credentials = credentialsOf(deps.secretKey, account);
  const metrics = platformInfo(platform).insights;
  const today = dayOf(now());
  let usage: number | null = null;
  try {
    const read = await adapter.accountInsights(credentials, daysFrom(today - REFRESH_DAYS + 1, today), metrics.account);
    usage = read.usagePercent;
    await deps.db.transaction(async (tx) => {
      await lockSyncState(tx, account.id);
      await storeDailyFigures(tx, account.id, read.figures);
      await tx
        .update(insightSyncState)
        .set({ refreshedAt: now(), lastError: null })
        .where(sql`${insightSyncState.accountId} = ${account.id}`);
    });
    const posts = await postsToRead(deps.db, account.id, today);
    const figures: [string, Record<string, number | null>][] = [];
    for (const post of posts) {
      const answer = await postFigures(deps, adapter, credentials, post, metrics.post);
      if (answer === null) continue;
      figures.push([post.postId, answer.figures]);
      usage = Math.max(usage ?? 0, answer.usagePercent ?? 0);
    }
    if (figures.length > 0) {
      await deps.db.transaction(async (tx) => {
        const at = now();
        for (const [postId, values] of figures) await storePostFigures(tx, postId, account.id, values, at);
      });
    }
    deps.log.info(
      { account_id: account.id, platform, posts: figures.length, usage_percent: usage },
      'insights refreshed',
    );
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await failed(deps, account.id, error, async (tx, waitMs) => {
      // The platform asks for a longer wait than the schedule's: the next refresh waits too.
      await tx
        .update(insightSyncState)
        .set({
          nextRefreshAt: sql`greatest(${insightSyncState.nextRefreshAt}, ${new Date(now().getTime() + waitMs)}::timestamptz)`,
        })
        .where(sql`${insightSyncState.accountId} = ${account.id}`);
    });
    deps.log.warn(
      { account_id: account.id, platform, kind: error.kind, err: error.message },
      'refreshing insights failed; the next refresh will try again',
    );
  }
}

/** The account's posts a refresh reads: published within POST_REFRESH_DAYS, or never read; newest first. */
async function postsToRead(db: Db, accountId: string, today: number) {
  const targets = await publishedTargetsOf(db, accountId);
  if (targets.length === 0) return [];
  const read = await db
    .select({ postId: postInsights.postId })
    .from(postInsights)
    .where(sql`${postInsights.accountId} = ${accountId}`);
  const seen = new Set(read.map((r) => r.postId));
  const recent = (today - POST_REFRESH_DAYS + 1) * 86_400_000;
  return targets
    .filter((t) => !seen.has(t.postId) || (t.publishedAt !== null && t.publishedAt.getTime() >= recent))
    .slice(0, POSTS_PER_REFRESH);
}

/**
 * One post's figures; null when the platform refuses that post alone (deleted there, say):
 * the other posts are still read. What concerns the whole account (its token, its permission,
 * its rate limit) ends the refresh.
 */
async function postFigures(
  deps: InsightDeps,
  adapter: PlatformAdapter,
  credentials: ReturnType<typeof credentialsOf>,
  post: { postId: string; platformPostId: string },
  metrics: readonly string[],
) {
  try {
    return await adapter.postInsights(credentials, post.platformPostId, metrics);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== 'invalid_request') throw error;
    deps.log.info(
      { post_id: post.postId, platform_post_id: post.platformPostId, kind: error.kind, err: error.message },
      "the platform refused a post's figures; the post is skipped",
    );
    return null;
  }
}

/** Notes a platform's refusal: the account is marked when the token is gone, the error is kept for operators. */
async function failed(
  deps: InsightDeps,
  accountId: string,
  error: PlatformError,
  reschedule: (tx: Tx, waitMs: number) => Promise<void>,
): Promise<void> {
  const waitMs = (error.detail.retryAfterSeconds ?? 0) * 1000;
  await deps.db.transaction(async (tx) => {
    await lockSyncState(tx, accountId);
    await noteAccountFailure(tx, accountId, error);
    await noteError(tx, accountId, `${error.kind}: ${error.message}`);
    await reschedule(tx, waitMs);
  });
}

/**
 * Reads an account's history backwards from where it stands, 30 days a step, up to 4 steps
 * per job; then queues the next job at once, or later while the platform reports its rate
 * limit 75% used or more. A failure leaves the history where it is: the schedule starts it
 * again after HISTORY_LEASE_MS (or the platform's wait).
 */
export async function fillInsightHistory(deps: InsightDeps, accountId: string): Promise<void> {
  for (let step = 0; step < HISTORY_STEPS_PER_JOB; step++) {
    const found = await readable(deps, accountId, async (tx, scope) => {
      await noteError(tx, accountId, `permission ${scope} not granted: history not read`);
      await tx
        .update(insightSyncState)
        .set({ historyNextAt: new Date(now().getTime() + REFRESH_INTERVAL_MS) })
        .where(sql`${insightSyncState.accountId} = ${accountId}`);
    });
    if (found === null) return;
    const { account, platform, adapter } = found;
    const [state] = await deps.db
      .select()
      .from(insightSyncState)
      .where(sql`${insightSyncState.accountId} = ${accountId}`);
    if (state?.historyCursor == null) return;
    const to = dayOf(new Date(`${state.historyCursor}T00:00:00Z`));
    const oldest = dayOf(new Date(`${state.historyFrom}T00:00:00Z`));
    const from = Math.max(oldest, to - HISTORY_STEP_DAYS + 1);
    // followers_count cannot be read for past days: asking would only cost calls.
    const metrics = platformInfo(platform).insights.account.filter((m) => m !== 'followers_count');
    let usagePercent: number | null;
    try {
      const read = await adapter.accountInsights(credentialsOf(deps.secretKey, account), daysFrom(from, to), metrics);
      usagePercent = read.usagePercent;
      const pause = historyPause(usagePercent);
      const done = from <= oldest;
      await deps.db.transaction(async (tx) => {
        await lockSyncState(tx, account.id);
        await storeDailyFigures(tx, account.id, read.figures);
        await tx
          .update(insightSyncState)
          .set({
            historyCursor: done ? null : dayText(from - 1),
            historyNextAt: new Date(now().getTime() + pause + HISTORY_LEASE_MS),
            lastError: null,
          })
          .where(sql`${insightSyncState.accountId} = ${account.id}`);
        if (!done && (pause > 0 || step === HISTORY_STEPS_PER_JOB - 1)) {
          await enqueue(
            tx,
            'fill_insight_history',
            { account_id: account.id },
            { runAt: new Date(now().getTime() + pause), jobKey: `fill_insight_history:${account.id}` },
          );
        }
      });
      if (done) {
        deps.log.info({ account_id: account.id, platform, from: state.historyFrom }, 'insights history read');
        return;
      }
      if (pause > 0) {
        deps.log.info(
          { account_id: account.id, platform, usage_percent: usagePercent, next_step_in_s: pause / 1000 },
          'insights history: platform usage high, next step later',
        );
        return;
      }
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      await failed(deps, account.id, error, async (tx, waitMs) => {
        await tx
          .update(insightSyncState)
          .set({ historyNextAt: new Date(now().getTime() + Math.max(waitMs, HISTORY_LEASE_MS)) })
          .where(sql`${insightSyncState.accountId} = ${account.id}`);
      });
      deps.log.warn(
        { account_id: account.id, platform, kind: error.kind, err: error.message },
        'reading insights history failed; it will be tried again',
      );
      return;
    }
  }
}
