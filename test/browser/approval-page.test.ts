/**
 * The hosted approval page (docs/posts.md, "Approval") in a real browser: headless Debian
 * Chromium (/usr/bin/chromium) driven by playwright-core, against the service as `npm start`
 * runs it (API and worker, sandbox platforms mounted at /sandbox). Each test makes a post that
 * needs approval through the API (two accounts, Instagram and Threads, connected through the
 * connect page like a client would; an image), opens its approval link like the client, reads
 * what the page shows, decides, and then asks the API what was recorded.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { imageFile, multipartUpload } from '../helpers/media-files.ts';
import { connectAccount, type DashboardKit, expectAccessible, startDashboardKit } from './dashboard-kit.ts';

/** Markup in the brand name must be shown as text. */
const BRAND = 'Ada & <b>Co</b>';
const COMMON_TEXT = 'Our autumn collection is here 🍂\nSee you in store.';
const THREADS_TEXT = 'Autumn is here (shorter for Threads) & <i>cosy</i>';
const LABEL = 'Comment (needed to request changes)';
/** What the client writes when asking for changes: markup that must stay text. */
const MARKUP_COMMENT = '<img src=x onerror=alert(1)><b>Bolder</b> please';
const EMPTY_COMMENT_ERROR = 'Write what you would like changed, then choose Request changes.';

interface Post {
  id: string;
  status: string;
  scheduled_at: string;
  approval: {
    status: string;
    decided_at: string | null;
    approval_link_id: string | null;
    decided_by: string | null;
    comment: string | null;
  };
  targets: { account_id: string; status: string }[];
}

interface ApprovalLink {
  id: string;
  url: string;
  status: string;
  decision: string | null;
  comment: string | null;
}

/** What the functions run in the page read of it (this project's TypeScript has no DOM types). */
interface ImageElement {
  naturalWidth: number;
  naturalHeight: number;
  complete: boolean;
  currentSrc: string;
}
interface InPage {
  innerWidth: number;
  document: { documentElement: { scrollWidth: number }; activeElement: { id: string } | null };
}

interface Visit {
  page: Page;
  /** Content-Security-Policy violations the console reported. */
  cspViolations: string[];
  /** Dialogs (alert, confirm, prompt) the page opened. */
  dialogs: string[];
  /** Every response the page got: URL and status. */
  responses: { url: string; status: number }[];
}

let kit: DashboardKit;
let instagramId: string;
let threadsId: string;
let mediaId: string;
/** The post's time: 09:30 UTC three days from now (a whole minute, as the page shows it). */
let scheduledAt: string;
let context: BrowserContext | undefined;
let screenshotDir: string;

beforeAll(async () => {
  // No PUBLIC_URL, and a port picked at start: the page's media URLs take the address the
  // browser reached the service at, so its images load all the same.
  kit = await startDashboardKit();
  screenshotDir = process.env.SCREENSHOT_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-approval-')));
  await fs.mkdir(screenshotDir, { recursive: true });

  const settings = await kit.api<{ brand_name: string }>('PATCH', '/v1/connect/settings', {
    body: { brand_name: BRAND },
  });
  expect(settings.status).toBe(200);
  expect(settings.body.brand_name).toBe(BRAND);
  instagramId = await connectAccount(kit, kit.defaultProfileId, 'instagram', 'ada.insta');
  threadsId = await connectAccount(kit, kit.defaultProfileId, 'threads', 'ada.threads');

  const upload = multipartUpload(await imageFile('jpeg', { width: 320, height: 240 }), {
    filename: 'autumn.jpg',
    contentType: 'image/jpeg',
  });
  const uploaded = await fetch(`${kit.baseUrl}/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${kit.ownerKey}`, ...upload.headers },
    body: upload.payload,
  });
  const medium = (await uploaded.json()) as { id: string; type: string; width: number; height: number };
  expect(uploaded.status, JSON.stringify(medium)).toBe(201);
  expect(medium).toMatchObject({ type: 'image', width: 320, height: 240 });
  mediaId = medium.id;

  const day = new Date(Date.now() + 3 * 24 * 3600_000).toISOString().slice(0, 10);
  scheduledAt = `${day}T09:30:00.000Z`;
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  await context?.close();
  await kit?.stop();
  if (!process.env.SCREENSHOT_DIR && screenshotDir) await fs.rm(screenshotDir, { recursive: true, force: true });
});

/** A post on Instagram and Threads (with a text of its own) with the image, that needs approval, and a link to its page. */
async function postAwaitingApproval(): Promise<{ post: Post; link: ApprovalLink }> {
  const created = await kit.api<Post>('POST', '/v1/posts', {
    body: {
      account_ids: [instagramId, threadsId],
      text: COMMON_TEXT,
      media_ids: [mediaId],
      scheduled_at: scheduledAt,
      approval: { required: true },
      platforms: { instagram: { type: 'feed' }, threads: { text: THREADS_TEXT, topic_tag: 'autumn' } },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.status).toBe('awaiting_approval');
  expect(created.body.approval).toEqual({
    status: 'pending',
    decided_at: null,
    approval_link_id: null,
    decided_by: null,
    comment: null,
  });
  expect(created.body.targets.map((t) => t.status)).toEqual(['awaiting_approval', 'awaiting_approval']);
  const link = await kit.api<ApprovalLink>('POST', `/v1/posts/${created.body.id}/approval-links`);
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  expect(link.body.url).toMatch(new RegExp(`^${kit.baseUrl}/approve/[A-Za-z0-9_-]{43}$`));
  return { post: created.body, link: link.body };
}

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

/** A fresh browser context (no cookies) and page, recording what the page met. */
async function visit(
  options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Visit> {
  await context?.close();
  context = await kit.browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const opened: Visit = { page, cspViolations: [], dialogs: [], responses: [] };
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) opened.cspViolations.push(message.text());
  });
  page.on('dialog', (dialog) => {
    opened.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('response', (response) => opened.responses.push({ url: response.url(), status: response.status() }));
  return opened;
}

/** Opens the link's page, and waits for its heading. */
async function openApprovalPage(page: Page, link: ApprovalLink): Promise<Response | null> {
  const response = await page.goto(link.url);
  expect(response?.status()).toBe(200);
  await page.getByRole('heading', { level: 1, name: `${BRAND} asks you to approve a post`, exact: true }).waitFor();
  return response;
}

/** Clicks one of the form's buttons, and answers the status of the page the form's POST answered. */
async function decide(page: Page, link: ApprovalLink, button: 'Approve' | 'Request changes'): Promise<number> {
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url() === link.url && r.request().method() === 'POST'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  return answer.status();
}

/** The text of each account's card: heading, text, and options. */
async function cards(page: Page) {
  const sections = page.locator('section.card');
  const found: { heading: string | null; text: string | null; options: string[] }[] = [];
  for (const section of await sections.all()) {
    found.push({
      heading: await section.getByRole('heading', { level: 2 }).textContent(),
      text: await section.locator('p.text').textContent(),
      options: await section.locator('dt, dd').allTextContents(),
    });
  }
  return found;
}

const whenText = () => `To be published on ${scheduledAt.slice(0, 10)} at 09:30 UTC, once you approve it.`;

describe('the hosted approval page in Chromium', () => {
  it('shows the brand, each account with its own text, the image and the time; Approve schedules the post', async () => {
    const { post, link } = await postAwaitingApproval();
    const { page, cspViolations, dialogs, responses } = await visit();
    const response = await openApprovalPage(page, link);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.title()).toBe(`Approve a post for ${BRAND}`);
    // The brand name is text: no <b> element made of it.
    expect(await page.locator('b').count()).toBe(0);
    expect(await page.getByText(whenText(), { exact: true }).count()).toBe(1);

    // Each account: its platform and name, its text (Threads' own, Instagram the common one), its options.
    expect(await cards(page)).toEqual([
      { heading: 'Instagram · @ada.insta', text: COMMON_TEXT, options: ['Type', 'feed'] },
      { heading: 'Threads · @ada.threads', text: THREADS_TEXT, options: ['Topic tag', 'autumn'] },
    ]);
    expect(await page.locator('i').count()).toBe(0);

    // The image is shown, loaded from the service (the page's policy lets it in).
    const image = page.getByRole('img', { name: 'Image 1 of 1', exact: true });
    expect(await image.count()).toBe(1);
    await expect
      .poll(() =>
        image.evaluate((element) => {
          const img = element as unknown as ImageElement;
          return { complete: img.complete, width: img.naturalWidth, height: img.naturalHeight };
        }),
      )
      .toEqual({ complete: true, width: 320, height: 240 });
    const source = await image.evaluate((element) => (element as unknown as ImageElement).currentSrc);
    expect(new URL(source).origin).toBe(kit.baseUrl);
    expect(responses.find((r) => r.url === source)?.status).toBe(200);
    expect(cspViolations, cspViolations.join('\n')).toEqual([]);

    expect(await decide(page, link, 'Approve')).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Thank you: the post is approved', exact: true }).waitFor();
    expect(await page.locator('main p').allTextContents()).toEqual([
      `${BRAND} has been told, and the post will be published on ${scheduledAt.slice(0, 10)} at 09:30 UTC.`,
    ]);
    expect(dialogs).toEqual([]);

    const decided = await postNow(post.id);
    expect(decided.approval).toEqual({
      status: 'approved',
      decided_at: expect.any(String),
      approval_link_id: link.id,
      decided_by: null,
      comment: null,
    });
    expect(decided.status).toBe('scheduled');
    expect(decided.scheduled_at).toBe(scheduledAt);
    expect(decided.targets.map((t) => [t.account_id, t.status])).toEqual([
      [instagramId, 'scheduled'],
      [threadsId, 'scheduled'],
    ]);
    expect(await linksOf(post.id)).toEqual([
      expect.objectContaining({ id: link.id, status: 'used', decision: 'approved', comment: null }),
    ]);

    // The link decided once: opening it again says so.
    const again = await page.goto(link.url);
    expect(again?.status()).toBe(410);
    await page.getByRole('heading', { level: 1, name: 'This post has been decided on already', exact: true }).waitFor();
  });

  it('sends a comment with markup as text when the client requests changes', async () => {
    const { post, link } = await postAwaitingApproval();
    const { page, dialogs, cspViolations } = await visit();
    await openApprovalPage(page, link);
    const comment = page.getByLabel(LABEL, { exact: true });
    await comment.pressSequentially(MARKUP_COMMENT);
    expect(await comment.inputValue()).toBe(MARKUP_COMMENT);

    expect(await decide(page, link, 'Request changes')).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Thank you: your request was sent', exact: true }).waitFor();
    expect(await page.locator('main p').allTextContents()).toEqual([
      `${BRAND} has been told what you would like changed. They will send you the post again.`,
      'Your comment:',
      MARKUP_COMMENT,
    ]);
    expect(await page.locator('main').textContent()).toContain('<b>Bolder</b>');
    // Nothing was made of the markup: no element, no script run.
    expect(await page.locator('b').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(cspViolations, cspViolations.join('\n')).toEqual([]);

    const waiting = await postNow(post.id);
    expect(waiting.status).toBe('awaiting_approval');
    expect(waiting.approval).toEqual({
      status: 'changes_requested',
      decided_at: expect.any(String),
      approval_link_id: link.id,
      decided_by: null,
      comment: MARKUP_COMMENT,
    });
    expect(waiting.targets.map((t) => t.status)).toEqual(['awaiting_approval', 'awaiting_approval']);
    expect(await linksOf(post.id)).toEqual([
      expect.objectContaining({ id: link.id, status: 'used', decision: 'changes_requested', comment: MARKUP_COMMENT }),
    ]);
  });

  it('answers Request changes without a comment with the error, tied to the comment field, and records nothing', async () => {
    const { post, link } = await postAwaitingApproval();
    const { page } = await visit();
    await openApprovalPage(page, link);
    expect(await page.getByRole('alert').count()).toBe(0);

    expect(await decide(page, link, 'Request changes')).toBe(422);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(EMPTY_COMMENT_ERROR);
    // The page is the same page again, the field still named by its label and described by the error.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${BRAND} asks you to approve a post`);
    const field = page.getByRole('textbox', { name: LABEL, exact: true });
    expect(await field.count()).toBe(1);
    expect(await field.getAttribute('id')).toBe('comment');
    const describedBy = await field.getAttribute('aria-describedby');
    expect(describedBy).toBe('comment-error');
    expect(await page.locator(`#${describedBy}`).textContent()).toBe(EMPTY_COMMENT_ERROR);
    // Clicking the label puts the focus in the field.
    await page.locator('label[for=comment]').click();
    expect(await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.id ?? null)).toBe(
      'comment',
    );
    expect(await field.inputValue()).toBe('');

    const unchanged = await postNow(post.id);
    expect(unchanged.status).toBe('awaiting_approval');
    expect(unchanged.approval).toEqual({
      status: 'pending',
      decided_at: null,
      approval_link_id: null,
      decided_by: null,
      comment: null,
    });
    expect(await linksOf(post.id)).toEqual([
      expect.objectContaining({ id: link.id, status: 'open', decision: null, comment: null }),
    ]);

    // The link still works from the error page: with a comment, the request goes through.
    await field.fill('Shorter, please.');
    expect(await decide(page, link, 'Request changes')).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Thank you: your request was sent', exact: true }).waitFor();
    expect((await postNow(post.id)).approval).toMatchObject({
      status: 'changes_requested',
      comment: 'Shorter, please.',
    });
  });

  it('works with JavaScript disabled: the client approves', async () => {
    const { post, link } = await postAwaitingApproval();
    const { page } = await visit({ javaScriptEnabled: false });
    await openApprovalPage(page, link);
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.getByText(whenText(), { exact: true }).count()).toBe(1);
    expect(await decide(page, link, 'Approve')).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Thank you: the post is approved', exact: true }).waitFor();

    const decided = await postNow(post.id);
    expect(decided.approval).toMatchObject({ status: 'approved', approval_link_id: link.id, comment: null });
    expect(decided.targets.map((t) => t.status)).toEqual(['scheduled', 'scheduled']);
  });

  it('has no serious or critical accessibility problem, and fits a phone screen', async () => {
    const { link } = await postAwaitingApproval();
    // axe is evaluated through the DevTools protocol, which the page's policy does not govern:
    // the page keeps its real policy (no bypassCSP).
    const { page, cspViolations } = await visit({ viewport: { width: 390, height: 844 } });
    await openApprovalPage(page, link);
    const image = page.getByRole('img', { name: 'Image 1 of 1', exact: true });
    await expect.poll(() => image.evaluate((element) => (element as unknown as ImageElement).naturalWidth)).toBe(320);
    await expectAccessible(page);

    const widths = await page.evaluate(() => {
      const window = globalThis as unknown as InPage;
      return { scroll: window.document.documentElement.scrollWidth, inner: window.innerWidth };
    });
    expect(widths.inner).toBe(390);
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
    for (const name of ['Approve', 'Request changes']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box?.height ?? 0, name).toBeGreaterThanOrEqual(44);
    }
    const file = path.join(screenshotDir, 'approval-page-390x844.png');
    const png = await page.screenshot({ path: file, fullPage: true });
    // A PNG, 390 pixels wide (the IHDR width, big-endian at byte 16).
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(390);

    // The error state and the thank-you page too.
    expect(await decide(page, link, 'Request changes')).toBe(422);
    await page.getByRole('alert').waitFor();
    await expectAccessible(page);
    await page.getByLabel(LABEL, { exact: true }).fill('More autumn, please.');
    expect(await decide(page, link, 'Request changes')).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Thank you: your request was sent', exact: true }).waitFor();
    await expectAccessible(page);
    expect(cspViolations, cspViolations.join('\n')).toEqual([]);
  });
});
