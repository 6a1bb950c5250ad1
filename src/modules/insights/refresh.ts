/**
 * Reading figures from the platforms: the periodic schedule, the 6-hourly refresh of an
 * account (its last 3 days and its posts) and the reading of its history after it is first
 * seen. Each read asks the adapter for whole ranges of days; the adapters use the fewest calls
 * their platform allows (see their accountInsights).
 */
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import { DAY_MS, dayNumber, dayOf, daysFrom, dayText } from '../../days.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { phaseMs } from '../../jobs/phase.ts';
import { enqueue, jobSql } from '../../jobs/queue.ts';
import { inState, stateValues, transition } from '../../jobs/workflow.ts';
import {
  type AccountCredentials,
  INSIGHT_PLATFORMS,
  type InsightMetrics,
  type InsightsCapability,
  insightsOf,
  missingScopes,
  type Platform,
  PlatformError,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import {
  type Account,
  actAsAccount,
  connectedAccountById,
  connectedAccounts,
  noteAccountFailure,
} from '../accounts/index.ts';
import { publishedTargetsOf } from '../posts/index.ts';
import { histories } from './history-workflow.ts';
import { newAccountDays, REFRESH_DAYS, REFRESH_INTERVAL_MS } from './schedule.ts';
import { lockSyncState, storeDailyFigures, storePostFigures } from './store.ts';
import { type InsightSyncState, insightSyncState, postInsights } from './tables.ts';

export interface InsightDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
  log: Logger;
}

export { INSIGHT_PLATFORMS };

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
/** A recent post read less than this long ago is not read again (manual syncs come every 5 minutes). */
const READ_AGAIN_AFTER_MS = 60 * 60_000;

/** A wait before the next history step from the share of its rate limit the platform reports used. */
function historyPause(usagePercent: number | null): number {
  if (usagePercent === null || usagePercent < 75) return 0;
  return usagePercent < 90 ? 15 * 60_000 : 60 * 60_000;
}

/**
 * Every minute: starts following each connected account on a platform with insights not seen yet
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
    const days = newAccountDays(today);
    const { history } = stateValues(histories, 'reading');
    await tx.execute(sql`
      insert into ${insightSyncState} (account_id, next_refresh_at, history_from, history_cursor, read_to, history_next_at, history)
      select id, first_refresh, ${days.historyFrom}::date, ${days.historyCursor}::date, ${days.readTo}::date, ${at}, ${history}
      from unnest(${sql.param(ids)}::text[], ${sql.param(firstRefreshes)}::timestamptz[]) as t(id, first_refresh)
      on conflict do nothing`);
    const reading = await tx.execute(sql`
      with due as (
        update ${insightSyncState}
        set history_next_at = ${new Date(at.getTime() + HISTORY_LEASE_MS)}
        where ${inState(histories, ['reading'])}
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
    return reading.rows.length + refreshes.rows.length;
  });
}

/** Queues a refresh of these accounts now (a manual sync), in one statement; one pending refresh per account. */
export async function queueRefreshes(tx: Tx, accountIds: readonly string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await tx.execute(sql`
    select ${jobSql('refresh_insights', { account_id: sql`id` }, { jobKey: sql`'refresh_insights:' || id` })}
    from unnest(${sql.param(accountIds)}::text[]) as t(id)`);
}

/** What reading an account's figures works with. */
interface Readable {
  account: Account;
  platform: Platform;
  insights: InsightsCapability;
  metrics: InsightMetrics;
  /** Makes a call as the account (actAsAccount). */
  asAccount: <T>(call: (credentials: AccountCredentials) => Promise<T>) => Promise<T>;
}

/**
 * The account, its adapter's insights and the metrics its platform offers, when its figures can
 * be read now; null (and why, logged or noted) otherwise.
 */
async function readable(
  deps: InsightDeps,
  accountId: string,
  onMissingPermission: (tx: Tx, scope: string) => Promise<void>,
): Promise<Readable | null> {
  // Not connected, or its profile is being deleted: nothing to read.
  const account = await connectedAccountById(deps.db, accountId);
  if (account === null) return null;
  const platform = account.platform;
  const metrics = platformInfo(platform).insights;
  if (metrics === null) return null;
  const adapter = deps.platforms().adapter(platform);
  const missing = missingScopes(adapter, 'read_insights', account.scopes, account.platformUserId) ?? [];
  if (missing.length > 0) {
    // No call the platform would refuse: the figures wait for the permission (a new connection).
    await deps.db.transaction(async (tx) => {
      await lockSyncState(tx, accountId);
      await onMissingPermission(tx, missing[0] as string);
    });
    return null;
  }
  const asAccount: Readable['asAccount'] = (call) =>
    actAsAccount({ db: deps.db, secretKey: deps.secretKey, platforms: deps.platforms() }, account, call);
  return { account, platform, insights: insightsOf(adapter), metrics, asAccount };
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
  const { account, platform, insights, metrics, asAccount } = found;
  const today = dayOf(now());
  let usage: number | null = null;
  try {
    const read = await asAccount((credentials) =>
      insights.accountInsights(credentials, daysFrom(today - REFRESH_DAYS + 1, today), metrics.account),
    );
    usage = read.usagePercent;
    await deps.db.transaction(async (tx) => {
      const state = await lockSyncState(tx, account.id);
      await storeDailyFigures(tx, account.id, read.figures);
      const gap = missedDays(state, today);
      const refreshed = { refreshedAt: now(), lastError: null, readTo: dayText(today) };
      if (gap === null) {
        await tx.update(insightSyncState).set(refreshed).where(eq(insightSyncState.accountId, account.id));
      } else {
        await transition(tx, histories, account.id, 'miss', {
          set: { ...refreshed, gapFrom: dayText(gap.from), gapTo: dayText(gap.to), historyNextAt: now() },
        });
        await enqueue(
          tx,
          'fill_insight_history',
          { account_id: account.id },
          { jobKey: `fill_insight_history:${account.id}` },
        );
      }
    });
    // Each post's figures are stored as soon as they are read: a rate limit met halfway keeps the rest.
    let postsRead = 0;
    for (const post of await postsToRead(deps.db, account.id, today)) {
      const platformPostId = post.platformPostId;
      const answer = await postFigures(
        deps,
        () => asAccount((credentials) => insights.postInsights(credentials, platformPostId, metrics.post)),
        platformPostId,
      );
      await deps.db.transaction(async (tx) => {
        const at = now();
        // A refused post is stored with no figures, so that it is not asked again at every refresh.
        for (const postId of post.postIds) await storePostFigures(tx, postId, account.id, answer?.figures ?? {}, at);
      });
      postsRead += 1;
      usage = Math.max(usage ?? 0, answer?.usagePercent ?? 0);
    }
    deps.log.info({ account_id: account.id, platform, posts: postsRead, usage_percent: usage }, 'insights refreshed');
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await failed(deps, account, error, async (tx, waitMs) => {
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

/**
 * The days between what was read before and this refresh's own days (a refresh missed them:
 * the account was expired or lacked the permission, or no worker ran), with the gap already
 * noted; null when there are none.
 */
function missedDays(state: InsightSyncState, today: number): { from: number; to: number } | null {
  const readTo = dayNumber(state.readTo) as number;
  const before = today - REFRESH_DAYS;
  if (readTo >= before) return null;
  const from = readTo + 1;
  if (state.gapTo === null || state.gapFrom === null) return { from, to: before };
  return {
    from: Math.min(from, dayNumber(state.gapFrom) as number),
    to: Math.max(before, dayNumber(state.gapTo) as number),
  };
}

/**
 * The account's posts a refresh reads, newest first: those never read, and those published
 * within POST_REFRESH_DAYS not read within the last READ_AGAIN_AFTER_MS (a sync right after
 * a refresh asks only what is new); at most POSTS_PER_REFRESH. A platform post known twice
 * (an API post left in its old profile and its platform record in the account's new one) is
 * one call.
 */
async function postsToRead(db: Db, accountId: string, today: number) {
  const targets = await publishedTargetsOf(db, accountId);
  if (targets.length === 0) return [];
  const read = await db
    .select({ postId: postInsights.postId, syncedAt: postInsights.syncedAt })
    .from(postInsights)
    .where(sql`${postInsights.accountId} = ${accountId}`);
  const readAt = new Map(read.map((r) => [r.postId, r.syncedAt.getTime()]));
  const recent = (today - POST_REFRESH_DAYS + 1) * DAY_MS;
  const fresh = now().getTime() - READ_AGAIN_AFTER_MS;
  const due = new Map<string, { platformPostId: string; postIds: string[] }>();
  for (const target of targets) {
    const last = readAt.get(target.postId);
    const wanted =
      last === undefined || (target.publishedAt !== null && target.publishedAt.getTime() >= recent && last < fresh);
    if (!wanted) continue;
    const entry = due.get(target.platformPostId);
    if (entry === undefined)
      due.set(target.platformPostId, { platformPostId: target.platformPostId, postIds: [target.postId] });
    else entry.postIds.push(target.postId);
  }
  return [...due.values()].slice(0, POSTS_PER_REFRESH);
}

/**
 * One post's figures; null when the platform refuses that post alone (deleted there, say):
 * the other posts are still read. What concerns the whole account (its token, its permission,
 * its rate limit) ends the refresh.
 */
async function postFigures<T>(deps: InsightDeps, read: () => Promise<T>, platformPostId: string): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== 'invalid_request') throw error;
    deps.log.info(
      { platform_post_id: platformPostId, kind: error.kind, err: error.message },
      "the platform refused a post's figures; the post is skipped",
    );
    return null;
  }
}

/** Notes a platform's refusal: the account is marked when the token is gone, the error is kept for operators. */
async function failed(
  deps: InsightDeps,
  account: Account,
  error: PlatformError,
  reschedule: (tx: Tx, waitMs: number) => Promise<void>,
): Promise<void> {
  const accountId = account.id;
  const waitMs = (error.detail.retryAfterSeconds ?? 0) * 1000;
  await deps.db.transaction(async (tx) => {
    await lockSyncState(tx, accountId);
    await noteAccountFailure(tx, accountId, error, account.connectedAt);
    await noteError(tx, accountId, `${error.kind}: ${error.message}`);
    await reschedule(tx, waitMs);
  });
}

/** The next days the history job reads: the newest 30 of the gap a refresh left, else of the history. */
function nextStep(
  state: InsightSyncState,
): { kind: 'gap' | 'history'; from: number; to: number; oldest: number } | null {
  const [cursor, oldest, kind] =
    state.gapTo !== null && state.gapFrom !== null
      ? [state.gapTo, state.gapFrom, 'gap' as const]
      : state.historyCursor !== null
        ? [state.historyCursor, state.historyFrom, 'history' as const]
        : [null, null, null];
  if (cursor === null || kind === null) return null;
  const to = dayNumber(cursor) as number;
  const first = dayNumber(oldest) as number;
  return { kind, from: Math.max(first, to - HISTORY_STEP_DAYS + 1), to, oldest: first };
}

/** The state after a step: the step's cursor moved past what it read (null once its range is done). */
function afterStep(step: NonNullable<ReturnType<typeof nextStep>>) {
  const done = step.from <= step.oldest;
  if (step.kind === 'gap') {
    return done ? { gapFrom: null, gapTo: null } : { gapTo: dayText(step.from - 1) };
  }
  return { historyCursor: done ? null : dayText(step.from - 1) };
}

/**
 * Reads what is still unread of an account's past, backwards, 30 days a step, up to 4 steps
 * per job: first the days refreshes missed (a gap), then the history back to a year before
 * the account was first seen. Then queues the next job at once, or later while the platform
 * reports its rate limit 75% used or more. A failure leaves everything where it is: the
 * schedule starts the reading again after HISTORY_LEASE_MS (or the platform's wait).
 */
export async function fillInsightHistory(deps: InsightDeps, accountId: string): Promise<void> {
  for (let i = 0; i < HISTORY_STEPS_PER_JOB; i++) {
    const found = await readable(deps, accountId, async (tx, scope) => {
      await noteError(tx, accountId, `permission ${scope} not granted: history not read`);
      await tx
        .update(insightSyncState)
        .set({ historyNextAt: new Date(now().getTime() + REFRESH_INTERVAL_MS) })
        .where(sql`${insightSyncState.accountId} = ${accountId}`);
    });
    if (found === null) return;
    const { account, platform, insights, metrics: offered, asAccount } = found;
    const [state] = await deps.db
      .select()
      .from(insightSyncState)
      .where(sql`${insightSyncState.accountId} = ${accountId}`);
    const step = state === undefined ? null : nextStep(state);
    if (step === null) return;
    // followers_count cannot be read for past days: asking would only cost calls.
    const metrics = offered.account.filter((m) => m !== 'followers_count');
    try {
      const read = await asAccount((credentials) =>
        insights.accountInsights(credentials, daysFrom(step.from, step.to), metrics),
      );
      const pause = historyPause(read.usagePercent);
      const more = await deps.db.transaction(async (tx) => {
        const locked = await lockSyncState(tx, account.id);
        await storeDailyFigures(tx, account.id, read.figures);
        // Another job (a retry, the schedule's restart) may have moved on meanwhile: the
        // figures are good either way, but only the state it left is carried on from.
        const current = nextStep(locked);
        const moved = current === null || current.kind !== step.kind || current.to !== step.to;
        const next = moved ? locked : { ...locked, ...afterStep(step) };
        const remaining = nextStep(next) !== null;
        const lease = { historyNextAt: new Date(now().getTime() + pause + HISTORY_LEASE_MS), lastError: null };
        if (moved) {
          await tx.update(insightSyncState).set(lease).where(eq(insightSyncState.accountId, account.id));
        } else {
          await transition(tx, histories, account.id, remaining ? 'step' : 'finish', {
            set: { ...afterStep(step), ...lease },
          });
        }
        if (remaining && (pause > 0 || i === HISTORY_STEPS_PER_JOB - 1)) {
          await enqueue(
            tx,
            'fill_insight_history',
            { account_id: account.id },
            { runAt: new Date(now().getTime() + pause), jobKey: `fill_insight_history:${account.id}` },
          );
        }
        return remaining;
      });
      if (!more) {
        deps.log.info({ account_id: account.id, platform, from: state?.historyFrom }, 'insights history read');
        return;
      }
      if (pause > 0) {
        deps.log.info(
          { account_id: account.id, platform, usage_percent: read.usagePercent, next_step_in_s: pause / 1000 },
          'insights history: platform usage high, next step later',
        );
        return;
      }
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      await failed(deps, account, error, async (tx, waitMs) => {
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
