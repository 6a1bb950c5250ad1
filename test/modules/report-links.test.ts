import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import { fillInsightHistory, type InsightDeps, refreshInsights } from '../../src/modules/insights/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { elementsOf, textsOf } from '../helpers/html.ts';
import { imageFile } from '../helpers/media-files.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, setSandboxFigures } from '../helpers/sandbox-accounts.ts';
import { insightSyncState } from '../helpers/tables.ts';

/**
 * Report links (docs/reports.md): a read-only page of a profile's report for a client without an
 * account, over a period fixed when the link is made, counted when opened, until it expires or is
 * revoked; over real HTTP with the service's own jobs reading the sandbox's figures.
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;
let deps: InsightDeps;
let profileId: string;
const DAY_MS = 86_400_000;
let start: number;
const day = (offset: number) => new Date(start + offset * DAY_MS).toISOString().slice(0, 10);
const NAME = 'Bakery <b>&</b> "Co"';

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, { platforms: sandbox.platforms });
  owner = await t.createOwner();
  deps = {
    db: t.database.db,
    platforms: () => sandbox.platforms,
    secretKey: t.secretKey,
    log: pino({ level: 'silent' }),
  };
  start = Date.parse(`${now().toISOString().slice(0, 10)}T00:00:00Z`);
  const profile = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: auth(owner.key),
    payload: { name: NAME },
  });
  profileId = profile.json().id;
  const threads = await connectSandboxAccount(t, sandbox, owner, 'threads', 'linked_threads', { profileId });
  for (const metric of ['views', 'likes', 'replies', 'reposts', 'quotes']) {
    const values: [string, number | null][] = [];
    for (let offset = -12; offset <= 0; offset++)
      values.push([day(offset), metric === 'views' && offset === -5 ? 70 : null]);
    await setSandboxFigures(sandbox, 'threads', threads, metric, values);
  }
  const later = new Date(now().getTime() + 30 * DAY_MS);
  await t.database.db.insert(insightSyncState).values({
    accountId: threads.id,
    nextRefreshAt: later,
    historyFrom: day(-12),
    historyCursor: day(-3),
    history: 'reading',
    readTo: day(-3),
    historyNextAt: later,
  });
  await fillInsightHistory(deps, threads.id);
  await refreshInsights(deps, threads.id);
}, 120_000);
afterEach(() => resetClock());
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

function api(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>, key = owner.key) {
  return t.app.inject({ method, url, headers: auth(key), ...(payload === undefined ? {} : { payload }) });
}

async function newLink(payload: Record<string, unknown> = { from: day(-6), to: day(-4) }) {
  const res = await api('POST', `/v1/profiles/${profileId}/report-links`, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as {
    id: string;
    url: string;
    from: string;
    to: string;
    status: string;
    created_at: string;
    expires_at: string;
  };
}

const pathOf = (url: string) => new URL(url).pathname;

async function linkRecord(id: string) {
  const list = await api('GET', `/v1/profiles/${profileId}/report-links`);
  expect(list.statusCode).toBe(200);
  return (list.json().data as { id: string; opens: number; status: string; last_opened_at: string | null }[]).find(
    (l) => l.id === id,
  );
}

describe('report links', () => {
  it("opens a branded, read-only page of the profile's report, counting each opening", async () => {
    await t.app.inject({
      method: 'PATCH',
      url: '/v1/connect/settings',
      headers: auth(owner.key),
      payload: { brand_name: 'Studio <i>Nord</i>' },
    });
    const link = await newLink();
    expect(link).toMatchObject({ from: day(-6), to: day(-4), status: 'open', opens: 0, last_opened_at: null });
    expect(link.url).toMatch(/^http:\/\/[^/]+\/reports\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(30 * DAY_MS);

    const page = await t.app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/,
    );
    expect(page.headers['cache-control']).toBe('no-store');
    // Names are text: the profile's and the brand's, as written.
    expect(textsOf(page.body, 'h1')).toEqual([NAME]);
    expect(textsOf(page.body, 'p')).toContain('Studio <i>Nord</i>');
    expect([...elementsOf(page.body, 'b'), ...elementsOf(page.body, 'i')]).toEqual([]);
    // The Threads account's views: 70 on one day of the period, none the period before.
    const figures = textsOf(page.body, 'li').find((text) => text.startsWith('Views'));
    expect(figures).toBe('Views70before: no datano change to show');
    expect(elementsOf(page.body, 'polyline').length + elementsOf(page.body, 'circle').length).toBeGreaterThan(0);
    expect(elementsOf(page.body, 'script')).toEqual([]);
    expect((await linkRecord(link.id))?.opens).toBe(1);

    // The PDF from the page: the same report, branded; fetching it is not another opening.
    const pdf = await t.app.inject({ method: 'GET', url: `${pathOf(link.url)}/report.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const read = await pdfText(pdf.rawPayload);
    expect(read.pages[0]).toContain(`Studio <i>Nord</i> ${NAME}`);
    await t.app.inject({ method: 'GET', url: pathOf(link.url) });
    const record = await linkRecord(link.id);
    expect(record?.opens).toBe(2);
    expect(record?.last_opened_at).not.toBeNull();
  });

  it("shows the owner's logo from the link's own address, and nothing there without one", async () => {
    const link = await newLink();
    const none = await t.app.inject({ method: 'GET', url: `${pathOf(link.url)}/logo` });
    expect(none.statusCode).toBe(404);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/v1/connect/settings/logo',
      headers: { ...auth(owner.key), 'content-type': 'image/png' },
      payload: await imageFile('png', { width: 40, height: 20 }),
    });
    expect(set.statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(elementsOf(page.body, 'img').map((i) => i.attributes.src)).toEqual([`${pathOf(link.url)}/logo`]);
    expect(page.headers['content-security-policy']).toContain("img-src 'self'");
    const logo = await t.app.inject({ method: 'GET', url: `${pathOf(link.url)}/logo` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    await t.app.inject({ method: 'DELETE', url: '/v1/connect/settings/logo', headers: auth(owner.key) });
  });

  it('stops working once revoked or expired, saying why, and never for a made-up token', async () => {
    const revoked = await newLink();
    const res = await api('DELETE', `/v1/profiles/${profileId}/report-links/${revoked.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: revoked.id, status: 'revoked' });
    const again = await api('DELETE', `/v1/profiles/${profileId}/report-links/${revoked.id}`);
    expect(again.json().revoked_at).toBe(res.json().revoked_at);
    const page = await t.app.inject({ method: 'GET', url: pathOf(revoked.url) });
    expect(page.statusCode).toBe(410);
    expect(textsOf(page.body, 'h1')).toEqual(['This link was withdrawn']);
    expect((await t.app.inject({ method: 'GET', url: `${pathOf(revoked.url)}/report.pdf` })).statusCode).toBe(410);

    const short = await newLink({ expires_in_days: 1 });
    // A link checker's HEAD is no opening.
    expect((await t.app.inject({ method: 'HEAD', url: pathOf(short.url) })).statusCode).toBe(200);
    expect((await linkRecord(short.id))?.opens).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: pathOf(short.url) })).statusCode).toBe(200);
    advanceClock(DAY_MS);
    const expired = await t.app.inject({ method: 'GET', url: pathOf(short.url) });
    expect(expired.statusCode).toBe(410);
    expect(textsOf(expired.body, 'h1')).toEqual(['This link has expired']);
    expect((await linkRecord(short.id))?.status).toBe('expired');
    for (const part of ['report.pdf', 'logo']) {
      expect((await t.app.inject({ method: 'GET', url: `${pathOf(short.url)}/${part}` })).statusCode, part).toBe(410);
    }

    for (const path of ['/reports/not-a-token', `/reports/${'A'.repeat(43)}`]) {
      const unknown = await t.app.inject({ method: 'GET', url: path });
      expect(unknown.statusCode, path).toBe(404);
      expect(textsOf(unknown.body, 'h1')).toEqual(['This link does not work']);
    }
  });

  it('takes the period and lifetime as the report does, refusing bad ones and other profiles, changing nothing', async () => {
    const before = (await api('GET', `/v1/profiles/${profileId}/report-links?limit=100`)).json().data.length;
    const refusals: [Record<string, unknown>, string][] = [
      [{ from: day(-1), to: day(-2) }, 'invalid_range'],
      [{ from: '2026-02-30' }, 'invalid_range'],
      [{ expires_in_days: 0 }, 'validation_failed'],
      [{ expires_in_days: 91 }, 'validation_failed'],
      [{ url: 'x' }, 'validation_failed'],
    ];
    for (const [payload, code] of refusals) {
      const res = await api('POST', `/v1/profiles/${profileId}/report-links`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    const other = await t.createOwner();
    expect((await api('POST', `/v1/profiles/${profileId}/report-links`, {}, other.key)).statusCode).toBe(404);
    const theirs = await newLink();
    const foreign = await api(
      'DELETE',
      `/v1/profiles/${other.defaultProfileId}/report-links/${theirs.id}`,
      undefined,
      other.key,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('report_link_not_found');
    expect((await t.app.inject({ method: 'GET', url: pathOf(theirs.url) })).statusCode).toBe(200);
    const after = (await api('GET', `/v1/profiles/${profileId}/report-links?limit=100`)).json().data.length;
    expect(after).toBe(before + 1);
    // Without a period, last calendar month, fixed when the link is made.
    const monthly = await newLink({});
    const today = new Date(now());
    expect(monthly.from).toBe(
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 10),
    );
  });

  it('limits the pages one address may ask for in a minute', async () => {
    const from = { remoteAddress: '203.0.113.7' };
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/reports/${'B'.repeat(43)}`, ...from });
      expect(res.statusCode).toBe(404);
    }
    const limited = await t.app.inject({ method: 'GET', url: `/reports/${'B'.repeat(43)}`, ...from });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await t.app.inject({ method: 'GET', url: `/reports/${'B'.repeat(43)}` })).statusCode).toBe(404);
  });

  it('opens nothing once its profile is deleted', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 'Leaving' },
    });
    const leaving = res.json().id as string;
    const link = await api('POST', `/v1/profiles/${leaving}/report-links`, {});
    expect(link.statusCode).toBe(201);
    expect((await api('DELETE', `/v1/profiles/${leaving}`)).statusCode).toBe(202);
    const page = await t.app.inject({ method: 'GET', url: pathOf(link.json().url) });
    expect(page.statusCode).toBe(404);
  });
});
