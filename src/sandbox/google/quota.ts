/**
 * A Google project's daily quota, as YouTube's "Quota Calculator" states it: "10,000 units per day
 * combined for all other endpoints" beside videos.insert's own calls, each method's cost from the
 * page's table, "All API requests, including invalid requests, incur a quota cost of at least one
 * point", and "Daily quotas reset at midnight Pacific Time (PT)".
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxGoogleQuotaDays } from '../schema.ts';
import { wholeNumber } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { googleAnswer } from './answers.ts';

/** The units a project may spend a day; lower it to spend it in a test. */
export const DAILY_QUOTA_UNITS = wholeNumber('youtube_daily_quota_units', 10_000, 1_000_000_000);

/** When a Google project's daily quotas last reset: midnight Pacific Time ("Quota Calculator"). */
export function lastPacificMidnight(at: Date): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsedMs = (part('hour') * 3600 + part('minute') * 60 + part('second')) * 1000 + at.getUTCMilliseconds();
  return new Date(at.getTime() - elapsedMs);
}

/** The Pacific Time day of `at` (YYYY-MM-DD): the key of a project's count. */
function pacificDayOf(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(at);
}

/** The units `clientId`'s project spent today (the sandbox's clock). */
export async function unitsUsed(store: Store, clientId: string): Promise<{ day: string; units: number }> {
  const day = pacificDayOf(store.now());
  const [row] = await store.db
    .select({ units: sandboxGoogleQuotaDays.units })
    .from(sandboxGoogleQuotaDays)
    .where(and(eq(sandboxGoogleQuotaDays.clientId, clientId), eq(sandboxGoogleQuotaDays.day, day)));
  return { day, units: row?.units ?? 0 };
}

/** Sets what `clientId`'s project spent today, as other uses of the project would have. */
export async function setUnitsUsed(store: Store, clientId: string, units: number): Promise<void> {
  const day = pacificDayOf(store.now());
  await store.db
    .insert(sandboxGoogleQuotaDays)
    .values({ clientId, day, units })
    .onConflictDoUpdate({ target: [sandboxGoogleQuotaDays.clientId, sandboxGoogleQuotaDays.day], set: { units } });
}

/**
 * Charges a call's units to the caller's project; one the day's units cannot cover is refused
 * with 403 quotaExceeded, as the API answers a project past its quota, and costs nothing.
 */
export async function chargeUnits(store: Store, clientId: string, units: number): Promise<void> {
  const day = pacificDayOf(store.now());
  const limit = await getSetting(store, DAILY_QUOTA_UNITS);
  const charged =
    units > limit
      ? []
      : await store.db
          .insert(sandboxGoogleQuotaDays)
          .values({ clientId, day, units })
          .onConflictDoUpdate({
            target: [sandboxGoogleQuotaDays.clientId, sandboxGoogleQuotaDays.day],
            set: { units: sql`${sandboxGoogleQuotaDays.units} + ${units}` },
            setWhere: sql`${sandboxGoogleQuotaDays.units} + ${units} <= ${limit}`,
          })
          .returning({ units: sandboxGoogleQuotaDays.units });
  if (charged.length === 0) {
    throw googleAnswer(
      403,
      'quotaExceeded',
      'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
      'youtube.quota',
    );
  }
}
