/**
 * The dashboard's insights in Chromium: an account's chart over 7 days with a day the
 * platform reported no data for, drawn as a gap and listed as "no data" (never 0), its
 * total, and Sync now with the wait the 5-minute rule asks for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chartTotalBecomes,
  chartValuesByDay,
  connectAccount,
  type DashboardKit,
  expectAccessible,
  expectCleanRun,
  screenshot,
  signIn,
  startDashboardKit,
} from './dashboard-kit.ts';

let kit: DashboardKit;
let accountId: string;
const USER = 'charted.threads';
const DAY_MS = 24 * 3_600_000;

function day(offset: number): string {
  return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

beforeAll(async () => {
  kit = await startDashboardKit();
  // The figures are the platform's before the account is connected, so every reading of
  // the service (the history, a refresh, a sync) gets these and no made-up ones.
  await kit.control('POST', '/users', { platform: 'threads', username: USER });
  await kit.control('PUT', '/insights', {
    platform: 'threads',
    username: USER,
    metric: 'views',
    values: [
      ...[-6, -5, -4, -3].map((d) => ({ day: day(d), value: null })),
      { day: day(-2), value: 12 },
      { day: day(-1), value: null },
      { day: day(0), value: 7 },
    ],
  });
  accountId = await connectAccount(kit, kit.defaultProfileId, 'threads', USER);
});

afterAll(async () => {
  await kit?.stop();
});

describe('insights', () => {
  it("draws an account's chart with a gap for a day without data, and tells the wait before another sync", async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Insights' }).click();
    // Instagram, Threads, LinkedIn, YouTube, X, Google Business Profile, Pinterest and Bluesky answer insights; TikTok's need its API for Business, and Facebook Pages' are not read.
    await page
      .getByText(
        'Daily figures of Instagram, Threads, LinkedIn, YouTube, X, Google Business Profile, Pinterest and Bluesky accounts (the service reads none on TikTok and Facebook Pages).',
        { exact: true },
      )
      .waitFor();
    await page.getByRole('link', { name: '@charted.threads (Threads)' }).click();
    await page.getByRole('radio', { name: '7 days' }).check();
    // The date boxes follow the range chosen.
    await expect.poll(() => page.getByLabel('From', { exact: true }).inputValue()).toBe(day(-6));
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(day(0));
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText('A refresh is queued').waitFor();

    const chart = page.locator('figure.chart', { hasText: 'views' }).first();
    await chartTotalBecomes(page, chart, '19');
    // uPlot draws once the figures are on screen, at its box's width, and draws again at the
    // box's new width when the window changes (on a narrow window the charts stand one under
    // the other, each wider).
    const widths = async () => ({
      box: Math.round((await chart.locator('.plot').boundingBox())?.width ?? 0),
      canvas: Math.round((await chart.locator('.plot canvas').first().boundingBox())?.width ?? 0),
    });
    await chart.locator('.plot canvas').first().waitFor();
    await expect
      .poll(async () => {
        const now = await widths();
        return now.box > 0 && now.canvas === now.box;
      })
      .toBe(true);
    const before = await widths();
    await page.setViewportSize({ width: 700, height: 900 });
    await expect
      .poll(async () => {
        const now = await widths();
        return now.box !== before.box && now.canvas === now.box;
      })
      .toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    const cells = await chartValuesByDay(chart);
    expect(cells).toEqual([
      [day(-6), 'no data'],
      [day(-5), 'no data'],
      [day(-4), 'no data'],
      [day(-3), 'no data'],
      [day(-2), '12'],
      [day(-1), 'no data'],
      [day(0), '7'],
    ]);
    const api = await kit.api<{ metrics: { views: { values: { value: number | null }[] } } }>(
      'GET',
      `/v1/accounts/${accountId}/insights?from=${day(-6)}&to=${day(0)}&metrics=views`,
    );
    expect(api.body.metrics.views.values.map((v) => v.value)).toEqual([null, null, null, null, 12, null, 7]);
    await expectAccessible(page);
    await screenshot(page, 'insights-account');

    // A second sync within 5 minutes: the page says how long to wait.
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/^Figures can be synced once every 5 minutes: try again in \d+ min \(\d+ s\)\.$/).waitFor();
    expectCleanRun(opened);
    await opened.close();
  });

  it('says which permission is missing and leads to the reconnect link', async () => {
    const withoutInsights = await connectAccount(kit, kit.defaultProfileId, 'instagram', 'no.insights', [
      'instagram_business_manage_insights',
    ]);
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/insights/${withoutInsights}`);
    const notice = page.locator('.notice', { hasText: 'has not granted' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('instagram_business_manage_insights');
    const link = notice.getByRole('link');
    expect(await link.getAttribute('href')).toBe(`/dashboard/profiles/${kit.defaultProfileId}`);
    await expectAccessible(page);
    await screenshot(page, 'insights-missing-permission');
    await link.click();
    const row = page.locator('tbody tr', { hasText: 'no.insights' });
    await row.waitFor();
    // The connected account is offered a reconnect link, as the notice says.
    await row.getByRole('button', { name: 'Reconnect link for @no.insights (Instagram)' }).click();
    await page.getByRole('heading', { name: 'Reconnect link for @no.insights (Instagram)', level: 2 }).waitFor();
    expectCleanRun(opened);
    await opened.close();
  });
});
