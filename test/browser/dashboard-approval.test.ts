/**
 * The client's approval in the dashboard, in Chromium: the profile's setting, a post made on
 * the New post screen that needs approval, its approval links made and revoked on the post's
 * screen, the client deciding on the hosted page at the link's URL, and the decision and the
 * client's comment (markup kept as text) shown on the post's screen and in the list.
 */
import type { Page } from 'playwright-core';
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
let threadsId: string;

/** What the client writes when asking for changes: markup that must stay text. */
const MARKUP_COMMENT = 'Make it <b>bold</b> & <img src=x> shorter\nplease';
const TEXT = 'Autumn collection, for approval';

interface Post {
  id: string;
  source: string;
  status: string;
  text: string | null;
  approval: {
    status: string;
    decided_at: string | null;
    approval_link_id: string | null;
    comment: string | null;
  } | null;
  targets: { account_id: string; status: string }[];
}

interface ApprovalLink {
  id: string;
  status: string;
  decision: string | null;
  comment: string | null;
}

beforeAll(async () => {
  kit = await startDashboardKit();
  threadsId = await connectAccount(kit, kit.defaultProfileId, 'threads', 'approver.threads');
});

afterAll(async () => {
  await kit?.stop();
});

async function postNow(id: string): Promise<Post> {
  const answer = await kit.api<Post>('GET', `/v1/posts/${id}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

async function linksOf(postId: string): Promise<ApprovalLink[]> {
  const answer = await kit.api<{ data: ApprovalLink[] }>('GET', `/v1/posts/${postId}/approval-links`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function approvalRequired(): Promise<boolean> {
  const profile = await kit.api<{ post_approval_required: boolean }>('GET', `/v1/profiles/${kit.defaultProfileId}`);
  return profile.body.post_approval_required;
}

/** Clicks "Create approval link" and answers the URL shown once. */
async function createLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create approval link' }).click();
  const shown = page.locator('.revealed code.secret');
  await shown.waitFor();
  const url = (await shown.textContent()) ?? '';
  expect(url).toMatch(new RegExp(`^${kit.baseUrl}/approve/[A-Za-z0-9_-]{43}$`));
  return url;
}

/** The client's side: a browser of their own opens the link's page and decides there. */
async function decideAsClient(url: string, decision: 'Approve' | 'Request changes', comment?: string): Promise<void> {
  const client = await kit.open();
  try {
    const answer = await client.page.goto(url);
    expect(answer?.status()).toBe(200);
    await client.page.getByRole('heading', { level: 1 }).waitFor();
    if (comment !== undefined) await client.page.getByLabel('Comment (needed to request changes)').fill(comment);
    const [posted] = await Promise.all([
      client.page.waitForResponse((r) => r.url() === url && r.request().method() === 'POST'),
      client.page.getByRole('button', { name: decision, exact: true }).click(),
    ]);
    expect(posted.status()).toBeLessThan(400);
  } finally {
    await client.close();
  }
}

describe('post approval', () => {
  it("toggles the profile's setting, which the New post screen's approval box starts from", async () => {
    expect(await approvalRequired()).toBe(false);
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${kit.defaultProfileId}`);
    const setting = page.getByRole('checkbox', { name: "New posts need the client's approval" });
    await setting.waitFor();
    expect(await setting.isChecked()).toBe(false);
    await setting.check();
    await expect.poll(approvalRequired).toBe(true);
    await page.getByText('On: a new post waits until the client approves it').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'profile-post-approval');
    await page.reload();
    await expect.poll(() => setting.isChecked()).toBe(true);

    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    const box = page.getByRole('checkbox', { name: "Needs the client's approval" });
    await page.getByText("The profile's setting: needed.").waitFor();
    expect(await box.isChecked()).toBe(true);

    await page.goto(`${kit.baseUrl}/dashboard/profiles/${kit.defaultProfileId}`);
    await setting.waitFor();
    await setting.uncheck();
    await expect.poll(approvalRequired).toBe(false);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByText("The profile's setting: not needed.").waitFor();
    expect(await box.isChecked()).toBe(false);
    expectCleanRun(opened);
    await opened.close();
  });

  it('makes a post that needs approval, links it, and shows the changes the client asked for as text, then the approval', async () => {
    const opened = await kit.open({ timezoneId: 'UTC' });
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/posts/new`);
    await page.getByRole('checkbox', { name: '@approver.threads (Threads)' }).check();
    await page.getByLabel('Text', { exact: true }).fill(TEXT);
    const day = new Date(Date.now() + 4 * 24 * 3_600_000).toISOString().slice(0, 10);
    await page.getByRole('radio', { name: 'Schedule' }).check();
    await page.getByLabel('Date and time (UTC)').fill(`${day}T09:30`);
    await page.getByRole('checkbox', { name: "Needs the client's approval" }).check();
    await page.getByText('Nothing is published before the client approves it').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'posts-composer-approval');
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('heading', { name: 'Post', level: 1, exact: true }).waitFor();

    const listed = await kit.api<{ data: Post[] }>('GET', '/v1/posts?status=awaiting_approval');
    const made = listed.body.data.filter((p) => p.text === TEXT);
    expect(made).toHaveLength(1);
    const postId = (made[0] as Post).id;
    expect(made[0]).toMatchObject({
      status: 'awaiting_approval',
      approval: { status: 'pending', decided_at: null, approval_link_id: null, comment: null },
      targets: [{ account_id: threadsId, status: 'awaiting_approval' }],
    });
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Client approval' }) });
    await expect.poll(() => page.locator('main .card .badge').first().textContent()).toBe('awaiting approval');
    expect(await panel.locator('.badge').first().textContent()).toBe('approval pending');
    expect(await page.locator('tbody tr').first().textContent()).toContain('awaiting approval');
    await panel.getByText('No approval link yet.').waitFor();

    // The first link, shown once with its expiry, then listed as open.
    const firstUrl = await createLink(page);
    expect(await panel.getByText(/^Send it to the client\. Single use; expires/).count()).toBe(1);
    const linkRows = panel.locator('table.approval-links tbody tr');
    await expect.poll(() => linkRows.count()).toBe(1);
    expect(await linkRows.first().locator('.badge').textContent()).toBe('open');
    expect(
      await linkRows
        .first()
        .getByRole('button', { name: /^Revoke/ })
        .count(),
    ).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'post-approval-link');

    // The client asks for changes with a comment holding markup.
    await decideAsClient(firstUrl, 'Request changes', MARKUP_COMMENT);
    const changed = await postNow(postId);
    expect(changed.approval).toMatchObject({ status: 'changes_requested', comment: MARKUP_COMMENT });
    expect(changed.status).toBe('awaiting_approval');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => panel.locator('.badge').first().textContent()).toBe('changes requested');
    const comment = panel.locator('figure.client-comment blockquote');
    expect(await comment.textContent()).toBe(MARKUP_COMMENT);
    expect(await panel.locator('time').first().getAttribute('datetime')).toBe(changed.approval?.decided_at);
    await expect.poll(() => linkRows.first().locator('.badge').textContent()).toBe('used');
    expect(await linkRows.first().textContent()).toContain('changes requested');
    expect(await linkRows.first().locator('td.post-text').textContent()).toBe(MARKUP_COMMENT);
    expect(
      await linkRows
        .first()
        .getByRole('button', { name: /^Revoke/ })
        .count(),
    ).toBe(0);
    // The markup stayed text: no element was made of it anywhere in the page.
    expect(await page.locator('main b').count()).toBe(0);
    expect(await page.locator('main img').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'post-changes-requested');

    // The list says so too.
    await page.goto(`${kit.baseUrl}/dashboard/posts?status=awaiting_approval`);
    const row = page.locator('tbody tr', { hasText: TEXT });
    await row.waitFor();
    expect(await row.locator('.badge').allTextContents()).toEqual(['awaiting approval', 'changes requested']);
    await row.getByRole('link', { name: TEXT }).click();
    await panel.waitFor();

    // A second link, revoked after a confirmation: the API says so, and it is no longer offered for revoking.
    await createLink(page);
    await expect.poll(() => linkRows.count()).toBe(2);
    await linkRows
      .first()
      .getByRole('button', { name: /^Revoke/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke link' }).click();
    await expect.poll(() => linkRows.first().locator('.badge').textContent()).toBe('revoked');
    expect((await linksOf(postId)).map((l) => l.status)).toEqual(['revoked', 'used']);

    // A third link, and the client approves: the post is scheduled.
    const thirdUrl = await createLink(page);
    await decideAsClient(thirdUrl, 'Approve');
    const approved = await postNow(postId);
    expect(approved.status).toBe('scheduled');
    expect(approved.approval).toMatchObject({ status: 'approved', comment: null });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => panel.locator('.badge').first().textContent()).toBe('approved by the client');
    expect(await page.locator('main .card .badge').first().textContent()).toBe('scheduled');
    expect(await panel.locator('figure.client-comment').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create approval link' }).count()).toBe(0);
    expect((await linksOf(postId)).map((l) => [l.status, l.decision])).toEqual([
      ['used', 'approved'],
      ['revoked', null],
      ['used', 'changes_requested'],
    ]);
    await screenshot(page, 'post-approved');
    expectCleanRun(opened);
    await opened.close();
  });
});
