/**
 * Report e-mails: a profile's report sent to the client's addresses with its PDF attached and a
 * report link of its own, made by the profile's schedule when it is due or asked for at once.
 * Each send is a workflow (sending, then sent or failed) whose job tries the e-mail again after
 * a passing failure, and ends in a `report.sent` (or `report.failed`) event.
 */
import { and, desc, eq, isNotNull, lt, lte } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import { dayOf, dayText } from '../../days.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import { countAttempt } from '../../http/rate-limit-store.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { retryAt } from '../../jobs/retry.ts';
import { defineWorkflow, stateValues, transition, workflowTable } from '../../jobs/workflow.ts';
import type { Mail, MailSent, SendMail } from '../../mail.ts';
import { decrypt, encrypt } from '../../secrets.ts';
import { reportBrandOf } from '../connect/index.ts';
import { type EventType, emit } from '../events/index.ts';
import type { InsightReadDeps } from '../insights/index.ts';
import { findProfile, getProfile } from '../profiles/index.ts';
import { renderReportSend } from './json.ts';
import { DEFAULT_LINK_DAYS, insertReportLink, reportPagePath, storedPeriod } from './links.ts';
import { ofProfile } from './of-profile.ts';
import { reportPdf } from './pdf.ts';
import {
  distinctAddresses,
  findReportSchedule,
  lastSendAt,
  nextSendAt,
  SEND_ATTEMPTS,
  SEND_RETRY,
  scheduledPeriod,
} from './schedules.ts';
import { periodOf, type ReportQuery, reportOf } from './service.ts';
import {
  type ReportSchedule,
  type ReportSend,
  type ReportSendStatus,
  reportLinks,
  reportSchedules,
  reportSends,
} from './tables.ts';
import { longDate, periodText, reportFileName } from './words.ts';

/**
 * A send's states: `sending` until the mail server takes the e-mail (each failed try waits
 * there for the next), then `sent`, or `failed` when it is given up (`giveUp`: the server
 * refused it for good, the last try failed, its link closed or its profile went first).
 */
export const sendWorkflow = defineWorkflow({
  name: 'report send',
  states: {
    sending: { status: 'sending' },
    sent: { status: 'sent' },
    failed: { status: 'failed' },
  },
  initial: ['sending'],
  transitions: {
    /** A try failed in passing: the next one is due later. */
    retry: { from: ['sending'] },
    send: { from: ['sending'], to: 'sent' },
    fail: { from: ['sending'], to: 'failed' },
  },
});

const sendsTable = workflowTable(sendWorkflow, reportSends, reportSends.id);

/** One job at a time tries a send: its next try is queued under the same key. */
const sendJobKey = (sendId: string) => `send_report:${sendId}`;

/** Schedules made due at once per run of the periodic task (the rest are due at its next run). */
const DUE_BATCH = 100;

export interface ReportMailDeps extends InsightReadDeps {
  secretKey: Buffer;
  sendMail: SendMail;
  log: Logger;
  /** PUBLIC_URL: where e-mailed links lead; without it, the address the send was asked at. */
  publicUrl: string | undefined;
}

interface NewSend {
  profile: { ownerId: string; id: string };
  scheduleId: string | null;
  period: { from: number; to: number };
  recipients: readonly string[];
  linkDays: number;
  linkBase: string;
}

/** Makes a send, its link and the job that e-mails it, in the caller's transaction. */
async function insertSend(tx: Tx, secretKey: Buffer, input: NewSend): Promise<ReportSend> {
  const { link, token } = await insertReportLink(tx, input.profile, input.period, input.linkDays);
  const at = now();
  const [send] = await tx
    .insert(reportSends)
    .values({
      id: newId('reportSend'),
      ownerId: input.profile.ownerId,
      profileId: input.profile.id,
      scheduleId: input.scheduleId,
      periodFrom: dayText(input.period.from),
      periodTo: dayText(input.period.to),
      recipients: [...input.recipients],
      status: 'sending',
      ...stateValues(sendsTable, 'sending'),
      nextAttemptAt: at,
      linkId: link.id,
      sealedToken: encrypt(secretKey, token),
      linkBase: input.linkBase,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (send === undefined) throw new Error('the report send was not stored');
  await enqueue(tx, 'send_report', { send_id: send.id }, { jobKey: sendJobKey(send.id) });
  return send;
}

/** Report e-mails one profile may ask for in an hour (POST .../report-sends): each goes to up to 20 addresses. */
export const SENDS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

/**
 * POST /v1/profiles/{id}/report-sends: the report over the period asked (as the report takes
 * it) e-mailed now, to the addresses given or else the schedule's.
 */
export async function sendReportNow(
  deps: { db: Db; secretKey: Buffer },
  scope: Scope,
  ref: string,
  input: ReportQuery & { recipients?: string[] | undefined; linkExpiresInDays?: number | undefined },
  linkBase: string,
): Promise<ReportSend> {
  const period = periodOf(input, dayOf(now()));
  const profile = await getProfile(deps.db, scope, ref);
  const schedule = await findReportSchedule(deps.db, profile);
  const recipients = input.recipients ?? schedule?.recipients;
  if (recipients === undefined) {
    throw new ApiError(
      400,
      'validation_failed',
      'Name the `recipients`: this profile has no report schedule to take them from.',
      [{ field: 'body.recipients', message: 'is required when the profile has no report schedule' }],
    );
  }
  // The agency's mail server sends under its name: a leaked key must not make it a spammer's.
  const { count, ttlMs } = await countAttempt(deps.db, `report-sends:${profile.id}`, HOUR_MS);
  if (count > SENDS_PER_HOUR) {
    const seconds = Math.ceil(ttlMs / 1000);
    throw new ApiError(
      429,
      'rate_limited',
      `A profile may e-mail its report ${SENDS_PER_HOUR} times an hour; retry after ${seconds} s.`,
      undefined,
      { 'retry-after': String(seconds) },
    );
  }
  return await deps.db.transaction((tx) =>
    insertSend(tx, deps.secretKey, {
      profile,
      scheduleId: null,
      period,
      recipients: distinctAddresses(recipients),
      linkDays: input.linkExpiresInDays ?? schedule?.linkDays ?? DEFAULT_LINK_DAYS,
      linkBase,
    }),
  );
}

/**
 * The periodic task: each active schedule whose time has come makes its send and is moved to
 * its next time after now. The send reports the period of the schedule's latest time (not of
 * the time it was due): a service that was down for weeks sends the last period, once, rather
 * than the first one missed. A profile's schedule e-mails a period once (kept unique).
 */
export async function scheduleReportSends(deps: { db: Db; secretKey: Buffer; log: Logger }): Promise<number> {
  const at = now();
  return await deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(reportSchedules)
      .where(and(eq(reportSchedules.active, true), lte(reportSchedules.nextSendAt, at)))
      .orderBy(reportSchedules.nextSendAt)
      .limit(DUE_BATCH)
      .for('update', { skipLocked: true });
    let made = 0;
    for (const schedule of due) {
      try {
        // Each in a savepoint: one that fails is tried again next minute, and holds up no other.
        if (await tx.transaction((one) => makeScheduledSend(one, deps.secretKey, schedule, at))) made += 1;
      } catch (error) {
        deps.log.error(
          { schedule_id: schedule.id, profile_id: schedule.profileId, err: error },
          'a report schedule could not make its e-mail; it is tried again in a minute',
        );
      }
    }
    return made;
  });
}

async function makeScheduledSend(tx: Tx, secretKey: Buffer, schedule: ReportSchedule, at: Date): Promise<boolean> {
  await tx
    .update(reportSchedules)
    .set({ nextSendAt: nextSendAt(schedule, at) })
    .where(eq(reportSchedules.id, schedule.id));
  const profile = await findProfile(tx, schedule.ownerId, schedule.profileId);
  // Being deleted: its schedule goes with it.
  if (profile === undefined) return false;
  const period = scheduledPeriod(schedule.frequency, lastSendAt(schedule, at));
  const [made] = await tx
    .select({ id: reportSends.id })
    .from(reportSends)
    .where(
      and(
        ofProfile(reportSends, profile),
        isNotNull(reportSends.scheduleId),
        eq(reportSends.periodFrom, dayText(period.from)),
        eq(reportSends.periodTo, dayText(period.to)),
      ),
    );
  if (made !== undefined) return false;
  await insertSend(tx, secretKey, {
    profile,
    scheduleId: schedule.id,
    period,
    recipients: schedule.recipients,
    linkDays: schedule.linkDays,
    linkBase: schedule.linkBase,
  });
  return true;
}

/**
 * A refusal of the e-mail itself that the mail server gave for good (a 5xx reply to the
 * envelope or the message): trying again would get the same. A 5xx to signing in (a wrong
 * password) or a lost connection is the service's set-up or a passing trouble, tried again.
 */
function refusedForGood(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (
    (code === 'EENVELOPE' || code === 'EMESSAGE') &&
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600
  );
}

/** The job of a `sending` send: one try of its e-mail, then the send moved on by how it went. */
export async function sendReport(deps: ReportMailDeps, sendId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db
    .select({ send: reportSends, link: { expiresAt: reportLinks.expiresAt, revokedAt: reportLinks.revokedAt } })
    .from(reportSends)
    .innerJoin(reportLinks, eq(reportLinks.id, reportSends.linkId))
    .where(eq(reportSends.id, sendId));
  if (row === undefined) return;
  const { send, link } = row;
  if (send.status !== 'sending' || send.sealedToken === null) return;
  const profile = await findProfile(db, send.ownerId, send.profileId);
  // Its data is being deleted, this send with it: nothing to tell anyone of.
  if (profile === undefined) return await giveUp(deps, send, 'The profile was deleted.', send.attempts, false);
  if (link.revokedAt !== null) return await giveUp(deps, send, 'Its report link was revoked before the e-mail went.');
  if (link.expiresAt <= now()) return await giveUp(deps, send, 'Its report link expired before the e-mail went.');
  const attempts = send.attempts + 1;
  let sent: MailSent;
  try {
    sent = await deps.sendMail(await reportMail(deps, send, profile, link.expiresAt));
  } catch (error) {
    // Anything that failed (the report's making included) is a try: a send never waits unseen.
    const message = error instanceof Error ? error.message : String(error);
    if (refusedForGood(error) || attempts >= SEND_ATTEMPTS) return await giveUp(deps, send, message, attempts);
    const next = retryAt(now(), SEND_RETRY, send.attempts);
    await db.transaction(async (tx) => {
      const waiting = await transition(tx, sendsTable, send.id, 'retry', {
        set: { attempts, lastError: message, nextAttemptAt: next, updatedAt: now() },
      });
      if (waiting) {
        await enqueue(tx, 'send_report', { send_id: send.id }, { runAt: next, jobKey: sendJobKey(send.id) });
      }
    });
    deps.log.warn(
      { send_id: send.id, profile_id: send.profileId, attempts, next_attempt_at: next.toISOString(), err: message },
      'a report e-mail failed; it will be tried again',
    );
    return;
  }
  await db.transaction(async (tx) => {
    const at = now();
    const done = await transition(tx, sendsTable, send.id, 'send', {
      set: { attempts, refused: sent.refused, sentAt: at, sealedToken: null, nextAttemptAt: null, updatedAt: at },
    });
    if (done) await emitSendEvent(tx, 'report.sent', done);
  });
  if (sent.refused.length > 0) {
    deps.log.warn(
      { send_id: send.id, profile_id: send.profileId, refused: sent.refused },
      'a report e-mail went, but the mail server refused some of its addresses',
    );
  }
}

/** The e-mail of a send: its text with the link, and the report's PDF, as the stored figures say now. */
async function reportMail(
  deps: ReportMailDeps,
  send: ReportSend,
  profile: { ownerId: string; id: string; name: string },
  linkExpiresAt: Date,
): Promise<Mail> {
  const report = await reportOf(deps, profile, storedPeriod(send));
  const brand = await reportBrandOf(deps.db, profile.ownerId);
  const pdf = await reportPdf(report, brand);
  const url = `${deps.publicUrl ?? send.linkBase}${reportPagePath(decrypt(deps.secretKey, send.sealedToken ?? ''))}`;
  const when = periodText(send.periodFrom, send.periodTo);
  const what = `${profile.name}: report for ${when}`;
  return {
    to: send.recipients,
    subject: brand.name ? `${what} (${brand.name})` : what,
    text: [
      'Hello,',
      '',
      `Here is ${profile.name}'s report for ${when}${brand.name ? `, from ${brand.name}` : ''}: what its accounts did, beside the period before. The PDF is attached.`,
      '',
      'See it in your browser:',
      url,
      '',
      `The link shows this report only, needs no account, and works until ${longDate(dayText(dayOf(linkExpiresAt)))}.`,
    ].join('\n'),
    attachments: [{ filename: reportFileName(report, 'pdf'), content: pdf, contentType: 'application/pdf' }],
    messageId: `<${send.id}@switchboard.invalid>`,
  };
}

async function giveUp(
  deps: ReportMailDeps,
  send: ReportSend,
  message: string,
  attempts = send.attempts,
  announce = true,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const at = now();
    const failed = await transition(tx, sendsTable, send.id, 'fail', {
      set: { attempts, lastError: message, sealedToken: null, nextAttemptAt: null, updatedAt: at },
    });
    if (failed && announce) await emitSendEvent(tx, 'report.failed', failed);
  });
  deps.log.warn(
    { send_id: send.id, profile_id: send.profileId, attempts, err: message },
    'a report e-mail was given up: send it again from the dashboard or POST /v1/profiles/{id}/report-sends',
  );
}

async function emitSendEvent(tx: Tx, type: Extract<EventType, `report.${string}`>, send: ReportSend): Promise<void> {
  // The send as the API shows it.
  await emit(tx, { ownerId: send.ownerId, profileId: send.profileId, type, data: { ...renderReportSend(send) } });
}

/** A page of the profile's sends, newest first; only those in `status`, when given. */
export async function listReportSends(
  db: Db,
  scope: Scope,
  ref: string,
  page: { limit: number; before?: string | undefined; status?: ReportSendStatus | undefined },
): Promise<ReportSend[]> {
  const profile = await getProfile(db, scope, ref);
  return await db
    .select()
    .from(reportSends)
    .where(
      and(
        ofProfile(reportSends, profile),
        page.status === undefined ? undefined : eq(reportSends.status, page.status),
        page.before === undefined ? undefined : lt(reportSends.id, page.before),
      ),
    )
    .orderBy(desc(reportSends.id))
    .limit(page.limit + 1);
}
