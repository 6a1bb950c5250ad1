/**
 * A profile's report in Chromium: the period chosen, the profile's figures beside the period
 * before, a chart per figure with a line per account and "no data" (never 0) for a day without
 * data, "not offered" for a platform without the figure, the CSV to download, and the profile's
 * name shown as text however it looks like markup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { imageFile } from '../helpers/media-files.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { type MailServer, startSmtpServer } from '../helpers/smtp-server.ts';
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
let smtp: MailServer;
let profileId: string;
let threadsId: string;
const USER = 'reported.threads';
const NAME = 'Bakery <img src=x onerror="document.title=1"> & Co';
const DAY_MS = 24 * 3_600_000;
/** Today when the file started: the figures set and the period asked are the same days even if a run crosses midnight. */
const TODAY = Date.now();

function day(offset: number): string {
  return new Date(TODAY + offset * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from 6 days ago to today, the values given by offset and null (no data) on the others. */
function days(values: Record<number, number>) {
  return [-6, -5, -4, -3, -2, -1, 0].map((d) => ({ day: day(d), value: values[d] ?? null }));
}

interface Report {
  previous: { from: string };
  totals: { views: { value: number | null; previous: number | null } };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  kit = await startDashboardKit({ SMTP_URL: smtp.url, MAIL_FROM: 'Switchboard <switchboard@example.test>' });
  const profile = await kit.api<{ id: string }>('POST', '/v1/profiles', { body: { name: NAME } });
  profileId = profile.body.id;
  // The figures are the platform's before the account is connected, so every reading of the
  // service gets these and no made-up ones. The period is the last 2 days, the previous the 2 before.
  await kit.control('POST', '/users', { platform: 'threads', username: USER });
  const metrics: Record<string, Record<number, number>> = {
    views: { [-3]: 10, [-2]: 20, [-1]: 45, 0: 15 },
    likes: { [-3]: 0, [-2]: 0, [-1]: 4 },
    replies: { 0: 1 },
    reposts: {},
    quotes: {},
  };
  for (const [metric, values] of Object.entries(metrics)) {
    await kit.control('PUT', '/insights', { platform: 'threads', username: USER, metric, values: days(values) });
  }
  threadsId = await connectAccount(kit, profileId, 'threads', USER);
  await connectAccount(kit, profileId, 'tiktok', 'reported.tiktok');
}, 180_000);

afterAll(async () => {
  await kit?.stop();
  await smtp?.close();
});

describe('report', () => {
  it("shows a profile's period beside the one before, a line per account, and the report as PDF and CSV", {
    timeout: 240_000,
  }, async () => {
    // The history job reads the days before the refresh's 3: wait until the previous period is in.
    await expect
      .poll(
        async () => {
          const report = await kit.api<Report>('GET', `/v1/profiles/${profileId}/report?from=${day(-1)}&to=${day(0)}`);
          return [report.body.totals.views.value, report.body.totals.views.previous];
        },
        { timeout: 120_000, interval: 500 },
      )
      .toEqual([60, 30]);
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${profileId}`);
    await page.getByRole('link', { name: 'Report: last month at a glance' }).click();
    await page.getByRole('heading', { level: 1, name: `Report: ${NAME}` }).waitFor();
    await page.getByLabel('From', { exact: true }).fill(day(-1));
    await page.getByLabel('To', { exact: true }).fill(day(0));
    await page.getByRole('button', { name: 'Show period' }).click();
    await page.getByText(`${day(-1)} to ${day(0)} (UTC days), beside ${day(-3)} to ${day(-2)}.`).waitFor();

    const headlines = page.getByRole('list', { name: "The profile's figures" });
    const views = headlines.getByRole('listitem').filter({ hasText: 'Views' });
    expect(await views.locator('.headline-value').textContent()).toBe('60');
    expect(await views.textContent()).toContain('before: 30');
    expect(await views.textContent()).toContain('+30 (+100.0%) vs. previous period');
    const engagement = headlines.getByRole('listitem').filter({ hasText: 'Engagement' });
    expect(await engagement.locator('.headline-value').textContent()).toBe('5');
    // Nothing was liked or answered the 2 days before: 0, not "no data".
    expect(await engagement.textContent()).toContain('before: 0');
    // A change from 0 has no percentage.
    expect(await engagement.textContent()).toContain('+5 vs. previous period');
    // Followers are read as they are now: none was known the days before.
    const followers = headlines.getByRole('listitem').filter({ hasText: 'Followers' });
    expect(await followers.textContent()).toContain('before: no data');

    // The views chart has Threads' line alone: TikTok gives no views.
    const chart = page.locator('figure.chart', { hasText: 'Views by day' });
    await chart.locator('.plot canvas').first().waitFor();
    await chart.getByText('Values by day').click();
    expect(await chart.locator('details thead th').allTextContents()).toEqual([
      'Day (UTC)',
      '@reported.threads (Threads)',
    ]);
    const rows = await chart
      .locator('details tbody tr')
      .evaluateAll((trs) => trs.map((r) => (r as unknown as { innerText: string }).innerText.split('\t')));
    expect(rows).toEqual([
      [day(-1), '45'],
      [day(0), '15'],
    ]);

    const table = page.locator('section', { has: page.getByRole('heading', { name: 'Accounts' }) });
    const tiktok = table.locator('tbody tr', { hasText: 'TikTok' });
    expect(await tiktok.locator('td').allTextContents()).toEqual([
      'not offered',
      'not offered',
      'not offered',
      '0±0 vs. previous period',
    ]);
    // The best posts are the API's: the sandbox's own posts, seen through their comments by the
    // worker, may get figures (which the sandbox makes up) at any time, so the page is read again
    // until it shows what the API answers at the same moment.
    const shownAsAnswered = async () => {
      const best = await kit.api<{ top_posts: { post_id: string; text: string | null }[] }>(
        'GET',
        `/v1/profiles/${profileId}/report?from=${day(-1)}&to=${day(0)}`,
      );
      await page.reload();
      const posts = page.locator('section', { has: page.getByRole('heading', { name: 'Best posts' }) });
      await posts.waitFor();
      if (best.body.top_posts.length === 0) {
        return await posts.getByText('No post of the period has figures yet.').isVisible();
      }
      const texts = await posts.locator('ol li > a:first-child').allTextContents();
      return (
        texts.join('\n') === best.body.top_posts.map((p) => (p.text ? p.text.slice(0, 120) : p.post_id)).join('\n')
      );
    };
    await expect.poll(shownAsAnswered, { timeout: 30_000 }).toBe(true);

    const link = page.getByRole('link', { name: 'Download CSV' });
    const href = (await link.getAttribute('href')) as string;
    expect(href).toBe(`/v1/profiles/${profileId}/report.csv?from=${day(-1)}&to=${day(0)}`);
    // Fetched as the browser would, with the session's cookie.
    const csv = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    }, href);
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    const account = await kit.api<{ display_name: string }>('GET', `/v1/accounts/${threadsId}`);
    expect(csv.body.split('\r\n').filter((line) => line.startsWith(day(-1)) && line.includes(threadsId))).toEqual([
      `${day(-1)},${threadsId},threads,reported.threads,${account.body.display_name},,45,4,0`,
    ]);

    // The PDF, as the browser downloads it: branded with the owner's logo set in Connect settings.
    await page.goto(`${kit.baseUrl}/dashboard/connect-settings`);
    await page.getByText('No logo: reports show the brand name alone.').waitFor();
    await page.getByLabel('Logo file').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await imageFile('png', { width: 800, height: 400 }),
    });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('512 × 256 pixels, set').waitFor();
    await page.getByRole('img', { name: 'The current logo' }).waitFor();
    // Loaded from the API with the session's cookie: its pixels arrive after the element.
    await expect
      .poll(() =>
        page.getByRole('img', { name: 'The current logo' }).evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBe(512);
    // The period chosen stays in the report's address.
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${profileId}/report?from=${day(-1)}&to=${day(0)}`);
    const pdfHref = (await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href')) as string;
    expect(pdfHref).toBe(`/v1/profiles/${profileId}/report.pdf?from=${day(-1)}&to=${day(0)}`);
    const pdf = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: [...new Uint8Array(await res.arrayBuffer())],
      };
    }, pdfHref);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const read = await pdfText(new Uint8Array(pdf.bytes));
    expect(read.pages[0]).toContain(NAME);
    expect(read.pages[0]).toContain('Views 60 before: 30 +30 (+100.0%)');
    expect(read.drawn[0]?.images).toBe(1);

    expect(await page.title()).not.toBe('1');
    await expectAccessible(page);
    await screenshot(page, 'report');
    expectCleanRun(opened);
    await opened.close();
  });

  it('makes a report link the client opens without an account, counts its openings, and revokes it', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${profileId}/report?from=${day(-1)}&to=${day(0)}`);
    await page.getByRole('button', { name: `Create a link to ${day(-1)} – ${day(0)}` }).click();
    const url = (await page.locator('.revealed code.secret').textContent()) as string;
    expect(url).toMatch(new RegExp(`^${kit.baseUrl}/reports/[A-Za-z0-9_-]{43}$`));

    // The client's browser: no session, nothing of the dashboard.
    const client = await kit.open();
    await client.page.goto(url);
    await client.page.getByRole('heading', { level: 1, name: NAME }).waitFor();
    const views = client.page
      .getByRole('list', { name: 'The figures of the period' })
      .getByRole('listitem')
      .filter({ hasText: 'Views' });
    expect(await views.locator('strong').textContent()).toBe('60');
    expect(await client.page.locator('svg polyline').count()).toBeGreaterThan(0);
    // The owner's logo (set by the test before), from the link's own address.
    await expect
      .poll(() =>
        client.page
          .getByRole('img')
          .first()
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBe(512);
    expect(await client.page.title()).not.toBe('1');
    await expectAccessible(client.page);
    await screenshot(client.page, 'report-link');
    expectCleanRun(client);

    await page.reload();
    const row = page
      .locator('section', { has: page.getByRole('heading', { name: 'Report links' }) })
      .locator('tbody tr');
    await expect.poll(() => row.first().textContent()).toContain('1 time, last');
    await row.first().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.first().textContent()).toContain('revoked');
    await client.page.reload();
    await client.page.getByRole('heading', { level: 1, name: 'This link was withdrawn' }).waitFor();
    expectCleanRun(opened);
    await client.close();
    await opened.close();
  });

  it('sets the e-mailed schedule, shows an e-mail the mail server refused, and sends it again', async () => {
    const opened = await kit.open();
    const { page } = opened;
    await signIn(kit, page, kit.ownerKey);
    await page.goto(`${kit.baseUrl}/dashboard/profiles/${profileId}/report?from=${day(-1)}&to=${day(0)}`);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: 'E-mailed to the client' }) });
    await panel.getByText('No schedule: the report is not e-mailed.').waitFor();
    await panel.getByLabel('Day of the month').selectOption('3');
    await panel.getByLabel('Hour (UTC)').selectOption('6');
    await panel.getByLabel("The client's addresses").fill('ana@client.example.test, not an address');
    await panel.getByRole('button', { name: 'Save the schedule' }).click();
    await panel.getByText('Each address must be one e-mail address').waitFor();
    await panel.getByLabel("The client's addresses").fill('ana@client.example.test, ben@client.example.test');
    await panel.getByRole('button', { name: 'Save the schedule' }).click();
    await panel
      .getByText(
        "Monthly, on day 3 at 06:00 UTC: last month's report, to ana@client.example.test, ben@client.example.test.",
      )
      .waitFor();
    const schedule = await kit.api<{ frequency: string; day: number; hour: number; recipients: string[] }>(
      'GET',
      `/v1/profiles/${profileId}/report-schedule`,
    );
    expect(schedule.body).toMatchObject({
      frequency: 'monthly',
      day: 3,
      hour: 6,
      recipients: ['ana@client.example.test', 'ben@client.example.test'],
    });

    // The mail server refuses the first e-mail for good: the screen says so, with its answer.
    smtp.refuseNext('ana@client.example.test', { code: 550, message: 'Mailbox unavailable' });
    await panel.getByRole('button', { name: `E-mail ${day(-1)} – ${day(0)} now` }).click();
    const rows = panel.locator('tbody tr');
    /** The newest e-mail's status, as the screen shows it once loaded again. */
    const newestStatus = async () => {
      await page.reload();
      return await rows.first().locator('.badge').textContent();
    };
    await expect.poll(newestStatus, { timeout: 30_000 }).toBe('failed');
    await panel.getByRole('alert').getByText('An e-mail could not be sent').waitFor();
    expect(await rows.first().textContent()).toContain('Mailbox unavailable');

    await rows.first().getByRole('button', { name: 'Send again' }).click();
    const mail = await eventually(async () =>
      smtp.received.find((m) => m.to.includes('ana@client.example.test') && m.to.includes('ben@client.example.test')),
    );
    expect(mail.attachments.map((a) => a.filename)).toEqual([`report-${profileId}-${day(-1)}-${day(0)}.pdf`]);
    await expect.poll(newestStatus, { timeout: 30_000 }).toBe('sent');
    expect(await rows.count()).toBe(2);
    // Sent again since: the alert is gone, the failed one stays in the list.
    expect(await panel.getByRole('alert').count()).toBe(0);
    expect(await rows.nth(1).textContent()).toContain('Mailbox unavailable');
    expect(await page.title()).not.toBe('1');
    await expectAccessible(page);
    expectCleanRun(opened);
    await opened.close();
  });
});
