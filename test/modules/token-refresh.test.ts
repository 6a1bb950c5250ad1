import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import { credentialsOf, saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import type { Account } from '../../src/modules/accounts/tables.ts';
import {
  noticeExpiringAccounts,
  refreshAccountToken,
  refreshDueTokens,
  type TokenRefreshDeps,
} from '../../src/modules/accounts/token-refresh.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { decrypt } from '../../src/secrets.ts';
import { CRONTAB, taskList } from '../../src/tasks.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { accounts, events } from '../helpers/tables.ts';

const DAY = 86_400_000;
let sandbox: TestSandbox;
let deps: TokenRefreshDeps;
let owner: { ownerId: string; defaultProfileId: string };

beforeAll(async () => {
  sandbox = await startSandbox();
  deps = { db: sandbox.database.db, secretKey: randomBytes(32), platforms: sandbox.platforms };
  owner = await createOwner(sandbox.database.db, { name: 'Agency', email: 'agency@example.test' });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  resetClock();
  // Each test counts what the job does with its own accounts only.
  await deps.db.delete(accounts);
});

async function connectedAccount(platform: Platform, username: string): Promise<Account> {
  const tokens = await sandbox.connect(platform, username);
  const adapter = sandbox.adapter(platform);
  const profile = await adapter.profile({ platformUserId: tokens.platformUserId, accessToken: tokens.accessToken });
  const { account } = await deps.db.transaction((tx) =>
    saveConnectedAccount(tx, deps.secretKey, {
      ownerId: owner.ownerId,
      profileId: owner.defaultProfileId,
      platform,
      tokens,
      profile,
    }),
  );
  return account;
}

async function reload(id: string): Promise<Account> {
  const [row] = await deps.db.select().from(accounts).where(eq(accounts.id, id));
  if (!row) throw new Error(`no account ${id}`);
  return row;
}

/** `at` is `afterMs` from now, give or take the few ms the test itself took. */
/** `at` is `afterMs` from now, or up to the share `jitter` of it sooner (and the test's own run time). */
function expectSoon(at: Date | null | undefined, afterMs: number, jitter = 0): void {
  const delta = (at?.getTime() ?? Number.NaN) - (now().getTime() + afterMs);
  expect(delta).toBeLessThanOrEqual(0);
  expect(delta).toBeGreaterThan(-2000 - afterMs * jitter);
}

async function eventsOf(accountId: string) {
  const rows = await deps.db.select().from(events);
  return rows.filter((e) => (e.data as { account?: { id?: string } }).account?.id === accountId);
}

describe('token refresh', () => {
  it('is a periodic task that runs every minute', () => {
    expect(CRONTAB.split('\n')).toContain('* * * * * refresh_platform_tokens ?priority=10');
    expect(
      Object.keys(
        taskList({
          ...deps,
          files: { dataDir: '/nonexistent', s3: undefined },
          agent: undefined as never,
          sendMail: async () => ({ refused: [] }),
          log: pino({ level: 'silent' }),
          media: undefined as never,
          publishRetryWindowMs: 3_600_000,
          accountReconnectGraceMs: 259_200_000,
          commentPollIntervalMs: 900_000,
          auditLogRetentionMs: 31_536_000_000,
          publicUrl: undefined,
        }),
      ),
    ).toContain('refresh_platform_tokens');
  });

  it('leaves young tokens alone and refreshes an Instagram token a day old and within a week of its 60 days', async () => {
    const account = await connectedAccount('instagram', 'refresh_due');
    const before = credentialsOf(deps.secretKey, account).accessToken;
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);

    advanceClock(50 * DAY);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);

    advanceClock(4 * DAY);
    const counts = await refreshDueTokens(deps);
    expect(counts.refreshed).toBe(1);
    const after = await reload(account.id);
    const token = credentialsOf(deps.secretKey, after).accessToken;
    expect(token).not.toBe(before);
    expect(after.accessTokenSealed).not.toContain(token);
    expect((after.tokenExpiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(59 * DAY);
    expectSoon(after.tokenIssuedAt, 0);
    expect(after.scopes).toEqual(account.scopes);
    expect(after.status).toBe('connected');
    expect((await sandbox.adapter('instagram').profile(credentialsOf(deps.secretKey, after))).username).toBe(
      'refresh_due',
    );
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);
  });

  it('keeps the newest TikTok refresh token, so the next refresh works after the rotation', async () => {
    const account = await connectedAccount('tiktok', 'refresh_rotation');
    const firstRefresh = decrypt(deps.secretKey, account.refreshTokenSealed as string);
    // Access tokens live 2 hours; the job refreshes them in their last 30 minutes.
    advanceClock(3_600_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);

    advanceClock(40 * 60_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    const once = await reload(account.id);
    const secondRefresh = decrypt(deps.secretKey, once.refreshTokenSealed as string);
    expect(secondRefresh).not.toBe(firstRefresh);
    expectSoon(once.tokenExpiresAt, 2 * 3_600_000);
    expect((await sandbox.adapter('tiktok').profile(credentialsOf(deps.secretKey, once))).id).toBe(
      account.platformUserId,
    );

    advanceClock(DAY);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    const twice = await reload(account.id);
    expect(decrypt(deps.secretKey, twice.refreshTokenSealed as string)).not.toBe(secondRefresh);
    expect(twice.status).toBe('connected');
  });

  it('a passing failure is retried after 30 s, then 60 s (each up to a fifth sooner at random), and the next success clears the count', async () => {
    const account = await connectedAccount('instagram', 'refresh_retry');
    advanceClock(55 * DAY);
    for (let i = 0; i < 2; i += 1) {
      await sandbox.control('POST', '/faults', {
        platform: 'instagram',
        username: 'refresh_retry',
        error: 'transient',
      });
    }
    expect(await refreshAccountToken(deps, account.id)).toBe('retry_later');
    let row = await reload(account.id);
    expect(row.refreshFailures).toBe(1);
    expectSoon(row.refreshRetryAt, 30_000, 0.2);
    expect(row.lastRefreshError).toMatch(/unexpected error/);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);

    advanceClock(30_000);
    expect((await refreshDueTokens(deps)).retry_later).toBe(1);
    row = await reload(account.id);
    expectSoon(row.refreshRetryAt, 60_000, 0.2);

    advanceClock(60_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    row = await reload(account.id);
    expect(row).toMatchObject({
      refreshFailures: 0,
      refreshRetryAt: null,
      lastRefreshError: null,
      status: 'connected',
    });
  });

  it('a rate-limited refresh waits at least as long as the platform asks', async () => {
    const account = await connectedAccount('instagram', 'refresh_throttled');
    advanceClock(55 * DAY);
    await sandbox.control('POST', '/throttle', { platform: 'instagram', username: 'refresh_throttled', seconds: 600 });
    expect(await refreshAccountToken(deps, account.id)).toBe('retry_later');
    expectSoon((await reload(account.id)).refreshRetryAt, 600_000);
  });

  it("keeps X's newest refresh token each time; a refresh token X no longer takes makes the account expired", async () => {
    const account = await connectedAccount('x', 'x_rotation');
    const firstRefresh = decrypt(deps.secretKey, account.refreshTokenSealed as string);
    // X's access tokens live 2 hours; the job refreshes them in their last 30 minutes.
    advanceClock(3_600_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);
    advanceClock(40 * 60_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    const once = await reload(account.id);
    const secondRefresh = decrypt(deps.secretKey, once.refreshTokenSealed as string);
    expect(secondRefresh).not.toBe(firstRefresh);
    expectSoon(once.tokenExpiresAt, 2 * 3_600_000);
    expect((await sandbox.adapter('x').profile(credentialsOf(deps.secretKey, once))).id).toBe(account.platformUserId);

    // The user revokes the app on X: every token of the grant ends, the next refresh is refused.
    await sandbox.control('POST', '/tokens/revoke', { platform: 'x', username: 'x_rotation' });
    advanceClock(2 * 3_600_000);
    expect((await refreshDueTokens(deps)).expired).toBe(1);
    expect((await reload(account.id)).status).toBe('expired');
    expect((await eventsOf(account.id)).map((e) => e.type)).toEqual(['account.expired']);
  });

  it("refreshes a Pinterest token in its last 5 of 30 days, each refresh renewing the refresh token's 60 days, so no account.expiring comes; one whose refreshes failed is warned before its refresh token ends", async () => {
    const account = await connectedAccount('pinterest', 'pin_refreshed');
    const stale = await connectedAccount('pinterest', 'pin_stale');
    const firstRefresh = decrypt(deps.secretKey, account.refreshTokenSealed as string);
    advanceClock(24 * DAY);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);
    // Pinterest refuses the stale account's refresh (a passing failure): its refresh token is not renewed.
    await sandbox.control('POST', '/faults', {
      platform: 'pinterest',
      username: 'pin_stale',
      error: 'transient',
      trigger: 'refresh',
    });
    advanceClock(2 * DAY);
    await refreshDueTokens(deps);
    const once = await reload(account.id);
    expect(decrypt(deps.secretKey, once.refreshTokenSealed as string)).not.toBe(firstRefresh);
    expectSoon(once.tokenExpiresAt, 30 * DAY);
    expectSoon(once.refreshExpiresAt, 60 * DAY);
    expect((await reload(stale.id)).refreshFailures).toBeGreaterThan(0);
    // Day 54 of the stale account's refresh token, never renewed: warned once; the refreshed one is not.
    advanceClock(28 * DAY);
    expect(await noticeExpiringAccounts(deps, now())).toBe(1);
    expect((await eventsOf(stale.id)).map((e) => e.type)).toEqual(['account.expiring']);
    expect(await eventsOf(account.id)).toEqual([]);
  });

  it('a token the platform says expired makes the account expired, with account.expired', async () => {
    const account = await connectedAccount('instagram', 'refresh_expired');
    await sandbox.control('POST', '/tokens/expire', { platform: 'instagram', username: 'refresh_expired' });
    advanceClock(55 * DAY);
    expect((await refreshDueTokens(deps)).expired).toBe(1);
    const row = await reload(account.id);
    expect(row.status).toBe('expired');
    expect(row.lastRefreshError).toMatch(/expired/i);
    const emitted = await eventsOf(account.id);
    expect(emitted.map((e) => e.type)).toEqual(['account.expired']);
    const [event] = emitted;
    if (!event) throw new Error('no account.expired event');
    expect(event.profileId).toBe(owner.defaultProfileId);
    expect((event.data as { account: Record<string, unknown> }).account).toMatchObject({
      id: account.id,
      platform: 'instagram',
      username: 'refresh_expired',
      status: 'expired',
    });
    expect(JSON.stringify(event.data)).not.toContain(credentialsOf(deps.secretKey, account).accessToken);
    expect((await refreshDueTokens(deps)).expired).toBe(0);
  });

  it("keeps a YouTube channel's hour-long token alive with the Google refresh token; a grant the user revoked (invalid_grant) makes it expired, with account.expired", async () => {
    const tokens = await sandbox.connect('youtube', 'refresh_channel');
    const youtube = sandbox.adapter('youtube');
    const pages = youtube.pages;
    if (pages === undefined) throw new Error('YouTube grants channels');
    const [channel] = await pages(tokens, tokens.scopes ?? []);
    if (!channel) throw new Error('no channel');
    const profile = await youtube.profile({ platformUserId: channel.id, accessToken: tokens.accessToken });
    const { account } = await deps.db.transaction((tx) =>
      saveConnectedAccount(tx, deps.secretKey, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        platform: 'youtube',
        tokens: { ...tokens, platformUserId: channel.id },
        profile,
      }),
    );
    const refreshToken = decrypt(deps.secretKey, account.refreshTokenSealed as string);
    // "expires_in": 3599; the job refreshes in the last 15 minutes.
    advanceClock(40 * 60_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(0);
    advanceClock(10 * 60_000);
    expect((await refreshDueTokens(deps)).refreshed).toBe(1);
    const fresh = await reload(account.id);
    expectSoon(fresh.tokenExpiresAt, 3599_000);
    // Google's refresh answer carries no refresh token: the one held stays.
    expect(decrypt(deps.secretKey, fresh.refreshTokenSealed as string)).toBe(refreshToken);
    expect((await youtube.profile(credentialsOf(deps.secretKey, fresh))).id).toBe(channel.id);

    await sandbox.control('POST', '/tokens/revoke', { platform: 'youtube', username: 'refresh_channel' });
    advanceClock(50 * 60_000);
    expect((await refreshDueTokens(deps)).expired).toBe(1);
    const row = await reload(account.id);
    expect(row.status).toBe('expired');
    expect((await eventsOf(account.id)).map((e) => e.type)).toEqual(['account.expired']);
  });

  it('revoked access makes the account disconnected, with account.disconnected', async () => {
    const account = await connectedAccount('instagram', 'refresh_revoked');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'instagram', username: 'refresh_revoked' });
    advanceClock(55 * DAY);
    expect(await refreshAccountToken(deps, account.id)).toBe('disconnected');
    const reloaded = await reload(account.id);
    expect(reloaded.status).toBe('disconnected');
    // Access removed for good: the service keeps no token for it.
    expect([reloaded.accessTokenSealed, reloaded.refreshTokenSealed]).toEqual([null, null]);
    expect((await eventsOf(account.id)).map((e) => e.type)).toEqual(['account.disconnected']);
  });

  it('passing failures long after the expiry give up: expired', async () => {
    const account = await connectedAccount('instagram', 'refresh_gone');
    advanceClock(62 * DAY);
    await sandbox.control('POST', '/faults', { platform: 'instagram', username: 'refresh_gone', error: 'transient' });
    expect(await refreshAccountToken(deps, account.id)).toBe('expired');
  });

  it('two workers never refresh the same token at once', async () => {
    const account = await connectedAccount('instagram', 'refresh_race');
    advanceClock(55 * DAY);
    const outcomes = await Promise.all([refreshAccountToken(deps, account.id), refreshAccountToken(deps, account.id)]);
    expect(outcomes.sort()).toEqual(['refreshed', 'skipped']);
  });
});
