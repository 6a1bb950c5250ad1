/**
 * A profile's report schedule: the report of the last full calendar month (or Monday-to-Sunday
 * week) e-mailed to the client on a chosen day, at a chosen hour (UTC). What is due is sent by
 * `scheduleReportSends` (sends.ts).
 */
import { and, eq } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { dayOf } from '../../days.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { getProfile } from '../profiles/index.ts';
import { DEFAULT_LINK_DAYS } from './links.ts';
import { type ReportSchedule, reportSchedules, type ScheduleFrequency } from './tables.ts';

const DAY_MS = 86_400_000;
export const DEFAULT_SEND_HOUR = 8;

/** The ISO weekday of a day number: 1 (Monday) to 7 (Sunday); 1970-01-01 was a Thursday. */
function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** When a schedule sends next, strictly after `after`. */
export function nextSendAt(schedule: { frequency: ScheduleFrequency; day: number; hour: number }, after: Date): Date {
  const { frequency, day, hour } = schedule;
  if (frequency === 'monthly') {
    const year = after.getUTCFullYear();
    const month = after.getUTCMonth();
    const thisMonth = new Date(Date.UTC(year, month, day, hour));
    return thisMonth > after ? thisMonth : new Date(Date.UTC(year, month + 1, day, hour));
  }
  const today = dayOf(after);
  const sendDay = today + ((day - isoWeekday(today) + 7) % 7);
  const at = new Date(sendDay * DAY_MS + hour * 3_600_000);
  return at > after ? at : new Date(at.getTime() + 7 * DAY_MS);
}

/**
 * The period a send due at `at` reports: the last full calendar month before that day (monthly),
 * or the last full week, Monday to Sunday, before it (weekly).
 */
export function scheduledPeriod(frequency: ScheduleFrequency, at: Date): { from: number; to: number } {
  const today = dayOf(at);
  if (frequency === 'monthly') {
    const thisMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1) / DAY_MS;
    const lastMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1) / DAY_MS;
    return { from: lastMonth, to: thisMonth - 1 };
  }
  const lastSunday = today - isoWeekday(today);
  return { from: lastSunday - 6, to: lastSunday };
}

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
    .onConflictDoUpdate({ target: reportSchedules.profileId, set: values })
    .returning();
  if (row === undefined) throw new Error('the schedule was not stored');
  return row;
}

export async function findReportSchedule(
  db: Db,
  profile: { ownerId: string; id: string },
): Promise<ReportSchedule | undefined> {
  const [row] = await db
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.ownerId, profile.ownerId), eq(reportSchedules.profileId, profile.id)));
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
    .where(and(eq(reportSchedules.ownerId, profile.ownerId), eq(reportSchedules.profileId, profile.id)))
    .returning({ id: reportSchedules.id });
  if (deleted.length === 0) throw notFound();
}
