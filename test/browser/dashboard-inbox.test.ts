/**
 * The dashboard's comments inbox in Chromium, with comments made on the sandbox platform by
 * other people: markup in a comment shown as text, a new comment appearing without a reload,
 * a reply and a hide that the platform receives, and a reply deleted once confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

const USER = 'inbox.threads';
/** Written by another person: it must stay text. */
const MARKUP = '<img src=x onerror="document.title=\'owned\'">Love it & more';

interface Activity {
  action: string;
  target_id: string;
  detail: Record<string, unknown>;
}

interface Comment {
  id: string;
  text: string;
  hidden: boolean;
  reply_status: string;
  platform_comment_id: string;
}

async function commentByAFan(text: string): Promise<string> {
  const made = await kit.control<{ id: string }>('POST', '/comments', {
    platform: 'threads',
    username: USER,
    author_username: 'a_fan',
    text,
  });
  return made.id;
}

beforeAll(async () => {
  kit = await startDashboardKit();
  accountId = await connectAccount(kit, kit.defaultProfileId, 'threads', USER);
});

afterAll(async () => {
  await kit?.stop();
});

describe('the comments inbox', () => {
  it('shows comments as text, shows a new one without a reload, and replies to and hides one on the platform', async () => {
    const firstId = await commentByAFan(MARKUP);
    // The account's posts carry comments of their own (the poll after the connection reads
    // them); the ones made here are told apart by their platform ids.
    const stored = async (platformId: string) =>
      (await kit.api<{ data: Comment[] }>('GET', '/v1/comments?limit=100')).body.data.find(
        (c) => c.platform_comment_id === platformId,
      );
    await expect.poll(() => stored(firstId), { timeout: 20_000 }).toBeDefined();

    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.getByRole('link', { name: 'Comments' }).click();
    const first = page.locator('li.comment', { hasText: 'Love it & more' });
    await first.waitFor();
    // The platforms whose comments the service reads: not TikTok (its comments need TikTok's API
    // for Business); LinkedIn's organization posts', YouTube's videos' comments, X's and Bluesky's replies, by polling.
    expect(await page.getByLabel('Platform', { exact: true }).locator('option').allTextContents()).toEqual([
      'Every platform',
      'Instagram',
      'Threads',
      'Facebook Pages',
      'LinkedIn',
      'YouTube',
      'X',
      'Google Business Profile',
      'Bluesky',
    ]);
    expect(await first.locator('.comment-text').first().textContent()).toBe(MARKUP);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.title()).toBe('Switchboard dashboard');

    // Another person comments while the page is open.
    await commentByAFan('A second thought');
    await page.locator('li.comment', { hasText: 'A second thought' }).waitFor({ timeout: 30_000 });
    // Newest first.
    const texts = await page.locator('li.comment > .comment-text').allTextContents();
    expect(texts.indexOf('A second thought')).toBeLessThan(texts.indexOf(MARKUP));
    await expectAccessible(page);
    await screenshot(page, 'comments-inbox');

    await first.getByLabel('Reply to a_fan').fill('Thank you!');
    await first.getByRole('button', { name: 'Reply', exact: true }).click();
    await first.getByText('Reply (').waitFor();
    await first.getByRole('button', { name: /^Hide/ }).click();
    await first.getByRole('button', { name: /^Unhide/ }).waitFor();

    // Threads publishes a reply once it has processed it: the platform gets it a moment later.
    const platformSaw = async () => {
      const activity = await kit.control<{ data: Activity[] }>('GET', `/activity/threads/${USER}`);
      return activity.data.map((a) => [a.action, a.target_id, a.detail.message ?? null]);
    };
    await expect.poll(platformSaw, { timeout: 30_000 }).toEqual(
      expect.arrayContaining([
        ['hide', firstId, null],
        ['reply', firstId, 'Thank you!'],
      ]),
    );

    const replied = await stored(firstId);
    expect(replied).toMatchObject({ text: MARKUP, hidden: true, reply_status: 'replied' });
    await expect.poll(() => first.textContent(), { timeout: 30_000 }).toContain('Reply (sent)');

    // The inbox's own status, and a filter by it.
    await first.getByLabel('Reply status').selectOption('dismissed');
    await expect
      .poll(async () => (await kit.api<Comment>('GET', `/v1/comments/${replied?.id}`)).body.reply_status)
      .toBe('dismissed');
    await page.goto(`${kit.baseUrl}/dashboard/comments?reply_status=unreplied&account=${accountId}`);
    await page.locator('li.comment', { hasText: 'A second thought' }).waitFor();
    expect(await page.locator('li.comment', { hasText: 'Love it & more' }).count()).toBe(0);
    const statuses = await page.locator('li.comment .badge').allTextContents();
    expect(statuses.filter((b) => ['replied', 'dismissed'].includes(b))).toEqual([]);
    await screenshot(page, 'comments-filtered');
    expectCleanRun(opened);
    await opened.close();
  });
});

describe('deleting a reply from the inbox', () => {
  it('asks first, then deletes the reply on the platform and shows it deleted; cancelling deletes nothing', async () => {
    const user = 'inbox.instagram';
    const instagramId = await connectAccount(kit, kit.defaultProfileId, 'instagram', user);
    const made = await kit.control<{ id: string }>('POST', '/comments', {
      platform: 'instagram',
      username: user,
      author_username: 'a_buyer',
      text: 'Is it waterproof?',
    });
    const stored = async () =>
      (await kit.api<{ data: Comment[] }>('GET', `/v1/comments?account_id=${instagramId}&limit=100`)).body.data.find(
        (c) => c.platform_comment_id === made.id,
      );
    await kit.api('POST', '/v1/comments/sync', { body: { account_ids: [instagramId] } });
    await expect.poll(stored, { timeout: 20_000 }).toBeDefined();
    const comment = (await stored()) as Comment;
    const sent = await kit.api<{ id: string; platform_comment_id: string }>(
      'POST',
      `/v1/comments/${comment.id}/reply`,
      { body: { text: 'Yes, to 50 m' } },
    );
    expect(sent.status).toBe(201);

    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/comments?account=${instagramId}`);
    const item = page.locator('li.comment', { hasText: 'Is it waterproof?' });
    await item.getByText('Reply (sent)').waitFor();
    const deletions = async () =>
      (await kit.control<{ data: Activity[] }>('GET', `/activity/instagram/${user}`)).data
        .filter((a) => a.action === 'delete_comment')
        .map((a) => a.target_id);

    // Cancelled: nothing reaches the platform.
    await item.getByRole('button', { name: 'Delete the reply to a_buyer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this reply?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await deletions()).toEqual([]);

    await item.getByRole('button', { name: 'Delete the reply to a_buyer' }).click();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Delete reply' }).click();
    await item.getByText('Reply (deleted)').waitFor();
    // The dialog closes after the answer is shown; its own "Delete reply" is not the reply's.
    await dialog.waitFor({ state: 'hidden' });
    expect(await item.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await deletions()).toEqual([sent.body.platform_comment_id]);
    const shown = await kit.api<{ replies: { id: string; status: string }[] }>('GET', `/v1/comments/${comment.id}`);
    expect(shown.body.replies).toEqual([expect.objectContaining({ id: sent.body.id, status: 'deleted' })]);
    await screenshot(page, 'comments-reply-deleted');
    expectCleanRun(opened);
    await opened.close();
  });
});
