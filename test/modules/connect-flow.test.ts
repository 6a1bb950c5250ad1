import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { endAccountAccess, noteAccountFailure } from '../../src/modules/accounts/access.ts';
import { credentialsOf } from '../../src/modules/accounts/connections.ts';
import { type Platform, PlatformError } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { tagsOf, textsOf } from '../helpers/html.ts';
import { type DialogChoice, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { accounts, connectLinks, events, owners } from '../helpers/tables.ts';

/**
 * The connect flow over HTTP, as a browser walks it: the link's page, the trip to the
 * sandbox's permission page, our callback, and the redirect to the owner's application.
 * (test/browser/ walks the same in a real browser.)
 */

const BACK = 'https://app.example.com/connected';

let t: TestApp;
let sandbox: TestSandbox;
let owner: TestOwner;
let profileId: string;

interface Walk {
  /** Where the flow ended: the owner's redirect URL with the outcome, or one of our pages. */
  status: number;
  location: URL | null;
  body: string;
  cookie: string;
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return first?.split(';')[0] ?? '';
}

function outcome(walk: Walk): Record<string, string> {
  expect(walk.status).toBe(303);
  expect(walk.location?.origin).toBe('https://app.example.com');
  return Object.fromEntries(walk.location?.searchParams ?? []);
}

async function newLink(body: Record<string, unknown> = {}, profile = profileId, key = owner.key) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/profiles/${profile}/connect-links`,
    headers: auth(key),
    payload: { redirect_url: BACK, ...body },
  });
  expect(res.statusCode).toBe(201);
  return new URL(res.json().url).pathname;
}

/** Opens the link, clicks a platform, walks the sandbox page, and follows the redirect to our callback. */
async function startTrip(linkPath: string, platform: Platform) {
  const start = await t.app.inject({ method: 'GET', url: `${linkPath}/start/${platform}` });
  expect(start.statusCode).toBe(303);
  return { dialog: String(start.headers.location), cookie: cookieOf(start.headers['set-cookie']) };
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

async function choosePages(linkPath: string, cookie: string, form: string): Promise<Walk> {
  const res = await t.app.inject({
    method: 'POST',
    url: `${linkPath}/pages`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form,
  });
  return walked(res, cookie);
}

async function accountsOf(ownerId: string) {
  return await t.database.db.select().from(accounts).where(eq(accounts.ownerId, ownerId));
}

async function eventsOf(ownerId: string, type: string) {
  return await t.database.db
    .select()
    .from(events)
    .where(and(eq(events.ownerId, ownerId), eq(events.type, type)));
}

async function newProfile(name: string, externalId?: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: auth(owner.key),
    payload: { name, ...(externalId ? { external_id: externalId } : {}) },
  });
  return res.json().id;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { platforms: sandbox.platforms });
  owner = await t.createOwner('Agency');
  await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: 'https://app.example.com' },
  });
  profileId = await newProfile('Client', 'client-1');
});
afterEach(() => resetClock());
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

describe('the connect page', () => {
  it('shows the brand name as text, one button per allowed platform, under a strict policy', async () => {
    await t.app.inject({
      method: 'PATCH',
      url: '/v1/connect/settings',
      headers: auth(owner.key),
      payload: { brand_name: '<script>alert(1)</script> & Co' },
    });
    const path = await newLink({ platforms: ['threads', 'instagram'] });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(textsOf(page.body, 'h1')).toEqual(['Connect your account to <script>alert(1)</script> & Co']);
    expect(textsOf(page.body, 'title')).toEqual(['Connect your account to <script>alert(1)</script> & Co']);
    expect(tagsOf(page.body)).not.toContain('script');
    expect(page.body).not.toContain('<script>');
    const buttons = [...page.body.matchAll(/href="([^"]+\/start\/[a-z]+)"/g)].map((m) => m[1]);
    expect(buttons).toEqual([`${path}/start/instagram`, `${path}/start/threads`]);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('name="viewport"');
    // A platform the link does not offer cannot be started.
    const other = await t.app.inject({ method: 'GET', url: `${path}/start/tiktok` });
    expect(other.statusCode).toBe(404);
    await t.app.inject({
      method: 'PATCH',
      url: '/v1/connect/settings',
      headers: auth(owner.key),
      payload: { brand_name: null },
    });
    expect((await t.app.inject({ method: 'GET', url: path })).body).toContain('Connect your account to Agency');
  });

  it('answers an unknown or malformed token with a 404 page', async () => {
    for (const url of [`/connect/${'A'.repeat(43)}`, '/connect/short', `/connect/${'A'.repeat(43)}/start/instagram`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
    }
  });
});

describe('completing a link', () => {
  it('connects the account, uses the link, emits account.connected and returns state unchanged', async () => {
    const state = 'a b&c=d/é?#';
    const path = await newLink({ state });
    const done = outcome(await walk(path, 'instagram', { username: 'ada_shop' }));
    const [account] = (await accountsOf(owner.ownerId)).filter((a) => a.username === 'ada_shop');
    expect(done).toEqual({ status: 'connected', profile_id: profileId, account_ids: account?.id, state });
    expect(account).toMatchObject({ profileId, platform: 'instagram', status: 'connected' });
    const [event] = (await eventsOf(owner.ownerId, 'account.connected')).filter(
      (e) => (e.data as { account: { id: string } }).account.id === account?.id,
    );
    expect(event?.profileId).toBe(profileId);
    expect(event?.data).toMatchObject({ reconnected: false, account: { id: account?.id, status: 'connected' } });
    const [link] = await t.database.db
      .select()
      .from(connectLinks)
      .where(eq(connectLinks.accountIds, [account?.id ?? '']));
    expect(link?.usedAt).not.toBeNull();
    // The audit log names the link as who connected the account, on the connect page.
    const audit = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-log?actor_id=${link?.id}`,
      headers: auth(owner.key),
    });
    expect(audit.json().data).toMatchObject([
      {
        actor: { type: 'connect_link', id: link?.id, name: null },
        via: 'connect_page',
        operation: 'GET /connect/callback/{platform}',
        object_id: account?.id,
        profile_id: profileId,
        status: 303,
      },
    ]);

    // The API shows it to the profile.
    const listed = await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: auth(owner.key, 'client-1') });
    expect(listed.json().data.map((a: { id: string }) => a.id)).toContain(account?.id);

    // Used once: opening it again, or finishing a second trip, ends with expired.
    const again = await t.app.inject({ method: 'GET', url: path });
    expect(again.statusCode).toBe(303);
    expect(Object.fromEntries(new URL(String(again.headers.location)).searchParams)).toEqual({
      status: 'error',
      error: 'expired',
      state,
    });
  });

  it('omits state when the link has none, and the link stays valid after a cancel', async () => {
    const path = await newLink();
    expect(outcome(await walk(path, 'threads', { username: 'canceller', cancel: true }))).toEqual({
      status: 'error',
      error: 'access_denied',
    });
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    expect(outcome(await walk(path, 'threads', { username: 'canceller' })).status).toBe('connected');
  });

  it('gives permission_missing when a required permission is unticked, connecting nothing', async () => {
    const before = (await accountsOf(owner.ownerId)).length;
    const path = await newLink({ state: 's1' });
    // Everything but instagram_business_basic, which every Instagram call needs.
    const granted = [
      'instagram_business_content_publish',
      'instagram_business_manage_comments',
      'instagram_business_manage_insights',
    ];
    expect(outcome(await walk(path, 'instagram', { username: 'stingy', granted }))).toEqual({
      status: 'error',
      error: 'permission_missing',
      state: 's1',
    });
    expect(await accountsOf(owner.ownerId)).toHaveLength(before);
    // An optional permission may be left out.
    const withoutOptional = [
      'instagram_business_basic',
      'instagram_business_manage_comments',
      'instagram_business_manage_insights',
    ];
    const done = outcome(await walk(path, 'instagram', { username: 'stingy', granted: withoutOptional }));
    expect(done.status).toBe('connected');
    const [account] = (await accountsOf(owner.ownerId)).filter((a) => a.username === 'stingy');
    expect(account?.scopes.sort()).toEqual([...withoutOptional].sort());
  });

  it('gives permission_missing when every permission is unticked on Instagram, connecting nothing', async () => {
    const before = (await accountsOf(owner.ownerId)).length;
    const path = await newLink({ state: 'none' });
    expect(outcome(await walk(path, 'instagram', { username: 'grants_nothing', granted: [] }))).toEqual({
      status: 'error',
      error: 'permission_missing',
      state: 'none',
    });
    expect(await accountsOf(owner.ownerId)).toHaveLength(before);
  });

  it('gives permission_missing when threads_basic is unticked on Threads, where only /me can tell', async () => {
    const path = await newLink({ state: 'th' });
    const granted = ['threads_content_publish', 'threads_read_replies'];
    expect(outcome(await walk(path, 'threads', { username: 'no_basic', granted }))).toEqual({
      status: 'error',
      error: 'permission_missing',
      state: 'th',
    });
  });

  it('connects every chosen Facebook page as its own account', async () => {
    const path = await newLink({ state: 'fb' });
    const afterLogin = await walk(path, 'facebook', { username: 'page_owner', pages: [1, 2, 3] });
    expect(afterLogin.status).toBe(303);
    expect(afterLogin.location?.pathname).toBe(`${path}/pages`);
    const page = await t.app.inject({ method: 'GET', url: `${path}/pages`, headers: { cookie: afterLogin.cookie } });
    expect(page.statusCode).toBe(200);
    const ids = [...page.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    expect(ids).toHaveLength(3);
    expect(String(page.headers['content-security-policy'])).toContain("form-action 'self' https://app.example.com");

    // None chosen: the page asks again; nothing is connected.
    const none = await choosePages(path, afterLogin.cookie, 'decision=connect');
    expect(none.status).toBe(422);
    expect(none.body).toContain('Choose at least one page.');

    const form = new URLSearchParams([
      ['pages', ids[0] as string],
      ['pages', ids[2] as string],
      ['decision', 'connect'],
    ]);
    const done = outcome(await choosePages(path, afterLogin.cookie, form.toString()));
    const pages = (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'facebook');
    expect(pages.map((a) => a.platformUserId).sort()).toEqual([ids[0], ids[2]].sort());
    expect(done.account_ids?.split(',').sort()).toEqual(pages.map((a) => a.id).sort());
    expect(pages.every((a) => a.tokenExpiresAt === null && a.profileId === profileId)).toBe(true);
    // An entry per account connected, each naming the link and the page choice that made it.
    const [link] = await t.database.db
      .select()
      .from(connectLinks)
      .where(eq(connectLinks.accountIds, done.account_ids?.split(',') ?? []));
    const audit = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-log?actor_id=${link?.id}`,
      headers: auth(owner.key),
    });
    const entries: { object_id: string }[] = audit.json().data;
    expect(entries.map((e) => e.object_id).sort()).toEqual(pages.map((a) => a.id).sort());
    for (const entry of entries) {
      expect(entry).toMatchObject({
        actor: { type: 'connect_link', id: link?.id },
        operation: 'POST /connect/{token}/pages',
      });
    }
  });

  it("connects the member's own profile and each chosen LinkedIn organization as accounts of their own, acted on with the member's 60-day token and its year-long refresh token", async () => {
    const path = await newLink({ state: 'li' });
    const before = Date.now();
    const afterLogin = await walk(path, 'linkedin', { username: 'org_admin' });
    expect(afterLogin.location?.pathname).toBe(`${path}/pages`);
    const page = await t.app.inject({ method: 'GET', url: `${path}/pages`, headers: { cookie: afterLogin.cookie } });
    const ids = [...page.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    const { body: member } = await sandbox.control('GET', '/users/linkedin/org_admin');
    // The member's own profile first (the login granted w_member_social), then the two
    // organizations the sandbox member administers, each offered by its name.
    const self = `urn:li:person:${member.id}`;
    expect(ids).toEqual([self, ...member.pages.map((p: { id: string }) => p.id)]);
    const labels = textsOf(page.body, 'label').join(' ');
    expect(labels).toContain(member.name);
    for (const org of member.pages) expect(labels).toContain(org.name);

    const form = new URLSearchParams([
      ['pages', self],
      ['pages', ids[2] as string],
      ['decision', 'connect'],
    ]);
    const done = outcome(await choosePages(path, afterLogin.cookie, form.toString()));
    expect(done).toMatchObject({ status: 'connected', state: 'li' });
    const linked = (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'linkedin');
    expect(linked.map((a) => a.platformUserId).sort()).toEqual([self, ids[2]].sort());
    const after = Date.now();
    const days = (at: Date | null | undefined) => ((at?.getTime() ?? 0) - (before + after) / 2) / 86_400_000;
    for (const account of linked) {
      expect(account).toMatchObject({ profileId, status: 'connected' });
      expect(days(account.tokenExpiresAt)).toBeCloseTo(60, 2);
      expect(account.refreshTokenSealed).not.toBeNull();
      expect(days(account.refreshExpiresAt)).toBeCloseTo(365, 2);
    }
    const mine = linked.find((a) => a.platformUserId === self);
    const organization = linked.find((a) => a.platformUserId === ids[2]);
    // Each is its own account: the member's under their name and vanity name, the organization's under its own.
    expect(mine).toMatchObject({ displayName: member.name, username: member.username });
    expect(organization).toMatchObject({ displayName: member.pages[1].name, username: member.pages[1].username });
    const res = await t.app.inject({ method: 'GET', url: `/v1/accounts/${mine?.id}`, headers: auth(owner.key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ platform: 'linkedin', username: member.username, display_name: member.name });
  });

  it('gives permission_missing when a LinkedIn member does not grant the organization permission, or their own profile', async () => {
    const path = await newLink();
    for (const granted of [
      ['r_basicprofile', 'w_organization_social'],
      ['rw_organization_admin', 'w_organization_social'],
    ]) {
      expect(outcome(await walk(path, 'linkedin', { username: 'li_no_admin', granted })).error).toBe(
        'permission_missing',
      );
    }
    expect((await accountsOf(owner.ownerId)).filter((a) => a.username?.startsWith('li_no_admin'))).toEqual([]);
  });

  it("connects each chosen YouTube channel as its own account, acted on with the Google login's hour-long token and its refresh token", async () => {
    const path = await newLink({ state: 'yt' });
    const before = Date.now();
    const afterLogin = await walk(path, 'youtube', { username: 'channel_owner' });
    expect(afterLogin.location?.pathname).toBe(`${path}/pages`);
    const page = await t.app.inject({ method: 'GET', url: `${path}/pages`, headers: { cookie: afterLogin.cookie } });
    const ids = [...page.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    const { body: user } = await sandbox.control('GET', '/users/youtube/channel_owner');
    // The sandbox's Google user's grant reaches one channel, offered by its title.
    expect(ids).toEqual(user.pages.map((p: { id: string }) => p.id));
    for (const channel of user.pages) expect(textsOf(page.body, 'label').join(' ')).toContain(channel.name);

    const form = new URLSearchParams([
      ['pages', ids[0] as string],
      ['decision', 'connect'],
    ]);
    const done = outcome(await choosePages(path, afterLogin.cookie, form.toString()));
    expect(done).toMatchObject({ status: 'connected', state: 'yt' });
    const [account, ...others] = (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'youtube');
    expect(others).toEqual([]);
    expect(account).toMatchObject({ platformUserId: ids[0], profileId, status: 'connected' });
    const after = Date.now();
    // "expires_in": 3599; a refresh token that ends on no date.
    const seconds = ((account?.tokenExpiresAt?.getTime() ?? 0) - (before + after) / 2) / 1000;
    expect(Math.abs(seconds - 3599)).toBeLessThan((after - before) / 1000 + 1);
    expect(account?.refreshTokenSealed).not.toBeNull();
    expect(account?.refreshExpiresAt).toBeNull();
    const profile = await sandbox
      .adapter('youtube')
      .profile(credentialsOf(t.secretKey, account as typeof accounts.$inferSelect));
    expect(profile).toMatchObject({ id: ids[0], name: user.pages[0].name });
  });

  it('connects each Business Profile location the client chooses as its own account, named accounts/{a}/locations/{l}', async () => {
    const path = await newLink({ state: 'gbp' });
    const afterLogin = await walk(path, 'google_business', { username: 'location_owner' });
    expect(afterLogin.location?.pathname).toBe(`${path}/pages`);
    const page = await t.app.inject({ method: 'GET', url: `${path}/pages`, headers: { cookie: afterLogin.cookie } });
    const ids = [...page.body.matchAll(/name="pages" value="([^"]+)"/g)].map((m) => m[1] as string);
    const { body: user } = await sandbox.control('GET', '/users/google_business/location_owner');
    // The Google user's two locations, offered by their titles.
    expect(ids).toEqual(user.pages.map((p: { id: string }) => p.id));
    expect(ids).toHaveLength(2);
    for (const location of user.pages) expect(textsOf(page.body, 'label').join(' ')).toContain(location.name);

    // The client chooses the second location only.
    const form = new URLSearchParams([
      ['pages', ids[1] as string],
      ['decision', 'connect'],
    ]);
    expect(outcome(await choosePages(path, afterLogin.cookie, form.toString()))).toMatchObject({
      status: 'connected',
      state: 'gbp',
    });
    const connected = (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'google_business');
    expect(connected.map((a) => [a.platformUserId, a.displayName, a.status])).toEqual([
      [ids[1], user.pages[1].name, 'connected'],
    ]);
    expect(connected[0]?.platformUserId).toMatch(new RegExp(`^accounts/${user.id}/locations/\\d+$`));
    expect(connected[0]?.refreshTokenSealed).not.toBeNull();
  });

  it('gives permission_missing when a Google user unticks business.manage, without which no location can be read', async () => {
    const path = await newLink();
    const locations = async () => (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'google_business');
    const before = await locations();
    expect(outcome(await walk(path, 'google_business', { username: 'gbp_no_scope', granted: [] })).error).toBe(
      'permission_missing',
    );
    expect(await locations()).toEqual(before);
  });

  it('gives permission_missing when a Google user unticks youtube.force-ssl, without which no channel can be read', async () => {
    const path = await newLink();
    const granted = [
      'https://www.googleapis.com/auth/youtube.upload',
      'https://www.googleapis.com/auth/yt-analytics.readonly',
    ];
    expect(outcome(await walk(path, 'youtube', { username: 'yt_no_channel_scope', granted })).error).toBe(
      'permission_missing',
    );
    expect(
      (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'youtube' && a.username?.includes('yt_no')),
    ).toEqual([]);
  });

  it('connects an X account through PKCE: a 2-hour token and its refresh token kept; without offline.access, permission_missing', async () => {
    const path = await newLink({ state: 'x' });
    const before = Date.now();
    const done = outcome(await walk(path, 'x', { username: 'x_flow' }));
    expect(done).toMatchObject({ status: 'connected', state: 'x' });
    const [account] = (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'x');
    const { body: user } = await sandbox.control('GET', '/users/x/x_flow');
    expect(account).toMatchObject({ platformUserId: user.id, username: 'x_flow', status: 'connected' });
    const hours = ((account?.tokenExpiresAt?.getTime() ?? 0) - before) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2.01);
    expect(account?.refreshTokenSealed).not.toBeNull();
    const again = await newLink();
    const granted = ['tweet.read', 'tweet.write', 'users.read', 'media.write'];
    expect(outcome(await walk(again, 'x', { username: 'x_offline', granted })).error).toBe('permission_missing');
  });

  it('connects a Pinterest account: a 30-day token and a 60-day refresh token kept; without user_accounts:read, permission_missing; declined, access_denied', async () => {
    const path = await newLink({ state: 'pin' });
    const before = Date.now();
    const done = outcome(await walk(path, 'pinterest', { username: 'pin_flow' }));
    expect(done).toMatchObject({ status: 'connected', state: 'pin' });
    const [account] = (await accountsOf(owner.ownerId)).filter((a) => a.platform === 'pinterest');
    const { body: user } = await sandbox.control('GET', '/users/pinterest/pin_flow');
    expect(account).toMatchObject({ platformUserId: user.id, username: 'pin_flow', status: 'connected' });
    const days = (end: Date | null | undefined) => ((end?.getTime() ?? 0) - before) / 86_400_000;
    expect(days(account?.tokenExpiresAt)).toBeGreaterThan(29.99);
    expect(days(account?.tokenExpiresAt)).toBeLessThanOrEqual(30.01);
    expect(days(account?.refreshExpiresAt)).toBeGreaterThan(59.99);
    expect(days(account?.refreshExpiresAt)).toBeLessThanOrEqual(60.01);
    expect(account?.refreshTokenSealed).not.toBeNull();
    const again = await newLink();
    const granted = ['boards:read', 'boards:write', 'pins:read', 'pins:write'];
    expect(outcome(await walk(again, 'pinterest', { username: 'pin_noaccount', granted })).error).toBe(
      'permission_missing',
    );
    const declined = await newLink();
    expect(outcome(await walk(declined, 'pinterest', { username: 'pin_declines', cancel: true })).error).toBe(
      'access_denied',
    );
  });

  it('cancels on the page choice with access_denied', async () => {
    const path = await newLink();
    const afterLogin = await walk(path, 'facebook', { username: 'page_canceller' });
    expect(outcome(await choosePages(path, afterLogin.cookie, 'decision=cancel'))).toEqual({
      status: 'error',
      error: 'access_denied',
    });
  });

  it('gives permission_missing for a Facebook login that grants no page', async () => {
    const path = await newLink();
    expect(outcome(await walk(path, 'facebook', { username: 'no_pages', pages: [] })).error).toBe('permission_missing');
  });

  it('answers expired once 30 minutes have passed, at every step', async () => {
    const path = await newLink({ state: 'late' });
    const trip = await startTrip(path, 'tiktok');
    const redirect = await sandbox.decide(trip.dialog, { username: 'slowpoke' });
    advanceClock(30 * 60_000 + 1000);
    expect(outcome(await callback(redirect, trip.cookie))).toEqual({
      status: 'error',
      error: 'expired',
      state: 'late',
    });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(new URL(String(page.headers.location)).searchParams.get('error')).toBe('expired');
    expect((await accountsOf(owner.ownerId)).some((a) => a.username === 'slowpoke')).toBe(false);
  });

  it('lets exactly one of two simultaneous completions use the link', async () => {
    const path = await newLink();
    const first = await startTrip(path, 'threads');
    const second = await startTrip(path, 'threads');
    const [r1, r2] = await Promise.all([
      sandbox.decide(first.dialog, { username: 'racer_one' }),
      sandbox.decide(second.dialog, { username: 'racer_two' }),
    ]);
    // Both trips come back in the same browser, each with its own cookie value.
    const results = await Promise.all([callback(r1, first.cookie), callback(r2, second.cookie)]);
    const statuses = results.map((r) => outcome(r).status === 'connected' || outcome(r).error).sort();
    expect(statuses).toEqual([true, 'expired'].sort());
    const racers = (await accountsOf(owner.ownerId)).filter((a) => a.username?.startsWith('racer_'));
    expect(racers).toHaveLength(1);
  });

  it('refuses a callback that did not start in this browser, connecting nothing', async () => {
    const path = await newLink();
    const trip = await startTrip(path, 'instagram');
    const redirect = await sandbox.decide(trip.dialog, { username: 'victim' });
    // No cookie, a cookie of another trip, a forged state.
    const other = await startTrip(await newLink(), 'instagram');
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'B'.repeat(43));
    for (const [url, cookie] of [
      [redirect, ''],
      [redirect, other.cookie],
      [forged, trip.cookie],
    ] as const) {
      const res = await callback(url, cookie);
      expect(res.status).toBe(400);
      expect(res.body).toContain('could not be confirmed');
    }
    expect((await accountsOf(owner.ownerId)).some((a) => a.username === 'victim')).toBe(false);
    // The genuine browser still completes it.
    expect(outcome(await callback(redirect, trip.cookie)).status).toBe('connected');
  });

  it('shows a retry page when the platform fails, and the link stays valid', async () => {
    const path = await newLink();
    const trip = await startTrip(path, 'instagram');
    const redirect = await sandbox.decide(trip.dialog, { username: 'unlucky' });
    const fault = await sandbox.control('POST', '/faults', {
      platform: 'instagram',
      username: 'unlucky',
      error: 'transient',
    });
    expect(fault.status).toBeLessThan(300);
    const res = await callback(redirect, trip.cookie);
    expect(res.status).toBe(502);
    expect(res.body).toContain(`href="${path}"`);
    expect(outcome(await walk(path, 'instagram', { username: 'unlucky' })).status).toBe('connected');
  });
});

describe('account rules', () => {
  it('reconnects an account in the same profile: tokens replaced, reconnected true, status restored', async () => {
    const first = outcome(await walk(await newLink(), 'threads', { username: 'returning' }));
    const accountId = first.account_ids as string;
    await t.database.db.transaction((tx) => endAccountAccess(tx, accountId, 'expired', 'test'));
    const [expired] = await t.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(expired?.status).toBe('expired');

    const again = outcome(await walk(await newLink(), 'threads', { username: 'returning' }));
    expect(again.account_ids).toBe(accountId);
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(row?.status).toBe('connected');
    expect(row?.accessTokenSealed).not.toBe(expired?.accessTokenSealed);
    const reconnects = (await eventsOf(owner.ownerId, 'account.connected')).filter(
      (e) => (e.data as { account: { id: string } }).account.id === accountId,
    );
    expect(reconnects.map((e) => (e.data as { reconnected: boolean }).reconnected)).toEqual([false, true]);
  });

  it('refuses an account already in another profile of the owner, changing nothing', async () => {
    outcome(await walk(await newLink(), 'tiktok', { username: 'taken' }));
    const other = await newProfile('Other client');
    const before = await accountsOf(owner.ownerId);
    const path = await newLink({ state: 'x' }, other);
    expect(outcome(await walk(path, 'tiktok', { username: 'taken' }))).toEqual({
      status: 'error',
      error: 'account_in_other_profile',
      state: 'x',
    });
    expect(await accountsOf(owner.ownerId)).toEqual(before);
    // The link stays valid for another account.
    expect(outcome(await walk(path, 'tiktok', { username: 'fresh_one' })).status).toBe('connected');
  });

  it("gives plan_account_limit when the owner's plan is full; a reconnection still fits", async () => {
    const limited = await t.createOwner('Small agency');
    await t.database.db.update(owners).set({ accountLimit: 1 }).where(eq(owners.id, limited.ownerId));
    await t.app.inject({
      method: 'POST',
      url: '/v1/connect/redirect-origins',
      headers: auth(limited.key),
      payload: { origin: 'https://app.example.com' },
    });
    const link = () => newLink({}, limited.defaultProfileId, limited.key);
    expect(outcome(await walk(await link(), 'instagram', { username: 'only_one' })).status).toBe('connected');
    const path = await link();
    expect(outcome(await walk(path, 'instagram', { username: 'one_too_many' })).error).toBe('plan_account_limit');
    expect(await accountsOf(limited.ownerId)).toHaveLength(1);
    expect(outcome(await walk(path, 'instagram', { username: 'only_one' })).status).toBe('connected');
    // A disconnected account frees its slot.
    const [only] = await accountsOf(limited.ownerId);
    const disconnected = await t.app.inject({
      method: 'DELETE',
      url: `/v1/accounts/${only?.id}`,
      headers: auth(limited.key),
    });
    expect(disconnected.statusCode).toBe(200);
    expect(outcome(await walk(await link(), 'instagram', { username: 'one_too_many' })).status).toBe('connected');
  });
});

describe('account lifecycle', () => {
  async function connected(platform: Platform, username: string) {
    const done = outcome(await walk(await newLink(), platform, { username }));
    const [row] = await t.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, done.account_ids as string));
    if (!row) throw new Error('no account');
    return row;
  }

  async function callAs(account: typeof accounts.$inferSelect) {
    const adapter = sandbox.adapter(account.platform as Platform);
    try {
      await adapter.profile(credentialsOf(t.secretKey, account));
      return null;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      return await t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, error, undefined));
    }
  }

  it('a platform saying the token ran out makes the account expired, with account.expired; a new link restores it', async () => {
    const account = await connected('instagram', 'runs_out');
    await sandbox.control('POST', '/tokens/expire', { platform: 'instagram', username: 'runs_out' });
    expect((await callAs(account))?.status).toBe('expired');
    const events = await eventsOf(owner.ownerId, 'account.expired');
    expect(events.filter((e) => (e.data as { account: { id: string } }).account.id === account.id)).toHaveLength(1);
    const listed = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(listed.json().status).toBe('expired');

    await connected('instagram', 'runs_out');
    const again = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(again.json().status).toBe('connected');
    expect(await callAs({ ...account, ...(await reload(account.id)) })).toBeNull();
  });

  it('revoked access makes the account disconnected, with account.disconnected, its tokens deleted', async () => {
    const account = await connected('threads', 'leaves_app');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'threads', username: 'leaves_app' });
    const ended = await callAs(account);
    expect(ended?.status).toBe('disconnected');
    expect(ended?.accessTokenSealed).toBeNull();
    const events = await eventsOf(owner.ownerId, 'account.disconnected');
    expect(events.filter((e) => (e.data as { account: { id: string } }).account.id === account.id)).toHaveLength(1);
    // Nothing may act as it any more.
    expect(() => credentialsOf(t.secretKey, ended as typeof account)).toThrow(PlatformError);
  });

  it('a passing failure leaves the account connected', async () => {
    const account = await connected('threads', 'bad_day');
    await sandbox.control('POST', '/faults', { platform: 'threads', username: 'bad_day', error: 'transient' });
    expect(await callAs(account)).toBeNull();
    expect((await reload(account.id)).status).toBe('connected');
  });
});

async function reload(id: string) {
  const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
  if (!row) throw new Error(`no account ${id}`);
  return row;
}
