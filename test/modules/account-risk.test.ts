import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { refreshDueTokens } from '../../src/modules/accounts/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { multipartUpload, videoFile } from '../helpers/media-files.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount } from '../helpers/sandbox-accounts.ts';
import { accounts, events, postTargets } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * What an account's end of access puts at risk (docs/connect.md, "What an expiry puts at
 * risk"): `posts_at_risk` on the account, in `account.expired` / `account.disconnected`, and
 * `account.expiring` ahead of an end no refresh can push back.
 */

let sandbox: TestSandbox;
let t: TestApp;
let receiver: Receiver;
let owner: TestOwner;

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    platforms: sandbox.platforms,
    listen: true,
  });
  owner = await t.createOwner();
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: {
      url: receiver.url,
      events: ['account.expired', 'account.disconnected', 'account.expiring', 'post.published', 'post.failed'],
    },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  // The tests run the periodic token refresh themselves, counting what each run refreshes, after
  // moving the clock: the worker's own every-minute run would take a refresh from them.
  await t.startWorker({ platforms: sandbox.platforms, periodic: false });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await receiver.close();
  await sandbox.close();
});

let users = 0;
async function connected(platform: 'threads' | 'tiktok' | 'instagram' | 'linkedin') {
  users += 1;
  return await connectSandboxAccount(t, sandbox, owner, platform, `risk_${platform}_${users}`);
}

const at = (days: number, hour = 9) => {
  const day = new Date(now().getTime() + days * 86_400_000);
  day.setUTCHours(hour, 0, 0, 0);
  return day.toISOString();
};

async function post(payload: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/posts', headers: auth(owner.key), payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function account(id: string): Promise<any> {
  return (await t.app.inject({ method: 'GET', url: `/v1/accounts/${id}`, headers: auth(owner.key) })).json();
}

/** Every event the receiver got, as parsed envelopes. */
// biome-ignore lint/suspicious/noExplicitAny: tests read the events' JSON field by field.
function received(): any[] {
  return receiver.received.map((r) => JSON.parse(r.body.toString('utf8')));
}

/** The events of `type` about the account the receiver got, as parsed envelopes. */
async function eventsOf(type: string, accountId: string, n = 1) {
  return await eventually(async () => {
    const found = received().filter((e) => e.type === type && e.data.account?.id === accountId);
    return found.length >= n ? found : undefined;
  });
}

describe('posts at risk', () => {
  it('are none while the account is connected, and shown with the disconnection: on the account and in the event', async () => {
    const threads = await connected('threads');
    expect((await account(threads.id)).posts_at_risk).toBeNull();
    const later = await post({ account_ids: [threads.id], text: 'Later', scheduled_at: at(3) });
    const sooner = await post({ account_ids: [threads.id], text: 'Sooner', scheduled_at: at(2) });
    const approval = await post({
      account_ids: [threads.id],
      text: 'Waits for the client',
      scheduled_at: at(4),
      approval: { required: true },
    });
    // Neither a draft nor a cancelled post is at risk.
    await post({ account_ids: [threads.id], text: 'Draft', draft: true, scheduled_at: at(1) });
    const cancelled = await post({ account_ids: [threads.id], text: 'Cancelled', scheduled_at: at(1) });
    await t.app.inject({ method: 'DELETE', url: `/v1/posts/${cancelled}`, headers: auth(owner.key) });

    const res = await t.app.inject({ method: 'DELETE', url: `/v1/accounts/${threads.id}`, headers: auth(owner.key) });
    expect(res.statusCode).toBe(200);
    const risk = { count: 3, next_scheduled_at: at(2) };
    expect(res.json().posts_at_risk).toEqual(risk);
    expect((await account(threads.id)).posts_at_risk).toEqual(risk);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts?status=disconnected',
      headers: auth(owner.key),
    });
    expect(listed.json().data.find((a: { id: string }) => a.id === threads.id).posts_at_risk).toEqual(risk);

    const [event] = await eventsOf('account.disconnected', threads.id);
    expect(event.data.posts_at_risk).toEqual({ ...risk, post_ids: [sooner, later, approval] });
    expect(event.data.account.posts_at_risk).toEqual(risk);
  });

  it('come with an expiry the service finds on the platform, and list the first 100 posts, soonest first', async () => {
    const threads = await connected('threads');
    const ids: string[] = [];
    for (let i = 0; i < 101; i += 1) {
      ids.push(await post({ account_ids: [threads.id], text: `Post ${i}`, scheduled_at: at(2 + i) }));
    }
    const expire = await sandbox.control('POST', '/tokens/expire', {
      platform: 'threads',
      username: threads.sandboxUser,
    });
    expect(expire.status).toBe(200);
    // The service learns of it at its next call with the token: a comment sync.
    const sync = await t.app.inject({
      method: 'POST',
      url: '/v1/comments/sync',
      headers: auth(owner.key),
      payload: { account_ids: [threads.id] },
    });
    expect(sync.statusCode, sync.body).toBe(202);
    const [event] = await eventsOf('account.expired', threads.id);
    expect(event.data.posts_at_risk.count).toBe(101);
    expect(event.data.posts_at_risk.next_scheduled_at).toBe(at(2));
    expect(event.data.posts_at_risk.post_ids).toEqual(ids.slice(0, 100));
    expect((await account(threads.id)).posts_at_risk).toEqual({ count: 101, next_scheduled_at: at(2) });
  });
});

/** How many `account.expiring` events the service recorded for the account. */
async function expiringEvents(accountId: string): Promise<number> {
  const rows = await t.database.db
    .select()
    .from(events)
    .where(and(eq(events.type, 'account.expiring'), sql`${events.data}->'account'->>'id' = ${accountId}`));
  return rows.length;
}

describe('account.expiring', () => {
  it('is sent once, 7 days before a TikTok grant ends, with the posts due after the end', async () => {
    const tiktok = await connected('tiktok');
    const video = { media_ids: [await uploadVideo()], platforms: { tiktok: { privacy_level: 'SELF_ONLY' } } };
    // TikTok's refresh token lives 180 days from the grant (its refreshes keep that end).
    const grantEnds = Date.parse((await account(tiktok.id)).connected_at) + 180 * 86_400_000;
    const before = await post({ account_ids: [tiktok.id], text: 'Before', scheduled_at: at(175), ...video });
    const after = await post({ account_ids: [tiktok.id], text: 'After', scheduled_at: at(185), ...video });
    expect(before).not.toBe(after);
    const deps = { db: t.database.db, secretKey: t.secretKey, platforms: sandbox.platforms };

    // More than 7 days before the end: nothing.
    await moveTime(t.database.pool, 172 * 86_400_000);
    await refreshDueTokens(deps);
    expect(await expiringEvents(tiktok.id)).toBe(0);

    // Within 7 days of it: one notice, and no second one at the next run.
    await moveTime(t.database.pool, 2 * 86_400_000);
    await refreshDueTokens(deps);
    await refreshDueTokens(deps);
    const [event] = await eventsOf('account.expiring', tiktok.id);
    expect(Math.abs(Date.parse(event.data.expires_at) - grantEnds)).toBeLessThan(60_000);
    expect(event.data.posts_at_risk).toEqual({ count: 1, next_scheduled_at: at(185 - 174), post_ids: [after] });
    expect(event.data.account).toMatchObject({ id: tiktok.id, status: 'connected', posts_at_risk: null });
    expect(await expiringEvents(tiktok.id)).toBe(1);
  });
});

describe('account.expiring on LinkedIn', () => {
  it("is sent 7 days before the member's year-long refresh token ends; the 60-day tokens are refreshed until then", async () => {
    const linkedin = await connected('linkedin');
    // "Refresh Tokens with OAuth 2.0": access tokens 60 days, the refresh token 365 days from the
    // member's consent, whatever the refreshes.
    const grantEnds = Date.parse((await account(linkedin.id)).connected_at) + 365 * 86_400_000;
    const deps = { db: t.database.db, secretKey: t.secretKey, platforms: sandbox.platforms };

    // Past the first access token's 60 days: refreshed, no notice.
    await moveTime(t.database.pool, 55 * 86_400_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    expect(await expiringEvents(linkedin.id)).toBe(0);
    expect((await account(linkedin.id)).status).toBe('connected');

    // 8 days before the refresh token's end: refreshed (the new access token ends with the
    // refresh token, as LinkedIn's day-360 example has it), still no notice.
    await moveTime(t.database.pool, 302 * 86_400_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    expect(await expiringEvents(linkedin.id)).toBe(0);

    // Within 7 days of it: one notice, as no refresh can push that end back; nor is the token,
    // which already ends there, refreshed again at every run.
    await moveTime(t.database.pool, 2 * 86_400_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);
    const [event] = await eventsOf('account.expiring', linkedin.id);
    expect(Math.abs(Date.parse(event.data.expires_at) - grantEnds)).toBeLessThan(60_000);
    expect(event.data.account).toMatchObject({ id: linkedin.id, platform: 'linkedin', status: 'connected' });
    expect(await expiringEvents(linkedin.id)).toBe(1);
  });
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A video uploaded as the owner: its media id. */
async function uploadVideo(): Promise<string> {
  const { payload, headers } = multipartUpload(await videoFile('mp4'), { filename: 'clip.mp4' });
  const upload = await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(owner.key), ...headers },
    payload,
  });
  expect(upload.statusCode, upload.body).toBe(201);
  return upload.json().id;
}

/** A TikTok post of an uploaded video, due now. */
async function tiktokVideoPost(accountId: string, text: string): Promise<string> {
  return await post({
    account_ids: [accountId],
    text,
    media_ids: [await uploadVideo()],
    platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
  });
}

async function accountRow(id: string) {
  const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
  if (!row) throw new Error(`no account ${id}`);
  return row;
}

describe('a lapsed TikTok access token', () => {
  const deps = () => ({ db: t.database.db, secretKey: t.secretKey, platforms: sandbox.platforms });

  it('lapsed while TikTok refused refreshes for a while: the account stays connected, and its post publishes once refreshes work', async () => {
    const tiktok = await connected('tiktok');
    // TikTok refuses this user's refreshes for the next 3 hours; its access token lives 2.
    const outage = await sandbox.control('POST', '/faults', {
      platform: 'tiktok',
      username: tiktok.sandboxUser,
      trigger: 'refresh',
      error: 'transient',
      seconds: 3 * 3600,
    });
    expect(outage.status).toBe(201);
    await moveTime(t.database.pool, 100 * MINUTE);
    await refreshDueTokens(deps());
    expect(await accountRow(tiktok.id)).toMatchObject({ status: 'connected', refreshFailures: 1 });

    // Past the access token's 2 hours: a post's first call is refused (access_token_invalid),
    // and the refresh it asks for is refused too, in passing.
    await moveTime(t.database.pool, 30 * MINUTE);
    const id = await tiktokVideoPost(tiktok.id, 'After the lapse');
    const [target] = await t.database.db.select().from(postTargets).where(eq(postTargets.postId, id));
    if (!target) throw new Error('no target');
    await eventually(async () => {
      const [row] = await t.database.db.select().from(postTargets).where(eq(postTargets.id, target.id));
      return (row?.failures ?? 0) >= 1 ? row : undefined;
    });
    expect((await accountRow(tiktok.id)).status).toBe('connected');
    expect((await account(tiktok.id)).status).toBe('connected');

    // The outage over: the refresh works, and the post publishes with the new token.
    await moveTime(t.database.pool, 2 * HOUR);
    await refreshDueTokens(deps());
    const row = await accountRow(tiktok.id);
    expect(row).toMatchObject({ status: 'connected', refreshFailures: 0 });
    expect((row.tokenExpiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(2 * HOUR - 5 * MINUTE);
    await moveTime(t.database.pool, 10 * MINUTE);
    const done = await eventually(async () =>
      received().find((e) => e.type === 'post.published' && e.data.post_id === id),
    );
    expect(done.data).toMatchObject({ post_id: id, account_id: tiktok.id, platform: 'tiktok' });
    expect(
      received()
        .filter((e) => e.data.account?.id === tiktok.id)
        .map((e) => e.type),
    ).toEqual([]);
  });

  it('whose refresh TikTok refuses for good: the account becomes expired, with account.expired', async () => {
    const tiktok = await connected('tiktok');
    // invalid_grant for the refresh token, as TikTok answers one expired, used or revoked.
    const refused = await sandbox.control('POST', '/faults', {
      platform: 'tiktok',
      username: tiktok.sandboxUser,
      trigger: 'refresh',
      error: 'token_expired',
    });
    expect(refused.status).toBe(201);
    await moveTime(t.database.pool, 2 * HOUR + MINUTE);
    const id = await tiktokVideoPost(tiktok.id, 'After the end');
    const [expired] = await eventsOf('account.expired', tiktok.id);
    expect(expired.data.account).toMatchObject({ id: tiktok.id, platform: 'tiktok', status: 'expired' });
    expect(expired.data.posts_at_risk).toMatchObject({ count: 1, post_ids: [id] });
    expect((await account(tiktok.id)).status).toBe('expired');
    expect(received().filter((e) => e.type === 'post.published' && e.data.post_id === id)).toEqual([]);
  });
});

describe('account.expiring for tokens refreshed with themselves', () => {
  it('an Instagram account whose refreshes keep failing gets one account.expiring 7 days before its 60 days end, and none again for that end', async () => {
    const instagram = await connected('instagram');
    const deps = { db: t.database.db, secretKey: t.secretKey, platforms: sandbox.platforms };
    const ends = (await accountRow(instagram.id)).tokenExpiresAt;
    if (ends === null) throw new Error('an Instagram token has an end');
    // Long-lived Instagram tokens last 60 days.
    expect(Math.abs(ends.getTime() - (now().getTime() + 60 * DAY))).toBeLessThan(MINUTE);
    // Instagram refuses this account's refreshes from now on, in passing.
    await sandbox.control('POST', '/faults', {
      platform: 'instagram',
      username: instagram.sandboxUser,
      trigger: 'refresh',
      error: 'transient',
      seconds: 90 * 86_400,
    });

    // 8 days before the end: no refresh due yet, no notice.
    await moveTime(t.database.pool, 52 * DAY);
    await refreshDueTokens(deps);
    expect(await expiringEvents(instagram.id)).toBe(0);

    // Within 7 days of it, its refresh failing: one notice, whatever the runs after it.
    await moveTime(t.database.pool, 2 * DAY);
    await refreshDueTokens(deps);
    await moveTime(t.database.pool, HOUR);
    await refreshDueTokens(deps);
    await refreshDueTokens(deps);
    const [event] = await eventsOf('account.expiring', instagram.id);
    expect(event.data.expires_at).toBe(ends.toISOString());
    expect(event.data.account).toMatchObject({ id: instagram.id, platform: 'instagram', status: 'connected' });
    expect(event.data.posts_at_risk).toEqual({ count: 0, next_scheduled_at: null, post_ids: [] });
    expect(await expiringEvents(instagram.id)).toBe(1);
    expect((await accountRow(instagram.id)).status).toBe('connected');
  });

  it('a healthy Instagram token is refreshed before the notice and never warned', async () => {
    const instagram = await connected('instagram');
    const deps = { db: t.database.db, secretKey: t.secretKey, platforms: sandbox.platforms };
    await moveTime(t.database.pool, 54 * DAY);
    await refreshDueTokens(deps);
    await refreshDueTokens(deps);
    const row = await accountRow(instagram.id);
    expect((row.tokenExpiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(59 * DAY);
    expect(await expiringEvents(instagram.id)).toBe(0);
  });
});
