import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { actAsAccount } from '../../src/modules/accounts/acting.ts';
import { refreshAccountToken, refreshDueTokens } from '../../src/modules/accounts/token-refresh.ts';
import { completeProfileDeletion } from '../../src/modules/profiles/service.ts';
import { createPlatforms, PlatformError, type PlatformSet } from '../../src/platforms/index.ts';
import { decrypt } from '../../src/secrets.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { accounts, events, platformApps } from '../helpers/tables.ts';

/**
 * Each owner brings its own X app: set, listed and deleted through /v1/platform-apps, then used
 * by the owner's connections (the sandbox's X sees which client asked), their refreshes, and
 * ended cleanly when the app that connected an account is gone.
 */

const BACK = 'https://app.example.com/connected';
const APP_A = { client_id: 'owner-a-client', client_secret: 'owner-a-secret-0123456789' };
const APP_B = { client_id: 'owner-b-client', client_secret: 'owner-b-secret-9876543210' };

let t: TestApp;
let sandbox: TestSandbox;
let ownerA: TestOwner;
let ownerB: TestOwner;
let ownerC: TestOwner;
/** Every log line the refreshes wrote, to look for secrets in. */
const logged: string[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => logged.push(line) });

function refreshDeps() {
  return { db: t.database.db, secretKey: t.secretKey, platforms: sandbox.platforms, log };
}

async function putApp(owner: TestOwner, platform: string, body: Record<string, string>) {
  return await t.app.inject({
    method: 'PUT',
    url: `/v1/platform-apps/${platform}`,
    headers: auth(owner.key),
    payload: body,
  });
}

/** What the sandbox's X saw of an app: permission pages allowed, codes exchanged, refreshes, revocations. */
async function uses(clientId: string) {
  const seen = await sandbox.control('GET', `/apps/x/${clientId}`);
  expect(seen.status).toBe(200);
  return seen.body.uses;
}

/** A new owner whose connect links may send clients back to BACK. */
async function linkingOwner(name: string, app = t): Promise<TestOwner> {
  const owner = await app.createOwner(name);
  const origin = await app.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: new URL(BACK).origin },
  });
  expect(origin.statusCode).toBe(201);
  return owner;
}

/** A connect link of the owner, walked to X's page and back as a browser would; answers the new account. */
async function connectX(owner: TestOwner, username: string, app = t) {
  const link = await app.app.inject({
    method: 'POST',
    url: `/v1/profiles/${owner.defaultProfileId}/connect-links`,
    headers: auth(owner.key),
    payload: { redirect_url: BACK },
  });
  expect(link.statusCode).toBe(201);
  const start = await app.app.inject({ method: 'GET', url: `${new URL(link.json().url).pathname}/start/x` });
  expect(start.statusCode).toBe(303);
  const dialog = String(start.headers.location);
  const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
  const back = await sandbox.decide(dialog, { username });
  const done = await app.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
  expect(done.statusCode).toBe(303);
  const outcome = new URL(String(done.headers.location));
  expect(outcome.searchParams.get('status')).toBe('connected');
  const [account] = await app.database.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.ownerId, owner.ownerId), eq(accounts.username, username)));
  if (!account) throw new Error('no account was stored');
  return { account, dialog: new URL(dialog) };
}

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { platforms: sandbox.platforms });
  ownerA = await linkingOwner('Agency A');
  ownerB = await linkingOwner('Agency B');
  ownerC = await linkingOwner('Agency C');
  // Each agency created its X app in X's developer portal.
  for (const app of [APP_A, APP_B]) {
    expect((await sandbox.control('POST', '/apps', { platform: 'x', ...app })).status).toBe(201);
  }
});
afterEach(() => resetClock());
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

describe('PUT, GET and DELETE /v1/platform-apps', () => {
  it('sets an app (201), replaces it (200), lists it without its secret, and stores the secret encrypted', async () => {
    const owner = await t.createOwner('Settings');
    const set = await putApp(owner, 'x', { client_id: 'first-id', client_secret: 'first-secret' });
    expect(set.statusCode).toBe(201);
    expect(set.json()).toEqual({
      platform: 'x',
      client_id: 'first-id',
      deployment_fallback: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const replaced = await putApp(owner, 'x', { client_id: 'second-id', client_secret: 'second-secret' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ platform: 'x', client_id: 'second-id', created_at: set.json().created_at });

    const listed = await t.app.inject({ method: 'GET', url: '/v1/platform-apps', headers: auth(owner.key) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ data: [replaced.json()], next_cursor: null });
    for (const answer of [set, replaced, listed]) expect(answer.body).not.toContain('secret');

    const [row] = await t.database.db.select().from(platformApps).where(eq(platformApps.ownerId, owner.ownerId));
    expect(row?.clientSecretSealed).not.toContain('second-secret');
    expect(decrypt(t.secretKey, row?.clientSecretSealed ?? '')).toBe('second-secret');

    const deleted = await t.app.inject({ method: 'DELETE', url: '/v1/platform-apps/x', headers: auth(owner.key) });
    expect(deleted.statusCode).toBe(204);
    const again = await t.app.inject({ method: 'DELETE', url: '/v1/platform-apps/x', headers: auth(owner.key) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('platform_app_not_found');
    const empty = await t.app.inject({ method: 'GET', url: '/v1/platform-apps', headers: auth(owner.key) });
    expect(empty.json()).toEqual({ data: [], next_cursor: null });
  });

  it('refuses a missing or malformed credential, an unknown platform and one that takes no owner app', async () => {
    const owner = await t.createOwner('Validation');
    const noSecret = await putApp(owner, 'x', { client_id: 'id' });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().error.code).toBe('validation_failed');
    const spaced = await putApp(owner, 'x', { client_id: 'has space', client_secret: 's' });
    expect(spaced.statusCode).toBe(400);
    expect(spaced.json().error.code).toBe('validation_failed');
    const extra = await putApp(owner, 'x', { client_id: 'id', client_secret: 's', scope: 'all' });
    expect(extra.statusCode).toBe(400);

    const unknown = await putApp(owner, 'myspace', { client_id: 'id', client_secret: 's' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: 'platform_not_found' });
    const meta = await putApp(owner, 'instagram', { client_id: 'id', client_secret: 's' });
    expect(meta.statusCode).toBe(422);
    expect(meta.json().error).toMatchObject({ code: 'unsupported_platform', details: { platforms: ['x'] } });
    const upper = await putApp(owner, 'X', { client_id: 'id', client_secret: 's' });
    expect(upper.statusCode).toBe(400);
    const none = await t.app.inject({ method: 'GET', url: '/v1/platform-apps', headers: auth(owner.key) });
    expect(none.json().data).toEqual([]);
  });

  it("is the owner's: a profile key gets 403 owner_key_required, and one owner never sees another's app", async () => {
    const owner = await t.createOwner('Keys');
    const profileKey = await t.createProfileKey(owner.ownerId, owner.defaultProfileId);
    for (const [method, url] of [
      ['PUT', '/v1/platform-apps/x'],
      ['GET', '/v1/platform-apps'],
      ['DELETE', '/v1/platform-apps/x'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: auth(profileKey),
        ...(method === 'PUT' ? { payload: { client_id: 'id', client_secret: 's' } } : {}),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('owner_key_required');
    }
    expect((await putApp(owner, 'x', { client_id: 'keys-id', client_secret: 'keys-secret' })).statusCode).toBe(201);
    const other = await t.createOwner('Other');
    const seen = await t.app.inject({ method: 'GET', url: '/v1/platform-apps', headers: auth(other.key) });
    expect(seen.json().data).toEqual([]);
  });

  it('the catalogue says X takes an owner app and the other platforms do not', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/platforms', headers: auth(ownerC.key) });
    const ownerApps = Object.fromEntries(
      res.json().data.map((p: { platform: string; owner_apps: boolean }) => [p.platform, p.owner_apps]),
    );
    expect(ownerApps).toEqual({
      instagram: false,
      threads: false,
      tiktok: false,
      facebook: false,
      linkedin: false,
      youtube: false,
      x: true,
      google_business: false,
      pinterest: false,
      bluesky: false,
    });
  });
});

describe("an owner's X app in use", () => {
  it("A's and B's accounts connect through their own apps, C's through the deployment's; A's refresh is A's", async () => {
    expect((await putApp(ownerA, 'x', APP_A)).statusCode).toBe(201);
    expect((await putApp(ownerB, 'x', APP_B)).statusCode).toBe(201);
    const defaultBefore = await uses('switchboard-sandbox').catch(() => null);

    const a = await connectX(ownerA, 'agency_a_user');
    expect(a.dialog.searchParams.get('client_id')).toBe(APP_A.client_id);
    expect(a.account.ownerAppClientId).toBe(APP_A.client_id);
    expect(await uses(APP_A.client_id)).toEqual({ authorize: 1, authorization_code: 1, refresh_token: 0, revoke: 0 });
    expect(await uses(APP_B.client_id)).toEqual({ authorize: 0, authorization_code: 0, refresh_token: 0, revoke: 0 });

    const b = await connectX(ownerB, 'agency_b_user');
    expect(b.dialog.searchParams.get('client_id')).toBe(APP_B.client_id);
    expect(b.account.ownerAppClientId).toBe(APP_B.client_id);
    expect(await uses(APP_B.client_id)).toEqual({ authorize: 1, authorization_code: 1, refresh_token: 0, revoke: 0 });

    const c = await connectX(ownerC, 'agency_c_user');
    expect(c.dialog.searchParams.get('client_id')).toBe('switchboard-sandbox');
    expect(c.account.ownerAppClientId).toBeNull();
    const defaultAfter = await uses('switchboard-sandbox');
    expect(defaultAfter.authorization_code).toBe((defaultBefore?.authorization_code ?? 0) + 1);
    expect(await uses(APP_A.client_id)).toMatchObject({ authorize: 1, authorization_code: 1 });

    // Near the end of the 2-hour token, the refresh goes to X with A's id and secret (the sandbox
    // refuses any other client's refresh of A's token, and a wrong secret).
    advanceClock(2 * 3_600_000 - 5 * 60_000);
    expect(await refreshAccountToken(refreshDeps(), a.account.id)).toBe('refreshed');
    expect(await uses(APP_A.client_id)).toMatchObject({ refresh_token: 1 });
    expect(await uses(APP_B.client_id)).toMatchObject({ refresh_token: 0 });
    expect(await refreshAccountToken(refreshDeps(), c.account.id)).toBe('refreshed');
    expect(await uses(APP_A.client_id)).toMatchObject({ refresh_token: 1 });
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) {
      expect(line).not.toContain(APP_A.client_secret);
      expect(line).not.toContain(APP_B.client_secret);
    }
  });

  it("the sandbox's X refuses A's refresh token to B's app, as X binds it to the client it was issued to", async () => {
    const owner = await linkingOwner('Bound');
    expect((await putApp(owner, 'x', APP_A)).statusCode).toBe(201);
    const { account } = await connectX(owner, 'bound_user');
    const refreshToken = decrypt(t.secretKey, account.refreshTokenSealed ?? '');
    const asB = sandbox.platforms.adapter('x', { clientId: APP_B.client_id, clientSecret: APP_B.client_secret });
    await expect(
      asB.refreshToken({ platformUserId: account.platformUserId, accessToken: 'unused', refreshToken }),
    ).rejects.toMatchObject({ kind: 'token_expired' });
    const wrongSecret = sandbox.platforms.adapter('x', { clientId: APP_A.client_id, clientSecret: 'not-the-secret' });
    await expect(
      wrongSecret.refreshToken({ platformUserId: account.platformUserId, accessToken: 'unused', refreshToken }),
    ).rejects.toMatchObject({ detail: { status: 401 } });
  });

  it("deleting A's app ends A's account at its next refresh: expired, account.expired, the reason naming the app", async () => {
    const owner = await linkingOwner('Deleting');
    expect((await putApp(owner, 'x', APP_A)).statusCode).toBe(201);
    const { account } = await connectX(owner, 'deleted_app_user');
    const before = await uses(APP_A.client_id);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/v1/platform-apps/x', headers: auth(owner.key) })).statusCode,
    ).toBe(204);

    // A call as the account is refused before anything reaches X: the app it acted through is gone.
    let called = false;
    await expect(
      actAsAccount(refreshDeps(), account, async () => {
        called = true;
      }),
    ).rejects.toMatchObject({ kind: 'token_expired' });
    expect(called).toBe(false);

    advanceClock(2 * 3_600_000 - 5 * 60_000);
    expect(await refreshAccountToken(refreshDeps(), account.id)).toBe('expired');
    const [ended] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(ended?.status).toBe('expired');
    expect(ended?.lastRefreshError).toBe(
      "the owner's X app that connected this account (client id owner-a-client) was deleted; reconnect the account",
    );
    const expired = await t.database.db
      .select()
      .from(events)
      .where(and(eq(events.ownerId, owner.ownerId), eq(events.type, 'account.expired')));
    expect(expired).toHaveLength(1);
    // Neither A's app nor the deployment's was asked to refresh a token it never got.
    expect(await uses(APP_A.client_id)).toEqual(before);
    const shown = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(shown.json().status).toBe('expired');
  });

  it('replacing the app by another client id ends the account likewise; a new secret for the same id keeps it', async () => {
    const owner = await linkingOwner('Replacing');
    const rotated = { client_id: 'rotating-client', client_secret: 'rotating-secret-1' };
    expect((await sandbox.control('POST', '/apps', { platform: 'x', ...rotated })).status).toBe(201);
    expect((await putApp(owner, 'x', rotated)).statusCode).toBe(201);
    const { account } = await connectX(owner, 'rotating_user');
    // The secret regenerated in X's portal, and given here.
    const secret2 = { ...rotated, client_secret: 'rotating-secret-2' };
    expect((await sandbox.control('POST', '/apps', { platform: 'x', ...secret2 })).status).toBe(201);
    expect((await putApp(owner, 'x', secret2)).statusCode).toBe(200);
    advanceClock(2 * 3_600_000 - 5 * 60_000);
    expect(await refreshAccountToken(refreshDeps(), account.id)).toBe('refreshed');

    expect((await putApp(owner, 'x', APP_B)).statusCode).toBe(200);
    advanceClock(2 * 3_600_000);
    expect(await refreshAccountToken(refreshDeps(), account.id)).toBe('expired');
    const [ended] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(ended?.lastRefreshError).toBe(
      "the owner's X app that connected this account (client id rotating-client) was replaced by client id owner-b-client; reconnect the account",
    );
  });
});

describe('an owner changing its X app while a client signs in', () => {
  it('sends the client round again without exchanging the code with an app it was not issued to; the next trip connects', async () => {
    const first = { client_id: 'owner-e-first', client_secret: 'owner-e-first-secret-01234' };
    const second = { client_id: 'owner-e-second', client_secret: 'owner-e-second-secret-0123' };
    for (const app of [first, second]) {
      expect((await sandbox.control('POST', '/apps', { platform: 'x', ...app })).status).toBe(201);
    }
    const ownerE = await linkingOwner('Agency E');
    expect((await putApp(ownerE, 'x', first)).statusCode).toBe(201);
    const link = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${ownerE.defaultProfileId}/connect-links`,
      headers: auth(ownerE.key),
      payload: { redirect_url: BACK },
    });
    const page = new URL(link.json().url).pathname;
    const start = await t.app.inject({ method: 'GET', url: `${page}/start/x` });
    const dialog = String(start.headers.location);
    expect(new URL(dialog).searchParams.get('client_id')).toBe(first.client_id);
    const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
    const back = await sandbox.decide(dialog, { username: 'changing_app_user' });
    // The owner replaces its app while the client is on X's page.
    expect((await putApp(ownerE, 'x', second)).statusCode).toBe(200);
    const done = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
    expect(done.statusCode).toBe(409);
    expect(done.body).toContain('The X app changed while you signed in');
    expect(done.body).toContain('Nothing was connected.');
    // Neither app was asked to exchange the code.
    expect((await uses(first.client_id)).authorization_code).toBe(0);
    expect((await uses(second.client_id)).authorization_code).toBe(0);
    const stored = await t.database.db.select().from(accounts).where(eq(accounts.ownerId, ownerE.ownerId));
    expect(stored).toEqual([]);
    // The same link's next trip goes through the new app and connects.
    const again = await t.app.inject({ method: 'GET', url: `${page}/start/x` });
    const dialog2 = String(again.headers.location);
    expect(new URL(dialog2).searchParams.get('client_id')).toBe(second.client_id);
    const cookie2 = String(again.headers['set-cookie']).split(';')[0] ?? '';
    const back2 = await sandbox.decide(dialog2, { username: 'changing_app_user' });
    const done2 = await t.app.inject({
      method: 'GET',
      url: `${back2.pathname}${back2.search}`,
      headers: { cookie: cookie2 },
    });
    expect(done2.statusCode).toBe(303);
    expect(new URL(String(done2.headers.location)).searchParams.get('status')).toBe('connected');
    expect((await uses(second.client_id)).authorization_code).toBe(1);
  });
});

describe("revoking an account connected through an owner's app", () => {
  it("deleting the profile revokes the account's token at X with the owner's app, never the deployment's", async () => {
    const owner = await linkingOwner('Revoking');
    const profile = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 'Revoked client' },
    });
    const profileId: string = profile.json().id;
    const app = { client_id: 'revoking-client', client_secret: 'revoking-secret' };
    expect((await sandbox.control('POST', '/apps', { platform: 'x', ...app })).status).toBe(201);
    expect((await putApp(owner, 'x', app)).statusCode).toBe(201);
    const link = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/connect-links`,
      headers: auth(owner.key),
      payload: { redirect_url: BACK },
    });
    const start = await t.app.inject({ method: 'GET', url: `${new URL(link.json().url).pathname}/start/x` });
    const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
    const back = await sandbox.decide(String(start.headers.location), { username: 'revoked_user' });
    await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
    // The deployment's sandbox app is known once first used: unseen, it revoked nothing.
    const defaultRevokes = async () => {
      const seen = await sandbox.control('GET', '/apps/x/switchboard-sandbox');
      return seen.status === 404 ? 0 : seen.body.uses.revoke;
    };
    const revokedBefore = await defaultRevokes();

    await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${profileId}`, headers: auth(owner.key) });
    expect(await completeProfileDeletion({ ...t.deletionContext(), platforms: sandbox.platforms }, profileId)).toBe(
      'deleted',
    );
    expect(await uses(app.client_id)).toMatchObject({ revoke: 1 });
    expect(await defaultRevokes()).toBe(revokedBefore);
    const activity = await sandbox.control('GET', '/activity/x/revoked_user');
    expect(activity.body.data).toEqual([
      expect.objectContaining({ action: 'revoke', detail: { client_id: 'revoking-client', tokens: 2 } }),
    ]);
  });
});

describe('a deployment without an X app of its own', () => {
  it("has X served by owners' apps only: the adapter without an app refuses to sign in, refresh or revoke", async () => {
    const live = createPlatforms({ platforms: 'live', platformCredentials: {}, sandboxUrl: undefined });
    expect(live.available).toEqual([]);
    expect(live.ownerAppsOnly).toEqual(['x']);
    const noApp = live.adapter('x');
    expect(() => noApp.authorizeUrl({ redirectUri: 'https://sb.example.test/connect/callback/x', state: 's' })).toThrow(
      expect.objectContaining({ kind: 'unsupported' }),
    );
    expect(() => live.adapter('instagram')).toThrow(expect.objectContaining({ kind: 'unsupported' }));
    const own = live.adapter('x', { clientId: 'own-client', clientSecret: 'own-secret' });
    const url = new URL(own.authorizeUrl({ redirectUri: 'https://sb.example.test/connect/callback/x', state: 's' }));
    expect(url.origin + url.pathname).toBe('https://x.com/i/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('own-client');
  });

  it('offers X to the owner that set its own app, connects through it, and refuses it to an owner without one', async () => {
    // The sandbox's platforms as a deployment without X credentials sees them: X's adapter
    // without an app refuses whatever needs one, as the previous test shows createPlatforms' does.
    const refuse = (): never => {
      throw new PlatformError('unsupported', 'no X app', { platform: 'x' });
    };
    const withoutX: PlatformSet = {
      ...sandbox.platforms,
      available: sandbox.platforms.available.filter((p) => p !== 'x'),
      ownerAppsOnly: ['x'],
      adapter: (platform, app) => {
        const adapter = sandbox.platforms.adapter(platform, app);
        if (platform !== 'x' || app !== undefined) return adapter;
        return { ...adapter, authorizeUrl: refuse, exchangeCode: refuse, refreshToken: refuse, revokeAccess: refuse };
      },
    };
    const own = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { platforms: withoutX });
    try {
      const withApp = await linkingOwner('With an app', own);
      const without = await linkingOwner('Without', own);
      const xIn = async (key: string) => {
        const one = await own.app.inject({ method: 'GET', url: '/v1/platforms/x', headers: auth(key) });
        const all = await own.app.inject({ method: 'GET', url: '/v1/platforms', headers: auth(key) });
        const listed = all.json().data.find((p: { platform: string }) => p.platform === 'x');
        return [one.json().availability, listed.availability];
      };
      expect(await xIn(withApp.key)).toEqual(['not_configured', 'not_configured']);
      const put = await own.app.inject({
        method: 'PUT',
        url: '/v1/platform-apps/x',
        headers: auth(withApp.key),
        payload: APP_A,
      });
      expect(put.json().deployment_fallback).toBe(false);
      // The catalogue answers for the caller's owner: X is there for the owner with an app only.
      expect(await xIn(withApp.key)).toEqual(['sandbox', 'sandbox']);
      expect(await xIn(without.key)).toEqual(['not_configured', 'not_configured']);
      const refused = await own.app.inject({
        method: 'POST',
        url: `/v1/profiles/${without.defaultProfileId}/connect-links`,
        headers: auth(without.key),
        payload: { redirect_url: BACK, platforms: ['x'] },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('platform_not_available');
      const { account, dialog } = await connectX(withApp, 'own_only_user', own);
      expect(dialog.searchParams.get('client_id')).toBe(APP_A.client_id);
      expect(account.ownerAppClientId).toBe(APP_A.client_id);
      // Its refresh, due near the token's end, goes through A's app.
      const before = (await uses(APP_A.client_id)).refresh_token;
      advanceClock(2 * 3_600_000 - 5 * 60_000);
      expect(
        await refreshDueTokens({ db: own.database.db, secretKey: own.secretKey, platforms: withoutX, log }),
      ).toMatchObject({ refreshed: 1, expired: 0 });
      expect((await uses(APP_A.client_id)).refresh_token).toBe(before + 1);
    } finally {
      await own.close();
    }
  });
});
