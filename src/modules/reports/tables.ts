import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestampColumn, updatedAt } from '../../db/columns.ts';
import { ownerIdColumn } from '../owners/columns.ts';
import { profileIdColumn } from '../profiles/columns.ts';

/**
 * A link to a read-only page of one profile's report, which a client opens without an account.
 * Its period is fixed when it is made, so every opening shows the same days. Only the token's
 * hash is kept. It works until it expires or is revoked; each opening is counted.
 */
export const reportLinks = pgTable(
  'report_links',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    /** SHA-256 (hex) of the link's token. */
    tokenHash: text('token_hash').notNull().unique('report_links_token_hash_key'),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    revokedAt: timestampColumn('revoked_at'),
    opens: integer('opens').notNull().default(0),
    firstOpenedAt: timestampColumn('first_opened_at'),
    lastOpenedAt: timestampColumn('last_opened_at'),
    createdAt: createdAt(),
  },
  (t) => [index('report_links_profile_idx').on(t.ownerId, t.profileId, t.id)],
);

export type ReportLink = typeof reportLinks.$inferSelect;

export const SCHEDULE_FREQUENCIES = ['monthly', 'weekly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

/**
 * A profile's report schedule (one at most): the report of the last full month (or week) is
 * e-mailed to its recipients on a chosen day, at a chosen hour (UTC). `next_send_at` is when
 * the next send is due; the periodic task moves it on in the statement that makes the send.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    frequency: text('frequency').$type<ScheduleFrequency>().notNull(),
    /** Monthly: the day of the month, 1 to 28. Weekly: the ISO weekday, 1 (Monday) to 7 (Sunday). */
    day: integer('day').notNull(),
    /** The hour of that day, UTC, 0 to 23. */
    hour: integer('hour').notNull(),
    recipients: text('recipients').array().notNull(),
    /** How long the link in each e-mail works. */
    linkDays: integer('link_days').notNull(),
    active: boolean('active').notNull(),
    nextSendAt: timestampColumn('next_send_at').notNull(),
    /** Where the e-mailed links lead when PUBLIC_URL is not set: the address the schedule was set at. */
    linkBase: text('link_base').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('report_schedules_profile_key').on(t.profileId),
    index('report_schedules_due_idx').on(t.nextSendAt).where(sql`${t.active}`),
  ],
);

export type ReportSchedule = typeof reportSchedules.$inferSelect;

export const REPORT_SEND_STATUSES = ['sending', 'sent', 'failed'] as const;
export type ReportSendStatus = (typeof REPORT_SEND_STATUSES)[number];

/**
 * One e-mail of a profile's report: made by its schedule or asked for at once, with a report
 * link of its own. The link's token is kept sealed (SECRET_KEY) until the e-mail has gone, so a
 * retry sends the same link; only its hash stays after. A profile's schedule makes one send a period.
 */
export const reportSends = pgTable(
  'report_sends',
  {
    id: text('id').primaryKey(),
    ownerId: ownerIdColumn(),
    profileId: profileIdColumn(),
    /** The schedule that made it; null: asked for through the API. */
    scheduleId: text('schedule_id'),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    recipients: text('recipients').array().notNull(),
    status: text('status').$type<ReportSendStatus>().notNull(),
    /** Tries of the e-mail so far. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The addresses the mail server refused while taking the e-mail for the others, each with its answer. */
    refused: jsonb('refused').$type<{ address: string; reason: string }[]>().notNull().default([]),
    /** When the next try is due, while `sending`. */
    nextAttemptAt: timestampColumn('next_attempt_at'),
    linkId: text('link_id')
      .notNull()
      .references(() => reportLinks.id),
    /** The link's token, sealed under SECRET_KEY; null once the e-mail is sent or has failed. */
    sealedToken: text('sealed_token'),
    linkBase: text('link_base').notNull(),
    sentAt: timestampColumn('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('report_sends_profile_idx').on(t.ownerId, t.profileId, t.id),
    // A profile's schedule e-mails a period once, even when the schedule was removed and set again.
    uniqueIndex('report_sends_scheduled_period_key')
      .on(t.profileId, t.periodFrom, t.periodTo)
      .where(sql`${t.scheduleId} is not null`),
  ],
);

export type ReportSend = typeof reportSends.$inferSelect;
