import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { hearingChanges } from '../../src/http/read-cache.ts';
import type { Scope } from '../../src/http/scope.ts';
import { newId } from '../../src/ids.ts';
import { accountById } from '../../src/modules/accounts/index.ts';
import { answerCache } from '../../src/modules/insights/answers.ts';
import {
  fillInsightHistory,
  type InsightDeps,
  refreshInsights,
  scheduleInsightRefreshes,
} from '../../src/modules/insights/index.ts';
import { accountInsightsAnswer } from '../../src/modules/insights/service.ts';
import { ensurePlatformPosts } from '../../src/modules/posts/index.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount, setSandboxFigures } from '../helpers/sandbox-accounts.ts';
import { accountInsightSeries, accounts, insightSyncState } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * Insights against the sandbox platforms over real HTTP (docs/insights.md): figures set
 * through the sandbox's control API are read by the service's jobs and answered per UTC day;
 * the sandbox's call log shows what each read cost.
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;
let deps: InsightDeps;

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { platforms: sandbox.platforms });
  owner = await t.createOwner();
  deps = {
    db: t.database.db,
    platforms: () => sandbox.platforms,
    secretKey: t.secretKey,
    log: pino({ level: 'silent' }),
  };
  await t.startWorker({ platforms: sandbox.platforms });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await sandbox.close();
});

const DAY_MS = 86_400_000;

/** The UTC day `offset` days from the service's today. */
function day(offset: number): string {
  return new Date(now().getTime() + offset * DAY_MS).toISOString().slice(0, 10);
}

/** Unix time of the start of that day, as the platforms take `since`. */
function dayStart(offset: number): string {
  return String(Date.parse(`${day(offset)}T00:00:00Z`) / 1000);
}

let users = 0;

/** A new profile of the owner, made through the API. */
async function newProfile(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function connected(
  platform: Platform,
  options: { granted?: string[]; profileId?: string; owner?: TestOwner; member?: boolean } = {},
): Promise<SandboxAccount> {
  users += 1;
  return await connectSandboxAccount(t, sandbox, options.owner ?? owner, platform, `ins_${platform}_${users}`, options);
}

/**
 * Keeps the schedule away from an account (no history to read, next refresh a day ahead), so
 * a test alone decides which reads happen and the call log counts only those.
 */
async function quiet(accountId: string): Promise<void> {
  // Far enough that the day one test moves the clock by makes nothing due.
  const later = new Date(now().getTime() + 30 * DAY_MS);
  const state = {
    nextRefreshAt: later,
    historyCursor: null,
    gapFrom: null,
    gapTo: null,
    history: 'read' as const,
    readTo: day(-3),
    historyNextAt: later,
  };
  await t.database.db
    .insert(insightSyncState)
    .values({ accountId, historyFrom: day(-364), ...state })
    .onConflictDoUpdate({ target: insightSyncState.accountId, set: state });
}

/** The calls to the platform's insights (and Instagram's followers count) since `since`: not the comments poll's. */
async function insightCalls(platform: Platform, account: SandboxAccount, since: Date) {
  const calls = await sandbox.calls(platform, account.sandboxUser, since);
  return calls.data.filter(
    (c) => c.path.includes('insights') || (c.path.endsWith('/me') && c.query.fields === 'followers_count'),
  );
}

/** Figures on the sandbox platform by day offset from today (a post's with `postId`). */
async function setFigures(
  platform: Platform,
  account: SandboxAccount,
  metric: string,
  values: [number, number | null][],
  postId?: string,
): Promise<void> {
  const byDay = values.map(([offset, value]): [string, number | null] => [day(offset), value]);
  await setSandboxFigures(sandbox, platform, account, metric, byDay, postId);
}

function get(url: string, key = owner.key, profile?: string) {
  return t.app.inject({ method: 'GET', url, headers: auth(key, profile) });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function insights(accountId: string, query: string, key = owner.key): Promise<any> {
  const res = await get(`/v1/accounts/${accountId}/insights${query}`, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function sync(key: string, payload?: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/insights/sync',
    headers: auth(key),
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A post of the owner's on `accountId`, due tomorrow (a test then sets what publishing would). */
async function scheduledPost(accountId: string, text: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(owner.key),
    payload: { account_ids: [accountId], text, scheduled_at: new Date(now().getTime() + DAY_MS).toISOString() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function stateOf(accountId: string) {
  const [row] = await t.database.db.select().from(insightSyncState).where(eq(insightSyncState.accountId, accountId));
  return row;
}

describe('history and daily figures', () => {
  let instagram: SandboxAccount;
  let threads: SandboxAccount;

  beforeAll(async () => {
    instagram = await connected('instagram');
    threads = await connected('threads');
    await setFigures('instagram', instagram, 'reach', [
      [-300, 41],
      [-299, null],
      [-298, 0],
    ]);
    await setFigures('instagram', instagram, 'views', [[-364, 900]]);
    await setFigures('threads', threads, 'views', [
      [-200, 55],
      [-199, null],
    ]);
    await setFigures('threads', threads, 'likes', [
      [-200, 3],
      [-199, 0],
    ]);
    // As the worker's schedule does every minute: both accounts are new, so their history is read now.
    await scheduleInsightRefreshes({ db: t.database.db });
    for (const account of [instagram, threads]) {
      await eventually(async () => {
        const state = await stateOf(account.id);
        return state?.historyCursor === null && state.refreshedAt !== null ? state : undefined;
      }, 120);
    }
  }, 180_000);

  it('reads the year before the connection: figures set on the platform come back on their days', async () => {
    const year = await insights(instagram.id, `?from=${day(-364)}&to=${day(0)}`);
    expect(year).toMatchObject({ account_id: instagram.id, platform: 'instagram', from: day(-364), to: day(0) });
    expect(Object.keys(year.metrics)).toEqual([
      'followers_count',
      'views',
      'reach',
      'accounts_engaged',
      'total_interactions',
      'likes',
      'comments',
      'saves',
      'shares',
    ]);
    for (const metric of Object.values(year.metrics) as { values: unknown[] }[])
      expect(metric.values).toHaveLength(365);
    // The oldest day of the history is read too.
    expect(year.metrics.views.values[0]).toEqual({ date: day(-364), value: 900 });
    expect(year.missing_permission).toBeNull();
    expect(Date.parse(year.synced_at)).toBeLessThanOrEqual(now().getTime());

    const three = await insights(instagram.id, `?from=${day(-300)}&to=${day(-298)}&metrics=reach`);
    expect(three.metrics).toEqual({
      reach: {
        total: 41,
        values: [
          { date: day(-300), value: 41 },
          { date: day(-299), value: null },
          { date: day(-298), value: 0 },
        ],
      },
    });
  });

  it('keeps "no data" apart from 0, in the answer and in the database', async () => {
    const answer = await insights(threads.id, `?from=${day(-200)}&to=${day(-199)}&metrics=views,likes`);
    expect(answer.metrics).toEqual({
      views: {
        total: 55,
        values: [
          { date: day(-200), value: 55 },
          { date: day(-199), value: null },
        ],
      },
      likes: {
        total: 3,
        values: [
          { date: day(-200), value: 3 },
          { date: day(-199), value: 0 },
        ],
      },
    });
    const stored = await t.database.pool.query(
      `select metric, values[($2::date - first_day) + 1] as value from account_insight_series
       where account_id = $1 and metric in ('views', 'likes') order by metric`,
      [threads.id, day(-199)],
    );
    expect(stored.rows).toEqual([
      { metric: 'likes', value: 0 },
      { metric: 'views', value: null },
    ]);
    const allNull = await insights(threads.id, `?from=${day(-199)}&to=${day(-199)}&metrics=views`);
    expect(allNull.metrics.views).toEqual({ total: null, values: [{ date: day(-199), value: null }] });
  });

  it('tags each answer (ETag): asked again with If-None-Match, 304 without a body until a refresh changes it', async () => {
    const url = `/v1/accounts/${threads.id}/insights?from=${day(-3)}&to=${day(0)}&metrics=views`;
    const ask = (ifNoneMatch?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { ...auth(owner.key), ...(ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch }) },
      });
    const first = await ask();
    expect(first.statusCode, first.body).toBe(200);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    for (const header of [tag, `W/${tag}`, `"something-else", ${tag}`, '*']) {
      const again = await ask(header);
      expect(again.statusCode, header).toBe(304);
      expect(again.body, header).toBe('');
      expect(again.headers.etag, header).toBe(tag);
      // A 304 carries no Content-Length (RFC 9110, 8.6) and no Content-Type.
      expect(again.headers['content-length'], header).toBeUndefined();
      expect(again.headers['content-type'], header).toBeUndefined();
    }
    const head = await t.app.inject({ method: 'HEAD', url, headers: { ...auth(owner.key), 'if-none-match': tag } });
    expect(head.statusCode).toBe(304);
    expect(head.body).toBe('');
    const other = await ask('"something-else"');
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(first.body);
    expect(other.headers.etag).toBe(tag);

    // A refresh reads a new figure for yesterday: the old tag no longer names the answer.
    await setFigures('threads', threads, 'views', [[-1, 77]]);
    await refreshInsights(deps, threads.id);
    // Kept answers are forgotten when the database's notice of the change arrives, moments later.
    const changed = await eventually(async () => {
      const res = await ask(tag);
      return res.statusCode === 304 ? undefined : res;
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().metrics.views.values[2]).toEqual({ date: day(-1), value: 77 });
    expect(changed.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(changed.headers.etag).not.toBe(tag);
    expect((await ask(changed.headers.etag as string)).statusCode).toBe(304);

    // An error is never tagged, nor answered 304.
    const missing = await t.app.inject({
      method: 'GET',
      url: `/v1/accounts/${newId('account')}/insights`,
      headers: { ...auth(owner.key), 'if-none-match': '*' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('gives a kept answer while nothing changed, without asking the database', async () => {
    await eventually(async () => (hearingChanges() ? true : undefined));
    const statements: string[] = [];
    const db = drizzle(t.database.pool, { logger: { logQuery: (query) => statements.push(query) } });
    const answers = answerCache(1);
    const scope: Scope = {
      ownerId: owner.ownerId,
      profileId: null,
      visibleProfileIds: null,
      caller: { type: 'api_key', id: '', name: null, kind: 'owner' },
    };
    const ask = () =>
      accountInsightsAnswer({ db, platforms: () => sandbox.platforms }, answers, scope, threads.id, {
        from: day(-3),
        to: day(0),
      });
    const first = await ask();
    expect(statements.filter((q) => q.includes('json_agg'))).toHaveLength(1);
    statements.length = 0;
    const again = await ask();
    expect(again.body).toBe(first.body);
    expect(again.etag).toBe(first.etag);
    // Nothing of the account or its figures (the read cache may read profiles being deleted again).
    expect(statements.filter((q) => !/from "profiles"/.test(q))).toEqual([]);
    // The route gives the same bytes.
    const res = await get(`/v1/accounts/${threads.id}/insights?from=${day(-3)}&to=${day(0)}`);
    expect(res.body).toBe(first.body.toString());
    expect(res.headers.etag).toBe(first.etag);
    // A kept answer is given only to a caller who sees the account: a profile key of another profile is refused.
    const otherProfileId = await newProfile('Elsewhere');
    const otherKey = await t.createProfileKey(owner.ownerId, otherProfileId);
    const refused = await get(`/v1/accounts/${threads.id}/insights?from=${day(-3)}&to=${day(0)}`, otherKey);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('account_not_found');
  });

  it('answers what is stored now, however the figures were written (an answer kept from before is not reused)', async () => {
    const url = `/v1/accounts/${threads.id}/insights?from=${day(-3)}&to=${day(0)}&metrics=views,likes`;
    const first = await get(url);
    expect(first.statusCode, first.body).toBe(200);
    expect((await get(url)).body).toBe(first.body);
    const stored = async () =>
      (
        await t.database.pool.query(
          `select metric, first_day::text as first_day from account_insight_series where account_id = $1 and metric = 'views'`,
          [threads.id],
        )
      ).rows[0] as { first_day: string };
    // Any writer of the figures, not only a refresh: yesterday's views set straight in the table.
    const { first_day: firstDay } = await stored();
    const index = Math.round((Date.parse(day(-1)) - Date.parse(firstDay)) / DAY_MS) + 1;
    await t.database.pool.query(
      `update account_insight_series set values[${index}] = 4242 where account_id = $1 and metric = 'views'`,
      [threads.id],
    );
    // Told by the database's notice of the change, moments after it commits.
    const updated = await eventually(async () => {
      const res = await get(url);
      return res.json().metrics.views.values[2].value === 4242 ? res : undefined;
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().metrics.views.values[2]).toEqual({ date: day(-1), value: 4242 });
    expect(updated.headers.etag).not.toBe(first.headers.etag);
    // A metric's row removed: its days are null again.
    await t.database.pool.query(`delete from account_insight_series where account_id = $1 and metric = 'likes'`, [
      threads.id,
    ]);
    const removed = await eventually(async () => {
      const res = await get(url);
      return res.json().metrics.likes.total === null ? res : undefined;
    });
    expect(removed.json().metrics.likes).toEqual({
      total: null,
      values: [-3, -2, -1, 0].map((offset) => ({ date: day(offset), value: null })),
    });
    expect(removed.json().metrics.views.values[2]).toEqual({ date: day(-1), value: 4242 });
  });

  it('answers the 30 days ending today by default, and days after the last reading as null', async () => {
    const answer = await insights(threads.id, '');
    expect(answer.from).toBe(day(-29));
    expect(answer.to).toBe(day(0));
    expect(answer.metrics.views.values).toHaveLength(30);
    const ahead = await insights(threads.id, `?from=${day(1)}&to=${day(3)}&metrics=likes`);
    expect(ahead.metrics.likes).toEqual({
      total: null,
      values: [1, 2, 3].map((offset) => ({ date: day(offset), value: null })),
    });
  });

  it("moves an account's figures with it to another profile", async () => {
    const before = await insights(instagram.id, `?from=${day(-300)}&to=${day(-298)}`);
    const profileId = await newProfile('Moved to');
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/accounts/${instagram.id}/move`,
      headers: auth(owner.key),
      payload: { profile_id: profileId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const oldKey = await t.createProfileKey(owner.ownerId, owner.defaultProfileId);
    // The answer the owner was given (and the service kept) is not the old profile's to see, once
    // the database's notice of the move arrives.
    const refused = await eventually(async () => {
      const res = await get(`/v1/accounts/${instagram.id}/insights?from=${day(-300)}&to=${day(-298)}`, oldKey);
      return res.statusCode === 200 ? undefined : res;
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('account_not_found');
    const newKey = await t.createProfileKey(owner.ownerId, profileId);
    expect(await insights(instagram.id, `?from=${day(-300)}&to=${day(-298)}`, newKey)).toEqual(before);
  });

  it('refuses a kept answer to a profile the account left, however it was moved', async () => {
    await eventually(async () => (hearingChanges() ? true : undefined));
    const profileId = await newProfile('Moved in the table');
    const from = await t.createProfileKey(owner.ownerId, owner.defaultProfileId);
    const account = await connected('threads');
    // No refresh writes the account's figures meanwhile (that notice would tell as well).
    await t.stopWorkers();
    try {
      const url = `/v1/accounts/${account.id}/insights?from=${day(-2)}&to=${day(-1)}&metrics=views`;
      expect((await get(url, from)).statusCode).toBe(200);
      // Only the account's row changes, straight in the table: the accounts' notice alone tells.
      await t.database.pool.query('update accounts set profile_id = $1 where id = $2', [profileId, account.id]);
      const refused = await eventually(async () => {
        const res = await get(url, from);
        return res.statusCode === 200 ? undefined : res;
      });
      expect(refused.statusCode).toBe(404);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });
});

describe('refreshes', () => {
  it('reads each of the last 3 days in one call, the followers count in one, and each post in one', async () => {
    const instagram = await connected('instagram');
    await quiet(instagram.id);
    const { body: user } = await sandbox.control('GET', `/users/instagram/${instagram.sandboxUser}`);
    const platformPostId = user.posts[0].id as string;
    const account = await accountById(t.database.db, instagram.id);
    const posts = await t.database.db.transaction((tx) =>
      ensurePlatformPosts(tx, account as NonNullable<typeof account>, [{ id: platformPostId }]),
    );
    const postId = posts.get(platformPostId) as string;
    // Instagram names the service's `saves` `saved` in media insights.
    await setFigures('instagram', instagram, 'saved', [[0, 7]], platformPostId);
    await setFigures('instagram', instagram, 'reach', [[0, null]], platformPostId);
    await setFigures('instagram', instagram, 'likes', [[0, 0]], platformPostId);

    const since = now();
    await refreshInsights(deps, instagram.id);
    const calls = await insightCalls('instagram', instagram, since);
    expect(calls).toHaveLength(5);
    const daily = calls.filter((c) => c.path.endsWith(`/${instagram.platformUserId}/insights`));
    expect(daily.map((c) => [c.query.since, c.query.metric_type, c.query.period])).toEqual([
      [dayStart(-2), 'total_value', 'day'],
      [dayStart(-1), 'total_value', 'day'],
      [dayStart(0), 'total_value', 'day'],
    ]);
    expect(calls.filter((c) => c.path.endsWith('/me'))).toHaveLength(1);
    expect(calls.filter((c) => c.path.endsWith(`/${platformPostId}/insights`))).toHaveLength(1);

    const res = await get(`/v1/posts/${postId}/insights`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ post_id: postId, account_id: instagram.id, platform: 'instagram' });
    expect(Object.keys(answer.metrics)).toEqual([
      'views',
      'reach',
      'likes',
      'comments',
      'saves',
      'shares',
      'total_interactions',
    ]);
    expect(answer.metrics.saves).toBe(7);
    expect(answer.metrics.reach).toBeNull();
    expect(answer.metrics.likes).toBe(0);
    expect(answer.missing_permission).toBeNull();
    expect(answer.synced_at).not.toBeNull();
    const two = await get(`/v1/posts/${postId}/insights?metrics=saves,reach`);
    expect(two.json().metrics).toEqual({ saves: 7, reach: null });

    // Today's followers count is the user's, as the platform's profile gives it.
    const { body: now1 } = await sandbox.control('GET', `/users/instagram/${instagram.sandboxUser}`);
    const followers = await insights(instagram.id, `?from=${day(0)}&to=${day(0)}&metrics=followers_count`);
    expect(followers.metrics.followers_count).toEqual({
      total: now1.followers_count,
      values: [{ date: day(0), value: now1.followers_count }],
    });
  });

  it('reads each of the last 3 days of a Threads account in one call each, and its followers in one without a range', async () => {
    const threads = await connected('threads');
    await quiet(threads.id);
    await setFigures('threads', threads, 'followers_count', [[0, 415]]);
    const since = now();
    await refreshInsights(deps, threads.id);
    const calls = await insightCalls('threads', threads, since);
    const ranged = calls.filter((c) => c.query.since !== undefined || c.query.until !== undefined);
    expect(ranged.map((c) => c.query.since)).toEqual([dayStart(-2), dayStart(-1), dayStart(0)]);
    // Threads' insights reference: followers_count does not support since and until.
    expect(ranged.filter((c) => c.query.metric?.split(',').includes('followers_count'))).toEqual([]);
    expect(calls.filter((c) => c.query.metric === 'followers_count').map((c) => c.query)).toEqual([
      { metric: 'followers_count' },
    ]);
    const answer = await insights(threads.id, `?from=${day(0)}&to=${day(0)}&metrics=followers_count`);
    expect(answer.metrics.followers_count).toEqual({ total: 415, values: [{ date: day(0), value: 415 }] });
  });

  it('reads nothing without the insights permission, and answers every figure null naming it', async () => {
    // Instagram's token answer names the permissions granted: the service knows at once.
    const instagram = await connected('instagram', {
      granted: ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments'],
    });
    await setFigures('instagram', instagram, 'views', [[-1, 12]]);
    await quiet(instagram.id);
    const since = now();
    await refreshInsights(deps, instagram.id);
    await t.database.db
      .update(insightSyncState)
      .set({ historyCursor: day(-3), history: 'reading' })
      .where(eq(insightSyncState.accountId, instagram.id));
    await fillInsightHistory(deps, instagram.id);
    expect(await insightCalls('instagram', instagram, since)).toEqual([]);
    expect((await stateOf(instagram.id))?.lastError).toContain('instagram_business_manage_insights');

    const answer = await insights(instagram.id, `?from=${day(-1)}&to=${day(0)}`);
    expect(answer.missing_permission).toBe('instagram_business_manage_insights');
    for (const metric of Object.values(answer.metrics) as { total: unknown; values: { value: unknown }[] }[]) {
      expect(metric.total).toBeNull();
      expect(metric.values.map((v) => v.value)).toEqual([null, null]);
    }
  });

  it('learns a missing Threads permission from the first refusal, and asks no more', async () => {
    // Threads' code exchange does not name the permissions (without a tester token to inspect
    // it): the service takes those requested until Threads refuses one.
    const threads = await connected('threads', {
      granted: ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies'],
    });
    await quiet(threads.id);
    const since = now();
    await refreshInsights(deps, threads.id);
    expect(await insightCalls('threads', threads, since)).toHaveLength(1);
    expect((await accountById(t.database.db, threads.id))?.scopes).not.toContain('threads_manage_insights');
    const later = now();
    await refreshInsights(deps, threads.id);
    expect(await insightCalls('threads', threads, later)).toEqual([]);
    expect((await insights(threads.id, '?metrics=views')).missing_permission).toBe('threads_manage_insights');
  });

  it('reads the days missed while the permission was missing once it is back', async () => {
    // The service saw the account 20 days ago, without the permission; its history is read.
    const instagram = await connected('instagram');
    await setFigures('instagram', instagram, 'likes', [
      [-22, 220],
      [-10, 100],
      [-3, 30],
    ]);
    await quiet(instagram.id);
    await t.database.db
      .update(insightSyncState)
      .set({ readTo: day(-23) })
      .where(eq(insightSyncState.accountId, instagram.id));
    const since = now();
    await refreshInsights(deps, instagram.id);
    const state = await stateOf(instagram.id);
    expect([state?.gapFrom, state?.readTo, state?.history]).toEqual([day(-22), day(0), 'reading']);
    // The refresh queued the reading of the gap; the worker reads it.
    const read = await eventually(async () => {
      const current = await stateOf(instagram.id);
      return current?.gapTo === null ? current : undefined;
    }, 30);
    expect(read.history).toBe('read');
    // The refresh's 3 days and followers count, then the 20 days, one call each.
    expect(await insightCalls('instagram', instagram, since)).toHaveLength(4 + 20);
    const answer = await insights(instagram.id, `?from=${day(-22)}&to=${day(-3)}&metrics=likes`);
    const values = answer.metrics.likes.values as { date: string; value: number | null }[];
    expect(values.every((v) => typeof v.value === 'number')).toBe(true);
    expect([values[0]?.value, values[12]?.value, values[19]?.value]).toEqual([220, 100, 30]);
  });

  it('hides figures already stored once the permission is gone', async () => {
    const threads = await connected('threads');
    await setFigures('threads', threads, 'views', [[-1, 12]]);
    await quiet(threads.id);
    await refreshInsights(deps, threads.id);
    expect((await insights(threads.id, `?from=${day(-1)}&to=${day(-1)}&metrics=views`)).metrics.views.total).toBe(12);
    await t.database.db
      .update(accounts)
      .set({ scopes: ['threads_basic', 'threads_content_publish'] })
      .where(eq(accounts.id, threads.id));
    // The answer kept before is forgotten on the database's notice of the change.
    const answer = await eventually(async () => {
      const current = await insights(threads.id, `?from=${day(-1)}&to=${day(-1)}&metrics=views`);
      return current.missing_permission === null ? undefined : current;
    });
    expect(answer.missing_permission).toBe('threads_manage_insights');
    expect(answer.metrics.views).toEqual({ total: null, values: [{ date: day(-1), value: null }] });
  });

  it('stops giving a kept answer once its account is deleted, whatever deleted it', async () => {
    await eventually(async () => (hearingChanges() ? true : undefined));
    const threads = await connected('threads');
    await setFigures('threads', threads, 'views', [[-1, 5]]);
    await quiet(threads.id);
    await refreshInsights(deps, threads.id);
    const url = `/v1/accounts/${threads.id}/insights?from=${day(-1)}&to=${day(-1)}&metrics=views`;
    expect((await get(url)).json().metrics.views.total).toBe(5);
    expect((await get(url)).statusCode).toBe(200);
    // Straight in the table: no code of the service is told but through the database's notice.
    await t.database.pool.query('delete from accounts where id = $1', [threads.id]);
    const gone = await eventually(async () => {
      const res = await get(url);
      return res.statusCode === 200 ? undefined : res;
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe('account_not_found');
  });

  it('answers 404 for, and reads nothing more for, an account whose profile is being deleted', async () => {
    const profileId = await newProfile('Forget me');
    const instagram = await connected('instagram', { profileId });
    await t.stopWorkers();
    try {
      // Asked once before, so its answer is kept: the deletion still hides it at once.
      expect((await get(`/v1/accounts/${instagram.id}/insights`)).statusCode).toBe(200);
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/v1/profiles/${profileId}`,
        headers: auth(owner.key),
      });
      expect(deleted.statusCode, deleted.body).toBe(202);
      // Its figures are gone from the API at once, though the data is removed later.
      const gone = await get(`/v1/accounts/${instagram.id}/insights`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error.code).toBe('account_not_found');
      const since = now();
      await scheduleInsightRefreshes({ db: t.database.db });
      expect(await stateOf(instagram.id)).toBeUndefined();
      await refreshInsights(deps, instagram.id);
      await fillInsightHistory(deps, instagram.id);
      expect(await insightCalls('instagram', instagram, since)).toEqual([]);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('slows the history down while the platform reports its rate limit nearly used', async () => {
    const instagram = await connected('instagram');
    await quiet(instagram.id);
    await t.database.db
      .update(insightSyncState)
      .set({ historyCursor: day(-3), history: 'reading' })
      .where(eq(insightSyncState.accountId, instagram.id));
    await sandbox.control('PUT', '/settings/app_usage_percent', { value: 95 });
    try {
      const since = now();
      await fillInsightHistory(deps, instagram.id);
      // One step of 30 days, then a pause of an hour before the next.
      expect(await insightCalls('instagram', instagram, since)).toHaveLength(30);
      const state = await stateOf(instagram.id);
      expect(state?.historyCursor).toBe(day(-33));
      expect((state?.historyNextAt.getTime() ?? 0) - now().getTime()).toBeGreaterThan(60 * 60_000);
      const { rows } = await t.database.pool.query(
        `select run_at - now() > interval '59 minutes' as later from graphile_worker.jobs where key = $1`,
        [`fill_insight_history:${instagram.id}`],
      );
      expect(rows).toEqual([{ later: true }]);
    } finally {
      await sandbox.control('PUT', '/settings/app_usage_percent', { value: 0 });
    }
  });

  it('starts a just-connected account at once and an older one at its phase in the 6 hours', async () => {
    const fresh = await connected('threads');
    const older = await connected('instagram');
    await t.database.db
      .update(accounts)
      .set({ connectedAt: new Date(now().getTime() - 2 * DAY_MS) })
      .where(eq(accounts.id, older.id));
    await t.database.db
      .delete(insightSyncState)
      .where(sql`${insightSyncState.accountId} in (${fresh.id}, ${older.id})`);
    const before = now().getTime();
    await scheduleInsightRefreshes({ db: t.database.db });
    const freshState = await stateOf(fresh.id);
    const olderState = await stateOf(older.id);
    // The fresh one was due at once: its refresh is queued and its next one is 6 hours on.
    expect(freshState?.nextRefreshAt.getTime()).toBeGreaterThanOrEqual(before + 6 * 3_600_000);
    expect(olderState?.nextRefreshAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(olderState?.nextRefreshAt.getTime()).toBeLessThan(before + 6 * 3_600_000);
    for (const state of [freshState, olderState]) expect(state?.historyFrom).toBe(day(-364));
  });
});

describe('errors', () => {
  let instagram: SandboxAccount;
  let threads: SandboxAccount;

  beforeAll(async () => {
    instagram = await connected('instagram');
    threads = await connected('threads');
    await Promise.all([quiet(instagram.id), quiet(threads.id)]);
  });

  it.each([
    ['an impossible date', '?from=2026-02-30&to=2026-03-02'],
    ['a month 13', '?from=2026-01-01&to=2026-13-01'],
    ['a date without its zeros', '?from=2026-1-5&to=2026-01-10'],
    ['a date and a time', '?from=2026-01-05T00:00:00Z'],
    ['from after to', '?from=2026-03-02&to=2026-03-01'],
    ['366 days', '?from=2025-01-01&to=2026-01-01'],
    ['year 0000', '?from=0000-01-01&to=0000-01-02'],
    ['a default range reaching before year 1', '?to=0001-01-05'],
  ])('answers %s with 400 invalid_range', async (_what, query) => {
    const res = await get(`/v1/accounts/${instagram.id}/insights${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('invalid_range');
  });

  it('takes 365 days, both ends included', async () => {
    const answer = await insights(instagram.id, '?from=2025-01-01&to=2025-12-31&metrics=reach');
    expect(answer.metrics.reach.values).toHaveLength(365);
    expect(answer.metrics.reach.values[364].date).toBe('2025-12-31');
  });

  it("answers a metric not in the platform's table with 400 unknown_metric listing the valid ones", async () => {
    const res = await get(`/v1/accounts/${threads.id}/insights?metrics=views,reach`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('unknown_metric');
    expect(res.json().error.details).toEqual({
      unknown_metrics: ['reach'],
      valid_metrics: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
    });
    const empty = await get(`/v1/accounts/${instagram.id}/insights?metrics=views,`);
    expect(empty.json().error.code).toBe('unknown_metric');
    // Spaces around names and repeated names are forgiven.
    const spaced = await insights(instagram.id, '?metrics=views,%20reach,views');
    expect(Object.keys(spaced.metrics)).toEqual(['views', 'reach']);
  });

  it("answers a LinkedIn organization page's daily figures as LinkedIn's share statistics give them, no data as null", async () => {
    const linkedin = await connected('linkedin');
    // The account is the member's first organization page; the figures are set on the page.
    const page = { ...linkedin, sandboxUser: `${linkedin.sandboxUser}.company1` };
    await setFigures('linkedin', page, 'impressionCount', [
      [-2, 30],
      [-1, null],
    ]);
    await setFigures('linkedin', page, 'likeCount', [
      [-2, 0],
      [-1, 4],
    ]);
    await quiet(linkedin.id);
    await refreshInsights(deps, linkedin.id);
    const answer = await insights(linkedin.id, `?from=${day(-2)}&to=${day(-1)}&metrics=views,likes`);
    expect(answer).toMatchObject({ platform: 'linkedin', missing_permission: null });
    expect(answer.metrics).toEqual({
      views: {
        total: 30,
        values: [
          { date: day(-2), value: 30 },
          { date: day(-1), value: null },
        ],
      },
      likes: {
        total: 4,
        values: [
          { date: day(-2), value: 0 },
          { date: day(-1), value: 4 },
        ],
      },
    });
  });

  it("answers a LinkedIn page's engagement rate by day, stored as the fraction LinkedIn gives; a rate has no total", async () => {
    const linkedin = await connected('linkedin');
    const page = { ...linkedin, sandboxUser: `${linkedin.sandboxUser}.company1` };
    // The sandbox answers engagement as (clicks + likes + comments + shares) / impressions.
    for (const [metric, first, second] of [
      ['impressionCount', 250, 1000],
      ['clickCount', 5, 7],
      ['likeCount', 3, 2],
      ['commentCount', 1, 0],
      ['shareCount', 1, 1],
    ] as const) {
      await setFigures('linkedin', page, metric, [
        [-2, first],
        [-1, second],
      ]);
    }
    await quiet(linkedin.id);
    await refreshInsights(deps, linkedin.id);
    const answer = await insights(linkedin.id, `?from=${day(-2)}&to=${day(-1)}&metrics=engagement,clicks`);
    expect(answer.metrics).toEqual({
      engagement: {
        total: null,
        values: [
          { date: day(-2), value: 0.04 },
          { date: day(-1), value: 0.01 },
        ],
      },
      clicks: {
        total: 12,
        values: [
          { date: day(-2), value: 5 },
          { date: day(-1), value: 7 },
        ],
      },
    });
  });

  it('answers a LinkedIn page whose statistics LinkedIn refuses with missing_permission rw_organization_admin', async () => {
    const linkedin = await connected('linkedin');
    await quiet(linkedin.id);
    const res = await sandbox.control('POST', '/faults', {
      platform: 'linkedin',
      username: `${linkedin.sandboxUser}.company1`,
      error: 'permission_missing',
    });
    expect(res.status).toBe(201);
    await refreshInsights(deps, linkedin.id);
    const answer = await insights(linkedin.id, `?from=${day(-1)}&to=${day(0)}&metrics=views`);
    expect(answer.missing_permission).toBe('rw_organization_admin');
    expect(answer.metrics.views.values.map((v: { value: unknown }) => v.value)).toEqual([null, null]);
  });

  it("answers a LinkedIn member's own profile with missing_permission r_member_postAnalytics, asking LinkedIn nothing", async () => {
    const linkedin = await connected('linkedin', { member: true });
    await quiet(linkedin.id);
    const since = now();
    await refreshInsights(deps, linkedin.id);
    expect((await sandbox.calls('linkedin', linkedin.sandboxUser, since)).data).toEqual([]);
    const answer = await insights(linkedin.id, `?from=${day(-1)}&to=${day(0)}&metrics=views,followers_count`);
    expect(answer.missing_permission).toBe('r_member_postAnalytics');
    expect(answer.metrics.views.values.map((v: { value: unknown }) => v.value)).toEqual([null, null]);
    expect(answer.metrics.followers_count.total).toBeNull();
  });

  it('answers a YouTube channel whose Google login did not grant yt-analytics.readonly with missing_permission', async () => {
    const youtube = await connected('youtube', {
      granted: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'],
    });
    await quiet(youtube.id);
    await refreshInsights(deps, youtube.id);
    const answer = await insights(youtube.id, `?from=${day(-1)}&to=${day(0)}&metrics=views`);
    expect(answer.missing_permission).toBe('https://www.googleapis.com/auth/yt-analytics.readonly');
    expect(answer.metrics.views.values.map((v: { value: unknown }) => v.value)).toEqual([null, null]);
  });

  it("answers a Business Profile location's daily figures from the Performance API: 0 where Google lists the day without a value, null where it lists none", async () => {
    const location = await connected('google_business');
    await quiet(location.id);
    for (const [metric, values] of [
      [
        'CALL_CLICKS',
        [
          [-1, 4],
          [0, 0],
        ],
      ],
      [
        'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
        [
          [-1, null],
          [0, 31],
        ],
      ],
    ] as const) {
      const res = await sandbox.control('PUT', '/insights', {
        platform: 'google_business',
        // The login's first location, whose account this is.
        username: `${location.sandboxUser}.location1`,
        metric,
        values: values.map(([offset, value]) => ({ day: day(offset), value })),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await refreshInsights(deps, location.id);
    const answer = await insights(
      location.id,
      `?from=${day(-1)}&to=${day(0)}&metrics=calls,impressions_desktop_search`,
    );
    expect(answer).toMatchObject({ platform: 'google_business', missing_permission: null });
    expect(answer.metrics.calls.values).toEqual([
      { date: day(-1), value: 4 },
      { date: day(0), value: 0 },
    ]);
    expect(answer.metrics.impressions_desktop_search.values).toEqual([
      { date: day(-1), value: null },
      { date: day(0), value: 31 },
    ]);
  });

  it("answers an X account's followers as X gives them today, and a post's counts with no data as null", async () => {
    const xAccount = await connected('x');
    await quiet(xAccount.id);
    await setFigures('x', xAccount, 'followers_count', [[0, 77]]);
    await refreshInsights(deps, xAccount.id);
    const answer = await insights(xAccount.id, `?from=${day(-1)}&to=${day(0)}&metrics=followers_count`);
    expect(answer).toMatchObject({ platform: 'x', missing_permission: null });
    expect(answer.metrics.followers_count.values).toEqual([
      { date: day(-1), value: null },
      { date: day(0), value: 77 },
    ]);

    const postId = await scheduledPost(xAccount.id, 'Counted on X');
    const { body: user } = await sandbox.control('GET', `/users/x/${xAccount.sandboxUser}`);
    const platformPostId = user.posts[0].id as string;
    await t.database.pool.query(
      `update post_targets set status = 'published', platform_post_id = $2, published_at = now() where post_id = $1`,
      [postId, platformPostId],
    );
    await setFigures('x', xAccount, 'like_count', [[0, 0]], platformPostId);
    await setFigures('x', xAccount, 'bookmark_count', [[0, null]], platformPostId);
    await setFigures('x', xAccount, 'impression_count', [[0, 90]], platformPostId);
    await refreshInsights(deps, xAccount.id);
    const res = await get(`/v1/posts/${postId}/insights?metrics=views,likes,bookmarks`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ platform: 'x', metrics: { views: 90, likes: 0, bookmarks: null } });
  });

  it('answers an X account whose figures X refuses with missing_permission tweet.read', async () => {
    const xAccount = await connected('x');
    await quiet(xAccount.id);
    const res = await sandbox.control('POST', '/faults', {
      platform: 'x',
      username: xAccount.sandboxUser,
      error: 'permission_missing',
    });
    expect(res.status).toBe(201);
    await refreshInsights(deps, xAccount.id);
    const answer = await insights(xAccount.id, `?from=${day(0)}&to=${day(0)}&metrics=followers_count`);
    expect(answer.missing_permission).toBe('tweet.read');
    expect(answer.metrics.followers_count.values.map((v: { value: unknown }) => v.value)).toEqual([null]);
  });

  it("answers a Pinterest account's daily views, saves and clicks as its analytics give them, no data as null, and its followers today", async () => {
    const pinterest = await connected('pinterest');
    await quiet(pinterest.id);
    await setFigures('pinterest', pinterest, 'IMPRESSION', [
      [-1, null],
      [0, 48],
    ]);
    await setFigures('pinterest', pinterest, 'OUTBOUND_CLICK', [
      [-1, 0],
      [0, 6],
    ]);
    await setFigures('pinterest', pinterest, 'follower_count', [[0, 512]]);
    await refreshInsights(deps, pinterest.id);
    const answer = await insights(
      pinterest.id,
      `?from=${day(-1)}&to=${day(0)}&metrics=views,outbound_clicks,followers_count`,
    );
    expect(answer).toMatchObject({ platform: 'pinterest', missing_permission: null });
    expect(answer.metrics.views.values).toEqual([
      { date: day(-1), value: null },
      { date: day(0), value: 48 },
    ]);
    expect(answer.metrics.outbound_clicks.values).toEqual([
      { date: day(-1), value: 0 },
      { date: day(0), value: 6 },
    ]);
    expect(answer.metrics.followers_count.values).toEqual([
      { date: day(-1), value: null },
      { date: day(0), value: 512 },
    ]);
  });

  it('answers a Pinterest account connected without pins:read with missing_permission, asking Pinterest nothing', async () => {
    const pinterest = await connected('pinterest', {
      granted: ['user_accounts:read', 'boards:read', 'boards:write', 'pins:write'],
    });
    await quiet(pinterest.id);
    const since = now();
    await refreshInsights(deps, pinterest.id);
    const calls = await sandbox.calls('pinterest', pinterest.sandboxUser, since);
    expect(calls.data.filter((c) => c.path.includes('analytics'))).toEqual([]);
    const answer = await insights(pinterest.id, `?from=${day(0)}&to=${day(0)}&metrics=views`);
    expect(answer.missing_permission).toBe('pins:read');
    expect(answer.metrics.views.values.map((v: { value: unknown }) => v.value)).toEqual([null]);
  });

  it('answers TikTok and Facebook accounts with 422 insights_not_supported', async () => {
    for (const platform of ['tiktok', 'facebook'] as const) {
      const account = await connected(platform);
      const res = await get(`/v1/accounts/${account.id}/insights`);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('insights_not_supported');
      const synced = await sync(owner.key, { account_ids: [account.id] });
      expect(synced.statusCode).toBe(422);
      expect(synced.json().error.code).toBe('insights_not_supported');
    }
  });

  it('reads the figures of a post published through the API, and not again within the hour', async () => {
    const threads = await connected('threads');
    await quiet(threads.id);
    const postId = await scheduledPost(threads.id, 'Both');
    // As publishing leaves it: published on Threads, under the post's id there.
    const { body: user } = await sandbox.control('GET', `/users/threads/${threads.sandboxUser}`);
    const platformPostId = user.posts[0].id as string;
    await t.database.pool.query(
      `update post_targets set status = 'published', platform_post_id = $2, published_at = now() where post_id = $1`,
      [postId, platformPostId],
    );
    await setFigures('threads', threads, 'quotes', [[0, 4]], platformPostId);
    await setFigures('threads', threads, 'shares', [[0, null]], platformPostId);
    const since = now();
    await refreshInsights(deps, threads.id);
    expect((await insightCalls('threads', threads, since)).filter((c) => c.path.includes(platformPostId))).toHaveLength(
      1,
    );
    const res = await get(`/v1/posts/${postId}/insights?metrics=quotes,shares`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      account_id: threads.id,
      platform: 'threads',
      metrics: { quotes: 4, shares: null },
    });
    const unchanged = await t.app.inject({
      method: 'GET',
      url: `/v1/posts/${postId}/insights?metrics=quotes,shares`,
      headers: { ...auth(owner.key), 'if-none-match': res.headers.etag as string },
    });
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    // Read again within the hour, the post is not asked again.
    const again = now();
    await refreshInsights(deps, threads.id);
    expect((await insightCalls('threads', threads, again)).filter((c) => c.path.includes(platformPostId))).toEqual([]);
  });

  it('records a post the platform refuses as read with no figures, and does not ask again at once', async () => {
    const threads = await connected('threads');
    await quiet(threads.id);
    const postId = await scheduledPost(threads.id, 'Deleted on Threads');
    // Published, then deleted on the platform: Threads no longer knows the id.
    await t.database.pool.query(
      `update post_targets set status = 'published', platform_post_id = '17999999999999999', published_at = now() where post_id = $1`,
      [postId],
    );
    const since = now();
    await refreshInsights(deps, threads.id);
    const asked = (await insightCalls('threads', threads, since)).filter((c) => c.path.includes('17999999999999999'));
    expect(asked).toHaveLength(1);
    const res = await get(`/v1/posts/${postId}/insights`);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.values(res.json().metrics).every((v) => v === null)).toBe(true);
    expect(res.json().synced_at).not.toBeNull();
    const again = now();
    await refreshInsights(deps, threads.id);
    expect((await insightCalls('threads', threads, again)).filter((c) => c.path.includes('17999999999999999'))).toEqual(
      [],
    );
    // The account's own figures were read all the same.
    expect((await stateOf(threads.id))?.lastError).toBeNull();
  });

  it('asks which account of a post made for several, and refuses one it was not made for', async () => {
    const instagram = await connected('instagram');
    const threads = await connected('threads');
    const { body: media } = await sandbox.control('GET', `/users/instagram/${instagram.sandboxUser}`);
    const postId = await scheduledPost(threads.id, 'One');
    // A second published copy on the Instagram account, as a post made for both leaves it.
    await t.database.pool.query(
      `insert into post_targets (id, post_id, account_id, platform, status, platform_post_id, published_at, created_at, updated_at)
       values ($4, $1, $2, 'instagram', 'published', $3, now(), now(), now())`,
      [postId, instagram.id, media.posts[0].id, newId('postTarget')],
    );
    await t.database.pool.query(
      `update post_targets set status = 'published', platform_post_id = 'x' where post_id = $1 and account_id = $2`,
      [postId, threads.id],
    );
    const both = await get(`/v1/posts/${postId}/insights`);
    expect(both.statusCode).toBe(400);
    expect(both.json().error.code).toBe('account_id_required');
    expect([...both.json().error.details.account_ids].sort()).toEqual([instagram.id, threads.id].sort());
    const one = await get(`/v1/posts/${postId}/insights?account_id=${instagram.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ account_id: instagram.id, platform: 'instagram' });
    const other = await connected('instagram');
    const wrong = await get(`/v1/posts/${postId}/insights?account_id=${other.id}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.code).toBe('account_not_found');
  });

  it('answers a post not published yet with 409 post_not_published, and an unknown one with 404', async () => {
    const postId = await scheduledPost(threads.id, 'Later');
    const res = await get(`/v1/posts/${postId}/insights`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('post_not_published');
    const unknown = await get(`/v1/posts/${postId}/insights?metrics=saves`);
    expect(unknown.json().error.code).toBe('unknown_metric');
    const missing = await get(`/v1/posts/${newId('post')}/insights`);
    expect(missing.statusCode).toBe(404);
  });
});

describe('manual sync', () => {
  it('runs at most once per 5 minutes per owner, and per profile for a profile key', async () => {
    const other = await t.createOwner('Sync owner');
    const account = await connected('threads', { owner: other });
    await quiet(account.id);

    const unknown = await sync(other.key, { account_ids: ['acc_01jqq0000000000000000000000'] });
    expect(unknown.statusCode).toBe(404);
    // Refused requests take no turn.
    const first = await sync(other.key);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toEqual({ account_ids: [account.id] });
    await eventually(async () => ((await stateOf(account.id))?.refreshedAt ? true : undefined));

    const second = await sync(other.key, { account_ids: [account.id] });
    expect(second.statusCode).toBe(429);
    expect(second.json().error.code).toBe('sync_rate_limited');
    // 300 s less the moments the first sync's refresh took.
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(280);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(300);

    // A profile key has its own 5 minutes.
    const profileKey = await t.createProfileKey(other.ownerId, other.defaultProfileId);
    expect((await sync(profileKey)).statusCode).toBe(202);
    expect((await sync(profileKey)).statusCode).toBe(429);

    await moveTime(t.database.pool, 4 * 60_000 + 50_000);
    const early = await sync(other.key);
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBeLessThanOrEqual(10);
    await moveTime(t.database.pool, 10_000);
    expect((await sync(other.key)).statusCode).toBe(202);
  });
});

describe('manual sync of a just-connected account', () => {
  it('reads it at once and starts its history, before the schedule has seen it', async () => {
    const other = await t.createOwner('Quick sync owner');
    const account = await connected('instagram', { owner: other });
    expect(await stateOf(account.id)).toBeUndefined();
    const res = await sync(other.key, { account_ids: [account.id] });
    expect(res.statusCode, res.body).toBe(202);
    const state = await eventually(async () => {
      const row = await stateOf(account.id);
      return row?.refreshedAt ? row : undefined;
    });
    expect(state.historyFrom).toBe(day(-364));
    const answer = await insights(account.id, `?from=${day(-2)}&to=${day(0)}&metrics=views`, other.key);
    expect(answer.synced_at).toBe(state.refreshedAt?.toISOString());
    expect(answer.metrics.views.values.every((v: { value: unknown }) => typeof v.value === 'number')).toBe(true);
  });
});

describe('followers and deletion', () => {
  it("keeps each day's followers count; days before the first reading are null", async () => {
    const threads = await connected('threads');
    await quiet(threads.id);
    await setFigures('threads', threads, 'followers_count', [[0, 321]]);
    await refreshInsights(deps, threads.id);
    await moveTime(t.database.pool, DAY_MS);
    await setFigures('threads', threads, 'followers_count', [[0, 330]]);
    await refreshInsights(deps, threads.id);
    const answer = await insights(threads.id, `?from=${day(-2)}&to=${day(0)}&metrics=followers_count`);
    expect(answer.metrics.followers_count).toEqual({
      total: 330,
      values: [
        { date: day(-2), value: null },
        { date: day(-1), value: 321 },
        { date: day(0), value: 330 },
      ],
    });
  });

  it("deletes a profile's figures with the profile", async () => {
    const profileId = await newProfile('Deleted soon');
    const account = await connected('instagram', { profileId });
    await quiet(account.id);
    await refreshInsights(deps, account.id);
    const stored = () =>
      t.database.db.select().from(accountInsightSeries).where(eq(accountInsightSeries.accountId, account.id));
    expect((await stored()).length).toBeGreaterThan(0);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}`,
      headers: auth(owner.key),
    });
    expect(deleted.statusCode, deleted.body).toBe(202);
    await eventually(async () =>
      (await stored()).length === 0 && (await stateOf(account.id)) === undefined ? true : undefined,
    );
  });
});
