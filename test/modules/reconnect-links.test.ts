import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { endAccountAccess, noteAccountFailure } from '../../src/modules/accounts/access.ts';
import { credentialsOf } from '../../src/modules/accounts/connections.ts';
import { completeProfileDeletion } from '../../src/modules/profiles/service.ts';
import { type Platform, PlatformError } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { elementsOf, tagsOf, textsOf } from '../helpers/html.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { type DialogChoice, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { verifyStandardWebhook } from '../helpers/standard-webhooks.ts';
import { accounts, connectAttempts, connectLinks, events, owners } from '../helpers/tables.ts';

/**
 * Reconnect links (POST /v1/accounts/{id}/reconnect-links) over HTTP, as a browser walks them:
 * the link's page, the trip to the sandbox's permission page, our callback, and where the
 * client ends (the owner's redirect URL, or our page saying the login was of another account).
 * (test/browser/reconnect-page.test.ts walks one in a real browser.)
 */

const BACK = 'https://app.example.com/connected';

let t: TestApp;
let sandbox: TestSandbox;
let receiver: Receiver;
let webhookSecret: string;
let owner: TestOwner;
let profileId: string;
let otherProfileId: string;

type AccountRow = typeof accounts.$inferSelect;

interface Walk {
  status: number;
  location: URL | null;
  body: string;
  cookie: string;
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first?.split(';')[0] ?? '';
}

/** The outcome parameters of a redirect to the owner's app. */
function outcome(walk: Pick<Walk, 'status' | 'location'>): Record<string, string> {
  expect(walk.status).toBe(303);
  expect(walk.location?.origin).toBe('https://app.example.com');
  expect(walk.location?.pathname).toBe('/connected');
  return Object.fromEntries(walk.location?.searchParams ?? []);
}

function walked(res: { statusCode: number; headers: Record<string, unknown>; body: string }, cookie: string): Walk {
  const location = res.headers.location;
  return {
    status: res.statusCode,
    location: typeof location === 'string' ? new URL(location, 'http://localhost') : null,
    body: res.body,
    cookie,
  };
}

async function connectLink(profile = profileId, key = owner.key): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/profiles/${profile}/connect-links`,
    headers: auth(key),
    payload: { redirect_url: BACK },
  });
  expect(res.statusCode).toBe(201);
  return new URL(res.json().url).pathname;
}

function createReconnectLink(accountId: string, body: Record<string, unknown> = {}, headers = auth(owner.key)) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/accounts/${accountId}/reconnect-links`,
    headers,
    payload: { redirect_url: BACK, ...body },
  });
}

/** A reconnect link's path (`/connect/<token>`), made with the owner key. */
async function reconnectLink(accountId: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await createReconnectLink(accountId, body);
  expect(res.statusCode, res.body).toBe(201);
  return new URL(res.json().url).pathname;
}

async function startTrip(linkPath: string, platform: Platform) {
  const start = await t.app.inject({ method: 'GET', url: `${linkPath}/start/${platform}` });
  expect(start.statusCode).toBe(303);
  return { dialog: String(start.headers.location), cookie: cookieOf(start.headers['set-cookie']) };
}

async function callback(redirect: URL, cookie: string): Promise<Walk> {
  const res = await t.app.inject({
    method: 'GET',
    url: `${redirect.pathname}${redirect.search}`,
    headers: cookie ? { cookie } : {},
  });
  return walked(res, cookie);
}

async function walk(linkPath: string, platform: Platform, choice: DialogChoice): Promise<Walk> {
  const trip = await startTrip(linkPath, platform);
  return await callback(await sandbox.decide(trip.dialog, choice), trip.cookie);
}

/** An account connected through a connect link of `profile`. */
async function connected(platform: Platform, choice: DialogChoice, profile = profileId): Promise<AccountRow> {
  const done = outcome(await walk(await connectLink(profile), platform, choice));
  return await reload(done.account_ids as string);
}

async function reload(id: string): Promise<AccountRow> {
  const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
  if (!row) throw new Error(`no account ${id}`);
  return row;
}

async function accountsOf(ownerId: string): Promise<AccountRow[]> {
  return await t.database.db.select().from(accounts).where(eq(accounts.ownerId, ownerId));
}

/** The account.connected events the service recorded for this account, oldest first. */
async function connectedEvents(accountId: string) {
  const rows = await t.database.db
    .select()
    .from(events)
    .where(and(eq(events.ownerId, owner.ownerId), eq(events.type, 'account.connected')));
  return rows
    .filter((e) => (e.data as { account: { id: string } }).account.id === accountId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

async function linkRow(path: string) {
  const token = path.replace('/connect/', '');
  const rows = await t.database.db.select().from(connectLinks).where(eq(connectLinks.ownerId, owner.ownerId));
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256').update(token).digest('hex');
  const row = rows.find((r) => r.tokenHash === hash);
  if (!row) throw new Error(`no link for ${path}`);
  return row;
}

/** Makes the account expired as the service finds out in production: the platform refuses its token. */
async function expire(account: AccountRow, username: string): Promise<AccountRow> {
  await sandbox.control('POST', '/tokens/expire', { platform: account.platform, username });
  const refused = await refusalOf(account);
  await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, refused, account.connectedAt));
  const expired = await reload(account.id);
  expect(expired.status).toBe('expired');
  return expired;
}

/** The platform's refusal of a call made with the account's token as this row holds it. */
async function refusalOf(account: AccountRow): Promise<PlatformError> {
  try {
    await sandbox.adapter(account.platform).profile(credentialsOf(t.secretKey, account));
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('the sandbox took the token');
}

/** The `href` of the link whose text is `text` on an HTML page, as a browser reads it. */
function hrefOf(html: string, text: string): string {
  const link = elementsOf(html, 'a').find((a) => a.text === text);
  if (!link?.attributes.href) throw new Error(`no link "${text}" on the page`);
  return link.attributes.href;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, undefined, {
    platforms: sandbox.platforms,
  });
  owner = await t.createOwner('Agency');
  await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: 'https://app.example.com' },
  });
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['account.connected'] },
  });
  expect(hook.statusCode).toBe(201);
  webhookSecret = hook.json().secret;
  const profile = async (name: string, externalId: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name, external_id: externalId },
      })
    ).json().id as string;
  profileId = await profile('Client', 'client-1');
  otherProfileId = await profile('Other client', 'client-2');
});
afterEach(() => resetClock());
afterAll(async () => {
  await t.close();
  await sandbox.close();
  await receiver.close();
});

describe('creating a reconnect link', () => {
  it("answers the link, the account and its profile, 30 minutes, and offers only the account's platform", async () => {
    const account = await connected('threads', { username: 'made_link' });
    const before = Date.now();
    const res = await createReconnectLink(account.id, { state: 'st-1' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['account_id', 'expires_at', 'profile_id', 'url']);
    expect(body.account_id).toBe(account.id);
    expect(body.profile_id).toBe(profileId);
    const expiresIn = Date.parse(body.expires_at) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000 + 5000);
    const url = new URL(body.url);
    expect(`${url.protocol}//${url.host}`).toBe('http://localhost');
    const token = url.pathname.replace('/connect/', '');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await linkRow(url.pathname);
    expect(stored).toMatchObject({
      profileId,
      accountId: account.id,
      platforms: ['threads'],
      redirectUrl: BACK,
      state: 'st-1',
      usedAt: null,
    });
    // Only the hash is kept.
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("takes a profile key of the account's profile; another profile, another owner or no such account is 404", async () => {
    const account = await connected('tiktok', { username: 'keyed_account' });
    const profileKey = await t.createProfileKey(owner.ownerId, profileId);
    const ok = await createReconnectLink(account.id, {}, auth(profileKey));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().account_id).toBe(account.id);

    const linksBefore = await t.database.db.select().from(connectLinks);
    const otherKey = await t.createProfileKey(owner.ownerId, otherProfileId);
    const stranger = await t.createOwner('Stranger agency');
    for (const headers of [auth(otherKey), auth(owner.key, 'client-2'), auth(stranger.key)]) {
      const res = await createReconnectLink(account.id, {}, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('account_not_found');
    }
    for (const id of ['acc_01jzzzzzzzzzzzzzzzzzzzzzzz', 'not-an-id']) {
      const res = await createReconnectLink(id);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('account_not_found');
    }
    expect(await t.database.db.select().from(connectLinks)).toEqual(linksBefore);
  });

  it('refuses an unregistered origin, a platforms list and an Idempotency-Key, storing nothing', async () => {
    const account = await connected('instagram', { username: 'picky_refusals' });
    const linksBefore = await t.database.db.select().from(connectLinks);
    const origin = await createReconnectLink(account.id, { redirect_url: 'https://elsewhere.example.com/back' });
    expect(origin.statusCode).toBe(422);
    expect(origin.json().error.code).toBe('redirect_origin_not_registered');
    const platforms = await createReconnectLink(account.id, { platforms: ['threads'] });
    expect(platforms.statusCode).toBe(400);
    expect(platforms.json().error.code).toBe('validation_failed');
    const keyed = await createReconnectLink(account.id, {}, { ...auth(owner.key), 'idempotency-key': 'k-1' });
    expect(keyed.statusCode).toBe(400);
    expect(keyed.json().error.code).toBe('idempotency_key_not_supported');
    expect(await t.database.db.select().from(connectLinks)).toEqual(linksBefore);
  });

  it('answers 422 platform_not_available for an account of a platform without credentials', async () => {
    const live = await startTestApp({
      PLATFORMS: 'live',
      INSTAGRAM_CLIENT_ID: 'id',
      INSTAGRAM_CLIENT_SECRET: 'secret',
    });
    try {
      const o = await live.createOwner();
      await live.app.inject({
        method: 'POST',
        url: '/v1/connect/redirect-origins',
        headers: auth(o.key),
        payload: { origin: 'https://app.example.com' },
      });
      const { saveConnectedAccount } = await import('../../src/modules/accounts/connections.ts');
      const { account } = await live.database.db.transaction((tx) =>
        saveConnectedAccount(tx, live.secretKey, {
          ownerId: o.ownerId,
          profileId: o.defaultProfileId,
          platform: 'threads',
          tokens: { accessToken: 'token', expiresAt: null, platformUserId: '1234567', scopes: ['threads_basic'] },
          profile: { id: '1234567', username: 'no_creds', name: null, avatarUrl: null, followersCount: null },
        }),
      );
      const res = await live.app.inject({
        method: 'POST',
        url: `/v1/accounts/${account.id}/reconnect-links`,
        headers: auth(o.key),
        payload: { redirect_url: BACK },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('platform_not_available');
    } finally {
      await live.close();
    }
  });
});

describe('completing a reconnect link', () => {
  it('reconnects an expired account: same id and profile, new tokens, connected, and account.connected with reconnected true', async () => {
    const account = await expire(await connected('instagram', { username: 'ada_shop' }), 'ada_shop');
    const countBefore = (await accountsOf(owner.ownerId)).length;
    const path = await reconnectLink(account.id, { state: 'back to <ada>' });

    // The page names the account and offers its platform alone.
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Reconnect your account to Agency</h1>');
    expect(page.body).toContain('This link reconnects <strong>@ada_shop (Ada Shop)</strong> on Instagram.');
    const buttons = [...page.body.matchAll(/href="([^"]+\/start\/[a-z]+)"/g)].map((m) => m[1]);
    expect(buttons).toEqual([`${path}/start/instagram`]);
    expect(page.body).toContain('>Reconnect Instagram</a>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect((await t.app.inject({ method: 'GET', url: `${path}/start/threads` })).statusCode).toBe(404);

    const since = new Date();
    const done = outcome(await walk(path, 'instagram', { username: 'ada_shop' }));
    expect(done).toEqual({
      status: 'connected',
      profile_id: profileId,
      account_ids: account.id,
      state: 'back to <ada>',
    });

    const row = await reload(account.id);
    expect(row).toMatchObject({ id: account.id, profileId, platform: 'instagram', status: 'connected' });
    expect(row.platformUserId).toBe(account.platformUserId);
    expect(row.createdAt).toEqual(account.createdAt);
    expect(row.connectedAt.getTime()).toBeGreaterThan(account.connectedAt.getTime());
    expect(row.accessTokenSealed).not.toBe(account.accessTokenSealed);
    expect(row.lastRefreshError).toBeNull();
    expect(await accountsOf(owner.ownerId)).toHaveLength(countBefore);
    // The new token is one the platform takes for that user; the service asked it who signed in.
    const me = await sandbox.adapter('instagram').profile(credentialsOf(t.secretKey, row));
    expect(me.username).toBe('ada_shop');
    const calls = await sandbox.calls('instagram', 'ada_shop', since);
    expect(calls.data.some((c) => c.method === 'GET' && /\/me$/.test(c.path))).toBe(true);

    const api = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(api.json()).toMatchObject({
      id: account.id,
      profile_id: profileId,
      status: 'connected',
      username: 'ada_shop',
    });

    // The audit log names the link as who reconnected the account, on the connect page, after the
    // owner's key made the link (and a connect link connected the account first).
    const audit = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-log?object_id=${account.id}`,
      headers: auth(owner.key),
    });
    expect(audit.json().data.map((e: { operation: string }) => e.operation)).toEqual([
      'GET /connect/callback/{platform}',
      'POST /v1/accounts/{id}/reconnect-links',
      'GET /connect/callback/{platform}',
    ]);
    expect(audit.json().data.slice(0, 1)).toMatchObject([
      {
        actor: { type: 'reconnect_link', id: (await linkRow(path)).id, name: null },
        via: 'connect_page',
        operation: 'GET /connect/callback/{platform}',
        object_id: account.id,
        profile_id: profileId,
        status: 303,
      },
    ]);

    const recorded = await connectedEvents(account.id);
    expect(recorded.map((e) => (e.data as { reconnected: boolean }).reconnected)).toEqual([false, true]);
    expect(recorded[1]?.profileId).toBe(profileId);

    // Delivered to the owner's webhook receiver, signed.
    await t.startWorker({ platforms: sandbox.platforms });
    try {
      const delivered = await eventually(async () =>
        receiver.received
          .map((r) => ({ r, body: JSON.parse(r.body.toString()) }))
          .find((d) => d.body.data.account.id === account.id && d.body.data.reconnected === true),
      );
      expect(verifyStandardWebhook(webhookSecret, delivered.r)).toMatchObject({ type: 'account.connected' });
      expect(delivered.body).toMatchObject({
        id: recorded[1]?.id,
        type: 'account.connected',
        profile_id: profileId,
        data: {
          reconnected: true,
          account: { id: account.id, profile_id: profileId, platform: 'instagram', status: 'connected' },
        },
      });
    } finally {
      await t.stopWorkers();
    }

    // Used: opening it again sends the client back with expired.
    expect((await linkRow(path)).usedAt).not.toBeNull();
    const again = await t.app.inject({ method: 'GET', url: path });
    expect(outcome(walked(again, ''))).toEqual({ status: 'error', error: 'expired', state: 'back to <ada>' });
  });

  it("keeps the new connection when a call made with the old token is refused after the reconnection; the new token's refusal ends it", async () => {
    const account = await expire(await connected('instagram', { username: 'late_call' }), 'late_call');
    const path = await reconnectLink(account.id);
    expect(outcome(await walk(path, 'instagram', { username: 'late_call' })).status).toBe('connected');
    const reconnected = await reload(account.id);

    // A job that read the account before the reconnection comes back with the old token's refusal.
    const oldRefusal = await refusalOf(account);
    expect(
      await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, oldRefusal, account.connectedAt)),
    ).toBeNull();
    expect(await reload(account.id)).toMatchObject({ status: 'connected', connectedAt: reconnected.connectedAt });

    // The same refusal of the token the reconnection gave ends the account.
    await sandbox.control('POST', '/tokens/expire', { platform: 'instagram', username: 'late_call' });
    const newRefusal = await refusalOf(reconnected);
    await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, newRefusal, reconnected.connectedAt));
    expect((await reload(account.id)).status).toBe('expired');
  });

  it('refuses a login of another platform user with account_mismatch: a page says so, nothing is stored or sent', async () => {
    const account = await connected('threads', { username: 'right_one' });
    const eventsBefore = await connectedEvents(account.id);
    const allBefore = await accountsOf(owner.ownerId);
    const path = await reconnectLink(account.id, { state: 'mm' });

    const wrong = await walk(path, 'threads', { username: 'wrong_one' });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toContain('<h1>This is not the account to reconnect</h1>');
    expect(wrong.body).toContain(
      'You signed in to Threads as <strong>@wrong_one (Wrong One)</strong>, but this link reconnects <strong>@right_one (Right One)</strong>. Nothing was changed.',
    );
    expect(hrefOf(wrong.body, 'Try again')).toBe(path);
    const back = new URL(hrefOf(wrong.body, 'Back to Agency'));
    expect(`${back.origin}${back.pathname}`).toBe(BACK);
    expect(Object.fromEntries(back.searchParams)).toEqual({ status: 'error', error: 'account_mismatch', state: 'mm' });

    expect(await accountsOf(owner.ownerId)).toEqual(allBefore);
    expect(await connectedEvents(account.id)).toEqual(eventsBefore);
    expect((await linkRow(path)).usedAt).toBeNull();

    // The link still works, for the right account.
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    const done = outcome(await walk(path, 'threads', { username: 'right_one' }));
    expect(done).toEqual({ status: 'connected', profile_id: profileId, account_ids: account.id, state: 'mm' });
    expect((await connectedEvents(account.id)).length).toBe(eventsBefore.length + 1);
    expect((await accountsOf(owner.ownerId)).some((a) => a.username === 'wrong_one')).toBe(false);
  });

  it('shows the names on the page as text', async () => {
    const account = await connected('tiktok', { username: 'markup_name' });
    await t.database.db
      .update(accounts)
      .set({ displayName: '<script>alert(1)</script> & "Co"' })
      .where(eq(accounts.id, account.id));
    const path = await reconnectLink(account.id);
    const page = await t.app.inject({ method: 'GET', url: path });
    const named = '@markup_name (<script>alert(1)</script> & "Co")';
    expect(textsOf(page.body, 'strong')).toEqual([named]);
    expect(tagsOf(page.body)).not.toContain('script');
    expect(page.body).not.toContain('<script>');
    const wrong = await walk(path, 'tiktok', { username: 'other_markup' });
    expect(wrong.status).toBe(409);
    expect(textsOf(wrong.body, 'strong')).toContain(named);
    expect(tagsOf(wrong.body)).not.toContain('script');
    expect(wrong.body).not.toContain('<script>');
  });

  it("on LinkedIn, reconnects the organization with the member's new tokens, and refuses a member who does not administer it", async () => {
    const connectPath = await connectLink();
    const afterLogin = await walk(connectPath, 'linkedin', { username: 'org_boss' });
    const choice = await t.app.inject({
      method: 'GET',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie },
    });
    // The member's own profile is offered first, then the organizations.
    const [self, orgId] = [...choice.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    expect(self).toMatch(/^urn:li:person:/);
    const chosen = await t.app.inject({
      method: 'POST',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['pages', orgId as string],
        ['decision', 'connect'],
      ]).toString(),
    });
    const org = await reload(outcome(walked(chosen, '')).account_ids as string);
    expect(org.platformUserId).toBe(orgId);
    const path = await reconnectLink(org.id, { state: 'li' });

    // Another member administers other organizations: not this one.
    const other = await walk(path, 'linkedin', { username: 'org_stranger' });
    expect(other.status).toBe(409);
    expect(other.body).toContain('which this link reconnects. Nothing was changed.');

    const done = outcome(await walk(path, 'linkedin', { username: 'org_boss' }));
    expect(done).toEqual({ status: 'connected', profile_id: profileId, account_ids: org.id, state: 'li' });
    const row = await reload(org.id);
    expect(row).toMatchObject({ status: 'connected', platformUserId: orgId });
    // The member's new 60-day token and its refresh token, not a page token that never ends.
    expect(row.accessTokenSealed).not.toBe(org.accessTokenSealed);
    expect(row.refreshTokenSealed).not.toBeNull();
    expect((row.tokenExpiresAt?.getTime() ?? 0) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    expect((await sandbox.adapter('linkedin').profile(credentialsOf(t.secretKey, row))).id).toBe(orgId);
  });

  it("on LinkedIn, reconnects the member's own profile with their new tokens; another member, or a login without w_member_social, is refused", async () => {
    const connectPath = await connectLink();
    const afterLogin = await walk(connectPath, 'linkedin', { username: 'self_boss' });
    const { body: member } = await sandbox.control('GET', '/users/linkedin/self_boss');
    const self = `urn:li:person:${member.id}`;
    const chosen = await t.app.inject({
      method: 'POST',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['pages', self],
        ['decision', 'connect'],
      ]).toString(),
    });
    const mine = await reload(outcome(walked(chosen, '')).account_ids as string);
    expect(mine).toMatchObject({ platformUserId: self, username: member.username, displayName: member.name });
    const path = await reconnectLink(mine.id, { state: 'li_self' });

    const other = await walk(path, 'linkedin', { username: 'self_stranger' });
    expect(other.status).toBe(409);
    expect(other.body).toContain('which this link reconnects. Nothing was changed.');
    // Without w_member_social the member's profile is not offered: nothing to reconnect it with.
    const granted = ['r_basicprofile', 'rw_organization_admin', 'r_organization_social', 'w_organization_social'];
    const withoutPosting = await walk(path, 'linkedin', { username: 'self_boss', granted });
    expect(withoutPosting.status).toBe(409);

    const done = outcome(await walk(path, 'linkedin', { username: 'self_boss' }));
    expect(done).toEqual({ status: 'connected', profile_id: profileId, account_ids: mine.id, state: 'li_self' });
    const row = await reload(mine.id);
    expect(row).toMatchObject({ status: 'connected', platformUserId: self, username: member.username });
    expect(row.accessTokenSealed).not.toBe(mine.accessTokenSealed);
    expect((row.tokenExpiresAt?.getTime() ?? 0) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    expect((await sandbox.adapter('linkedin').profile(credentialsOf(t.secretKey, row))).id).toBe(self);
  });

  it("on YouTube, reconnects an expired channel with the Google login's new tokens, and refuses a login that does not own it", async () => {
    const connectPath = await connectLink();
    const afterLogin = await walk(connectPath, 'youtube', { username: 'channel_boss' });
    const choice = await t.app.inject({
      method: 'GET',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie },
    });
    const [channelId] = [...choice.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    const chosen = await t.app.inject({
      method: 'POST',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['pages', channelId as string],
        ['decision', 'connect'],
      ]).toString(),
    });
    const channel = await reload(outcome(walked(chosen, '')).account_ids as string);
    expect(channel.platformUserId).toBe(channelId);
    // Google refused the refresh (invalid_grant): the account is expired until a new login.
    await t.database.db.update(accounts).set({ status: 'expired' }).where(eq(accounts.id, channel.id));
    const path = await reconnectLink(channel.id, { state: 'yt' });

    // Another Google user owns other channels: not this one.
    const other = await walk(path, 'youtube', { username: 'channel_stranger' });
    expect(other.status).toBe(409);
    expect(other.body).toContain('which this link reconnects. Nothing was changed.');

    const done = outcome(await walk(path, 'youtube', { username: 'channel_boss' }));
    expect(done).toEqual({ status: 'connected', profile_id: profileId, account_ids: channel.id, state: 'yt' });
    const row = await reload(channel.id);
    expect(row).toMatchObject({ status: 'connected', platformUserId: channelId });
    // The login's new hour-long token and a new refresh token.
    expect(row.accessTokenSealed).not.toBe(channel.accessTokenSealed);
    expect(row.refreshTokenSealed).not.toBeNull();
    expect(row.refreshTokenSealed).not.toBe(channel.refreshTokenSealed);
    const left = (row.tokenExpiresAt?.getTime() ?? 0) - Date.now();
    expect(left).toBeGreaterThan(3500_000);
    expect(left).toBeLessThanOrEqual(3599_000);
    expect((await sandbox.adapter('youtube').profile(credentialsOf(t.secretKey, row))).id).toBe(channelId);
  });

  it('on Facebook, reconnects the page when the login grants it, and refuses a login that does not', async () => {
    // Connected through a connect link, choosing the first page of three.
    const connectPath = await connectLink();
    const afterLogin = await walk(connectPath, 'facebook', { username: 'page_boss' });
    const choice = await t.app.inject({
      method: 'GET',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie },
    });
    const [pageId] = [...choice.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    const chosen = await t.app.inject({
      method: 'POST',
      url: `${connectPath}/pages`,
      headers: { cookie: afterLogin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['pages', pageId as string],
        ['decision', 'connect'],
      ]).toString(),
    });
    const page = await reload(outcome(walked(chosen, '')).account_ids as string);
    expect(page.platformUserId).toBe(pageId);
    const pageNumber = Number(/\.page(\d)$/.exec(page.username ?? '')?.[1]);
    const others = [1, 2, 3].filter((n) => n !== pageNumber);
    const before = await accountsOf(owner.ownerId);
    const eventsBefore = await connectedEvents(page.id);

    const path = await reconnectLink(page.id, { state: 'fb' });
    const link = await linkRow(path);
    expect(link.platforms).toEqual(['facebook']);

    // The login shares the other two pages only.
    const without = await walk(path, 'facebook', { username: 'page_boss', pages: others });
    expect(without.status).toBe(409);
    expect(without.body).toContain(
      `Your Facebook Pages login did not share <strong>@${page.username} (${page.displayName})</strong>, which this link reconnects. Nothing was changed.`,
    );
    const back = new URL(hrefOf(without.body, 'Back to Agency'));
    expect(Object.fromEntries(back.searchParams)).toEqual({ status: 'error', error: 'account_mismatch', state: 'fb' });
    // A login of no page at all lacks the permission a page needs, as on a connect link.
    expect(outcome(await walk(path, 'facebook', { username: 'page_boss', pages: [] }))).toEqual({
      status: 'error',
      error: 'permission_missing',
      state: 'fb',
    });
    expect(await accountsOf(owner.ownerId)).toEqual(before);
    expect(await connectedEvents(page.id)).toEqual(eventsBefore);

    // Sharing it (beside the others) reconnects that page at once: no choice, no other page added.
    const done = outcome(await walk(path, 'facebook', { username: 'page_boss', pages: [1, 2, 3] }));
    expect(done).toEqual({ status: 'connected', profile_id: profileId, account_ids: page.id, state: 'fb' });
    const after = await accountsOf(owner.ownerId);
    expect(after.map((a) => a.id).sort()).toEqual(before.map((a) => a.id).sort());
    const row = await reload(page.id);
    expect(row).toMatchObject({ status: 'connected', profileId, platformUserId: pageId, tokenExpiresAt: null });
    expect(row.accessTokenSealed).not.toBe(page.accessTokenSealed);
    expect((await sandbox.adapter('facebook').profile(credentialsOf(t.secretKey, row))).id).toBe(pageId);
    expect((await connectedEvents(page.id)).map((e) => (e.data as { reconnected: boolean }).reconnected)).toEqual([
      ...eventsBefore.map(() => false),
      true,
    ]);
    // No page token of the trips was kept.
    const trips = await t.database.db.select().from(connectAttempts).where(eq(connectAttempts.linkId, link.id));
    expect(trips.length).toBe(3);
    expect(trips.every((trip) => trip.grantSealed === null)).toBe(true);
  });

  it('is used once: a second completion gets expired and changes nothing', async () => {
    const account = await connected('threads', { username: 'twice_used' });
    const path = await reconnectLink(account.id, { state: 'once' });
    const first = await startTrip(path, 'threads');
    const second = await startTrip(path, 'threads');
    const [r1, r2] = await Promise.all([
      sandbox.decide(first.dialog, { username: 'twice_used' }),
      sandbox.decide(second.dialog, { username: 'twice_used' }),
    ]);
    expect(outcome(await callback(r1, first.cookie))).toEqual({
      status: 'connected',
      profile_id: profileId,
      account_ids: account.id,
      state: 'once',
    });
    const afterFirst = await reload(account.id);
    expect(outcome(await callback(r2, second.cookie))).toEqual({ status: 'error', error: 'expired', state: 'once' });
    expect(await reload(account.id)).toEqual(afterFirst);
    expect((await connectedEvents(account.id)).map((e) => (e.data as { reconnected: boolean }).reconnected)).toEqual([
      false,
      true,
    ]);
  });

  it('answers expired past 30 minutes, at every step, changing nothing', async () => {
    const account = await connected('tiktok', { username: 'too_late' });
    const path = await reconnectLink(account.id, { state: 'late' });
    const trip = await startTrip(path, 'tiktok');
    const redirect = await sandbox.decide(trip.dialog, { username: 'too_late' });
    advanceClock(30 * 60_000 + 1000);
    expect(outcome(await callback(redirect, trip.cookie))).toEqual({
      status: 'error',
      error: 'expired',
      state: 'late',
    });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(outcome(walked(page, ''))).toEqual({ status: 'error', error: 'expired', state: 'late' });
    expect(await reload(account.id)).toEqual(account);
    expect(await connectedEvents(account.id)).toHaveLength(1);
  });

  it('answers expired once the account moved to another profile, changing nothing', async () => {
    const account = await connected('instagram', { username: 'moving_away' });
    const path = await reconnectLink(account.id, { state: 'moved' });
    const trip = await startTrip(path, 'instagram');
    const redirect = await sandbox.decide(trip.dialog, { username: 'moving_away' });
    const move = await t.app.inject({
      method: 'POST',
      url: `/v1/accounts/${account.id}/move`,
      headers: auth(owner.key),
      payload: { profile_id: otherProfileId },
    });
    expect(move.statusCode).toBe(200);
    const moved = await reload(account.id);

    expect(outcome(await callback(redirect, trip.cookie))).toEqual({
      status: 'error',
      error: 'expired',
      state: 'moved',
    });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(outcome(walked(page, ''))).toEqual({ status: 'error', error: 'expired', state: 'moved' });
    expect(await reload(account.id)).toEqual(moved);
    expect(moved.profileId).toBe(otherProfileId);
    expect(await connectedEvents(account.id)).toHaveLength(1);
  });

  it("answers expired once the account's profile is being deleted, and the link goes with the account", async () => {
    const doomed = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name: 'Leaving client' },
      })
    ).json().id as string;
    const account = await connected('threads', { username: 'leaving_soon' }, doomed);
    const path = await reconnectLink(account.id, { state: 'gone' });
    // A link made while the account was in another profile, which it then left.
    const earlier = await connected('threads', { username: 'left_earlier' });
    const earlierPath = await reconnectLink(earlier.id);
    const move = await t.app.inject({
      method: 'POST',
      url: `/v1/accounts/${earlier.id}/move`,
      headers: auth(owner.key),
      payload: { profile_id: doomed },
    });
    expect(move.statusCode).toBe(200);

    const trip = await startTrip(path, 'threads');
    const redirect = await sandbox.decide(trip.dialog, { username: 'leaving_soon' });
    const deletion = await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${doomed}`, headers: auth(owner.key) });
    expect(deletion.statusCode).toBe(202);
    expect(outcome(await callback(redirect, trip.cookie))).toEqual({
      status: 'error',
      error: 'expired',
      state: 'gone',
    });
    expect(outcome(walked(await t.app.inject({ method: 'GET', url: path }), ''))).toEqual({
      status: 'error',
      error: 'expired',
      state: 'gone',
    });
    expect(await connectedEvents(account.id)).toHaveLength(1);

    // The deletion job deletes the accounts, and every link to reconnect one with them.
    expect(await completeProfileDeletion(t.deletionContext(), doomed)).toBe('deleted');
    for (const gone of [path, earlierPath]) {
      const res = await t.app.inject({ method: 'GET', url: gone });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('This link does not work');
    }
  });
});

describe("the plan's account limit", () => {
  it('needs no new slot for a connected or expired account; a disconnected one takes a free slot', async () => {
    const limited = await t.createOwner('Small agency');
    await t.database.db.update(owners).set({ accountLimit: 1 }).where(eq(owners.id, limited.ownerId));
    await t.app.inject({
      method: 'POST',
      url: '/v1/connect/redirect-origins',
      headers: auth(limited.key),
      payload: { origin: 'https://app.example.com' },
    });
    const link = async (path: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: auth(limited.key),
        payload: { redirect_url: BACK },
      });
      expect(res.statusCode, res.body).toBe(201);
      return new URL(res.json().url).pathname;
    };
    const newLink = () => link(`/v1/profiles/${limited.defaultProfileId}/connect-links`);
    const reconnect = (id: string) => link(`/v1/accounts/${id}/reconnect-links`);

    const first = outcome(await walk(await newLink(), 'instagram', { username: 'the_only_one' }));
    const accountId = first.account_ids as string;
    // Expired, it holds its slot: the plan is full, and the reconnection fits all the same.
    await t.database.db.transaction((tx) => endAccountAccess(tx, accountId, 'expired', 'test'));
    expect(outcome(await walk(await reconnect(accountId), 'instagram', { username: 'the_only_one' }))).toEqual({
      status: 'connected',
      profile_id: limited.defaultProfileId,
      account_ids: accountId,
    });
    expect((await reload(accountId)).status).toBe('connected');

    // Disconnected, it holds none, and another account took the slot.
    const disconnected = await t.app.inject({
      method: 'DELETE',
      url: `/v1/accounts/${accountId}`,
      headers: auth(limited.key),
    });
    expect(disconnected.json().status).toBe('disconnected');
    const other = outcome(await walk(await newLink(), 'instagram', { username: 'took_the_slot' }));
    const path = await reconnect(accountId);
    const before = await accountsOf(limited.ownerId);
    expect(outcome(await walk(path, 'instagram', { username: 'the_only_one' }))).toEqual({
      status: 'error',
      error: 'plan_account_limit',
    });
    expect(await accountsOf(limited.ownerId)).toEqual(before);

    // Once the slot is free again, the same link brings it back.
    await t.app.inject({ method: 'DELETE', url: `/v1/accounts/${other.account_ids}`, headers: auth(limited.key) });
    expect(outcome(await walk(path, 'instagram', { username: 'the_only_one' })).status).toBe('connected');
    expect((await reload(accountId)).status).toBe('connected');
  });
});
