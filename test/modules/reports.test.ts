import { parse } from 'csv-parse/sync';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { dayNumber, dayText } from '../../src/days.ts';
import { accountById } from '../../src/modules/accounts/index.ts';
import { fillInsightHistory, type InsightDeps, refreshInsights } from '../../src/modules/insights/index.ts';
import { ensurePlatformPosts } from '../../src/modules/posts/index.ts';
import { periodOf } from '../../src/modules/reports/service.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile, multipartUpload } from '../helpers/media-files.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount, setSandboxFigures } from '../helpers/sandbox-accounts.ts';
import { insightSyncState } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * A profile's report (docs/reports.md) over real HTTP: daily figures and post figures set in
 * the sandbox platforms, read by the service's own insight jobs, then added up per account and
 * profile, beside the period before; the expected figures are worked out here by hand from
 * what was set.
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;
let deps: InsightDeps;

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
});
afterAll(async () => {
  resetClock();
  await t.close();
  await sandbox.close();
});

const DAY_MS = 86_400_000;
/** Today when the file started: the days below are counted from it, however the clock moves later. */
let start: number;

function day(offset: number): string {
  return new Date(start + offset * DAY_MS).toISOString().slice(0, 10);
}

let users = 0;

async function newProfile(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function connected(platform: Platform, profileId: string, granted?: string[]): Promise<SandboxAccount> {
  users += 1;
  return await connectSandboxAccount(t, sandbox, owner, platform, `rep_${platform}_${users}`, {
    profileId,
    ...(granted === undefined ? {} : { granted }),
  });
}

/** Figures on the sandbox platform by day offset from today (a post's with `postId`). */
async function setFigures(
  platform: Platform,
  account: SandboxAccount,
  metric: string,
  values: [number, number | null][],
  postId?: string,
): Promise<void> {
  const byDay = values.map(([offset, value]): [string, number | null] => [day(offset), value]);
  await setSandboxFigures(sandbox, platform, account, metric, byDay, postId);
}

/** A metric's every day from 12 days ago to today: the values given by day offset, null (no data) on the others. */
async function setDays(
  platform: Platform,
  account: SandboxAccount,
  metric: string,
  values: Record<number, number>,
): Promise<void> {
  const days: [number, number | null][] = [];
  for (let offset = -12; offset <= 0; offset++) days.push([offset, values[offset] ?? null]);
  await setFigures(platform, account, metric, days);
}

/** A post's lifetime figures on the platform, by the platform's metric name. */
async function setPostFigures(
  platform: Platform,
  account: SandboxAccount,
  postId: string | undefined,
  figures: Record<string, number | null>,
): Promise<void> {
  for (const [metric, value] of Object.entries(figures)) {
    await setFigures(platform, account, metric, [[0, value]], postId as string);
  }
}

/**
 * Has the service read the account's days from `from` (an offset) to today, as its history job
 * and refresh do, and no others: the schedule is kept away, so the test alone decides the reads.
 */
async function readDays(accountId: string, from: number): Promise<void> {
  const later = new Date(now().getTime() + 30 * DAY_MS);
  await t.database.db.insert(insightSyncState).values({
    accountId,
    nextRefreshAt: later,
    historyFrom: day(from),
    historyCursor: day(-3),
    history: 'reading',
    readTo: day(-3),
    historyNextAt: later,
  });
  await fillInsightHistory(deps, accountId);
  await refreshInsights(deps, accountId);
}

/** The sandbox's own posts of the user (made with it), newest last. */
async function platformPostIds(platform: Platform, account: SandboxAccount): Promise<string[]> {
  const { body: user } = await sandbox.control('GET', `/users/${platform}/${account.sandboxUser}`);
  return (user.posts as { id: string }[]).map((p) => p.id);
}

/** A JPEG in the profile's media: Instagram posts need one. */
const photos = new Map<string, string>();

async function uploadedPhoto(profileId: string): Promise<string> {
  const kept = photos.get(profileId);
  if (kept !== undefined) return kept;
  const { payload, headers } = multipartUpload(await imageFile('jpeg'), { filename: 'bread.jpg' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(owner.key, profileId), ...headers },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  photos.set(profileId, res.json().id as string);
  return res.json().id as string;
}

/** A post made through the API on `accountId`, then published (as publishing leaves it) on `offset`'s day at noon. */
async function published(
  profileId: string,
  accountId: string,
  text: string,
  platformPostId: string,
  offset: number,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(owner.key),
    payload: {
      account_ids: [accountId],
      text,
      media_ids: [await uploadedPhoto(profileId)],
      scheduled_at: new Date(now().getTime() + DAY_MS).toISOString(),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const postId = res.json().id as string;
  await t.database.pool.query(
    `update post_targets set status = 'published', platform_post_id = $2, permalink = $3, published_at = $4
     where post_id = $1`,
    [postId, platformPostId, `https://example.test/p/${platformPostId}`, `${day(offset)}T12:00:00Z`],
  );
  await t.database.pool.query(`update posts set status = 'published' where id = $1`, [postId]);
  return postId;
}

function get(url: string, key = owner.key) {
  return t.app.inject({ method: 'GET', url, headers: auth(key) });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
type Json = any;

describe('a profile with Instagram, Threads, TikTok and an Instagram account without the insights permission', () => {
  let profileId: string;
  let instagram: SandboxAccount;
  let threads: SandboxAccount;
  let withoutInsights: SandboxAccount;
  let tiktok: SandboxAccount;
  let best: string;
  let second: string;
  let seen: string;
  // The period: 3 days, a week ago; the previous period is the 3 days before it.
  const from = () => day(-6);
  const to = () => day(-4);

  beforeAll(async () => {
    start = Date.parse(`${now().toISOString().slice(0, 10)}T00:00:00Z`);
    profileId = await newProfile('Bakery & Co');
    instagram = await connected('instagram', profileId);
    threads = await connected('threads', profileId);
    withoutInsights = await connected('instagram', profileId, [
      'instagram_business_basic',
      'instagram_business_content_publish',
      'instagram_business_manage_comments',
    ]);
    tiktok = await connected('tiktok', profileId);

    // The sandbox makes up figures for days nobody set: every day read here is set, null where there is no data.
    // Instagram: the previous period's views 100, no data, 50; the period's 200, no data, 100.
    await setDays('instagram', instagram, 'views', { [-9]: 100, [-7]: 50, [-6]: 200, [-4]: 100 });
    await setDays('instagram', instagram, 'total_interactions', { [-9]: 10, [-6]: 0, [-5]: 5 });
    // Threads' engagement is its likes, replies, reposts and quotes; nothing in the previous period.
    await setDays('threads', threads, 'views', { [-6]: 40 });
    await setDays('threads', threads, 'likes', { [-6]: 3 });
    await setDays('threads', threads, 'replies', { [-5]: 2 });
    await setDays('threads', threads, 'reposts', {});
    await setDays('threads', threads, 'quotes', {});
    // Set on the platform, but the account has not granted the service its insights.
    await setDays('instagram', withoutInsights, 'views', { [-6]: 999 });

    const [igFirst, igSecond, igThird] = await platformPostIds('instagram', instagram);
    const [thFirst, thSecond] = await platformPostIds('threads', threads);
    const [hiddenPost] = await platformPostIds('instagram', withoutInsights);
    best = await published(profileId, instagram.id, 'Our new sourdough', igFirst as string, -5);
    await published(profileId, instagram.id, 'Last week', igSecond as string, -8);
    second = await published(profileId, threads.id, 'Opening hours', thFirst as string, -6);
    await published(profileId, withoutInsights.id, 'Hidden figures', hiddenPost as string, -5);
    // A post made on Threads itself, which the service saw (a comment's post): ranked, not counted.
    const account = await accountById(t.database.db, threads.id);
    const platformPosts = await t.database.db.transaction((tx) =>
      ensurePlatformPosts(tx, account as NonNullable<typeof account>, [{ id: thSecond as string }]),
    );
    seen = platformPosts.get(thSecond as string) as string;
    await t.database.pool.query(`update post_targets set published_at = $2 where post_id = $1`, [
      seen,
      `${day(-4)}T08:00:00Z`,
    ]);
    // A post with no figures read yet is not ranked.
    await published(profileId, instagram.id, 'Too new to measure', igThird as string, -4);

    await setPostFigures('instagram', instagram, igFirst, { total_interactions: 40 });
    await setPostFigures('instagram', instagram, igSecond, { total_interactions: 90 });
    await setPostFigures('threads', threads, thFirst, { likes: 10, replies: 5, reposts: 0, quotes: 0, shares: null });
    await setPostFigures('threads', threads, thSecond, {
      likes: 7,
      replies: null,
      reposts: null,
      quotes: null,
      shares: null,
    });
    await setPostFigures('instagram', withoutInsights, hiddenPost, { total_interactions: 500 });

    for (const account of [instagram, threads, withoutInsights]) await readDays(account.id, -12);
    // Read before the post was made: it has no figures yet.
    await t.database.pool.query(
      `delete from post_insights where post_id in (select post_id from post_targets where platform_post_id = $1)`,
      [igThird],
    );
  }, 120_000);

  it("answers each account's figures beside the previous period's, and the profile's sums", async () => {
    const res = await get(`/v1/profiles/${profileId}/report?from=${from()}&to=${to()}`);
    expect(res.statusCode, res.body).toBe(200);
    const report: Json = res.json();
    expect(report).toMatchObject({
      profile_id: profileId,
      profile_name: 'Bakery & Co',
      from: day(-6),
      to: day(-4),
      previous: { from: day(-9), to: day(-7) },
    });
    expect(report.accounts.map((a: Json) => a.account_id)).toEqual([
      instagram.id,
      threads.id,
      withoutInsights.id,
      tiktok.id,
    ]);
    const [ig, th, hidden, tk] = report.accounts;

    expect(ig).toMatchObject({
      platform: 'instagram',
      not_offered: [],
      missing_permission: null,
      // Followers are read as they are now: none was read in these days.
      followers: { start: null, value: null, previous: null, change: null, change_ratio: null },
      views: { value: 300, previous: 150, change: 150, change_ratio: 1 },
      engagement: { value: 5, previous: 10, change: -5, change_ratio: -0.5 },
      posts_published: { value: 2, previous: 1, change: 1, change_ratio: 1 },
    });
    expect(ig.days).toEqual([
      { date: day(-6), followers: null, views: 200, engagement: 0, posts_published: 0 },
      { date: day(-5), followers: null, views: null, engagement: 5, posts_published: 1 },
      { date: day(-4), followers: null, views: 100, engagement: null, posts_published: 1 },
    ]);
    expect(th).toMatchObject({
      platform: 'threads',
      views: { value: 40, previous: null, change: null, change_ratio: null },
      engagement: { value: 5, previous: null, change: null, change_ratio: null },
      // The post seen on Threads is not one the service published.
      posts_published: { value: 1, previous: 0, change: 1, change_ratio: null },
    });
    expect(hidden).toMatchObject({
      missing_permission: 'instagram_business_manage_insights',
      views: { value: null, previous: null },
      engagement: { value: null, previous: null },
      posts_published: { value: 1, previous: 0 },
    });
    expect(hidden.days.map((d: Json) => d.views)).toEqual([null, null, null]);
    expect(tk).toMatchObject({
      platform: 'tiktok',
      not_offered: ['followers', 'views', 'engagement'],
      missing_permission: null,
      views: { value: null, previous: null },
      posts_published: { value: 0, previous: 0, change: 0, change_ratio: null },
    });

    // The profile's change is like for like: Threads had no figures the period before, so its
    // views and engagement add to the value but not to the change.
    expect(report.totals).toEqual({
      followers: { start: null, value: null, previous: null, change: null, change_ratio: null },
      views: { value: 340, previous: 150, change: 150, change_ratio: 1 },
      engagement: { value: 10, previous: 10, change: -5, change_ratio: -0.5 },
      posts_published: { value: 4, previous: 1, change: 3, change_ratio: 3 },
    });
  });

  it('ranks the period’s posts by engagement as each platform counts it, leaving out posts without figures', async () => {
    const report: Json = (await get(`/v1/profiles/${profileId}/report?from=${from()}&to=${to()}`)).json();
    expect(report.top_posts.map((p: Json) => [p.post_id, p.engagement])).toEqual([
      [best, 40],
      [second, 15],
      [seen, 7],
    ]);
    expect(report.top_posts[0]).toMatchObject({
      account_id: instagram.id,
      platform: 'instagram',
      source: 'api',
      text: 'Our new sourdough',
      published_at: `${day(-5)}T12:00:00.000Z`,
      figures: { total_interactions: 40 },
    });
    expect(report.top_posts[0].permalink).toMatch(/^https:\/\/example\.test\/p\//);
    expect(report.top_posts[1].figures).toMatchObject({ likes: 10, replies: 5, shares: null });
    expect(report.top_posts[2]).toMatchObject({ source: 'platform', platform: 'threads' });
  });

  it('gives the same days as CSV, one row per account and day, no data as an empty cell', async () => {
    const res = await get(`/v1/profiles/${profileId}/report.csv?from=${from()}&to=${to()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="report-${profileId}-${day(-6)}-${day(-4)}.csv"`,
    );
    const rows: string[][] = parse(res.body);
    expect(rows[0]).toEqual([
      'date',
      'account_id',
      'platform',
      'username',
      'display_name',
      'followers',
      'views',
      'engagement',
      'posts_published',
    ]);
    expect(rows).toHaveLength(1 + 4 * 3);
    const igRows = rows.filter((r) => r[1] === instagram.id).map((r) => [r[0], r[5], r[6], r[7], r[8]]);
    expect(igRows).toEqual([
      [day(-6), '', '200', '0', '0'],
      [day(-5), '', '', '5', '1'],
      [day(-4), '', '100', '', '1'],
    ]);
    expect(rows.find((r) => r[1] === instagram.id)?.[3]).toBe(instagram.username);
  });

  it("gives the report as a PDF with the brand's name, its figures, every account and the best posts, readable as text", async () => {
    const brand = await t.app.inject({
      method: 'PATCH',
      url: '/v1/connect/settings',
      headers: auth(owner.key),
      payload: { brand_name: 'Agence Étoile' },
    });
    expect(brand.statusCode, brand.body).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${profileId}/report.pdf?from=${from()}&to=${to()}`,
      headers: auth(owner.key),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="report-${profileId}-${day(-6)}-${day(-4)}.pdf"`,
    );
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await pdfText(res.rawPayload);
    expect(pdf.title).toBe(`Bakery & Co: report ${day(-6)} to ${day(-4)}`);
    expect(pdf.author).toBe('Agence Étoile');
    // The overview with its charts on the first page, the accounts and best posts on the second.
    expect(pdf.pages).toHaveLength(2);
    const [first, second] = pdf.pages as [string, string];
    expect(first).toContain('Agence Étoile');
    expect(first).toContain('Bakery & Co');
    // The profile's views: 340 against 150, +150 (+100.0%) like for like.
    expect(first).toMatch(/Views 340 before: 150 \+150 \(\+100\.0%\)/);
    expect(first).toMatch(/Engagement 10 before: 10 −5 \(−50\.0%\)/);
    expect(first).toMatch(/Followers no data before: no data no change to show/);
    for (const title of ['Followers by day', 'Views by day', 'Engagement by day']) expect(first).toContain(title);
    expect(pdf.pages.join(' ')).toContain('Posts published by day');
    // No followers were known: that chart says so instead of drawing an empty axis.
    expect(first).toContain('Followers by day No data in this period. Views by day');
    // The charts are vectors: paths, and no picture (the owner has no logo).
    expect(pdf.drawn[0]?.images).toBe(0);
    expect(pdf.drawn[0]?.paths).toBeGreaterThan(20);
    expect(first).toContain(`@${instagram.username} (Instagram)`);
    expect(second).toContain(`@${tiktok.username} (TikTok) not offered not offered not offered 0 ±0`);
    expect(second).toContain('figures not granted (instagram_business_manage_insights)');
    expect(second).toMatch(/Best posts 1\. Our new sourdough .*40 engagement/);
    expect(second).toContain('2. Opening hours');
    expect(second).toContain('page 2 of 2');

    // With the owner's logo, the first page shows it: one picture, above the brand's name.
    const logo = await t.app.inject({
      method: 'PUT',
      url: '/v1/connect/settings/logo',
      headers: { ...auth(owner.key), 'content-type': 'image/png' },
      payload: await imageFile('png', { width: 200, height: 100 }),
    });
    expect(logo.statusCode, logo.body).toBe(200);
    const branded = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${profileId}/report.pdf?from=${from()}&to=${to()}`,
      headers: auth(owner.key),
    });
    const withLogo = await pdfText(branded.rawPayload);
    expect(withLogo.drawn.map((page) => page.images)).toEqual([1, 0]);
    expect(withLogo.pages[0]).toContain('Agence Étoile Bakery & Co');
  });

  it('refuses a bad period with invalid_range, and a profile the caller does not see with 404', async () => {
    for (const query of [
      `from=${day(-1)}&to=${day(-2)}`,
      'from=2026-02-30',
      'to=yesterday',
      `from=${day(-400)}&to=${day(0)}`,
    ]) {
      const res = await get(`/v1/profiles/${profileId}/report?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('invalid_range');
    }
    const unknown = await get(`/v1/profiles/${profileId}/report?month=1`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'validation_failed', details: [{ field: 'query.month' }] });
    // The previous period of the first days a date can name would start before them.
    const first = await get(`/v1/profiles/${profileId}/report?from=0001-01-01&to=0001-01-10`);
    expect(first.statusCode).toBe(400);
    expect(first.json().error.code).toBe('invalid_range');
    const other = await t.createOwner();
    const refused = await get(`/v1/profiles/${profileId}/report`, other.key);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('profile_not_found');
    for (const format of ['csv', 'pdf']) {
      const refusedFile = await get(`/v1/profiles/${profileId}/report.${format}`, other.key);
      expect(refusedFile.statusCode, format).toBe(404);
      expect(refusedFile.json().error.code, format).toBe('profile_not_found');
    }
  });

  it('covers last calendar month when no period is given, beside the month before of the same length', async () => {
    const report: Json = (await get(`/v1/profiles/${profileId}/report`)).json();
    const today = new Date(now());
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
    const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
    const length = last.getUTCDate();
    expect(report.from).toBe(first.toISOString().slice(0, 10));
    expect(report.to).toBe(last.toISOString().slice(0, 10));
    expect(report.previous.to).toBe(new Date(first.getTime() - DAY_MS).toISOString().slice(0, 10));
    expect(report.previous.from).toBe(new Date(first.getTime() - length * DAY_MS).toISOString().slice(0, 10));
    expect(report.accounts[0].days).toHaveLength(length);
  });
});

describe('the period', () => {
  const on = (today: string, query: { from?: string; to?: string } = {}) => {
    const period = periodOf(query, dayNumber(today) as number);
    return [dayText(period.from), dayText(period.to)];
  };

  it('is last calendar month when none is asked, whatever its length and across a new year', () => {
    expect(on('2026-11-26')).toEqual(['2026-10-01', '2026-10-31']);
    expect(on('2026-01-01')).toEqual(['2025-12-01', '2025-12-31']);
    expect(on('2026-03-31')).toEqual(['2026-02-01', '2026-02-28']);
    expect(on('2024-03-15')).toEqual(['2024-02-01', '2024-02-29']);
  });

  it('is the 30 days to `to` (today by default) when only one end is given, as the insights endpoints take it', () => {
    expect(on('2026-11-26', { to: '2026-11-10' })).toEqual(['2026-10-12', '2026-11-10']);
    expect(on('2026-11-26', { from: '2026-11-20' })).toEqual(['2026-11-20', '2026-11-26']);
  });
});

describe('followers', () => {
  it('are the first and last count known in the period, against the last known before it', async () => {
    start = Date.parse(`${now().toISOString().slice(0, 10)}T00:00:00Z`);
    const profileId = await newProfile('Followers');
    const x = await connected('x', profileId);
    const counts = [500, 520, 550];
    for (const [i, count] of counts.entries()) {
      if (i > 0) await moveTime(t.database.pool, DAY_MS);
      await setFigures('x', x, 'followers_count', [[i, count]]);
      if (i === 0) await readDays(x.id, -1);
      else await refreshInsights(deps, x.id);
    }
    const report: Json = (await get(`/v1/profiles/${profileId}/report?from=${day(1)}&to=${day(2)}`)).json();
    const [account] = report.accounts;
    // X gives an account its followers only.
    expect(account.not_offered).toEqual(['views', 'engagement']);
    expect(account.followers).toEqual({ start: 520, value: 550, previous: 500, change: 50, change_ratio: 0.1 });
    expect(account.days.map((d: Json) => d.followers)).toEqual([520, 550]);
    expect(report.totals.followers).toEqual({ start: 520, value: 550, previous: 500, change: 50, change_ratio: 0.1 });
  });
});
