/**
 * What reading insights shares on every platform: the metrics and days asked, checked before any
 * call; the days worth a call, and the ranges they make; the figures, null until read.
 */

import { DAY_MS } from '../days.ts';
import { invalidRequest } from './errors.ts';
import { type DailyMetrics, type Platform, PlatformError } from './types.ts';

/** Unknown metric names are the caller's mistake, said before any call is made. */
export function requireMetrics(platform: Platform, supported: readonly string[], asked: readonly string[]): void {
  const unknown = asked.filter((m) => !supported.includes(m));
  if (unknown.length > 0) {
    throw invalidRequest(platform, `unknown metric ${unknown.join(', ')}; known: ${supported.join(', ')}`);
  }
}

/** Days must be YYYY-MM-DD; a bad one is the caller's error, reported the adapters' way. */
export function checkDays(platform: Platform, days: readonly string[]): void {
  for (const day of days) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
      throw new PlatformError('invalid_request', `not a day (YYYY-MM-DD): ${day}`, { platform });
    }
  }
}

/** The platform's names for the service's metric names. */
export function platformNames(metrics: readonly string[], renames: Record<string, string>): string[] {
  return metrics.map((m) => renames[m] ?? m);
}

export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The distinct days of `days` up to `last` (a day still to come has no figures to read), in order. */
export function daysUpTo(days: readonly string[], last: string): string[] {
  return [...new Set(days)].filter((day) => day <= last).sort();
}

/**
 * `since` and `until` (Unix seconds) from the start of day `first` to the end of day `last`,
 * but `until` no later than `at`: for a day still running, neither Instagram nor Threads says
 * whether it takes an `until` still to come, and asking up to now loses nothing. `until` stays
 * after `since` (a day that began this very second).
 */
export function readRange(first: string, last: string, at: Date): { since: number; until: number } {
  const since = Date.parse(`${first}T00:00:00Z`) / 1000;
  const end = Date.parse(`${last}T00:00:00Z`) / 1000 + 86_400;
  return { since, until: Math.max(since + 1, Math.min(end, Math.floor(at.getTime() / 1000))) };
}

/**
 * Sorted days cut into runs whose first and last day are at most `maxDays` days apart counted
 * inclusively, so each run is one since..until of at most `maxDays` days.
 */
export function runsWithin(days: readonly string[], maxDays: number): string[][] {
  const runs: string[][] = [];
  let current: string[] = [];
  for (const day of days) {
    const first = current[0];
    if (first !== undefined && (Date.parse(day) - Date.parse(first)) / DAY_MS + 1 > maxDays) {
      runs.push(current);
      current = [];
    }
    current.push(day);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

/** Every day asked with every metric asked, null (no data) until read. */
export function emptyFigures(days: readonly string[], metrics: readonly string[]): DailyMetrics {
  return Object.fromEntries(days.map((day) => [day, Object.fromEntries(metrics.map((m) => [m, null]))]));
}

/** Records a figure read for a day asked (figures of other days in an answer are left out). */
export function setFigure(figures: DailyMetrics, day: string, metric: string, value: number | null): void {
  const values = figures[day];
  if (values !== undefined) values[metric] = value;
}

/**
 * An account insights read begun now: the metrics and days asked checked, the moment and its day,
 * the figures null until read, and the days worth a call (asked, up to today, none before
 * `firstDay` where the platform has no figures earlier, in order).
 */
export function accountInsightsRead(
  platform: Platform,
  supported: readonly string[],
  asked: { days: readonly string[]; metrics: readonly string[] },
  now: () => Date,
  firstDay = '',
): { at: Date; today: string; figures: DailyMetrics; read: string[] } {
  requireMetrics(platform, supported, asked.metrics);
  checkDays(platform, asked.days);
  const at = now();
  const day = today(at);
  const read = daysUpTo(asked.days, day).filter((d) => d >= firstDay);
  return { at, today: day, figures: emptyFigures(asked.days, asked.metrics), read };
}
