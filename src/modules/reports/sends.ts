/**
 * Report e-mails: a profile's report sent to the client's addresses with its PDF attached and a
 * report link of its own, made by the profile's schedule when it is due or asked for at once.
 * Each send is a workflow (sending, then sent or failed) whose job tries the e-mail again after
 * a passing failure, and ends in a `report.sent` (or `report.failed`) event.
 */
import { and, desc, eq, lt, lte } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import { dayNumber, dayOf, dayText } from '../../days.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { retryAt, retryPolicy } from '../../jobs/retry.ts';
import { defineWorkflow, stateValues, transition, workflowTable } from '../../jobs/workflow.ts';
import type { SendMail } from '../../mail.ts';
import { decrypt, encrypt } from '../../secrets.ts';
import { reportBrandOf } from '../connect/index.ts';
import { type EventType, emit } from '../events/index.ts';
import type { InsightReadDeps } from '../insights/index.ts';
import { findProfile, getProfile } from '../profiles/index.ts';
import { renderReportSend } from './json.ts';
import { DEFAULT_LINK_DAYS, insertReportLink, reportPagePath } from './links.ts';
import { reportPdf } from './pdf.ts';
import { distinctAddresses, nextSendAt, scheduledPeriod } from './schedules.ts';
import { periodOf, type ReportQuery, reportOf } from './service.ts';
import { type ReportSend, type ReportSendStatus, reportLinks, reportSchedules, reportSends } from './tables.ts';
import { longDate, periodText, reportFileName } from './words.ts';

/**
 * A send's states: `sending` until the mail server takes the e-mail (each failed try waits
 * there for the next), then `sent`, or `failed` when the server refused it for good or the
 * last try failed.
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

/** Tries of one e-mail before it is given up. */
export const SEND_ATTEMPTS = 5;
/** A mail server that failed in passing is tried again after 1 minute, then 5, 25, and 2 hours at most. */
const SEND_RETRY = retryPolicy({ firstMs: 60_000, factor: 5, capMs: 2 * 3_600_000, jitter: 0.2 });
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
  await enqueue(tx, 'send_report', { send_id: send.id }, { jobKey: `send_report:${send.id}` });
  return send;
}

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
  return await deps.db.transaction(async (tx) => {
    const [schedule] = await tx
      .select({ recipients: reportSchedules.recipients, linkDays: reportSchedules.linkDays })
      .from(reportSchedules)
      .where(and(eq(reportSchedules.ownerId, profile.ownerId), eq(reportSchedules.profileId, profile.id)));
    const recipients = input.recipients ?? schedule?.recipients;
    if (recipients === undefined) {
      throw new ApiError(
        400,
        'validation_failed',
        'Name the `recipients`: this profile has no report schedule to take them from.',
        [{ field: 'body.recipients', message: 'is required when the profile has no report schedule' }],
      );
    }
    return await insertSend(tx, deps.secretKey, {
      profile,
      scheduleId: null,
      period,
      recipients: distinctAddresses(recipients),
      linkDays: input.linkExpiresInDays ?? schedule?.linkDays ?? DEFAULT_LINK_DAYS,
      linkBase,
    });
  });
}

/**
 * The periodic task: each active schedule whose time has come makes its send (once a period:
 * a schedule's send of a period is unique) and is moved to its next time, counted from now, so
 * a service that was down for weeks sends the last period once rather than each one missed.
 */
export async function scheduleReportSends(deps: { db: Db; secretKey: Buffer }): Promise<number> {
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
      await tx
        .update(reportSchedules)
        .set({ nextSendAt: nextSendAt(schedule, at) })
        .where(eq(reportSchedules.id, schedule.id));
      const profile = await findProfile(tx, schedule.ownerId, schedule.profileId);
      // Being deleted: its schedule goes with it.
      if (profile === undefined) continue;
      const period = scheduledPeriod(schedule.frequency, schedule.nextSendAt);
      const [sent] = await tx
        .select({ id: reportSends.id })
        .from(reportSends)
        .where(
          and(
            eq(reportSends.scheduleId, schedule.id),
            eq(reportSends.periodFrom, dayText(period.from)),
            eq(reportSends.periodTo, dayText(period.to)),
          ),
        );
      if (sent !== undefined) continue;
      await insertSend(tx, deps.secretKey, {
        profile,
        scheduleId: schedule.id,
        period,
        recipients: schedule.recipients,
        linkDays: schedule.linkDays,
        linkBase: schedule.linkBase,
      });
      made += 1;
    }
    return made;
  });
}

/** A refusal the mail server gave for good (an SMTP 5xx reply): trying again would get the same. */
function refusedForGood(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The job of a `sending` send: one try of its e-mail, then the send moved on by how it went. */
export async function sendReport(deps: ReportMailDeps, sendId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db
    .select({ send: reportSends, linkExpiresAt: reportLinks.expiresAt })
    .from(reportSends)
    .innerJoin(reportLinks, eq(reportLinks.id, reportSends.linkId))
    .where(eq(reportSends.id, sendId));
  if (row === undefined) return;
  const { send, linkExpiresAt } = row;
  if (send.status !== 'sending' || send.sealedToken === null) return;
  const profile = await findProfile(db, send.ownerId, send.profileId);
  if (profile === undefined) return await giveUp(deps, send, 'The profile was deleted.');
  const period = { from: dayNumber(send.periodFrom) as number, to: dayNumber(send.periodTo) as number };
  const report = await reportOf(deps, profile, period);
  const brand = await reportBrandOf(db, profile.ownerId);
  const pdf = await reportPdf(report, brand);
  const url = `${deps.publicUrl ?? send.linkBase}${reportPagePath(decrypt(deps.secretKey, send.sealedToken))}`;
  const what = `${profile.name}: report for ${periodText(send.periodFrom, send.periodTo)}`;
  try {
    await deps.sendMail({
      to: send.recipients,
      subject: brand.name ? `${what} (${brand.name})` : what,
      text: [
        'Hello,',
        '',
        `Here is ${profile.name}'s report for ${periodText(send.periodFrom, send.periodTo)}${brand.name ? `, from ${brand.name}` : ''}: what its accounts did, beside the period before. The PDF is attached.`,
        '',
        'See it in your browser:',
        url,
        '',
        `The link shows this report only, needs no account, and works until ${longDate(dayText(dayOf(linkExpiresAt)))}.`,
      ].join('\n'),
      attachments: [{ filename: reportFileName(report, 'pdf'), content: pdf, contentType: 'application/pdf' }],
      messageId: `<${send.id}@switchboard.invalid>`,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const attempts = send.attempts + 1;
    if (refusedForGood(error) || attempts >= SEND_ATTEMPTS) return await giveUp(deps, send, message, attempts);
    const next = retryAt(now(), SEND_RETRY, send.attempts);
    await db.transaction(async (tx) => {
      const waiting = await transition(tx, sendsTable, send.id, 'retry', {
        set: { attempts, lastError: message, nextAttemptAt: next, updatedAt: now() },
      });
      if (waiting)
        await enqueue(tx, 'send_report', { send_id: send.id }, { runAt: next, jobKey: `send_report:${send.id}` });
    });
    deps.log.warn(
      { send_id: send.id, profile_id: send.profileId, attempts, next_attempt_at: next.toISOString(), err: message },
      'a report e-mail failed; it will be tried again',
    );
    return;
  }
  await db.transaction(async (tx) => {
    const at = now();
    const sent = await transition(tx, sendsTable, send.id, 'send', {
      set: { attempts: send.attempts + 1, sentAt: at, sealedToken: null, nextAttemptAt: null, updatedAt: at },
    });
    if (sent) await emitSendEvent(tx, 'report.sent', sent);
  });
}

async function giveUp(
  deps: ReportMailDeps,
  send: ReportSend,
  message: string,
  attempts = send.attempts,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const at = now();
    const failed = await transition(tx, sendsTable, send.id, 'fail', {
      set: { attempts, lastError: message, sealedToken: null, nextAttemptAt: null, updatedAt: at },
    });
    if (failed) await emitSendEvent(tx, 'report.failed', failed);
  });
  deps.log.warn(
    { send_id: send.id, profile_id: send.profileId, attempts, err: message },
    'a report e-mail was given up: send it again from the dashboard or POST /v1/profiles/{id}/report-sends',
  );
}

async function emitSendEvent(tx: Tx, type: Extract<EventType, `report.${string}`>, send: ReportSend): Promise<void> {
  await emit(tx, { ownerId: send.ownerId, profileId: send.profileId, type, data: sendEventData(send) });
}

/** The `data` of a send's events: the send as the API shows it. */
function sendEventData(send: ReportSend): Record<string, unknown> {
  return { ...renderReportSend(send) };
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
        eq(reportSends.ownerId, profile.ownerId),
        eq(reportSends.profileId, profile.id),
        page.status === undefined ? undefined : eq(reportSends.status, page.status),
        page.before === undefined ? undefined : lt(reportSends.id, page.before),
      ),
    )
    .orderBy(desc(reportSends.id))
    .limit(page.limit + 1);
}
