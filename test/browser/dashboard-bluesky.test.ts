/**
 * Bluesky in the dashboard, as a newcomer meets it: connected through the hosted page (its handle
 * typed first), a reply in the inbox answered and hidden, a thread composed and published as a
 * reply chain, a video composed with its alt text, and the followers drawn from the service's readings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { videoFile } from '../helpers/media-files.ts';
import {
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
let accountId = '';
const HANDLE = 'studio.bsky.social';

interface Activity {
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

interface Comment {
  platform_comment_id: string;
  hidden: boolean;
  reply_status: string;
}

let replyId = '';
let postUri = '';

beforeAll(async () => {
  // A port known before the start, so the media's URLs name it and the adapter can read a video.
  kit = await startDashboardKit({ PORT: String(await freePort()) });
  await kit.control('POST', '/users', { platform: 'bluesky', username: HANDLE });
  accountId = await connectAccount(kit, kit.defaultProfileId, 'bluesky', HANDLE);
});

afterAll(async () => {
  await kit?.stop();
});

async function activity(): Promise<Activity[]> {
  return (await kit.control<{ data: Activity[] }>('GET', `/activity/bluesky/${HANDLE}`)).data;
}

describe('Bluesky in the dashboard', () => {
  it('composes a thread, published as a reply chain under its first post with its link as a facet', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: `@${HANDLE} (Bluesky)` }).check();
    await page.getByLabel('Text', { exact: true }).fill('Our new studio https://example.com/studio 1/2');
    const thread = page
      .getByRole('group', { name: 'Bluesky options' })
      .getByRole('group', { name: 'Thread (optional)' });
    await thread.getByRole('button', { name: 'Add thread post' }).click();
    await thread
      .getByRole('group', { name: 'Thread post 1' })
      .getByLabel('Text', { exact: true })
      .fill('The light 2/2');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    await expect
      .poll(
        async () =>
          (await activity())
            .filter((a) => a.action === 'publish')
            .map((a) => (a.detail.record as { text: string }).text),
        {
          timeout: 60_000,
        },
      )
      .toEqual(['Our new studio https://example.com/studio 1/2', 'The light 2/2']);
    const [first, second] = (await activity()).filter((a) => a.action === 'publish');
    postUri = first?.target_id ?? '';
    expect((first?.detail.record as { facets: unknown[] } | undefined)?.facets).toEqual([
      {
        index: { byteStart: 15, byteEnd: 41 },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/studio' }],
      },
    ]);
    expect((second?.detail.record as { reply: { root: { uri: string } } } | undefined)?.reply.root.uri).toBe(postUri);
    // The post's link is the first post's on bsky.app.
    const rkey = postUri.slice(postUri.lastIndexOf('/') + 1);
    const posts = await kit.api<{ data: { text: string; targets: { permalink: string | null }[] }[] }>(
      'GET',
      '/v1/posts?limit=100',
    );
    const made = posts.body.data.find((p) => p.text === 'Our new studio https://example.com/studio 1/2');
    expect(made?.targets[0]?.permalink).toMatch(
      new RegExp(`^https://bsky\\.app/profile/did:plc:[a-z2-7]{24}/post/${rkey}$`),
    );
    expectCleanRun(opened);
    await opened.close();
  });

  it("composes a video with its alt text: Bluesky's video service processes it and the post names its blob", async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: `@${HANDLE} (Bluesky)` }).check();
    await page.getByLabel('Text', { exact: true }).fill('The studio in motion');
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: 'studio.mp4', mimeType: 'video/mp4', buffer: await videoFile('mp4', { seconds: 2 }) });
    await page.getByText('uploaded').waitFor();
    const bluesky = page.getByRole('group', { name: 'Bluesky options' });
    await bluesky.getByLabel('Alt texts 1').fill('The studio seen from its door');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();
    await expect
      .poll(
        async () =>
          (await activity())
            .filter((a) => a.action === 'publish')
            .map((a) => a.detail.record as { text: string; embed?: { $type: string; alt?: string } })
            .filter((r) => r.text === 'The studio in motion')
            .map((r) => [r.embed?.$type, r.embed?.alt]),
        { timeout: 60_000 },
      )
      .toEqual([['app.bsky.embed.video', 'The studio seen from its door']]);
    expectCleanRun(opened);
    await opened.close();
  });

  it('answers and hides a reply in the inbox, through the threadgate on Bluesky', async () => {
    expect(postUri).not.toBe('');
    const made = await kit.control<{ id: string }>('POST', '/comments', {
      platform: 'bluesky',
      username: HANDLE,
      post_id: postUri,
      author_username: 'reader.bsky.social',
      text: 'Where is it?',
    });
    replyId = made.id;
    // Bluesky pushes no notices: a poll reads the reply.
    await expect
      .poll(
        async () => {
          // A read now (at most once a minute an account: a refused one waits for the next try).
          await kit.api('POST', '/v1/comments/sync', { body: { account_ids: [accountId] } });
          return (await kit.api<{ data: Comment[] }>('GET', '/v1/comments?limit=100')).body.data.find(
            (c) => c.platform_comment_id === replyId,
          );
        },
        { timeout: 120_000 },
      )
      .toBeDefined();
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/comments?account=${accountId}`);
    const comment = page.locator('li.comment', { hasText: 'Where is it?' });
    await comment.waitFor();
    await comment.getByLabel('Reply to reader.bsky.social').fill('Downtown!');
    await comment.getByRole('button', { name: 'Reply', exact: true }).click();
    await comment.getByText('Reply (').waitFor();
    await comment.getByRole('button', { name: 'Hide the comment by reader.bsky.social' }).click();
    await comment.getByRole('button', { name: 'Unhide the comment by reader.bsky.social' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'comments-bluesky');
    await expect
      .poll(async () => (await activity()).filter((a) => a.action !== 'publish').map((a) => [a.action, a.target_id]), {
        timeout: 30_000,
      })
      .toEqual(
        expect.arrayContaining([
          ['reply', replyId],
          ['hide', replyId],
        ]),
      );
    expectCleanRun(opened);
    await opened.close();
  });

  it("draws the account's followers as today's reading", async () => {
    const today = new Date().toISOString().slice(0, 10);
    await kit.control('PUT', '/insights', {
      platform: 'bluesky',
      username: HANDLE,
      metric: 'followersCount',
      values: [{ day: today, value: 321 }],
    });
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('link', { name: `@${HANDLE} (Bluesky)` }).click();
    await page.getByRole('radio', { name: '7 days' }).check();
    await page.getByRole('button', { name: 'Sync now' }).click();
    const chart = page.locator('figure.chart', { hasText: 'followers count' }).first();
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await chartValuesByDay(chart)).find(([d]) => d === today)?.[1];
        },
        { timeout: 60_000 },
      )
      .toBe('321');
    await expectAccessible(page);
    expectCleanRun(opened);
    await opened.close();
  });
});
