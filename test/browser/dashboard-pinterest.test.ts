/**
 * Pinterest in the dashboard, as a newcomer meets it: connected through the hosted page, a pin
 * composed on a board chosen from the account's boards (read from Pinterest), what the sandbox
 * received, and the account's daily figures drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { imageFile } from '../helpers/media-files.ts';
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
let account = '';
const PINNER = 'pin.maker';
const DAY_MS = 24 * 3_600_000;

interface Activity {
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

function day(offset: number): string {
  return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

beforeAll(async () => {
  // A port known before the start, so the media's fetch URLs name it and Pinterest can read an image.
  kit = await startDashboardKit({ PORT: String(await freePort()) });
  await kit.control('POST', '/users', { platform: 'pinterest', username: PINNER });
  // The account's impressions by day: one day without data.
  await kit.control('PUT', '/insights', {
    platform: 'pinterest',
    username: PINNER,
    metric: 'IMPRESSION',
    values: [
      ...[-6, -5, -4, -3].map((d) => ({ day: day(d), value: null })),
      { day: day(-2), value: 30 },
      { day: day(-1), value: null },
      { day: day(0), value: 5 },
    ],
  });
  account = await connectAccount(kit, kit.defaultProfileId, 'pinterest', PINNER);
});

afterAll(async () => {
  await kit?.stop();
});

describe('Pinterest in the dashboard', () => {
  it("composes a pin on a board chosen from the account's boards, and Pinterest receives it there", async () => {
    const { pages } = await kit.control<{ pages: { id: string; name: string; username: string }[] }>(
      'GET',
      `/users/pinterest/${PINNER}`,
    );
    const recipes = pages.find((p) => p.name === 'Recipes');
    expect(recipes).toBeDefined();
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: `@${PINNER} (Pinterest)` }).check();
    await page.getByLabel('Text', { exact: true }).fill('Weeknight pasta, ready in 20 minutes.');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({
        name: 'pasta.png',
        mimeType: 'image/png',
        buffer: await imageFile('png'),
      });
    await page.getByText('uploaded').waitFor();
    const pinterest = page.getByRole('group', { name: 'Pinterest options' });
    // The board is required, and offered from the account's boards, under the account's name.
    const board = pinterest.getByLabel('Board', { exact: true });
    expect(await board.getAttribute('required')).not.toBeNull();
    await board.locator('option', { hasText: 'Recipes' }).waitFor({ state: 'attached' });
    expect(await board.locator('option').allTextContents()).toEqual(['Choose…', 'Ideas', 'Recipes']);
    expect(await board.locator('optgroup').getAttribute('label')).toBe(`@${PINNER} (Pinterest)`);
    await board.selectOption({ label: 'Recipes' });
    await pinterest.getByLabel('Title (optional)').fill('Quick pasta');
    await pinterest.getByLabel('Alt text (optional)').fill('A bowl of pasta with basil');
    await expectAccessible(page);
    await screenshot(page, 'compose-pinterest');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    // What Pinterest received: an image pin on the Recipes board, with its title and alt text.
    await expect
      .poll(
        async () => {
          const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/pinterest/${PINNER}`);
          return activity.data
            .filter((a) => a.action === 'publish' && a.detail.text === 'Weeknight pasta, ready in 20 minutes.')
            .map((a) => [a.detail.type, a.detail.options]);
        },
        { timeout: 60_000 },
      )
      .toEqual([
        ['IMAGE', { board_id: recipes?.id, title: 'Quick pasta', link: null, alt_text: 'A bowl of pasta with basil' }],
      ]);
    expectCleanRun(opened);
    await opened.close();
  });

  it("draws the account's daily views with a gap for a day without data", async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('link', { name: `@${PINNER} (Pinterest)` }).click();
    await page.getByRole('radio', { name: '7 days' }).check();
    const chart = page.locator('figure.chart', { hasText: 'views' }).first();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await chartTotalBecomes(page, chart, '35');
    expect(await chartValuesByDay(chart)).toEqual([
      [day(-6), 'no data'],
      [day(-5), 'no data'],
      [day(-4), 'no data'],
      [day(-3), 'no data'],
      [day(-2), '30'],
      [day(-1), 'no data'],
      [day(0), '5'],
    ]);
    expect(account).not.toBe('');
    await expectAccessible(page);
    expectCleanRun(opened);
    await opened.close();
  });
});
