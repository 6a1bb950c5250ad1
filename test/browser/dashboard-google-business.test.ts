/**
 * Google Business Profile in the dashboard, as a newcomer meets it: its locations chosen on the
 * hosted page, a review in the inbox with its stars and answered (no hiding), an event composed
 * with its schedule and button as Google received it, and a location's daily calls drawn.
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
const GOOGLE_USER = 'corner.bakery';
/** The sandbox's Google user manages two locations; the first, its name's "Store 1". */
const LOCATION = `${GOOGLE_USER}.location1`;
const LOCATION_NAME = 'Corner Bakery Store 1';
const ACCOUNT_LABEL = `${LOCATION_NAME} (Google Business Profile)`;
const DAY_MS = 24 * 3_600_000;
let accountId = '';
let reviewId = '';

interface Activity {
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

function day(offset: number): string {
  return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

beforeAll(async () => {
  kit = await startDashboardKit();
  await kit.control('POST', '/users', { platform: 'google_business', username: GOOGLE_USER });
  reviewId = (
    await kit.control<{ id: string }>('POST', '/comments', {
      platform: 'google_business',
      username: LOCATION,
      author_username: 'croissant_fan',
      text: 'The almond croissants are worth the queue.',
      rating: 4,
    })
  ).id;
  // The Performance API's call clicks of the location: one day without data.
  await kit.control('PUT', '/insights', {
    platform: 'google_business',
    username: LOCATION,
    metric: 'CALL_CLICKS',
    values: [
      ...[-6, -5, -4, -3].map((d) => ({ day: day(d), value: null })),
      { day: day(-2), value: 7 },
      { day: day(-1), value: null },
      { day: day(0), value: 0 },
    ],
  });
  await connectAccount(kit, kit.defaultProfileId, 'google_business', GOOGLE_USER);
  const listed = await kit.api<{ data: { id: string; display_name: string | null; platform: string }[] }>(
    'GET',
    '/v1/accounts?limit=100',
  );
  accountId =
    listed.body.data.find((a) => a.platform === 'google_business' && a.display_name === LOCATION_NAME)?.id ?? '';
});

afterAll(async () => {
  await kit?.stop();
});

describe('Google Business Profile in the dashboard', () => {
  it('connects each location offered on the hosted page as an account', async () => {
    const listed = await kit.api<{
      data: { display_name: string | null; platform: string; platform_user_id: string }[];
    }>('GET', '/v1/accounts?limit=100');
    const locations = listed.body.data.filter((a) => a.platform === 'google_business');
    expect(locations.map((a) => a.display_name).sort()).toEqual(['Corner Bakery Store 1', 'Corner Bakery Store 2']);
    for (const location of locations) expect(location.platform_user_id).toMatch(/^accounts\/\d+\/locations\/\d+$/);
  });

  it('shows a review with its stars in the inbox, answers it on Google, and offers no hiding', async () => {
    const stored = async () =>
      (
        await kit.api<{ data: { platform_comment_id: string; rating: number | null }[] }>(
          'GET',
          '/v1/comments?limit=100',
        )
      ).body.data.find((c) => c.platform_comment_id.endsWith(`/reviews/${reviewId}`));
    // Reviews are polled: the first poll after the connection reads it.
    await expect.poll(stored, { timeout: 90_000 }).toBeDefined();
    expect((await stored())?.rating).toBe(4);
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/comments?account=${accountId}`);
    const comment = page.locator('li.comment', { hasText: 'The almond croissants are worth the queue.' });
    await comment.waitFor();
    await comment.getByText('Rated 4 of 5 stars').waitFor();
    expect(await comment.locator('.rating [aria-hidden=true]').textContent()).toBe('★★★★☆');
    expect(await comment.getByRole('button', { name: 'Hide the comment by croissant_fan' }).count()).toBe(0);
    await comment.getByLabel('Reply to croissant_fan').fill('Thank you, see you Saturday!');
    await comment.getByRole('button', { name: 'Reply', exact: true }).click();
    await comment.getByText('Reply (').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'comments-google-business');
    await expect
      .poll(async () => {
        const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/google_business/${LOCATION}`);
        return activity.data.filter((a) => a.action === 'reply').map((a) => [a.target_id, a.detail.text]);
      })
      .toEqual([[reviewId, 'Thank you, see you Saturday!']]);
    expectCleanRun(opened);
    await opened.close();
  });

  it('composes an event with its schedule and a booking button, as Google received it', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: ACCOUNT_LABEL }).check();
    await page.getByLabel('Text', { exact: true }).fill('Bread-making class for beginners.');
    const options = page.getByRole('group', { name: 'Google Business Profile options' });
    await options.getByLabel('Post type').selectOption('event');
    const event = options.getByRole('group', { name: 'Event (optional)' });
    await event.getByLabel('Title', { exact: true }).fill('Bread class');
    await event.getByLabel('Starts', { exact: true }).fill('2026-12-05T10:00');
    await event.getByLabel('Ends', { exact: true }).fill('2026-12-05T12:00');
    const action = options.getByRole('group', { name: 'Call to action (optional)' });
    await action.getByLabel('Button').selectOption('BOOK');
    await action.getByLabel('Link (optional)').fill('https://bakery.example/class');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    const posts = await kit.api<{ data: { text: string; platforms: Record<string, unknown> }[] }>(
      'GET',
      '/v1/posts?limit=100',
    );
    expect(posts.status, JSON.stringify(posts.body)).toBe(200);
    expect(posts.body.data.find((p) => p.text === 'Bread-making class for beginners.')?.platforms).toEqual({
      google_business: {
        type: 'event',
        event: { title: 'Bread class', start: '2026-12-05T10:00', end: '2026-12-05T12:00' },
        call_to_action: { type: 'BOOK', url: 'https://bakery.example/class' },
      },
    });
    await expect
      .poll(
        async () => {
          const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/google_business/${LOCATION}`);
          return activity.data
            .filter((a) => a.action === 'publish' && a.detail.text === 'Bread-making class for beginners.')
            .map((a) => [a.detail.type, a.detail.options]);
        },
        { timeout: 60_000 },
      )
      .toEqual([
        [
          'EVENT',
          {
            event: {
              title: 'Bread class',
              schedule: {
                startDate: { year: 2026, month: 12, day: 5 },
                startTime: { hours: 10, minutes: 0, seconds: 0, nanos: 0 },
                endDate: { year: 2026, month: 12, day: 5 },
                endTime: { hours: 12, minutes: 0, seconds: 0, nanos: 0 },
              },
            },
            callToAction: { actionType: 'BOOK', url: 'https://bakery.example/class' },
          },
        ],
      ]);
    expectCleanRun(opened);
    await opened.close();
  });

  it("draws a location's daily calls, 0 apart from a day without data", async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('link', { name: ACCOUNT_LABEL }).click();
    await page.getByRole('radio', { name: '7 days' }).check();
    const chart = page.locator('figure.chart', { hasText: 'calls' }).first();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await chartTotalBecomes(page, chart, '7');
    expect(await chartValuesByDay(chart)).toEqual([
      [day(-6), 'no data'],
      [day(-5), 'no data'],
      [day(-4), 'no data'],
      [day(-3), 'no data'],
      [day(-2), '7'],
      [day(-1), 'no data'],
      [day(0), '0'],
    ]);
    await expectAccessible(page);
    expectCleanRun(opened);
    await opened.close();
  });
});
