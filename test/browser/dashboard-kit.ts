/**
 * What the dashboard's browser tests share: the service as `npm start` runs it (API and
 * worker, sandbox platforms mounted at /sandbox) on a test database, headless Debian
 * Chromium, signing in through the page, the API beside it, a screenshot per test (in
 * test-artifacts/dashboard/), an axe-core check of the screen, and a record of every
 * Content-Security-Policy violation the page met.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import { createOwner } from '../../src/modules/owners/service.ts';
import { type RunningService, startService } from '../../src/service.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestDatabase } from '../helpers/database.ts';

export const ARTIFACTS = path.resolve('test-artifacts', 'dashboard');

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

export interface DashboardKit {
  service: RunningService;
  database: Database;
  baseUrl: string;
  ownerId: string;
  ownerKey: string;
  defaultProfileId: string;
  browser: Browser;
  /** A /v1 request with `key` (the owner key unless given). */
  api<T>(
    method: string,
    urlPath: string,
    options?: { body?: unknown; profile?: string; key?: string },
  ): Promise<ApiAnswer<T>>;
  /** A JSON call to the sandbox platforms' control API (docs/sandbox.md); it must succeed (with `status`, when given). */
  control<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, status?: number): Promise<T>;
  /** A fresh browser context and page, recording what the page met; in `timezoneId` when given. */
  open(options?: { timezoneId?: string }): Promise<DashboardPage>;
  stop(): Promise<void>;
}

export interface DashboardPage {
  page: Page;
  context: BrowserContext;
  /** Content-Security-Policy violations reported in the console. */
  cspViolations: string[];
  /** Uncaught errors in the page. */
  pageErrors: string[];
  /** Resolves once no request the page made is still unanswered. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startDashboardKit(env: Record<string, string> = {}): Promise<DashboardKit> {
  const database = await createTestDatabase();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-dashboard-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    PLATFORMS: 'sandbox',
    // The tests poll the API with the owner key (every 50 ms, up to a minute and a half while a
    // comment poll comes round), far faster than the 600 a minute a key may make: past that, the
    // key's next sign-in got 429 and never showed "Sign out". The limit has tests of its own
    // (test/http/rate-limit.test.ts); the dashboard's tests are not about it.
    RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  const service = await startService(config, { api: true, worker: true }, pino({ level: 'silent' }));
  if (!service.baseUrl) throw new Error('the service started without the api role');
  const baseUrl = service.baseUrl;
  const owner = await createOwner(service.database.db, { name: 'Agency owner', email: 'owner@example.test' });
  const browser = await launchChromium();
  await fs.mkdir(ARTIFACTS, { recursive: true });
  const pages: DashboardPage[] = [];

  const api: DashboardKit['api'] = async (method, urlPath, options = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? owner.apiKey}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.profile !== undefined) headers['service-profile'] = options.profile;
    const response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };

  const kit: DashboardKit = {
    service,
    database,
    baseUrl,
    ownerId: owner.ownerId,
    ownerKey: owner.apiKey,
    defaultProfileId: owner.defaultProfileId,
    browser,
    api,
    async control(method, path, body, status) {
      const response = await fetch(`${baseUrl}/sandbox/_control${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (status === undefined) expect(response.status, text).toBeLessThan(300);
      else expect(response.status, text).toBe(status);
      return (text === '' ? null : JSON.parse(text)) as never;
    },
    async open(options = {}) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      });
      const page = await context.newPage();
      const unanswered = new Set<Request>();
      page.on('request', (request) => unanswered.add(request));
      page.on('requestfinished', (request) => unanswered.delete(request));
      page.on('requestfailed', (request) => unanswered.delete(request));
      const opened: DashboardPage = {
        page,
        context,
        cspViolations: [],
        pageErrors: [],
        settled: () => expect.poll(() => unanswered.size).toBe(0),
        close: () => context.close(),
      };
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) opened.cspViolations.push(message.text());
      });
      page.on('pageerror', (error) => opened.pageErrors.push(String(error)));
      pages.push(opened);
      return opened;
    },
    async stop() {
      for (const p of pages) await p.context.close().catch(() => {});
      await browser.close();
      await service.stop();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  // Containers ready at once: a post's container is read first 2 s after it is made, a Threads
  // reply's as it is made, and Instagram's and Threads' next read comes only a minute later, as
  // they ask.
  await kit.control('PUT', '/settings/container_processing_seconds', { value: 0 });
  return kit;
}

/** Signs in through the dashboard's own page with `key`, and waits for the first screen. */
export async function signIn(kit: DashboardKit, page: Page, key: string): Promise<void> {
  await page.goto(`${kit.baseUrl}/dashboard`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Saves what the page shows as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation. axe is
 * evaluated through the DevTools protocol, which the page's policy (no inline script) does
 * not govern, so the page under test keeps its real policy.
 */
export async function expectAccessible(page: Page): Promise<void> {
  axeSource ??= await fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const page = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<unknown> };
      document: unknown;
    };
    const result = (await page.axe.run(page.document, { resultTypes: ['violations'] })) as {
      violations: AxeViolation[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 5),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/** Nothing the page did was refused by its policy, and no script failed. */
export function expectCleanRun(opened: DashboardPage): void {
  expect(opened.cspViolations, opened.cspViolations.join('\n')).toEqual([]);
  expect(opened.pageErrors, opened.pageErrors.join('\n')).toEqual([]);
}

/** One platform as GET /v1/platforms answers it, as far as the tests change it. */
export interface CatalogueEntry {
  platform: string;
  availability: string;
  publishing: { text: { max_length: number; counting: string; counting_description: string } };
}

/**
 * Makes `page` see the catalogue (GET /v1/platforms) changed by `change`, as a service of
 * another configuration or a newer version would answer it.
 */
export async function changeCatalogue(page: Page, change: (entry: CatalogueEntry) => void): Promise<void> {
  await page.route('**/v1/platforms', async (route) => {
    const response = await route.fetch();
    // Signed out, the page asks too (beside the session): that 401 passes as it is.
    if (!response.ok()) return await route.fulfill({ response });
    const body = (await response.json()) as { data: CatalogueEntry[] };
    for (const entry of body.data) change(entry);
    await route.fulfill({ response, json: body });
  });
}

const PLATFORM_BUTTONS = {
  instagram: 'Connect Instagram',
  threads: 'Connect Threads',
  tiktok: 'Connect TikTok',
  facebook: 'Connect Facebook Pages',
  linkedin: 'Connect LinkedIn',
  youtube: 'Connect YouTube',
  x: 'Connect X',
  google_business: 'Connect Google Business Profile',
  pinterest: 'Connect Pinterest',
  bluesky: 'Connect Bluesky',
} as const;

/**
 * Connects a sandbox account to `profileId` as a client would: a connect link made through
 * the API, walked in a browser page of its own (the link's page, the sandbox's permission
 * page, Allow), back to this service's own /healthz. Answers the account's id.
 */
export async function connectAccount(
  kit: DashboardKit,
  profileId: string,
  platform: keyof typeof PLATFORM_BUTTONS,
  username: string,
  /** Permissions the client unticks on the platform's page. */
  untick: string[] = [],
): Promise<string> {
  await kit.api('POST', '/v1/connect/redirect-origins', { body: { origin: kit.baseUrl } });
  const link = await kit.api<{ url: string }>('POST', `/v1/profiles/${profileId}/connect-links`, {
    body: { redirect_url: `${kit.baseUrl}/healthz`, platforms: [platform] },
  });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const client = await kit.open();
  try {
    await client.page.goto(link.body.url);
    if (platform === 'bluesky') {
      // Bluesky asks the handle first: it says which server the client signs in on.
      await client.page.getByLabel('Your Bluesky handle').fill(username);
      await client.page.getByRole('button', { name: PLATFORM_BUTTONS[platform], exact: true }).click();
    } else {
      await client.page.getByRole('link', { name: PLATFORM_BUTTONS[platform], exact: true }).click();
    }
    await client.page.waitForURL((u) => u.pathname.startsWith('/sandbox/'));
    await client.page.locator('#username').fill(username);
    for (const scope of untick) {
      await client.page.locator(`input[type=checkbox][name=granted][value="${scope}"]`).uncheck();
    }
    await client.page.getByRole('button', { name: 'Allow', exact: true }).click();
    // Where one login grants several pages (LinkedIn's member and organizations, YouTube's channels), the
    // hosted page asks which to connect: every one it offers, as it offers them ticked.
    await client.page.waitForURL((u) => u.pathname === '/healthz' || /^\/connect\/[^/]+\/pages$/.test(u.pathname));
    if (new URL(client.page.url()).pathname !== '/healthz') {
      await client.page.getByRole('button', { name: 'Connect selected pages', exact: true }).click();
      await client.page.waitForURL((u) => u.pathname === '/healthz');
    }
    const outcome = new URL(client.page.url()).searchParams;
    expect(outcome.get('status')).toBe('connected');
    return (outcome.get('account_ids') ?? '').split(',')[0] ?? '';
  } finally {
    await client.close();
  }
}

/** Waits, reloading the page, until an insights chart's total is `total` (the figures' sync is a job). */
export async function chartTotalBecomes(page: Page, chart: Locator, total: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        return await chart.locator('.total').textContent();
      },
      { timeout: 60_000 },
    )
    .toBe(total);
}

/** An insights chart's "Values by day" table, a row of cells each. */
export async function chartValuesByDay(chart: Locator): Promise<string[][]> {
  await chart.getByText('Values by day').click();
  return await chart
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => (r as unknown as { innerText: string }).innerText.split('\t')));
}
