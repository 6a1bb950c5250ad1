/** The periods the insights module works by (the spec's 6 hours; the platforms' late data). */
import { dayText } from '../../days.ts';

/** The spec's period between two refreshes of an account. */
export const REFRESH_INTERVAL_MS = 6 * 3_600_000;
/** Days each refresh reads again, today included: figures may come up to 48 h late (Instagram). */
export const REFRESH_DAYS = 3;
/** How far back the history goes: a year with the refresh's days. */
export const HISTORY_DAYS = 365;

/**
 * Where a newly followed account's reading starts, the day `today`: the history to read back
 * to a year before, from the day before the refresh's own days, which are all read up to.
 */
export function newAccountDays(today: number): { historyFrom: string; historyCursor: string; readTo: string } {
  const beforeRefresh = dayText(today - REFRESH_DAYS);
  return { historyFrom: dayText(today - HISTORY_DAYS + 1), historyCursor: beforeRefresh, readTo: beforeRefresh };
}
