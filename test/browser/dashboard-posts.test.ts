/**
 * The dashboard's posts in Chromium: composing a post for two accounts with an image and a
 * time in the user's zone, the per-platform counters, a problem shown at its field, the post
 * in the list and the calendar, and cancelling it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageFile } from '../helpers/media-files.ts';
import {
  changeCatalogue,
  connectAccount,
  type DashboardKit,
  expectAccessible,
  expectCleanRun,
  screenshot,
  signIn,
  startDashboardKit,
} from './dashboard-kit.ts';

let kit: DashboardKit;
let threadsId: string;
let instagramId: string;

interface Post {
  id: string;
  source: 'api' | 'platform';
  status: string;
  text: string | null;
  media_ids: string[];
  scheduled_at: string;
  platforms: Record<string, Record<string, unknown>>;
  targets: { account_id: string; status: string }[];
}

/** "Hi " (3), a waving hand with a skin tone (Threads: its 8 UTF-8 bytes; Instagram: 2 code points), " https://example.com" (20). */
const TEXT = 'Hi 👋🏽 https://example.com';

beforeAll(async () => {
  kit = await startDashboardKit();
  threadsId = await connectAccount(kit, kit.defaultProfileId, 'threads', 'poster.threads');
  instagramId = await connectAccount(kit, kit.defaultProfileId, 'instagram', 'poster.insta');
});

afterAll(async () => {
  await kit?.stop();
});

/**
 * The posts made through the API. The list also holds the accounts' own posts that the
 * comment poll met (`source: "platform"`), whenever it ran.
 */
async function postsMadeHere(): Promise<Post[]> {
  const listed = await kit.api<{ data: Post[] }>('GET', '/v1/posts?limit=100');
  return listed.body.data.filter((p) => p.source === 'api');
}

/** 09:30 in Paris on the Monday two weeks ahead, as the datetime input takes it, and the instant. */
function nextSlot(): { local: string; utc: string; day: string } {
  const now = new Date();
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 14));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  const day = monday.toISOString().slice(0, 10);
  // Paris is UTC+1 in winter and UTC+2 in summer: find the offset Chromium will apply that day.
  const parisHour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', hour12: false }).format(
      new Date(`${day}T12:00:00Z`),
    ),
  );
  const offset = parisHour - 12;
  const utc = new Date(`${day}T09:30:00Z`);
  utc.setUTCHours(utc.getUTCHours() - offset);
  return { local: `${day}T09:30`, utc: utc.toISOString(), day };
}

/** Waits, refreshing the post's page, until it links to the post on the platform. */
async function permalinkShown(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return await page.getByRole('link', { name: 'View on the platform' }).count();
      },
      { timeout: 60_000 },
    )
    .toBe(1);
}

describe('posts', () => {
  it('composes and schedules a post with an image, shows a problem at its field, lists it, and cancels it', async () => {
    const opened = await kit.open({ timezoneId: 'Europe/Paris' });
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post', level: 1 }).waitFor();

    await page.getByRole('checkbox', { name: '@poster.threads (Threads)' }).check();
    await page.getByRole('checkbox', { name: '@poster.insta (Instagram)' }).check();
    await page.getByLabel('Text', { exact: true }).fill(TEXT);
    const counters = page.locator('ul.counters');
    await expect.poll(() => counters.textContent()).toContain('Threads: 31 / 500');
    expect(await counters.textContent()).toContain('Instagram: 25 / 2200');

    await page.locator('input[type=file]').setInputFiles({
      name: 'autumn.png',
      mimeType: 'image/png',
      buffer: await imageFile('png', { width: 320, height: 240 }),
    });
    await page.getByRole('img', { name: 'Preview of autumn.png' }).waitFor();
    await page.getByText('uploaded').waitFor();

    const slot = nextSlot();
    await page.getByRole('radio', { name: 'Schedule' }).check();
    await page.getByLabel('Date and time (Europe/Paris)').fill(slot.local);
    await expect
      .poll(() => page.getByText(/^That is .* UTC\.$/).textContent())
      .toBe(
        `That is ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(slot.utc))} UTC.`,
      );

    // Threads refuses a topic tag with a period: the problem shows at that field.
    await page.getByLabel('Topic tag (optional)').fill('autumn.sale');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    const tagProblem = page.locator('fieldset', { hasText: 'Threads options' }).locator('.field-error');
    await expect.poll(() => tagProblem.textContent()).toContain('may not contain a period (.) or an ampersand (&)');
    expect(await page.getByRole('alert').textContent()).toContain('validation_failed');
    await expectAccessible(page);
    await screenshot(page, 'posts-composer-problem');
    expect(await postsMadeHere()).toEqual([]);

    await page.getByLabel('Topic tag (optional)').fill('autumn');
    // Each chosen platform's options, sent under its name as the API takes them.
    await page.getByLabel('Who may reply').selectOption('mentioned_only');
    await page.getByLabel('Post type').selectOption('feed');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    const made = await postsMadeHere();
    expect(made).toHaveLength(1);
    const post = made[0] as Post;
    expect(post).toMatchObject({ status: 'scheduled', text: TEXT, scheduled_at: slot.utc });
    expect(post.media_ids).toHaveLength(1);
    expect(post.targets.map((t) => t.account_id)).toEqual([threadsId, instagramId]);
    expect(post.platforms).toEqual({
      threads: { topic_tag: 'autumn', reply_control: 'mentioned_only' },
      instagram: { type: 'feed' },
    });
    const media = await kit.api<{ type: string; width: number; height: number }>(
      'GET',
      `/v1/media/${post.media_ids[0]}`,
    );
    expect(media.body).toMatchObject({ type: 'image', width: 320, height: 240 });
    await expectAccessible(page);
    await screenshot(page, 'post-scheduled');

    // In the list, and on its day in the month's calendar.
    await page.goto(`${kit.baseUrl}/dashboard/posts`);
    await page.getByRole('link', { name: TEXT }).waitFor();
    await page.goto(`${kit.baseUrl}/dashboard/posts?view=month&at=${slot.day}`);
    const dayCell = page.locator('ol.calendar > li', { hasText: TEXT });
    await dayCell.waitFor();
    expect(await dayCell.textContent()).toContain('09:30');
    await expectAccessible(page);
    await screenshot(page, 'posts-calendar-month');
    await page.getByRole('radio', { name: 'Week' }).check();
    await expect.poll(() => page.url()).toContain('view=week');
    await page.locator('ol.calendar.week > li', { hasText: TEXT }).waitFor();

    await page.locator('ol.calendar.week').getByRole('link', { name: TEXT }).click();
    await page.getByRole('button', { name: 'Cancel post' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel post' }).click();
    await expect.poll(async () => (await kit.api<Post>('GET', `/v1/posts/${post.id}`)).body.status).toBe('cancelled');
    await expect.poll(() => page.locator('main').textContent()).toContain('cancelled');
    expectCleanRun(opened);
    await opened.close();
  });

  it("offers each chosen platform's options and counts its text as the catalogue states, and sends a platform's own text", async () => {
    await connectAccount(kit, kit.defaultProfileId, 'tiktok', 'poster.tok');
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: '@poster.threads (Threads)' }).check();
    await page.getByRole('checkbox', { name: '@poster.tok (TikTok)' }).check();
    await page.getByLabel('Text', { exact: true }).fill(TEXT);
    // Threads counts an emoji as its UTF-8 bytes, up to 500; TikTok UTF-16 code units (the
    // waving hand and its skin tone 2 each), up to 2,200.
    const postCounters = page.locator('ul.counters').first();
    await expect.poll(() => postCounters.textContent()).toContain('Threads: 31 / 500');
    expect(await postCounters.textContent()).toContain('TikTok: 27 / 2200');

    // Threads' options (its own text, reply_control, topic_tag), as the posts docs name them.
    const threads = page.getByRole('group', { name: 'Threads options' });
    expect(await threads.locator('label').allTextContents()).toEqual([
      'Text for this platform (optional)',
      'Who may reply',
      'Topic tag (optional)',
    ]);
    expect(await threads.getByLabel('Who may reply').locator('option').allTextContents()).toEqual([
      'Not set',
      'everyone',
      'accounts_you_follow',
      'mentioned_only',
      'parent_post_author_only',
      'followers_only',
    ]);
    // A topic tag has 1 to 50 characters.
    expect(await threads.getByLabel('Topic tag (optional)').getAttribute('maxlength')).toBe('50');

    // TikTok's post settings and its commercial content disclosure: six fields beside its own text.
    const tiktok = page.getByRole('group', { name: 'TikTok options' });
    expect(await tiktok.locator('label').allTextContents()).toEqual([
      'Text for this platform (optional)',
      'Privacy level',
      'Turn off comments (optional)',
      'Turn off duets (optional)',
      'Turn off stitches (optional)',
      'Branded content (paid partnership) (optional)',
      'Your brand (promotional content) (optional)',
    ]);
    // Each yes/no TikTok does not require can be left to its default, or set to yes or to no.
    expect(await tiktok.getByLabel('Turn off comments (optional)').locator('option').allTextContents()).toEqual([
      'Not set',
      'Yes',
      'No',
    ]);
    const privacy = tiktok.getByLabel('Privacy level');
    // TikTok requires a privacy level (the catalogue's required_options): it asks for a choice.
    expect(await privacy.locator('option').allTextContents()).toEqual([
      'Choose…',
      'PUBLIC_TO_EVERYONE',
      'MUTUAL_FOLLOW_FRIENDS',
      'FOLLOWER_OF_CREATOR',
      'SELF_ONLY',
    ]);
    expect(await tiktok.textContent()).toContain('Required for TikTok: who may watch');
    await expectAccessible(page);
    await screenshot(page, 'posts-composer-options');

    // Branded content cannot be private: TikTok's problem shows under its box.
    await privacy.selectOption('SELF_ONLY');
    await tiktok.getByLabel('Branded content (paid partnership) (optional)').selectOption('Yes');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await expect
      .poll(() => tiktok.locator('.field-error').allTextContents())
      .toEqual([expect.stringContaining('Branded content visibility cannot be set to private.')]);

    // Threads' own text is counted in its field, and the post's text no longer for Threads.
    const own = 'Only for Threads 😀';
    await threads.getByLabel('Text for this platform (optional)').fill(own);
    await expect.poll(() => threads.locator('ul.counters').textContent()).toContain('Threads: 21 / 500');
    expect(await postCounters.textContent()).not.toContain('Threads:');
    expect(await postCounters.textContent()).toContain('TikTok: 27 / 2200');

    // TikTok's options stay in the form but are not sent once no TikTok account is chosen.
    await page.getByRole('checkbox', { name: '@poster.tok (TikTok)' }).uncheck();
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    const made = (await postsMadeHere()).filter((p) => p.platforms.threads?.text === own);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ text: TEXT, platforms: { threads: { text: own } } });
    expect(Object.keys(made[0]?.platforms ?? {})).toEqual(['threads']);
    expectCleanRun(opened);
    await opened.close();
  });

  it('counts in characters where the catalogue names a counting rule this page does not know, and says how the platform counts', async () => {
    const opened = await kit.open();
    const { page } = opened;
    // The catalogue as a newer service would answer it, with a rule of Threads' own this page has no table for.
    await changeCatalogue(page, (entry) => {
      if (entry.platform === 'threads') {
        entry.publishing.text = {
          ...entry.publishing.text,
          counting: 'grapheme_clusters_of_a_newer_service',
          counting_description: 'graphemes: 👋🏽 counts 1',
        };
      }
    });
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: '@poster.threads (Threads)' }).check();
    await page.getByLabel('Text', { exact: true }).fill(TEXT);
    // "Hi " 3, the waving hand and its skin tone 2 code points, " https://example.com" 20.
    await expect
      .poll(() => page.locator('ul.counters').first().textContent())
      .toBe(
        'Threads: 25 / 500 (counted here in characters; the platform counts graphemes: 👋🏽 counts 1, and its count decides)',
      );
    expectCleanRun(opened);
    await opened.close();
  });

  it("composes an X post with a poll and a thread from X's options, shows a thread post's problem at its field, and publishes the thread", async () => {
    await connectAccount(kit, kit.defaultProfileId, 'x', 'poster.x');
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: '@poster.x (X)' }).check();
    await page.getByLabel('Text', { exact: true }).fill('Which day suits you?');
    const x = page.getByRole('group', { name: 'X options' });

    // The poll: its two choices are there to fill in, and a third can be added (2 to 4).
    const poll = x.getByRole('group', { name: 'Poll (optional)' });
    const choices = poll.getByRole('group', { name: 'Choices' });
    expect(await choices.getByRole('textbox').count()).toBe(2);
    await choices.getByRole('textbox', { name: 'Choices 1' }).fill('Monday');
    await choices.getByRole('textbox', { name: 'Choices 2' }).fill('Friday');
    await choices.getByRole('button', { name: 'Add to choices' }).click();
    await choices.getByRole('textbox', { name: 'Choices 3' }).fill('Sunday');
    // A choice has at most 25 characters; the poll is open 5 to 10,080 minutes.
    expect(await choices.getByRole('textbox', { name: 'Choices 3' }).getAttribute('maxlength')).toBe('25');
    const duration = poll.getByLabel('Duration (minutes)');
    expect([await duration.getAttribute('min'), await duration.getAttribute('max')]).toEqual(['5', '10080']);
    await duration.fill('1440');

    // The thread: two posts after the first, each counted as X counts a post's text; the
    // second is left empty, and X's rule shows at it.
    const thread = x.getByRole('group', { name: 'Thread (optional)' });
    await thread.getByRole('button', { name: 'Add thread post' }).click();
    await thread.getByRole('button', { name: 'Add thread post' }).click();
    const second = thread.getByRole('group', { name: 'Thread post 1' });
    await second.getByLabel('Text', { exact: true }).fill('Vote before Friday: https://example.com/a-long-address');
    // 20 characters (the space after the colon among them) and a link counted as 23.
    await expect.poll(() => second.locator('ul.counters').textContent()).toContain('X: 43 / 280');
    await expectAccessible(page);
    await screenshot(page, 'posts-composer-x-thread');
    await page.getByRole('button', { name: 'Publish now' }).click();
    const third = thread.getByRole('group', { name: 'Thread post 2' });
    await expect.poll(() => third.locator('.field-error').allTextContents()).not.toEqual([]);
    expect(await second.locator('.field-error').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).count()).toBe(0);

    // Removed, the thread is the first post and one more.
    await thread.getByRole('button', { name: 'Remove thread post 2' }).click();
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    const made = (await postsMadeHere()).filter((p) => p.text === 'Which day suits you?');
    expect(made).toHaveLength(1);
    expect(made[0]?.platforms).toEqual({
      x: {
        poll: { options: ['Monday', 'Friday', 'Sunday'], duration_minutes: 1440 },
        thread: [{ text: 'Vote before Friday: https://example.com/a-long-address' }],
      },
    });
    await permalinkShown(page);
    expectCleanRun(opened);
    await opened.close();
  });

  it('publishes now and shows the permalink', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: '@poster.threads (Threads)' }).check();
    await page.getByLabel('Text', { exact: true }).fill('Published from the dashboard');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    await permalinkShown(page);
    const link = page.getByRole('link', { name: 'View on the platform' });
    const posts = await kit.api<{ data: (Post & { targets: { permalink: string | null }[] })[] }>(
      'GET',
      '/v1/posts?status=published',
    );
    const published = posts.body.data.find((p) => p.text === 'Published from the dashboard');
    expect(await link.getAttribute('href')).toBe(published?.targets[0]?.permalink);
    await screenshot(page, 'post-published');
    expectCleanRun(opened);
    await opened.close();
  });

  it("shows a failed target's error in words with the platform's code, and retries it", async () => {
    // Threads refuses the next publish of this account, as it refuses a bad request.
    await kit.control(
      'POST',
      '/faults',
      {
        platform: 'threads',
        username: 'poster.threads',
        error: 'invalid_request',
        trigger: 'publish',
      },
      201,
    );
    const created = await kit.api<Post>('POST', '/v1/posts', {
      body: { account_ids: [threadsId], text: 'Refused once, then published' },
    });
    expect(created.status).toBe(201);
    await expect
      .poll(async () => (await kit.api<Post>('GET', `/v1/posts/${created.body.id}`)).body.status, { timeout: 60_000 })
      .toBe('failed');
    const failed = (
      await kit.api<Post & { targets: { error: { message: string; code: string; platform_code: string | null } }[] }>(
        'GET',
        `/v1/posts/${created.body.id}`,
      )
    ).body.targets[0]?.error;

    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/${created.body.id}`);
    const row = page.locator('tbody tr').first();
    await row.waitFor();
    expect(await row.textContent()).toContain(failed?.message ?? '?');
    expect(await row.textContent()).toContain('invalid_request');
    // Threads' own code for a bad request (Graph's #100), kept beside the kind of failure.
    expect(failed?.platform_code).toBe('100');
    expect(await row.textContent()).toContain('platform code 100');
    expect(await row.textContent()).toContain('The platform refused the post as it is: change it, then post again.');
    await expectAccessible(page);
    await screenshot(page, 'post-failed');

    await page.getByRole('button', { name: 'Retry failed targets' }).click();
    await permalinkShown(page);
    expect((await kit.api<Post>('GET', `/v1/posts/${created.body.id}`)).body.status).toBe('published');
    expectCleanRun(opened);
    await opened.close();
  });
});
