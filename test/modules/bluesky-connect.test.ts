import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { refreshAccountToken } from '../../src/modules/accounts/token-refresh.ts';
import { createPlatforms } from '../../src/platforms/index.ts';
import { permissionForm } from '../../src/sandbox/permission-form.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { accounts, events, owners } from '../helpers/tables.ts';

/**
 * Connecting a Bluesky account through the hosted page, over real HTTP: the service listens (its
 * client metadata document is read by the sandbox's authorization server at its PUBLIC_URL) and
 * serves the sandbox itself.
 */

const BACK = 'https://app.example.com/connected';

let t: TestApp;
let owner: TestOwner;
let dispatcher: Agent;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { listen: true });
  dispatcher = new Agent();
  owner = await t.createOwner('Agency');
  await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: 'https://app.example.com' },
  });
});
afterEach(() => resetClock());
afterAll(async () => {
  await dispatcher.close();
  await t.close();
});

async function get(url: string, cookie = '') {
  const res = await request(url, { dispatcher, headers: cookie ? { cookie } : {} });
  const body = await res.body.text();
  const location = res.headers.location;
  return {
    status: res.statusCode,
    body,
    location: typeof location === 'string' ? new URL(location, url) : null,
    headers: res.headers,
  };
}

async function newLink(profileId = owner.defaultProfileId, key = owner.key, accountId?: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url:
      accountId === undefined ? `/v1/profiles/${profileId}/connect-links` : `/v1/accounts/${accountId}/reconnect-links`,
    headers: auth(key),
    payload: { redirect_url: BACK, state: 'st' },
  });
  expect(res.statusCode).toBe(201);
  return new URL(res.json().url).pathname;
}

/** Types the handle on the link's page, walks the entryway's page, and follows the redirect to our callback: the outcome's query. */
async function connect(
  link: string,
  handle: string,
  choice: { granted?: string[]; cancel?: boolean } = {},
): Promise<Record<string, string>> {
  const start = await get(`${t.url}${link}/start/bluesky?login_hint=${encodeURIComponent(handle)}`);
  expect(start.status).toBe(303);
  const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
  const authorize = start.location as URL;
  expect(authorize.toString().startsWith(`${t.url}/sandbox/bsky.social/oauth/authorize?`)).toBe(true);
  const dialog = await get(authorize.toString());
  const page = await get((dialog.location as URL).toString());
  const form = permissionForm(page.body, (dialog.location as URL).toString(), { username: handle, ...choice });
  if (form === null) throw new Error('no form on the entryway page');
  const decided = await request(form.action, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.body.toString(),
  });
  await decided.body.text();
  const back = new URL(String(decided.headers.location));
  expect(back.toString().startsWith(`${t.url}/connect/callback/bluesky?`)).toBe(true);
  const end = await get(back.toString(), cookie);
  expect(end.status).toBe(303);
  expect(end.location?.origin).toBe('https://app.example.com');
  return Object.fromEntries(end.location?.searchParams ?? []);
}

async function accountsOf(ownerId: string) {
  return await t.database.db.select().from(accounts).where(eq(accounts.ownerId, ownerId));
}

describe('connecting a Bluesky account', () => {
  it('serves the client metadata document at the URL that is its client_id', async () => {
    const doc = await get(`${t.url}/oauth/bluesky/client-metadata.json`);
    expect(doc.status).toBe(200);
    expect(JSON.parse(doc.body)).toEqual({
      client_id: `${t.url}/oauth/bluesky/client-metadata.json`,
      client_name: 'Switchboard',
      client_uri: t.url,
      application_type: 'web',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [`${t.url}/connect/callback/bluesky`],
      scope: 'atproto transition:generic',
      token_endpoint_auth_method: 'none',
      dpop_bound_access_tokens: true,
    });
    expect((await get(`${t.url}/oauth/x/client-metadata.json`)).status).toBe(404);
  });

  it('asks the handle on the link page, and sends a click without one back to it', async () => {
    const link = await newLink();
    const page = await get(`${t.url}${link}`);
    expect(page.body).toContain(`action="${link}/start/bluesky"`);
    expect(page.body).toContain('name="login_hint"');
    const bare = await get(`${t.url}${link}/start/bluesky`);
    expect(bare.status).toBe(303);
    expect(bare.location?.pathname).toBe(link);
  });

  it('connects the account as its DID, with its handle, sealing the session', async () => {
    const outcome = await connect(await newLink(), 'alice.bsky.social');
    expect(outcome).toMatchObject({ status: 'connected', state: 'st' });
    const [row] = await t.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, outcome.account_ids as string));
    expect(row).toMatchObject({ platform: 'bluesky', username: 'alice.bsky.social', status: 'connected' });
    expect(row?.platformUserId).toMatch(/^did:plc:[a-z2-7]{24}$/);
    expect(row?.scopes).toEqual(['atproto', 'transition:generic']);
    // The session (its DPoP key among it) is kept sealed, never as text.
    expect(String(row?.accessTokenSealed)).not.toContain('bsky-at-');
  });

  it('gives access_denied when the client cancels, permission_missing without transition:generic', async () => {
    expect(await connect(await newLink(), 'bea.bsky.social', { cancel: true })).toMatchObject({
      status: 'error',
      error: 'access_denied',
    });
    expect(await connect(await newLink(), 'bea.bsky.social', { granted: ['atproto'] })).toMatchObject({
      status: 'error',
      error: 'permission_missing',
    });
    expect((await accountsOf(owner.ownerId)).some((a) => a.username === 'bea.bsky.social')).toBe(false);
  });

  it('refuses the account in another profile, and past the plan', async () => {
    await connect(await newLink(), 'cleo.bsky.social');
    const other = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 'Other' },
    });
    expect(await connect(await newLink(other.json().id), 'cleo.bsky.social')).toMatchObject({
      error: 'account_in_other_profile',
    });
    const small = await t.createOwner('Small');
    await t.database.db.update(owners).set({ accountLimit: 0 }).where(eq(owners.id, small.ownerId));
    await t.app.inject({
      method: 'POST',
      url: '/v1/connect/redirect-origins',
      headers: auth(small.key),
      payload: { origin: 'https://app.example.com' },
    });
    expect(await connect(await newLink(small.defaultProfileId, small.key), 'dora.bsky.social')).toMatchObject({
      error: 'plan_account_limit',
    });
    expect(
      await t.database.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.ownerId, small.ownerId))),
    ).toEqual([]);
  });

  it('answers a page, sending nobody anywhere, for a handle that does not resolve', async () => {
    const link = await newLink();
    const res = await get(`${t.url}${link}/start/bluesky?login_hint=${encodeURIComponent('nobody-here.example')}`);
    expect(res.status).toBe(400);
    expect(res.body).toContain('Bluesky could not start the sign-in');
  });

  it('refreshes the session before its hour ends; a refused refresh ends the account expired, and a reconnect link asks its handle again', async () => {
    const outcome = await connect(await newLink(), 'uma.bsky.social');
    const id = outcome.account_ids as string;
    const deps = {
      db: t.database.db,
      secretKey: t.secretKey,
      platforms: createPlatforms({ ...t.config, sandboxUrl: `${t.url}/sandbox`, serviceUrl: t.url }),
      log: pino({ level: 'silent' }),
    };
    const [before] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
    // The entryway's access tokens last an hour: refreshed in their last 20 minutes.
    advanceClock(45 * 60_000);
    expect(await refreshAccountToken(deps, id)).toBe('refreshed');
    const [after] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
    expect(after?.accessTokenSealed).not.toEqual(before?.accessTokenSealed);
    expect(after?.tokenExpiresAt?.getTime()).toBeGreaterThan(before?.tokenExpiresAt?.getTime() ?? 0);

    const fault = await request(`${t.url}/sandbox/_control/faults`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        platform: 'bluesky',
        username: 'uma.bsky.social',
        error: 'token_expired',
        trigger: 'refresh',
      }),
    });
    await fault.body.text();
    expect(fault.statusCode).toBe(201);
    advanceClock(45 * 60_000);
    expect(await refreshAccountToken(deps, id)).toBe('expired');
    const [expired] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
    expect(expired?.status).toBe('expired');
    const ended = await t.database.db
      .select()
      .from(events)
      .where(and(eq(events.ownerId, owner.ownerId), eq(events.type, 'account.expired')));
    expect(ended.some((e) => (e.data as { account: { id: string } }).account.id === id)).toBe(true);

    const link = await newLink(owner.defaultProfileId, owner.key, id);
    const page = await get(`${t.url}${link}`);
    expect(page.body).toContain('value="uma.bsky.social"');
    expect(page.body).toContain('Reconnect Bluesky');
    const again = await connect(link, 'uma.bsky.social');
    expect(again).toMatchObject({ status: 'connected', account_ids: id });
    const [back] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
    expect(back?.status).toBe('connected');
  });
});
