/**
 * The hosted connect pages in a real browser: headless Debian Chromium (/usr/bin/chromium)
 * driven by playwright-core, against the service as `npm start` runs it (API role, sandbox
 * platforms mounted at /sandbox), in this process. Each flow starts from a link made
 * through the API, clicks through our page and the sandbox's permission page like a
 * client would, and ends on a real page of the owner's app (a small HTTP server started
 * here), whose URL carries the outcome.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import { endAccountAccess } from '../../src/modules/accounts/access.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { accounts, events } from '../helpers/tables.ts';

/** Markup in the brand name must be shown as text. */
const BRAND = 'Ada & <b>Co</b>';
/** Characters that need encoding in a query: the redirect must carry the state unchanged. */
const STATE = 'a b&c=d/é';

interface ApiAnswer<T> {
  status: number;
  body: T;
}

interface LinkAnswer {
  url: string;
  profile_id: string;
  expires_at: string;
}

interface AccountAnswer {
  id: string;
  profile_id: string;
  platform: string;
  platform_user_id: string;
  username: string | null;
  status: string;
  connected_at: string;
}

interface ReconnectLinkAnswer {
  url: string;
  account_id: string;
  profile_id: string;
  expires_at: string;
}

/** What the functions run in the page read of `window` (this project's TypeScript has no DOM types). */
interface InPage {
  innerWidth: number;
  document: {
    documentElement: { scrollWidth: number };
    activeElement: { textContent: string | null } | null;
  };
}

interface Walk {
  page: Page;
  /** Every URL the page requested, in order (navigations, redirects, subresources). */
  requests: string[];
}

let database: Database;
let dataDir: string;
let service: RunningService;
let baseUrl: string;
let ownerKey: string;
let backServer: http.Server;
/** The owner's app: redirect_url points here. */
let backOrigin: string;
const backRequests: string[] = [];
let browser: Browser;
let context: BrowserContext | undefined;
let profiles = 0;

async function api<T>(
  method: string,
  urlPath: string,
  options: { body?: unknown; profile?: string } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${ownerKey}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.profile !== undefined) headers['service-profile'] = options.profile;
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

/** A new profile with an external_id; answers both. */
async function newProfile(): Promise<{ id: string; externalId: string }> {
  profiles += 1;
  const externalId = `client-${profiles}-${Date.now()}`;
  const created = await api<{ id: string; external_id: string }>('POST', '/v1/profiles', {
    body: { name: `Client ${profiles}`, external_id: externalId },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id, externalId };
}

/** A connect link for the profile `ref` names (its id or external_id). */
async function newLink(
  ref: string,
  options: { state?: string; platforms?: string[]; redirect?: string } = {},
): Promise<LinkAnswer> {
  const created = await api<LinkAnswer>('POST', `/v1/profiles/${encodeURIComponent(ref)}/connect-links`, {
    body: {
      redirect_url: options.redirect ?? `${backOrigin}/back`,
      ...(options.state !== undefined ? { state: options.state } : {}),
      ...(options.platforms !== undefined ? { platforms: options.platforms } : {}),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.url.startsWith(`${baseUrl}/connect/`)).toBe(true);
  return created.body;
}

async function accountsOf(profileRef: string, platform?: string): Promise<AccountAnswer[]> {
  const query = platform ? `?platform=${platform}` : '';
  const answer = await api<{ data: AccountAnswer[] }>('GET', `/v1/accounts${query}`, { profile: profileRef });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** A fresh browser context (no cookies) and page, recording every request it makes. */
async function openPage(viewport?: { width: number; height: number }): Promise<Walk> {
  await context?.close();
  context = await browser.newContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  return { page, requests };
}

/** Waits until the browser is back on the owner's app, and answers the outcome parameters. */
async function landedBack(page: Page): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.origin === backOrigin, { waitUntil: 'load' });
  const url = new URL(page.url());
  expect(url.pathname).toBe('/back');
  await expect.poll(() => page.locator('h1').textContent()).toBe('Back at the app');
  return url.searchParams;
}

/** On the sandbox's permission page: types a username, optionally unticks permissions, and decides. */
async function decideOnSandbox(
  page: Page,
  options: { username: string; untick?: string[]; decision: 'Allow' | 'Cancel' },
): Promise<void> {
  await page.waitForURL((url) => url.origin === baseUrl && url.pathname.startsWith('/sandbox/'));
  const username = page.locator('#username');
  await expect.poll(() => username.isVisible()).toBe(true);
  // Every requested permission starts ticked.
  const granted = page.locator('input[type=checkbox][name=granted]');
  expect(await granted.count()).toBeGreaterThan(0);
  for (const box of await granted.all()) expect(await box.isChecked()).toBe(true);
  await username.fill(options.username);
  for (const scope of options.untick ?? []) {
    await page.locator(`input[type=checkbox][name=granted][value="${scope}"]`).uncheck();
  }
  await page.getByRole('button', { name: options.decision, exact: true }).click();
}

async function openLinkPage(page: Page, link: LinkAnswer) {
  const response = await page.goto(link.url);
  expect(response?.status()).toBe(200);
  await expect.poll(() => page.locator('h1').textContent()).toBe(`Connect your account to ${BRAND}`);
  return response;
}

/** Every request of the walk went to the service (its pages and the sandbox it mounts), but the last ones: the owner's app. */
function expectOnlyOwnHosts(requests: string[]) {
  const origins = requests.map((r) => new URL(r).origin);
  const firstBack = origins.indexOf(backOrigin);
  expect(firstBack, `never reached the owner's app: ${requests.join(' ')}`).toBeGreaterThan(0);
  expect(
    origins.slice(0, firstBack).every((o) => o === baseUrl),
    requests.join('\n'),
  ).toBe(true);
  expect(
    origins.slice(firstBack).every((o) => o === backOrigin),
    requests.join('\n'),
  ).toBe(true);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-browser-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PLATFORMS: 'sandbox',
  });
  service = await startService(config, { api: true, worker: false }, pino({ level: 'silent' }));
  if (!service.baseUrl) throw new Error('the service started without the api role');
  baseUrl = service.baseUrl;
  const owner = await createOwner(service.database.db, { name: 'Agency owner', email: 'owner@example.test' });
  ownerKey = owner.apiKey;

  backServer = http.createServer((request, response) => {
    backRequests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The app</title></head><body><h1>Back at the app</h1></body></html>',
    );
  });
  await new Promise<void>((resolve) => backServer.listen(0, '127.0.0.1', resolve));
  backOrigin = `http://localhost:${(backServer.address() as AddressInfo).port}`;

  const origin = await api<{ origin: string }>('POST', '/v1/connect/redirect-origins', {
    body: { origin: backOrigin },
  });
  expect(origin.status).toBe(201);
  expect(origin.body.origin).toBe(backOrigin);
  const settings = await api<{ brand_name: string }>('PATCH', '/v1/connect/settings', {
    body: { brand_name: BRAND },
  });
  expect(settings.status).toBe(200);
  expect(settings.body.brand_name).toBe(BRAND);

  browser = await launchChromium();
});

afterEach(async () => {
  resetClock();
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  resetClock();
  await browser?.close();
  await new Promise<void>((resolve) => (backServer ? backServer.close(() => resolve()) : resolve()));
  backServer?.closeAllConnections();
  await service?.stop();
  await database?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the hosted connect page in Chromium', () => {
  it('connects an Instagram account and sends the client back with the profile, the account and the state', async () => {
    const profile = await newProfile();
    // Made through the external_id; the redirect must still name the profile's id.
    const link = await newLink(profile.externalId, { state: STATE });
    expect(link.profile_id).toBe(profile.id);
    const { page, requests } = await openPage();
    await openLinkPage(page, link);
    // The brand name is text: no <b> element made of it, in the heading or anywhere.
    expect(await page.locator('h1 b').count()).toBe(0);
    expect(await page.locator('b').count()).toBe(0);
    expect(await page.title()).toBe(`Connect your account to ${BRAND}`);
    for (const label of [
      'Connect Instagram',
      'Connect Threads',
      'Connect TikTok',
      'Connect Facebook Pages',
      'Connect LinkedIn',
    ]) {
      expect(await page.getByRole('link', { name: label, exact: true }).count(), label).toBe(1);
    }

    await page.getByRole('link', { name: 'Connect Instagram', exact: true }).click();
    await decideOnSandbox(page, { username: 'ada.insta', decision: 'Allow' });
    const outcome = await landedBack(page);

    expect(outcome.get('status')).toBe('connected');
    expect(outcome.get('profile_id')).toBe(profile.id);
    expect(outcome.get('state')).toBe(STATE);
    expect(outcome.get('error')).toBeNull();
    const accountIds = (outcome.get('account_ids') ?? '').split(',').filter((id) => id !== '');
    expect(accountIds).toHaveLength(1);
    // The owner's server saw the same query.
    const served = new URL(backRequests.filter((r) => r.startsWith('/back?')).at(-1) ?? '', backOrigin).searchParams;
    expect(served.get('state')).toBe(STATE);
    expect(served.get('account_ids')).toBe(accountIds.join(','));

    const accounts = await accountsOf(profile.externalId);
    expect(accounts.map((a) => a.id)).toEqual(accountIds);
    expect(accounts[0]).toMatchObject({
      profile_id: profile.id,
      platform: 'instagram',
      username: 'ada.insta',
      status: 'connected',
    });
    expectOnlyOwnHosts(requests);
  });

  it('sends the client back with access_denied after Cancel, and the same link still works', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id, { state: STATE });
    const { page } = await openPage();
    await openLinkPage(page, link);
    await page.getByRole('link', { name: 'Connect Instagram', exact: true }).click();
    await decideOnSandbox(page, { username: 'cancel.insta', decision: 'Cancel' });
    const denied = await landedBack(page);
    expect(denied.get('status')).toBe('error');
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('state')).toBe(STATE);
    expect(denied.get('account_ids')).toBeNull();
    expect(await accountsOf(profile.id)).toEqual([]);

    // A refusal leaves the link usable: the client tries again, on another platform even.
    await openLinkPage(page, link);
    await page.getByRole('link', { name: 'Connect Threads', exact: true }).click();
    await decideOnSandbox(page, { username: 'retry.threads', decision: 'Allow' });
    const connected = await landedBack(page);
    expect(connected.get('status')).toBe('connected');
    expect(connected.get('profile_id')).toBe(profile.id);
    expect(connected.get('state')).toBe(STATE);
    const accounts = await accountsOf(profile.id);
    expect(accounts.map((a) => a.id)).toEqual([connected.get('account_ids')]);
    expect(accounts[0]).toMatchObject({ platform: 'threads', username: 'retry.threads', status: 'connected' });
  });

  it('sends the client back with permission_missing when a required permission is unticked', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id, { state: STATE, platforms: ['instagram'] });
    const { page } = await openPage();
    await openLinkPage(page, link);
    // Only the platforms the link names are offered.
    expect(await page.locator('ul.buttons a').allTextContents()).toEqual(['Connect Instagram']);
    await page.getByRole('link', { name: 'Connect Instagram', exact: true }).click();
    // instagram.ts: scopes.required is [instagram_business_basic].
    await decideOnSandbox(page, { username: 'stingy.insta', untick: ['instagram_business_basic'], decision: 'Allow' });
    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('error');
    expect(outcome.get('error')).toBe('permission_missing');
    expect(outcome.get('state')).toBe(STATE);
    expect(await accountsOf(profile.id)).toEqual([]);
  });

  it('lets a Facebook user choose the pages to connect, and connects exactly those', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id, { state: STATE });
    const { page, requests } = await openPage();
    await openLinkPage(page, link);
    await page.getByRole('link', { name: 'Connect Facebook Pages', exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/'));
    // The sandbox's own page choice offers three pages, all ticked; keep them.
    const sandboxPages = page.locator('input[type=checkbox][name=pages]');
    expect(await sandboxPages.count()).toBe(3);
    await decideOnSandbox(page, { username: 'ada.fb', decision: 'Allow' });

    // Our page: one ticked box per granted page.
    await page.waitForURL((url) => url.origin === baseUrl && /^\/connect\/[^/]+\/pages$/.test(url.pathname));
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Choose the pages to connect to ${BRAND}`);
    expect(await page.locator('h1 b').count()).toBe(0);
    const boxes = page.locator('input[type=checkbox][name=pages]');
    expect(await boxes.count()).toBe(3);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    await boxes.nth(1).uncheck();
    const chosen: string[] = [];
    for (const box of await boxes.all()) {
      if (await box.isChecked()) chosen.push((await box.getAttribute('value')) ?? '');
    }
    expect(chosen).toHaveLength(2);
    await page.getByRole('button', { name: 'Connect selected pages', exact: true }).click();

    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('connected');
    expect(outcome.get('profile_id')).toBe(profile.id);
    expect(outcome.get('state')).toBe(STATE);
    const accountIds = (outcome.get('account_ids') ?? '').split(',').filter((id) => id !== '');
    expect(accountIds).toHaveLength(2);

    const accounts = await accountsOf(profile.id, 'facebook');
    expect(accounts).toHaveLength(2);
    expect(accounts.map((a) => a.id).sort()).toEqual([...accountIds].sort());
    expect(accounts.map((a) => a.platform_user_id).sort()).toEqual([...chosen].sort());
    for (const account of accounts) expect(account).toMatchObject({ platform: 'facebook', status: 'connected' });
    expect(await accountsOf(profile.id)).toHaveLength(2);
    expectOnlyOwnHosts(requests);
  });

  it('lets a LinkedIn member choose among their own profile and the organization pages they administer, and connects exactly those', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id, { state: STATE });
    const { page, requests } = await openPage();
    await openLinkPage(page, link);
    await page.getByRole('link', { name: 'Connect LinkedIn', exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/'));
    // LinkedIn's consent names no organization: the member grants the app, whose reach is the
    // organizations they administer.
    expect(await page.locator('input[type=checkbox][name=pages]').count()).toBe(0);
    await decideOnSandbox(page, { username: 'ada.li', decision: 'Allow' });

    await page.waitForURL((url) => url.origin === baseUrl && /^\/connect\/[^/]+\/pages$/.test(url.pathname));
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Choose the pages to connect to ${BRAND}`);
    const boxes = page.locator('input[type=checkbox][name=pages]');
    // The member's own profile first (the login granted w_member_social), then the two
    // organizations the sandbox member administers.
    expect(await boxes.count()).toBe(3);
    expect(await boxes.nth(0).getAttribute('value')).toMatch(/^urn:li:person:[A-Za-z0-9_-]{10}$/);
    await boxes.nth(0).uncheck();
    await boxes.nth(1).uncheck();
    const chosen = (await boxes.nth(2).getAttribute('value')) ?? '';
    await page.getByRole('button', { name: 'Connect selected pages', exact: true }).click();

    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('connected');
    const accounts = await accountsOf(profile.id, 'linkedin');
    expect(accounts.map((a) => a.platform_user_id)).toEqual([chosen]);
    expect(accounts[0]).toMatchObject({ platform: 'linkedin', status: 'connected' });
    expectOnlyOwnHosts(requests);
  });

  it('sends the client back with expired when a used link is opened again', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id, { state: STATE });
    const { page } = await openPage();
    await openLinkPage(page, link);
    await page.getByRole('link', { name: 'Connect TikTok', exact: true }).click();
    await decideOnSandbox(page, { username: 'ada.tok', decision: 'Allow' });
    const first = await landedBack(page);
    expect(first.get('status')).toBe('connected');

    await page.goto(link.url);
    const second = await landedBack(page);
    expect(second.get('status')).toBe('error');
    expect(second.get('error')).toBe('expired');
    expect(second.get('state')).toBe(STATE);
    expect(second.get('account_ids')).toBeNull();
    expect(await accountsOf(profile.id)).toHaveLength(1);
  });

  it('sends the client back with expired when the link is past its 30 minutes', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id, { state: STATE });
    advanceClock(31 * 60_000);
    const { page } = await openPage();
    await page.goto(link.url);
    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('error');
    expect(outcome.get('error')).toBe('expired');
    expect(outcome.get('state')).toBe(STATE);
  });

  it('serves the link page with a strict policy, a viewport, and only requests to the service', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id);
    const { page, requests } = await openPage();
    const response = await openLinkPage(page, link);
    const headers = response?.headers() ?? {};
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
    expect(await page.locator('meta[name=viewport]').getAttribute('content')).toContain('width=device-width');
    // Nothing the page loads comes from elsewhere (stylesheet inline, no scripts, images or fonts).
    expect(requests.map((r) => new URL(r).origin)).toEqual([baseUrl]);

    // A whole walk, to the end: the service's pages, the sandbox it mounts, then the owner's app.
    await page.getByRole('link', { name: 'Connect Instagram', exact: true }).click();
    await decideOnSandbox(page, { username: 'hosts.insta', decision: 'Allow' });
    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('connected');
    // No state given: none comes back.
    expect(outcome.get('state')).toBeNull();
    expectOnlyOwnHosts(requests);
  });

  it('works with the keyboard: Tab to the first platform button, Enter opens the permission page', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id);
    const { page } = await openPage();
    await openLinkPage(page, link);
    const focused = () =>
      page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.textContent?.trim() ?? '');
    let presses = 0;
    while ((await focused()) !== 'Connect Instagram' && presses < 20) {
      await page.keyboard.press('Tab');
      presses += 1;
    }
    expect(await focused()).toBe('Connect Instagram');
    await page.keyboard.press('Enter');
    await page.waitForURL(
      (url) => url.origin === baseUrl && url.pathname === '/sandbox/www.instagram.com/oauth/authorize',
    );
    await expect.poll(() => page.locator('h1').textContent()).toBe('Instagram (sandbox): allow access');
    expect(await page.locator('#username').isVisible()).toBe(true);
  });

  it('fits a phone screen without horizontal scrolling', async () => {
    const profile = await newProfile();
    const link = await newLink(profile.id);
    const { page } = await openPage({ width: 390, height: 844 });
    await openLinkPage(page, link);
    const widths = await page.evaluate(() => {
      const window = globalThis as unknown as InPage;
      return { scroll: window.document.documentElement.scrollWidth, inner: window.innerWidth };
    });
    expect(widths.inner).toBe(390);
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
    // The buttons are big enough to tap.
    const box = await page.getByRole('link', { name: 'Connect Instagram', exact: true }).boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect(box?.width ?? 0).toBeLessThanOrEqual(390);
    // Kept where SCREENSHOT_DIR says (to look at it), else dropped with the test's DATA_DIR.
    const dir = process.env.SCREENSHOT_DIR ?? dataDir;
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'connect-page-390x844.png');
    const png = await page.screenshot({ path: file, fullPage: true });
    // A PNG, 390 pixels wide (the IHDR width, big-endian at byte 16).
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(390);
    expect((await fs.stat(file)).size).toBe(png.length);
  });
});

describe('a reconnect link in Chromium', () => {
  /** An account connected through a connect link of `profileId`, walked in the browser. */
  async function connectInBrowser(profileId: string, platform: 'Instagram' | 'Threads', username: string) {
    const link = await newLink(profileId, { platforms: [platform.toLowerCase()] });
    const { page } = await openPage();
    await openLinkPage(page, link);
    await page.getByRole('link', { name: `Connect ${platform}`, exact: true }).click();
    await decideOnSandbox(page, { username, decision: 'Allow' });
    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('connected');
    const [account] = await accountsOf(profileId);
    expect(account?.username).toBe(username);
    return account as AccountAnswer;
  }

  async function reconnectLink(accountId: string, state: string): Promise<ReconnectLinkAnswer> {
    const created = await api<ReconnectLinkAnswer>('POST', `/v1/accounts/${accountId}/reconnect-links`, {
      body: { redirect_url: `${backOrigin}/back`, state },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.account_id).toBe(accountId);
    return created.body;
  }

  it('reconnects an expired Instagram account through the permission page, keeping its id and profile', async () => {
    const profile = await newProfile();
    const account = await connectInBrowser(profile.id, 'Instagram', 'ada.again');
    // The platform ends the token and the service learns it: the account is expired.
    const expired = await fetch(`${baseUrl}/sandbox/_control/tokens/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'instagram', username: 'ada.again' }),
    });
    expect(expired.status).toBe(200);
    await service.database.db.transaction((tx) => endAccountAccess(tx, account.id, 'expired', 'token expired'));
    // Its name is the platform's, written by someone else: markup in it is text.
    await service.database.db
      .update(accounts)
      .set({ displayName: '<b>Ada</b> & Co' })
      .where(eq(accounts.id, account.id));
    expect((await api<AccountAnswer>('GET', `/v1/accounts/${account.id}`)).body.status).toBe('expired');

    const link = await reconnectLink(account.id, STATE);
    expect(link.profile_id).toBe(profile.id);
    const { page, requests } = await openPage();
    const response = await page.goto(link.url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Reconnect your account to ${BRAND}`);
    expect(await page.title()).toBe(`Reconnect your account to ${BRAND}`);
    expect(await page.locator('main p').first().textContent()).toBe(
      'This link reconnects @ada.again (<b>Ada</b> & Co) on Instagram.',
    );
    expect(await page.locator('b').count()).toBe(0);
    // Only the account's platform is offered.
    expect(await page.locator('ul.buttons a').allTextContents()).toEqual(['Reconnect Instagram']);

    await page.getByRole('link', { name: 'Reconnect Instagram', exact: true }).click();
    await decideOnSandbox(page, { username: 'ada.again', decision: 'Allow' });
    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('connected');
    expect(outcome.get('profile_id')).toBe(profile.id);
    expect(outcome.get('account_ids')).toBe(account.id);
    expect(outcome.get('state')).toBe(STATE);
    expect(outcome.get('error')).toBeNull();
    expectOnlyOwnHosts(requests);

    // The same account, in the same profile, connected again with the platform's profile.
    const listed = await accountsOf(profile.id);
    expect(listed.map((a) => a.id)).toEqual([account.id]);
    expect(listed[0]).toMatchObject({
      id: account.id,
      profile_id: profile.id,
      platform: 'instagram',
      platform_user_id: account.platform_user_id,
      username: 'ada.again',
      status: 'connected',
    });
    expect(Date.parse(listed[0]?.connected_at ?? '')).toBeGreaterThan(Date.parse(account.connected_at));
    const recorded = (
      await service.database.db.select().from(events).where(eq(events.type, 'account.connected'))
    ).filter((e) => (e.data as { account: { id: string } }).account.id === account.id);
    expect(recorded.map((e) => (e.data as { reconnected: boolean }).reconnected).sort()).toEqual([false, true]);
  });

  it('tells the client they signed in as another account, and sends them back with account_mismatch', async () => {
    const profile = await newProfile();
    const account = await connectInBrowser(profile.id, 'Threads', 'right.person');
    const link = await reconnectLink(account.id, STATE);
    const { page } = await openPage();
    await page.goto(link.url);
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Reconnect your account to ${BRAND}`);
    await page.getByRole('link', { name: 'Reconnect Threads', exact: true }).click();
    await decideOnSandbox(page, { username: 'wrong.person', decision: 'Allow' });

    // Our page says what happened, in words.
    await page.waitForURL((url) => url.origin === baseUrl && url.pathname === '/connect/callback/threads');
    await expect.poll(() => page.locator('h1').textContent()).toBe('This is not the account to reconnect');
    expect(await page.locator('main p').first().textContent()).toBe(
      'You signed in to Threads as @wrong.person (Wrong Person), but this link reconnects @right.person (Right Person). Nothing was changed.',
    );
    expect(await page.getByRole('link', { name: 'Try again', exact: true }).getAttribute('href')).toBe(
      new URL(link.url).pathname,
    );
    await page.getByRole('link', { name: `Back to ${BRAND}`, exact: true }).click();
    const outcome = await landedBack(page);
    expect(outcome.get('status')).toBe('error');
    expect(outcome.get('error')).toBe('account_mismatch');
    expect(outcome.get('state')).toBe(STATE);
    expect(outcome.get('account_ids')).toBeNull();

    // Nothing changed, and the link still opens.
    expect(await accountsOf(profile.id)).toEqual([account]);
    const again = await page.goto(link.url);
    expect(again?.status()).toBe(200);
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Reconnect your account to ${BRAND}`);
  });
});
