import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { scheduleReportSends } from '../../src/modules/reports/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { type MailServer, type ReceivedMail, startSmtpServer } from '../helpers/smtp-server.ts';
import { verifyStandardWebhook } from '../helpers/standard-webhooks.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * Report schedules and e-mails (docs/reports.md, "E-mailed reports"): a schedule's e-mail
 * received by a real SMTP server with the PDF attached and a working report link, the
 * `report.sent` and `report.failed` events at a real webhook receiver, a passing refusal tried
 * again and a lasting one given up.
 */

let t: TestApp;
let smtp: MailServer;
let receiver: Receiver;
let owner: TestOwner;
let webhookSecret: string;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  t = await startTestApp({
    PUBLIC_URL: 'https://switchboard.example.test',
    RATE_LIMIT_PER_MINUTE: '100000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  owner = await t.createOwner('Agency');
  const settings = await t.app.inject({
    method: 'PATCH',
    url: '/v1/connect/settings',
    headers: auth(owner.key),
    payload: { brand_name: 'Studio Nord' },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['report.sent', 'report.failed'] },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  webhookSecret = hook.json().secret;
  await t.startWorker({
    sendMail: smtp.mailer(t.config.dataDir),
  });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await smtp.close();
  await receiver.close();
});

async function newProfile(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function putSchedule(profileId: string, payload: unknown, key = owner.key) {
  return await t.app.inject({
    method: 'PUT',
    url: `/v1/profiles/${profileId}/report-schedule`,
    headers: auth(key),
    payload: payload as Record<string, unknown>,
  });
}

interface Send {
  id: string;
  schedule_id: string | null;
  from: string;
  to: string;
  recipients: string[];
  status: string;
  attempts: number;
  last_error: string | null;
  refused: { address: string; reason: string }[];
  next_attempt_at: string | null;
  link_id: string;
  sent_at: string | null;
}

async function scheduleOf(profileId: string): Promise<{ next_send_at: string | null }> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/profiles/${profileId}/report-schedule`,
    headers: auth(owner.key),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function sendsOf(profileId: string, query = ''): Promise<Send[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/profiles/${profileId}/report-sends${query}`,
    headers: auth(owner.key),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Send[];
}

/** The send once it has left `sending` with `attempts` tries, or is still sending after them. */
async function sendAfter(profileId: string, id: string, attempts: number): Promise<Send> {
  return await eventually(async () => {
    const send = (await sendsOf(profileId)).find((s) => s.id === id);
    return send !== undefined && send.attempts >= attempts ? send : undefined;
  });
}

async function mailWith(subject: string): Promise<ReceivedMail> {
  return await eventually(async () => smtp.received.find((m) => m.subject === subject));
}

/** The first event of `type` about send `sendId` the receiver got, verified as a receiver would. */
async function eventOf(type: string, sendId: string): Promise<{ profile_id: string; data: Record<string, unknown> }> {
  const received = await eventually(async () =>
    receiver.received.find((r) => {
      const body = JSON.parse(r.body.toString('utf8'));
      return body.type === type && body.data.id === sendId;
    }),
  );
  // At the service's clock, which these tests move.
  return verifyStandardWebhook(webhookSecret, received) as { profile_id: string; data: Record<string, unknown> };
}

/**
 * What the worker's every-minute task does, done now. The worker's own run of it may hold a due
 * schedule meanwhile (this one then passes it by), so a test waits for the send it expects.
 */
async function makeDueSends(): Promise<void> {
  await scheduleReportSends({ db: t.database.db, secretKey: t.secretKey, log: pino({ level: 'silent' }) });
}

/** The profile's sends once there are `n`. */
async function sendsOnce(profileId: string, n: number): Promise<Send[]> {
  return await eventually(async () => {
    const sends = await sendsOf(profileId);
    return sends.length >= n ? sends : undefined;
  });
}

/** `YYYY-MM-DD` of a UTC day given as its year, month (1-12) and day; `Date.UTC` rolls over. */
function ymd(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

const longDate = (text: string) =>
  new Date(`${text}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

describe('report schedules', () => {
  it('refuses a schedule it cannot keep, and changes nothing', async () => {
    const profileId = await newProfile('Refusals');
    const missing = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${profileId}/report-schedule`,
      headers: auth(owner.key),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('report_schedule_not_found');

    const valid = { frequency: 'monthly', day: 1, recipients: ['client@example.test'] };
    for (const [payload, field] of [
      [{ ...valid, day: 29 }, 'body.day'],
      [{ ...valid, day: 0 }, 'body.day'],
      [{ ...valid, frequency: 'weekly', day: 8 }, 'body.day'],
      [{ ...valid, frequency: 'daily' }, 'body.frequency'],
      [{ ...valid, hour: 24 }, 'body.hour'],
      [{ ...valid, recipients: [] }, 'body.recipients'],
      [{ ...valid, recipients: ['a@example.test,b@example.test'] }, 'body.recipients.0'],
      [{ ...valid, recipients: ['Client <client@example.test>'] }, 'body.recipients.0'],
      [{ ...valid, recipients: Array.from({ length: 21 }, (_, i) => `c${i}@example.test`) }, 'body.recipients'],
      [{ ...valid, link_expires_in_days: 91 }, 'body.link_expires_in_days'],
      [{ ...valid, cc: ['x@example.test'] }, 'body.cc'],
      [{ day: 1, recipients: ['client@example.test'] }, 'body.frequency'],
    ] as const) {
      const res = await putSchedule(profileId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const still = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${profileId}/report-schedule`,
      headers: auth(owner.key),
    });
    expect(still.statusCode).toBe(404);

    const other = await t.createOwner('Other agency');
    expect((await putSchedule(profileId, valid, other.key)).json().error.code).toBe('profile_not_found');
    const profileKey = await t.createProfileKey(owner.ownerId, owner.defaultProfileId);
    expect((await putSchedule(profileId, valid, profileKey)).statusCode).toBe(404);
  });

  it('is set, replaced whole, paused and removed; the next send is the day and hour asked, in UTC', async () => {
    const profileId = await newProfile('Timing');
    const at = now();
    // Monthly on the 3rd at 06:00: this month's, unless it has passed.
    const thisMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 3, 6);
    const monthly = new Date(
      thisMonth > at.getTime() ? thisMonth : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 3, 6),
    );
    const set = await putSchedule(profileId, {
      frequency: 'monthly',
      day: 3,
      hour: 6,
      recipients: ['Ana@Client.example.test', 'ana@client.example.test', 'ben@client.example.test'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      profile_id: profileId,
      frequency: 'monthly',
      day: 3,
      hour: 6,
      recipients: ['Ana@Client.example.test', 'ben@client.example.test'],
      link_expires_in_days: 30,
      active: true,
      next_send_at: monthly.toISOString(),
    });
    const id = set.json().id as string;
    expect(id).toMatch(/^rps_/);

    // Weekly on Mondays (ISO weekday 1) at 09:00 (the default is 08:00): the coming Monday's, or next week's.
    const sunday0 = at.getUTCDay(); // 0 is Sunday
    const daysToMonday = (8 - sunday0) % 7;
    let monday = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + daysToMonday, 9);
    if (monday <= at.getTime()) monday += 7 * DAY_MS;
    const weekly = await putSchedule(profileId, {
      frequency: 'weekly',
      day: 1,
      hour: 9,
      recipients: ['ben@client.example.test'],
      link_expires_in_days: 7,
    });
    expect(weekly.statusCode, weekly.body).toBe(200);
    expect(weekly.json()).toMatchObject({
      id,
      frequency: 'weekly',
      day: 1,
      hour: 9,
      recipients: ['ben@client.example.test'],
      link_expires_in_days: 7,
      next_send_at: new Date(monday).toISOString(),
    });
    const paused = await putSchedule(profileId, {
      frequency: 'weekly',
      day: 1,
      recipients: ['ben@client.example.test'],
      active: false,
    });
    expect(paused.json()).toMatchObject({ id, hour: 8, link_expires_in_days: 30, active: false, next_send_at: null });
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${profileId}/report-schedule`,
      headers: auth(owner.key),
    });
    expect(read.json()).toEqual(paused.json());

    // A paused schedule sends nothing, however late it is.
    await moveTime(t.database.pool, 40 * DAY_MS);
    await makeDueSends();
    expect(await sendsOf(profileId)).toEqual([]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/report-schedule`,
      headers: auth(owner.key),
    });
    expect(removed.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/report-schedule`,
      headers: auth(owner.key),
    });
    expect(again.json().error.code).toBe('report_schedule_not_found');
  });

  it("e-mails last month's report when it is due: PDF attached, a working link, report.sent; once a period", async () => {
    const profileId = await newProfile('Bakery & Co');
    const set = await putSchedule(profileId, {
      frequency: 'monthly',
      day: 2,
      hour: 7,
      recipients: ['owner@bakery.example.test', 'manager@bakery.example.test'],
      link_expires_in_days: 14,
    });
    expect(set.statusCode, set.body).toBe(200);
    const due = new Date(set.json().next_send_at as string);
    await moveTime(t.database.pool, due.getTime() - now().getTime() + 30_000);
    await makeDueSends();
    // The month before the one it was due in.
    const from = ymd(due.getUTCFullYear(), due.getUTCMonth(), 1);
    const to = ymd(due.getUTCFullYear(), due.getUTCMonth() + 1, 0);

    const subject = `Bakery & Co: report for ${longDate(from)} to ${longDate(to)} (Studio Nord)`;
    const mail = await mailWith(subject);
    expect(mail.to).toEqual(['owner@bakery.example.test', 'manager@bakery.example.test']);
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf?.filename).toBe(`report-${profileId}-${from}-${to}.pdf`);
    expect(pdf?.contentType).toBe('application/pdf');
    const read = await pdfText(pdf?.content as Buffer);
    expect(read.title).toBe(`Bakery & Co: report ${from} to ${to}`);
    expect(read.author).toBe('Studio Nord');
    expect(read.pages[0]).toContain('Bakery & Co');

    const link = /https:\/\/switchboard\.example\.test(\/reports\/[A-Za-z0-9_-]{43})\b/.exec(mail.text)?.[1];
    expect(link, mail.text).toBeDefined();
    const page = await t.app.inject({ method: 'GET', url: link as string });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Bakery &amp; Co');
    expect(page.body).toContain('Studio Nord');

    const [send] = await sendsOf(profileId);
    expect(send).toMatchObject({
      schedule_id: set.json().id,
      from,
      to,
      recipients: ['owner@bakery.example.test', 'manager@bakery.example.test'],
      status: 'sent',
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
    });
    expect(mail.messageId).toBe(`<${send?.id}@switchboard.invalid>`);
    const links = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${profileId}/report-links`,
      headers: auth(owner.key),
    });
    const shown = links.json().data.find((l: { id: string }) => l.id === send?.link_id);
    expect(shown).toMatchObject({ from, to, status: 'open', opens: 1 });
    expect(Date.parse(shown.expires_at) - Date.parse(shown.created_at)).toBe(14 * DAY_MS);

    const event = await eventOf('report.sent', send?.id as string);
    expect(event.profile_id).toBe(profileId);
    expect(event.data).toEqual({ ...send, profile_id: profileId });

    // Its next time is next month's.
    const next = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth() + 1, 2, 7)).toISOString();
    expect((await scheduleOf(profileId)).next_send_at).toBe(next);

    // Set again for later that day, then removed and set again: the period is not sent twice.
    const later = await putSchedule(profileId, {
      frequency: 'monthly',
      day: 2,
      hour: 9,
      recipients: ['x@example.test'],
    });
    expect(later.json().next_send_at).toBe(new Date(due.getTime() + 2 * 3_600_000).toISOString());
    await moveTime(t.database.pool, 2 * 3_600_000);
    await makeDueSends();
    await eventually(async () =>
      (await scheduleOf(profileId)).next_send_at !== later.json().next_send_at ? true : undefined,
    );
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/report-schedule`,
      headers: auth(owner.key),
    });
    expect(removed.statusCode).toBe(204);
    const again = await putSchedule(profileId, {
      frequency: 'monthly',
      day: 2,
      hour: 11,
      recipients: ['x@example.test'],
    });
    await moveTime(t.database.pool, 2 * 3_600_000);
    await makeDueSends();
    await eventually(async () =>
      (await scheduleOf(profileId)).next_send_at !== again.json().next_send_at ? true : undefined,
    );
    expect((await sendsOf(profileId)).map((s) => [s.from, s.to])).toEqual([[from, to]]);
  });

  it('after the service was down past its time, sends the latest period once, not the one first missed', async () => {
    const profileId = await newProfile('Downtime');
    const set = await putSchedule(profileId, { frequency: 'monthly', day: 1, hour: 0, recipients: ['d@example.test'] });
    expect(set.statusCode, set.body).toBe(200);
    const due = new Date(set.json().next_send_at as string);
    // Down for about two and a half months.
    await moveTime(t.database.pool, due.getTime() - now().getTime() + 75 * DAY_MS);
    await makeDueSends();
    const [send] = await sendsOnce(profileId, 1);
    const at = now();
    // The latest first of a month at 00:00 is this month's: it sends last month.
    expect(send).toMatchObject({
      from: ymd(at.getUTCFullYear(), at.getUTCMonth(), 1),
      to: ymd(at.getUTCFullYear(), at.getUTCMonth() + 1, 0),
    });
    await makeDueSends();
    expect(await sendsOf(profileId)).toHaveLength(1);
    expect((await scheduleOf(profileId)).next_send_at).toBe(
      new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString(),
    );
    await sendAfter(profileId, send?.id as string, 1);
  });

  it('set again while its send is due but not yet made, still makes that send', async () => {
    const profileId = await newProfile('Due window');
    const set = await putSchedule(profileId, { frequency: 'weekly', day: 5, recipients: ['first@example.test'] });
    const due = new Date(set.json().next_send_at as string);
    await moveTime(t.database.pool, due.getTime() - now().getTime() + 10_000);
    // An address added in the minute it is due: the send stays due (unless the worker made it already).
    const changed = await putSchedule(profileId, {
      frequency: 'weekly',
      day: 5,
      recipients: ['first@example.test', 'second@example.test'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await makeDueSends();
    const [send] = await sendsOnce(profileId, 1);
    expect(send?.schedule_id).toBe(set.json().id);
    expect((await scheduleOf(profileId)).next_send_at).toBe(new Date(due.getTime() + 7 * DAY_MS).toISOString());
    await sendAfter(profileId, send?.id as string, 1);
  });

  it('sends the last full week, Monday to Sunday, for a weekly schedule', async () => {
    const profileId = await newProfile('Weekly');
    const set = await putSchedule(profileId, { frequency: 'weekly', day: 3, recipients: ['w@example.test'] });
    const due = new Date(set.json().next_send_at as string);
    expect(due.getUTCDay()).toBe(3);
    expect(due.getUTCHours()).toBe(8);
    await moveTime(t.database.pool, due.getTime() - now().getTime() + 1000);
    await makeDueSends();
    const [send] = await sendsOnce(profileId, 1);
    // Due on a Wednesday: the Monday nine days before to the Sunday three days before.
    const day = (offset: number) => new Date(due.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
    expect(send).toMatchObject({ from: day(-9), to: day(-3), schedule_id: set.json().id });
    await sendAfter(profileId, send?.id as string, 1);
  });

  it('tries a passing refusal again and gives up a lasting one, saying why (report.failed)', async () => {
    const profileId = await newProfile('Retries');
    smtp.refuseNext('retry@example.test', { code: 451, message: 'Try again later' });
    const before = now().getTime();
    const first = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: { from: '2026-09-01', to: '2026-09-30', recipients: ['retry@example.test'] },
    });
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toMatchObject({ status: 'sending', attempts: 0, schedule_id: null, from: '2026-09-01' });
    const waiting = await sendAfter(profileId, first.json().id, 1);
    expect(waiting).toMatchObject({ status: 'sending', attempts: 1 });
    expect(waiting.last_error).toContain('Try again later');
    // The next try waits a minute, less up to a fifth at random, from the try (between these two moments).
    const after = now().getTime();
    const nextTry = Date.parse(waiting.next_attempt_at as string);
    expect(nextTry - before).toBeGreaterThanOrEqual(48_000);
    expect(nextTry - after).toBeLessThanOrEqual(60_000);
    await moveTime(t.database.pool, 60_000);
    const sent = await eventually(async () => {
      const send = (await sendsOf(profileId)).find((s) => s.id === first.json().id);
      return send?.status === 'sent' ? send : undefined;
    });
    expect(sent).toMatchObject({ attempts: 2, next_attempt_at: null });
    const mails = smtp.received.filter((m) => m.to.includes('retry@example.test'));
    expect(mails).toHaveLength(1);

    smtp.refuseNext('gone@example.test', { code: 550, message: 'No such mailbox' });
    const second = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: { recipients: ['gone@example.test'] },
    });
    expect(second.statusCode, second.body).toBe(202);
    const failed = await sendAfter(profileId, second.json().id, 1);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, sent_at: null });
    expect(failed.last_error).toContain('No such mailbox');
    expect((await sendsOf(profileId, '?status=failed')).map((s) => s.id)).toEqual([second.json().id]);
    const event = await eventOf('report.failed', second.json().id);
    expect(event.data).toMatchObject({ id: second.json().id, status: 'failed', last_error: failed.last_error });
  });

  it("sends now to the schedule's addresses, once per Idempotency-Key, and refuses without any", async () => {
    const profileId = await newProfile('Now');
    const none = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe('validation_failed');
    expect(await sendsOf(profileId)).toEqual([]);

    await putSchedule(profileId, { frequency: 'monthly', day: 5, recipients: ['now@example.test'] });
    const asked = () =>
      t.app.inject({
        method: 'POST',
        url: `/v1/profiles/${profileId}/report-sends`,
        headers: { ...auth(owner.key), 'idempotency-key': 'send-now-1' },
      });
    const one = await asked();
    expect(one.statusCode, one.body).toBe(202);
    const two = await asked();
    expect(two.json().id).toBe(one.json().id);
    expect(one.json().recipients).toEqual(['now@example.test']);
    await sendAfter(profileId, one.json().id, 1);
    expect(await sendsOf(profileId)).toHaveLength(1);
  });

  it('goes with its profile: a due schedule makes nothing, an e-mail waiting for its next try is given up', async () => {
    const profileId = await newProfile('Leaving');
    const set = await putSchedule(profileId, { frequency: 'weekly', day: 7, recipients: ['leaving@example.test'] });
    smtp.refuseNext('leaving@example.test', { code: 451, message: 'Busy' });
    const waiting = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: {},
    });
    expect(waiting.statusCode, waiting.body).toBe(202);
    await sendAfter(profileId, waiting.json().id, 1);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}`,
      headers: auth(owner.key),
    });
    expect(deleted.statusCode).toBe(202);
    const due = new Date(set.json().next_send_at as string);
    await moveTime(t.database.pool, Math.max(0, due.getTime() - now().getTime()) + 1000);
    await makeDueSends();
    // The waiting e-mail's next try has come and gone (or the deletion removed it first).
    await eventually(async () => {
      const { rows } = await t.database.pool.query(
        'select count(*)::int as n from graphile_worker.jobs where key = $1',
        [`send_report:${waiting.json().id}`],
      );
      return rows[0].n === 0 ? true : undefined;
    });
    const { rows } = await t.database.pool.query(`select status, last_error from report_sends where profile_id = $1`, [
      profileId,
    ]);
    expect(rows.filter((r) => r.status !== 'failed')).toEqual([]);
    expect(rows.map((r) => r.last_error).filter((e) => e !== 'The profile was deleted.')).toEqual([]);
    expect(smtp.received.filter((m) => m.to.includes('leaving@example.test'))).toEqual([]);
    expect(receiver.received.filter((r) => r.body.toString('utf8').includes(waiting.json().id))).toEqual([]);
  });

  it('gives up after the fifth passing failure', async () => {
    const profileId = await newProfile('Five tries');
    const busy = { code: 421, message: 'Service not available' };
    smtp.refuseNext('five@example.test', busy, busy, busy, busy, busy);
    const asked = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: { recipients: ['five@example.test'] },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    for (let tries = 1; tries <= 4; tries++) {
      expect(await sendAfter(profileId, asked.json().id, tries)).toMatchObject({ status: 'sending', attempts: tries });
      // The longest wait is 2 hours.
      await moveTime(t.database.pool, 2 * 3_600_000);
    }
    const failed = await sendAfter(profileId, asked.json().id, 5);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null });
    expect(failed.last_error).toContain('Service not available');
    const event = await eventOf('report.failed', asked.json().id);
    expect(event.data).toMatchObject({ status: 'failed', attempts: 5 });
    expect(smtp.received.filter((m) => m.to.includes('five@example.test'))).toEqual([]);
  });

  it('records the addresses the mail server refused while it took the e-mail for the others', async () => {
    const profileId = await newProfile('Partly');
    smtp.refuseRecipient('nobody@example.test', { code: 550, message: 'No such user here' });
    const asked = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: { recipients: ['someone@example.test', 'nobody@example.test'] },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const sent = await sendAfter(profileId, asked.json().id, 1);
    expect(sent.status).toBe('sent');
    expect(sent.refused).toEqual([{ address: 'nobody@example.test', reason: '550 No such user here' }]);
    const mail = await eventually(async () => smtp.received.find((m) => m.to.includes('someone@example.test')));
    expect(mail.to).toEqual(['someone@example.test']);
  });

  it('gives up an e-mail whose report link was revoked before its next try', async () => {
    const profileId = await newProfile('Revoked');
    smtp.refuseNext('revoked@example.test', { code: 451, message: 'Later' });
    const asked = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/report-sends`,
      headers: auth(owner.key),
      payload: { recipients: ['revoked@example.test'] },
    });
    const waiting = await sendAfter(profileId, asked.json().id, 1);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/report-links/${waiting.link_id}`,
      headers: auth(owner.key),
    });
    expect(revoked.statusCode).toBe(200);
    await moveTime(t.database.pool, 60_000);
    const failed = await eventually(async () => {
      const send = (await sendsOf(profileId)).find((s) => s.id === asked.json().id);
      return send?.status === 'failed' ? send : undefined;
    });
    expect(failed).toMatchObject({ attempts: 1, last_error: 'Its report link was revoked before the e-mail went.' });
    expect(smtp.received.filter((m) => m.to.includes('revoked@example.test'))).toEqual([]);
  });

  it('lets a profile ask for 10 e-mails an hour', async () => {
    const profileId = await newProfile('Limited');
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: `/v1/profiles/${profileId}/report-sends`,
        headers: auth(owner.key),
        payload: { recipients: ['limited@example.test'] },
      });
    for (let n = 1; n <= 10; n++) expect((await ask()).statusCode).toBe(202);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await sendsOf(profileId)).toHaveLength(10);
  });
});
