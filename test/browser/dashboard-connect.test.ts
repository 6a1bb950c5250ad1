/**
 * The dashboard's connect settings and the profile menu's connect link and accounts in
 * Chromium: a link made on the page is completed through the sandbox like a client would,
 * and the account then shows in the profile menu, with its actions, what it puts at risk once
 * disconnected, and a reconnect link made there that reconnects it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  changeCatalogue,
  type DashboardKit,
  expectAccessible,
  expectCleanRun,
  screenshot,
  signIn,
  startDashboardKit,
} from './dashboard-kit.ts';

/** Markup in the brand name must be shown as text, on the preview too. */
const BRAND = 'Ada & <b>Co</b>';

let kit: DashboardKit;
let backServer: http.Server;
let backOrigin: string;

interface Account {
  id: string;
  platform: string;
  status: string;
  username: string | null;
  posts_at_risk: { count: number; next_scheduled_at: string | null } | null;
}

beforeAll(async () => {
  kit = await startDashboardKit();
  backServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><head><title>The app</title></head><body><h1>Back at the app</h1></body></html>',
    );
  });
  await new Promise<void>((resolve) => backServer.listen(0, '127.0.0.1', resolve));
  backOrigin = `http://localhost:${(backServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  backServer?.closeAllConnections();
  await new Promise<void>((resolve) => (backServer ? backServer.close(() => resolve()) : resolve()));
  await kit?.stop();
});

/** The client's side: the link's page, the sandbox's permission page, and back to the owner's app. */
async function completeAsClient(page: Page, url: string, username: string): Promise<URLSearchParams> {
  await page.goto(url);
  await page.getByRole('link', { name: 'Connect Threads', exact: true }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/sandbox/'));
  await page.locator('#username').fill(username);
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await page.waitForURL((u) => u.origin === backOrigin);
  return new URL(page.url()).searchParams;
}

describe('connect settings', () => {
  it('sets the brand name, adds a redirect origin, and previews the hosted page with the brand as text', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Connect settings' }).click();
    await page.getByRole('heading', { name: 'Connect settings', level: 1 }).waitFor();

    await page.getByRole('textbox', { name: 'Brand name' }).fill(BRAND);
    await page.getByRole('button', { name: 'Save brand name' }).click();
    await expect.poll(() => page.getByText('Saved.').count()).toBe(1);
    expect((await kit.api<{ brand_name: string }>('GET', '/v1/connect/settings')).body.brand_name).toBe(BRAND);

    await page.getByLabel('Origin to add').fill(`${backOrigin}/`);
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByRole('cell', { name: backOrigin, exact: true }).waitFor();
    const origins = await kit.api<{ data: { origin: string }[] }>('GET', '/v1/connect/redirect-origins');
    expect(origins.body.data.map((o) => o.origin)).toEqual([backOrigin]);

    const bad = 'ftp://files.example.test';
    await page.getByLabel('Origin to add').fill(bad);
    await page.getByRole('button', { name: 'Add origin' }).click();
    await expect.poll(() => page.locator('.field-error').count()).toBe(1);

    const preview = page.frameLocator('iframe[title="Preview of the hosted connect page"]');
    await expect.poll(() => preview.locator('h1').textContent()).toBe(`Connect your account to ${BRAND}`);
    expect(await preview.locator('b').count()).toBe(0);
    expect(await preview.getByRole('link', { name: 'Connect Threads', exact: true }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'connect-settings');
    // A full-page capture leaves the framed page out; the frame on its own shows it.
    await page.locator('iframe.preview').screenshot({ path: path.join(ARTIFACTS, 'connect-settings-preview.png') });
    expectCleanRun(opened);
    await opened.close();
  });
});

describe('your own platform apps', () => {
  it('sets an X app in connect settings, lists it without its secret and removes it, each change with the CSRF token', async () => {
    const opened = await kit.open();
    const { page } = opened;
    const changes: { method: string; csrf: string | undefined }[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/platform-apps/')) {
        changes.push({ method: request.method(), csrf: request.headers()['x-csrf-token'] });
      }
    });
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Connect settings' }).click();
    const card = page.getByRole('region', { name: 'Your own platform apps' });
    await card.waitFor();
    // X's API is paid: the card says so, and that the owner may bring its app here.
    expect(await card.getByText(/X's API is paid: set your own X app here/).count()).toBe(1);
    await card.getByText("No app of your own: your accounts use this service's apps.").waitFor();
    expect(await card.getByRole('combobox', { name: 'Platform' }).inputValue()).toBe('x');

    const secret = 'dashboard-secret-<b>never</b>-shown';
    await card.getByRole('textbox', { name: 'Client id' }).fill('dash-x-client');
    await card.getByLabel('Client secret').fill(secret);
    await card.getByRole('button', { name: 'Save app' }).click();
    await card.getByRole('cell', { name: 'dash-x-client', exact: true }).waitFor();
    await card.getByText('X app saved. Its secret is not shown again.').waitFor();
    expect(await card.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      'X',
      'dash-x-client',
      "This service's app",
      expect.any(String),
      'Remove the X app',
    ]);
    // The secret field is emptied once sent, and the secret is nowhere on the page.
    expect(await card.getByLabel('Client secret').inputValue()).toBe('');
    expect(await page.content()).not.toContain('dashboard-secret');
    const listed = await kit.api<{ data: { platform: string; client_id: string }[] }>('GET', '/v1/platform-apps');
    expect(listed.body.data.map((a) => [a.platform, a.client_id])).toEqual([['x', 'dash-x-client']]);
    await expectAccessible(page);
    await screenshot(page, 'connect-settings-platform-apps');

    // A reload lists it again from the service.
    await page.reload();
    await card.getByRole('cell', { name: 'dash-x-client', exact: true }).waitFor();
    await card.getByRole('button', { name: 'Remove the X app' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove app' }).click();
    await card.getByText("No app of your own: your accounts use this service's apps.").waitFor();
    expect((await kit.api<{ data: unknown[] }>('GET', '/v1/platform-apps')).body.data).toEqual([]);
    expect(changes.map((c) => c.method)).toEqual(['PUT', 'DELETE']);
    for (const change of changes) expect(change.csrf).toMatch(/.+/);
    expectCleanRun(opened);
    await opened.close();
  });
});

describe('the profile menu', () => {
  it('creates a connect link that a client completes through the sandbox, then lists, disconnects and offers to reconnect the account', async () => {
    const profile = await kit.api<{ id: string }>('POST', '/v1/profiles', { body: { name: 'Linked client' } });
    // The origin may be registered by the settings test already; registering it again answers 200.
    await kit.api('POST', '/v1/connect/redirect-origins', { body: { origin: backOrigin } });
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${profile.body.id}`);
    await page.getByRole('heading', { name: 'Linked client', level: 1 }).waitFor();

    await page.getByLabel('Redirect URL').fill(`${backOrigin}/connected`);
    await page.getByLabel('State (optional)').fill('from-the-dashboard');
    // Every platform of the service, by the names the hosted page gives them; the sandbox has them all.
    const offered = page.getByRole('group', { name: 'Platforms offered (none ticked: all)' });
    expect(await offered.locator('label').allTextContents()).toEqual([
      'Instagram',
      'Threads',
      'TikTok',
      'Facebook Pages',
      'LinkedIn',
      'YouTube',
      // X's API is paid: the page says what the owner must bring, as the catalogue gives it.
      // An owner may bring its own X app, set in Connect settings.
      "X — X's API is paid: whoever runs this service brings its own X app (X_CLIENT_ID, X_CLIENT_SECRET) on a plan that includes posting, and X caps each plan's monthly use. Each owner may bring its own X app instead, on its own plan and cap. Set your own X app in Connect settings.",
      // Google opens the Business Profile APIs to approved projects only: said as the catalogue gives it.
      'Google Business Profile — ' +
        `Google opens the Business Profile APIs only to a Google Cloud project it approved: whoever runs this service requests access for the project of GOOGLE_BUSINESS_CLIENT_ID through Google's access request form (Prerequisites, "Request access to the APIs") and enables the APIs once approved; until then Google answers every call as over a quota of 0.`,
      'Pinterest',
      'Bluesky',
    ]);
    expect(await offered.getByRole('checkbox', { disabled: true }).count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Threads' }).check();
    await page.getByRole('button', { name: 'Create connect link' }).click();
    const shown = page.locator('code.secret');
    await shown.waitFor();
    const url = (await shown.textContent()) ?? '';
    expect(url).toMatch(new RegExp(`^${kit.baseUrl}/connect/[A-Za-z0-9_-]{43}$`));
    expect(await page.getByText(/^Single use; expires/).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'profile-menu-connect-link');

    const client = await kit.open();
    const outcome = await completeAsClient(client.page, url, 'dash.client');
    expect(outcome.get('status')).toBe('connected');
    expect(outcome.get('state')).toBe('from-the-dashboard');
    expect(outcome.get('profile_id')).toBe(profile.body.id);
    await client.close();

    await page.reload();
    const row = page.locator('tbody tr', { hasText: 'dash.client' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Threads');
    expect(await row.textContent()).toContain('connected');
    expect(await row.textContent()).toContain('threads_basic');
    await expectAccessible(page);
    await screenshot(page, 'profile-menu-accounts');

    // A post waits on the account: once it is disconnected, the row says what is at risk.
    const accountId = outcome.get('account_ids') ?? '';
    const due = new Date(Date.now() + 3 * 24 * 3_600_000).toISOString().replace(/\d\d\.\d{3}Z$/, '00.000Z');
    const waiting = await kit.api<{ id: string }>('POST', '/v1/posts', {
      body: { account_ids: [accountId], text: 'Waiting on dash.client', scheduled_at: due },
    });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(201);
    expect(await row.textContent()).not.toContain('at risk');

    await row.getByRole('button', { name: /^Disconnect/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => row.textContent()).toContain('disconnected');
    const accounts = await kit.api<{ data: Account[] }>('GET', '/v1/accounts', { profile: profile.body.id });
    expect(accounts.body.data.map((a) => [a.username, a.status, a.posts_at_risk])).toEqual([
      ['dash.client', 'disconnected', { count: 1, next_scheduled_at: due }],
    ]);
    const risk = row.locator('.at-risk');
    await expect.poll(() => risk.textContent()).toMatch(/^1 post at risk, next due .+\. They fail unless/);
    expect(await risk.locator('time').getAttribute('datetime')).toBe(due);
    expect(await risk.getByRole('link', { name: '1 post at risk' }).getAttribute('href')).toBe(
      `/dashboard/posts?account=${accountId}`,
    );

    // Reconnect: a reconnect link for this account alone, made with the session's CSRF token.
    const session = await page.evaluate(async () => {
      const answer = await fetch('/v1/session');
      return (await answer.json()) as { csrf_token: string };
    });
    await row.getByRole('button', { name: /^Reconnect link/ }).click();
    const form = page.locator('section', {
      has: page.getByRole('heading', { name: 'Reconnect link for @dash.client (Threads)' }),
    });
    await form.waitFor();
    // Nothing typed in the connect link form since the reload: the redirect URL is asked for.
    expect(await form.getByLabel('Redirect URL').inputValue()).toBe('');
    await form.getByLabel('Redirect URL').fill(`${backOrigin}/connected`);
    await form.getByLabel('State (optional)').fill('reconnect-from-the-dashboard');
    const [sent] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/reconnect-links')),
      form.getByRole('button', { name: 'Create reconnect link' }).click(),
    ]);
    expect(new URL(sent.url()).pathname).toBe(`/v1/accounts/${accountId}/reconnect-links`);
    expect(sent.headers()['x-csrf-token']).toBe(session.csrf_token);
    expect(sent.headers().authorization).toBeUndefined();
    expect(sent.postDataJSON()).toEqual({
      redirect_url: `${backOrigin}/connected`,
      state: 'reconnect-from-the-dashboard',
    });
    const reconnectUrl = (await form.locator('code.secret').textContent()) ?? '';
    expect(reconnectUrl).toMatch(new RegExp(`^${kit.baseUrl}/connect/[A-Za-z0-9_-]{43}$`));
    expect(await form.getByText(/^Single use; expires/).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'profile-menu-reconnect-link');

    // The shown URL opens the reconnect page for this account, and reconnects it.
    const again = await kit.open();
    await again.page.goto(reconnectUrl);
    await expect.poll(() => again.page.locator('h1').textContent()).toBe(`Reconnect your account to ${BRAND}`);
    expect(await again.page.locator('main p').first().textContent()).toMatch(
      /^This link reconnects @dash\.client( \(.+\))? on Threads\.$/,
    );
    await again.page.getByRole('link', { name: 'Reconnect Threads', exact: true }).click();
    await again.page.waitForURL((u) => u.pathname.startsWith('/sandbox/'));
    await again.page.locator('#username').fill('dash.client');
    await again.page.getByRole('button', { name: 'Allow', exact: true }).click();
    await again.page.waitForURL((u) => u.origin === backOrigin);
    const back = new URL(again.page.url()).searchParams;
    expect([back.get('status'), back.get('account_ids'), back.get('state')]).toEqual([
      'connected',
      accountId,
      'reconnect-from-the-dashboard',
    ]);
    await again.close();
    const reconnected = await kit.api<Account>('GET', `/v1/accounts/${accountId}`);
    expect([reconnected.body.status, reconnected.body.posts_at_risk]).toEqual(['connected', null]);
    await page.reload();
    await expect.poll(() => row.textContent()).toContain('connected');
    expect(await row.locator('.at-risk').count()).toBe(0);
    await kit.api('DELETE', `/v1/posts/${waiting.body.id}`);
    expectCleanRun(opened);
    await opened.close();
  });

  it('does not offer a connect link a platform the service has no credentials for', async () => {
    const opened = await kit.open();
    const { page } = opened;
    // The catalogue of a service without TikTok's client id and secret.
    await changeCatalogue(page, (entry) => {
      if (entry.platform === 'tiktok') entry.availability = 'not_configured';
    });
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${kit.defaultProfileId}`);
    const offered = page.getByRole('group', { name: 'Platforms offered (none ticked: all)' });
    await offered.waitFor();
    expect(await offered.getByRole('checkbox', { name: 'TikTok' }).isDisabled()).toBe(true);
    expect(await offered.locator('label', { hasText: 'TikTok' }).textContent()).toBe(
      'TikTok — not configured on this service (no client id and secret)',
    );
    // Instagram, Threads, Facebook Pages, LinkedIn, YouTube, X, Google Business Profile, Pinterest and Bluesky stay offered.
    expect(await offered.getByRole('checkbox', { disabled: false }).count()).toBe(9);
    await expectAccessible(page);
    expectCleanRun(opened);
    await opened.close();
  });

  it('offers X, which the service has no app for, to an owner that set its own X app', async () => {
    const opened = await kit.open();
    const { page } = opened;
    // The catalogue of a service without X_CLIENT_ID and X_CLIENT_SECRET.
    await changeCatalogue(page, (entry) => {
      if (entry.platform === 'x') entry.availability = 'not_configured';
    });
    const set = await kit.api('PUT', '/v1/platform-apps/x', {
      body: { client_id: 'offered-client', client_secret: 'offered-secret' },
    });
    expect(set.status).toBe(201);
    try {
      await signIn(kit, page, kit.ownerKey);
      await page.goto(`${kit.baseUrl}/dashboard/profiles/${kit.defaultProfileId}`);
      const offered = page.getByRole('group', { name: 'Platforms offered (none ticked: all)' });
      await offered.waitFor();
      const x = offered.getByRole('checkbox', { name: /^X/ });
      await expect.poll(() => x.isDisabled()).toBe(false);
      expect(await offered.locator('label', { hasText: 'X —' }).textContent()).not.toContain('not configured');
      await expectAccessible(page);
      expectCleanRun(opened);
    } finally {
      await kit.api('DELETE', '/v1/platform-apps/x');
      await opened.close();
    }
  });

  it('explains a refused move with the posts that wait on the account', async () => {
    const from = await kit.api<{ id: string }>('POST', '/v1/profiles', { body: { name: 'Moving from' } });
    await kit.api('POST', '/v1/profiles', { body: { name: 'Moving to' } });
    await kit.api('POST', '/v1/connect/redirect-origins', { body: { origin: backOrigin } });
    const link = await kit.api<{ url: string }>('POST', `/v1/profiles/${from.body.id}/connect-links`, {
      body: { redirect_url: `${backOrigin}/back`, platforms: ['threads'] },
    });
    const client = await kit.open();
    await completeAsClient(client.page, link.body.url, 'mover');
    await client.close();
    const accounts = await kit.api<{ data: Account[] }>('GET', '/v1/accounts', { profile: from.body.id });
    const accountId = accounts.body.data[0]?.id ?? '';
    const due = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString();
    const post = await kit.api<{ id: string }>('POST', '/v1/posts', {
      body: { account_ids: [accountId], text: 'Waiting for next week', scheduled_at: due },
    });
    expect(post.status).toBe(201);

    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${from.body.id}`);
    const row = page.locator('tbody tr', { hasText: 'mover' });
    await row.waitFor();
    await row.getByLabel(/^Move @mover/).selectOption({ label: 'Moving to' });
    await row.getByRole('button', { name: 'Move', exact: true }).click();
    const explanation = page.locator('.notice.warn', { hasText: 'These posts wait to be published' });
    await explanation.waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('account_has_scheduled_posts');
    await explanation.getByRole('link', { name: 'Waiting for next week' }).waitFor();
    expect(await explanation.getByRole('link').getAttribute('href')).toBe(`/dashboard/posts/${post.body.id}`);
    await expectAccessible(page);
    await screenshot(page, 'profile-menu-move-refused');
    const still = await kit.api<Account>('GET', `/v1/accounts/${accountId}`);
    expect(still.status).toBe(200);
    expect((still.body as unknown as { profile_id: string }).profile_id).toBe(from.body.id);
    expectCleanRun(opened);
    await opened.close();
  });
});
