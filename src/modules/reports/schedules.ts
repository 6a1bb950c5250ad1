/**
 * A profile's report schedule: the report of the last full calendar month (or Monday-to-Sunday
 * week) e-mailed to the client on a chosen day, at a chosen hour (UTC). What is due is sent by
 * `scheduleReportSends` (sends.ts).
 */
import { sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS, dayOf } from '../../days.ts';
import type { Db, Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { retryPolicy } from '../../jobs/retry.ts';
import { getProfile } from '../profiles/index.ts';
import { DEFAULT_LINK_DAYS } from './links.ts';
import { ofProfile } from './of-profile.ts';
import { lastMonthOf } from './service.ts';
import { type ReportSchedule, reportSchedules, type ScheduleFrequency } from './tables.ts';

export const DEFAULT_SEND_HOUR = 8;

/** The ISO weekday of a day number: 1 (Monday) to 7 (Sunday); 1970-01-01 was a Thursday. */
function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

type When = Pick<ReportSchedule, 'frequency' | 'day' | 'hour'>;

/** When a schedule sends next, strictly after `after`. */
export function nextSendAt(schedule: When, after: Date): Date {
  const last = lastSendAt(schedule, after);
  if (schedule.frequency === 'weekly') return new Date(last.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, schedule.day, schedule.hour));
}

/** The schedule's latest time at or before `at`: the time whose period a send made at `at` reports. */
export function lastSendAt(schedule: When, at: Date): Date {
  const { frequency, day, hour } = schedule;
  if (frequency === 'monthly') {
    const thisMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), day, hour));
    return thisMonth <= at ? thisMonth : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, day, hour));
  }
  const today = dayOf(at);
  const sendDay = today - ((isoWeekday(today) - day + 7) % 7);
  const time = new Date(sendDay * DAY_MS + hour * 3_600_000);
  return time <= at ? time : new Date(time.getTime() - 7 * DAY_MS);
}

/**
 * The period a send due at `at` reports: the last full calendar month before that day (monthly),
 * or the last full week, Monday to Sunday, before it (weekly).
 */
export function scheduledPeriod(frequency: ScheduleFrequency, at: Date): { from: number; to: number } {
  const today = dayOf(at);
  if (frequency === 'monthly') return lastMonthOf(today);
  const lastSunday = today - isoWeekday(today);
  return { from: lastSunday - 6, to: lastSunday };
}

/** Tries of one e-mail before it is given up. */
export const SEND_ATTEMPTS = 5;
/** A mail server that failed in passing is tried again after 1 minute, then 5, 25, and 2 hours at most. */
export const SEND_RETRY = retryPolicy({ firstMs: 60_000, factor: 5, capMs: 2 * 3_600_000, jitter: 0.2 });

export interface ScheduleInput {
  frequency: ScheduleFrequency;
  day: number;
  hour?: number | undefined;
  recipients: string[];
  linkExpiresInDays?: number | undefined;
  active?: boolean | undefined;
}

const notFound = () => new ApiError(404, 'report_schedule_not_found', 'This profile has no report schedule.');

/** The same address written twice (in any case) is one recipient. */
export function distinctAddresses(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Sets the profile's schedule, made or replaced whole; its next send is counted from now. */
export async function putReportSchedule(
  db: Db,
  scope: Scope,
  ref: string,
  input: ScheduleInput,
  linkBase: string,
): Promise<ReportSchedule> {
  if (input.frequency === 'weekly' && input.day > 7) {
    throw new ApiError(400, 'validation_failed', "A weekly schedule's `day` is a weekday, 1 (Monday) to 7 (Sunday).", [
      { field: 'body.day', message: 'must be at most 7 for a weekly schedule' },
    ]);
  }
  const profile = await getProfile(db, scope, ref);
  const at = now();
  const hour = input.hour ?? DEFAULT_SEND_HOUR;
  const values = {
    frequency: input.frequency,
    day: input.day,
    hour,
    recipients: distinctAddresses(input.recipients),
    linkDays: input.linkExpiresInDays ?? DEFAULT_LINK_DAYS,
    active: input.active ?? true,
    nextSendAt: nextSendAt({ frequency: input.frequency, day: input.day, hour }, at),
    linkBase,
    updatedAt: at,
  };
  const [row] = await db
    .insert(reportSchedules)
    .values({ id: newId('reportSchedule'), ownerId: profile.ownerId, profileId: profile.id, createdAt: at, ...values })
    .onConflictDoUpdate({
      target: reportSchedules.profileId,
      set: {
        ...values,
        // A send that is due but not yet made stays due: changing the addresses in that minute
        // must not skip the period (the period is the new settings' latest, and made once).
        nextSendAt: sql`case when ${reportSchedules.active} and ${values.active} and ${reportSchedules.nextSendAt} <= ${at}
          then ${reportSchedules.nextSendAt} else ${values.nextSendAt} end`,
      },
    })
    .returning();
  if (row === undefined) throw new Error('the schedule was not stored');
  return row;
}

export async function findReportSchedule(
  db: Queryable,
  profile: { ownerId: string; id: string },
): Promise<ReportSchedule | undefined> {
  const [row] = await db.select().from(reportSchedules).where(ofProfile(reportSchedules, profile));
  return row;
}

export async function getReportSchedule(db: Db, scope: Scope, ref: string): Promise<ReportSchedule> {
  const schedule = await findReportSchedule(db, await getProfile(db, scope, ref));
  if (schedule === undefined) throw notFound();
  return schedule;
}

/** Removes the profile's schedule: nothing more is sent by it; sends already made go on. */
export async function deleteReportSchedule(db: Db, scope: Scope, ref: string): Promise<void> {
  const profile = await getProfile(db, scope, ref);
  const deleted = await db
    .delete(reportSchedules)
    .where(ofProfile(reportSchedules, profile))
    .returning({ id: reportSchedules.id });
  if (deleted.length === 0) throw notFound();
}
