import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClock } from '../../src/clock.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import {
  scheduleNoticeSubscriptions,
  subscribeCommentNotices,
} from '../../src/modules/accounts/notice-subscriptions.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount } from '../helpers/sandbox-accounts.ts';
import { accounts } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * Meta sends an account's comment notices only once the account is subscribed to the app
 * (Instagram `POST /me/subscribed_apps`, a page `POST /{page-id}/subscribed_apps`): every
 * connection subscribes it, by a job, and the account says whether notices come.
 */

let t: TestApp;
let sandbox: TestSandbox;
let owner: TestOwner;

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({}, undefined, { platforms: sandbox.platforms });
  owner = await t.createOwner();
});
afterEach(() => resetClock());
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

function deps() {
  return { db: t.database.db, platforms: sandbox.platforms, secretKey: t.secretKey, log: pino({ level: 'silent' }) };
}

/** A sandbox user (a Facebook user's first page) saved as the connect flow saves it, its subscription queued. */
async function saved(platform: Platform, username: string, granted?: string[]) {
  const { id } = await connectSandboxAccount(t, sandbox, owner, platform, username, {
    subscribe: false,
    ...(granted ? { granted } : {}),
  });
  const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
  if (!account) throw new Error('the account was not saved');
  return account;
}

async function shown(accountId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/accounts/${accountId}`, headers: auth(owner.key) });
  expect(res.statusCode).toBe(200);
  return res.json() as { notices: string | null; notices_error: string | null; permissions: string[]; status: string };
}

async function queuedSubscriptions(accountId: string): Promise<number> {
  const { rows } = await t.database.pool.query(
    `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'subscribe_comment_notices' and key = $1`,
    [`subscribe_comment_notices:${accountId}`],
  );
  return rows[0].n;
}

async function subscriptionCalls(platform: Platform, username: string, path: string): Promise<number> {
  const { data } = await sandbox.calls(platform, username);
  return data.filter((c) => c.method === 'POST' && c.path === path).length;
}

describe('subscribing an account to its comment notices', () => {
  it('a connection queues the subscription; done, the account shows notices: subscribed, and a reconnection asks again', async () => {
    const account = await saved('instagram', 'subs_ig');
    expect(await queuedSubscriptions(account.id)).toBe(1);
    expect(await shown(account.id)).toMatchObject({ notices: 'polling_only', notices_error: null });
    await subscribeCommentNotices(deps(), account.id);
    expect(await shown(account.id)).toMatchObject({ notices: 'subscribed', notices_error: null });
    const path = '/graph.instagram.com/v27.0/me/subscribed_apps';
    expect(await subscriptionCalls('instagram', 'subs_ig', path)).toBe(1);
    // Done once: the job run again asks nothing.
    await subscribeCommentNotices(deps(), account.id);
    expect(await subscriptionCalls('instagram', 'subs_ig', path)).toBe(1);

    const again = await saved('instagram', 'subs_ig');
    expect(again.id).toBe(account.id);
    expect(await shown(account.id)).toMatchObject({ notices: 'polling_only' });
    await subscribeCommentNotices(deps(), account.id);
    expect(await shown(account.id)).toMatchObject({ notices: 'subscribed' });
    expect(await subscriptionCalls('instagram', 'subs_ig', path)).toBe(2);
  });

  it('a Facebook page installs the app for its feed with its own token', async () => {
    const account = await saved('facebook', 'subs_fb');
    await subscribeCommentNotices(deps(), account.id);
    expect(await shown(account.id)).toMatchObject({ notices: 'subscribed' });
    const path = `/graph.facebook.com/v27.0/${account.platformUserId}/subscribed_apps`;
    expect(await subscriptionCalls('facebook', 'subs_fb.page1', path)).toBe(1);
  });

  it('a passing failure is logged on the account and tried again by the schedule, with a growing wait', async () => {
    const account = await saved('instagram', 'subs_retry');
    await sandbox.control('POST', '/faults', { platform: 'instagram', username: 'subs_retry', error: 'transient' });
    await subscribeCommentNotices(deps(), account.id);
    const failed = await shown(account.id);
    expect(failed.notices).toBe('polling_only');
    expect(failed.notices_error).toMatch(/^instagram: /);
    expect(failed.status).toBe('connected');
    // Not due yet: the first wait is 30 seconds.
    expect(await scheduleNoticeSubscriptions(deps())).toBe(0);
    await moveTime(t.database.pool, 31_000);
    expect(await scheduleNoticeSubscriptions(deps())).toBe(1);
    expect(await queuedSubscriptions(account.id)).toBe(1);
    // Leased: the next minute's schedule does not queue it twice.
    expect(await scheduleNoticeSubscriptions(deps())).toBe(0);
    await subscribeCommentNotices(deps(), account.id);
    expect(await shown(account.id)).toMatchObject({ notices: 'subscribed', notices_error: null });
  });

  it('a refusal leaves the account polled only, saying why, losing only the permission refused', async () => {
    // The page's user did not grant pages_manage_metadata, which subscribing a page needs.
    const granted = ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content', 'pages_manage_engagement'];
    const account = await saved('facebook', 'subs_refused', granted);
    const before = (await shown(account.id)).permissions;
    expect(before).not.toContain('pages_manage_metadata');
    await subscribeCommentNotices(deps(), account.id);
    const refused = await shown(account.id);
    expect(refused).toMatchObject({ notices: 'polling_only', status: 'connected' });
    expect(refused.notices_error).toMatch(/^facebook: /);
    expect(refused.permissions).toEqual(before);
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.commentNotices).toBe('failed');
    await moveTime(t.database.pool, 24 * 3_600_000);
    expect(await scheduleNoticeSubscriptions(deps())).toBe(0);
  });

  it('TikTok, whose comments the service does not read, has no notices and no subscription', async () => {
    const account = await saved('tiktok', 'subs_tt');
    expect(await shown(account.id)).toMatchObject({ notices: null, notices_error: null });
    expect(await queuedSubscriptions(account.id)).toBe(0);
  });
});

describe('an Instagram account stored under its app-scoped id (as before the professional account id was kept)', () => {
  it('is the same account when reconnected, and takes the professional account id notices name', async () => {
    const tokens = await sandbox.connect('instagram', 'ids_old');
    const [appScoped] = tokens.aliases ?? [];
    if (appScoped === undefined) throw new Error('no app-scoped id');
    const profile = await sandbox.adapter('instagram').profile(tokens);
    const old = { ...tokens, platformUserId: appScoped, aliases: [] };
    const { account } = await t.database.db.transaction((tx) =>
      saveConnectedAccount(tx, t.secretKey, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        platform: 'instagram',
        tokens: old,
        profile,
      }),
    );
    const again = await saved('instagram', 'ids_old');
    expect(again.id).toBe(account.id);
    expect(again.platformUserId).toBe(tokens.platformUserId);
    expect(again.platformAliases).toEqual([appScoped]);
    const rows = await t.database.db.select().from(accounts).where(eq(accounts.ownerId, owner.ownerId));
    expect(rows.filter((r) => r.username === 'ids_old')).toHaveLength(1);
  });
});
