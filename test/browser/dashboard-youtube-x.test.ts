/**
 * YouTube and X in the dashboard, as a newcomer meets them: each connected through the hosted
 * page, its comments in the inbox answered and hidden (YouTube holds a comment for review; X
 * hides a reply), what the sandbox platform received, and its daily figures drawn.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { imageFile, videoFile } from '../helpers/media-files.ts';
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
const accounts: Record<'youtube' | 'x', string> = { youtube: '', x: '' };
const GOOGLE_USER = 'tube.maker';
/** The sandbox's Google user reaches one channel, named after it. */
const CHANNEL = `${GOOGLE_USER}.channel1`;
const X_USER = 'x.maker';
const DAY_MS = 24 * 3_600_000;

interface Activity {
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

interface Comment {
  id: string;
  platform_comment_id: string;
  hidden: boolean;
  reply_status: string;
}

function day(offset: number): string {
  return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

/** A comment by another person, made before the account is connected so the first poll reads it. */
async function commentBy(platform: 'youtube' | 'x', username: string, author: string, text: string): Promise<string> {
  return (await kit.control<{ id: string }>('POST', '/comments', { platform, username, author_username: author, text }))
    .id;
}

/** Signs in, and composes a post of `text` with a 4-second video on the YouTube channel: its options' group. */
async function composeVideo(page: Page, text: string, name: string): Promise<Locator> {
  await signIn(kit, page, kit.ownerKey);
  await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
  await page.getByRole('checkbox', { name: `@${CHANNEL} (YouTube)` }).check();
  await page.getByLabel('Text', { exact: true }).fill(text);
  await page.locator('input[type=file]').setInputFiles({
    name,
    mimeType: 'video/mp4',
    buffer: await videoFile('mp4', { seconds: 4 }),
  });
  await page.getByText('uploaded').waitFor();
  return page.getByRole('group', { name: 'YouTube options' });
}

const commentIds: Record<'youtube' | 'x', string> = { youtube: '', x: '' };

beforeAll(async () => {
  // A port known before the start, so the media's fetch URLs name it and YouTube can read a video.
  kit = await startDashboardKit({ PORT: String(await freePort()) });
  await kit.control('POST', '/users', { platform: 'youtube', username: GOOGLE_USER });
  await kit.control('POST', '/users', { platform: 'x', username: X_USER });
  commentIds.youtube = await commentBy('youtube', CHANNEL, 'viewer_one', 'Which camera is this?');
  commentIds.x = await commentBy('x', X_USER, 'reader_two', 'Where can I buy it?');
  // YouTube Analytics' views of the channel by day: one day without data.
  await kit.control('PUT', '/insights', {
    platform: 'youtube',
    username: CHANNEL,
    metric: 'views',
    values: [
      ...[-6, -5, -4, -3].map((d) => ({ day: day(d), value: null })),
      { day: day(-2), value: 40 },
      { day: day(-1), value: null },
      { day: day(0), value: 2 },
    ],
  });
  accounts.youtube = await connectAccount(kit, kit.defaultProfileId, 'youtube', GOOGLE_USER);
  accounts.x = await connectAccount(kit, kit.defaultProfileId, 'x', X_USER);
});

afterAll(async () => {
  await kit?.stop();
});

async function stored(platformId: string): Promise<Comment | undefined> {
  return (await kit.api<{ data: Comment[] }>('GET', '/v1/comments?limit=100')).body.data.find(
    (c) => c.platform_comment_id === platformId,
  );
}

async function platformSaw(platform: 'youtube' | 'x', username: string): Promise<unknown[][]> {
  const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/${platform}/${username}`);
  return activity.data.filter((a) => a.action !== 'publish').map((a) => [a.action, a.target_id]);
}

describe('YouTube and X in the dashboard', () => {
  it.each([
    {
      platform: 'youtube' as const,
      label: 'YouTube',
      user: GOOGLE_USER,
      author: 'viewer_one',
      text: 'Which camera is this?',
    },
    { platform: 'x' as const, label: 'X', user: X_USER, author: 'reader_two', text: 'Where can I buy it?' },
  ])(
    'answers and hides a comment on $label in the inbox, on the platform',
    async ({ platform, user, author, text }) => {
      // YouTube and X push no notices: the first poll after the connection reads the comment, at
      // the next minute's scheduling of polls.
      await expect.poll(() => stored(commentIds[platform]), { timeout: 90_000, interval: 500 }).toBeDefined();
      const opened = await kit.open();
      const { page } = opened;
      await signIn(kit, page, kit.ownerKey);
      await page.goto(`${kit.baseUrl}/dashboard/comments?account=${accounts[platform]}`);
      const comment = page.locator('li.comment', { hasText: text });
      await comment.waitFor();
      await comment.getByLabel(`Reply to ${author}`).fill(`Thanks, ${author}!`);
      await comment.getByRole('button', { name: 'Reply', exact: true }).click();
      await comment.getByText('Reply (').waitFor();
      await comment.getByRole('button', { name: `Hide the comment by ${author}` }).click();
      await comment.getByRole('button', { name: `Unhide the comment by ${author}` }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `comments-${platform}`);

      // YouTube's reply and moderation are the channel's; X's reply is a post in the conversation.
      const where = platform === 'youtube' ? CHANNEL : user;
      await expect
        .poll(() => platformSaw(platform, where), { timeout: 30_000 })
        .toEqual(
          expect.arrayContaining([
            ['reply', commentIds[platform]],
            ['hide', commentIds[platform]],
          ]),
        );
      expect(await stored(commentIds[platform])).toMatchObject({ hidden: true, reply_status: 'replied' });
      expectCleanRun(opened);
      await opened.close();
    },
  );

  it('composes a YouTube video with its required title and made-for-kids declaration, sent as the user made it', async () => {
    const opened = await kit.open();
    const { page } = opened;
    const youtube = await composeVideo(page, 'Behind the scenes of our studio.', 'studio.mp4');
    // YouTube requires a title and the made-for-kids declaration (the catalogue's required_options):
    // the title is asked for, and the declaration is a choice of yes or no, neither made for the user.
    const title = youtube.getByLabel('Title', { exact: true });
    expect(await title.getAttribute('required')).not.toBeNull();
    const declaration = youtube.getByRole('group', { name: 'Made for kids' });
    expect(await declaration.getByRole('radio').count()).toBe(2);
    expect(await declaration.getByRole('radio', { checked: true }).count()).toBe(0);
    await title.fill('Our studio');
    await declaration.getByRole('radio', { name: 'No' }).check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    const posts = await kit.api<{ data: { id: string; text: string; platforms: Record<string, unknown> }[] }>(
      'GET',
      '/v1/posts?limit=100',
    );
    const made = posts.body.data.find((p) => p.text === 'Behind the scenes of our studio.');
    expect(made?.platforms).toEqual({ youtube: { title: 'Our studio', made_for_kids: false } });
    expectCleanRun(opened);
    await opened.close();
  });

  it("composes a YouTube video whose subscribers are not notified: YouTube's default yes set to no reaches YouTube as notifySubscribers=false", async () => {
    const opened = await kit.open();
    const { page } = opened;
    const youtube = await composeVideo(page, 'A quiet upload for the archive.', 'archive.mp4');
    await youtube.getByLabel('Title', { exact: true }).fill('Archive');
    await youtube.getByRole('group', { name: 'Made for kids' }).getByRole('radio', { name: 'No' }).check();
    // Not required, and YouTube's default is yes: left to it at first, and set to no here.
    const notify = youtube.getByLabel('Notify subscribers (optional)');
    expect(await notify.locator('option').allTextContents()).toEqual(['Not set', 'Yes', 'No']);
    expect(await notify.inputValue()).toBe('');
    await notify.selectOption('No');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    const posts = await kit.api<{ data: { id: string; text: string; platforms: Record<string, unknown> }[] }>(
      'GET',
      '/v1/posts?limit=100',
    );
    const made = posts.body.data.find((p) => p.text === 'A quiet upload for the archive.');
    expect(made?.platforms).toEqual({
      youtube: { title: 'Archive', made_for_kids: false, notify_subscribers: false },
    });
    // What YouTube received once the upload is made (a job): the upload's notifySubscribers=false.
    await expect
      .poll(
        async () => {
          const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/youtube/${CHANNEL}`);
          return activity.data
            .filter((a) => a.action === 'publish' && a.detail.text === 'A quiet upload for the archive.')
            .map((a) => (a.detail.options as Record<string, unknown>).notify_subscribers);
        },
        { timeout: 60_000 },
      )
      .toEqual([false]);
    expectCleanRun(opened);
    await opened.close();
  });

  it("composes an X thread whose second post carries its own image, uploaded from the thread's group, and X receives it on that reply", async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: `@${X_USER} (X)` }).check();
    await page.getByLabel('Text', { exact: true }).fill('Our new studio, a thread 1/2');
    const thread = page.getByRole('group', { name: 'X options' }).getByRole('group', { name: 'Thread (optional)' });
    await thread.getByRole('button', { name: 'Add thread post' }).click();
    const second = thread.getByRole('group', { name: 'Thread post 1' });
    await second.getByLabel('Text', { exact: true }).fill('The light in the afternoon 2/2');
    const media = second.getByRole('group', { name: 'Media (optional)' });
    await media.getByLabel('Add media').setInputFiles({
      name: 'afternoon.png',
      mimeType: 'image/png',
      buffer: await imageFile('png'),
    });
    await media.getByRole('button', { name: 'Remove afternoon.png' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    // What X received: the first post without media, the reply to it with the image.
    await expect
      .poll(
        async () => {
          const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/x/${X_USER}`);
          const published = activity.data.filter(
            (a) => a.action === 'publish' && String(a.detail.text).includes('2/2'),
          );
          return published.map((a) => [a.detail.type, (a.detail.media_urls as unknown[]).length]);
        },
        { timeout: 60_000 },
      )
      .toEqual([['IMAGE', 1]]);
    const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/x/${X_USER}`);
    const first = activity.data.find((a) => a.action === 'publish' && a.detail.text === 'Our new studio, a thread 1/2');
    const reply = activity.data.find(
      (a) => a.action === 'publish' && a.detail.text === 'The light in the afternoon 2/2',
    );
    expect(first?.detail.media_urls).toEqual([]);
    expect(reply?.detail.options).toEqual({ reply_to: first?.target_id });
    expectCleanRun(opened);
    await opened.close();
  });

  it("draws a YouTube channel's daily views with a gap for a day without data", async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('link', { name: `@${CHANNEL} (YouTube)` }).click();
    await page.getByRole('radio', { name: '7 days' }).check();
    const chart = page.locator('figure.chart', { hasText: 'views' }).first();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await chartTotalBecomes(page, chart, '42');
    const cells = await chartValuesByDay(chart);
    expect(cells).toEqual([
      [day(-6), 'no data'],
      [day(-5), 'no data'],
      [day(-4), 'no data'],
      [day(-3), 'no data'],
      [day(-2), '40'],
      [day(-1), 'no data'],
      [day(0), '2'],
    ]);
    await expectAccessible(page);
    await screenshot(page, 'insights-youtube');
    expectCleanRun(opened);
    await opened.close();
  });
});
