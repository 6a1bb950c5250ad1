/** How the service reads Graph answers: times, posts, ids, confirmations and insights figures. */

import { DAY_MS } from '../../days.ts';
import { list, num, record, requiredText, str } from '../http.ts';
import { type Platform, PlatformError, type PlatformPostSummary } from '../types.ts';

/** A Graph time (`2024-08-07T10:33:16+0000`; Date.parse does not take `+0000` everywhere), or null. */
export function graphDate(value: unknown): Date | null {
  const text = str(value);
  if (text === null) return null;
  const time = Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(time) ? null : new Date(time);
}

/** A post as a Graph answer gives it (`textField`: caption, text or message; `timeField`: its time). */
export function postSummaryOf(raw: unknown, textField: string, timeField = 'timestamp'): PlatformPostSummary | null {
  const item = record(raw);
  const id = str(item.id);
  if (id === null) return null;
  return {
    id,
    text: str(item[textField]),
    permalink: str(item.permalink) ?? str(item.permalink_url),
    publishedAt: graphDate(item[timeField]),
  };
}

/** One post asked for by id (postSummary): a Graph answer without the id is a platform failure, worth a retry. */
export function requiredPostSummary(
  platform: Platform,
  raw: unknown,
  textField: string,
  timeField?: string,
): PlatformPostSummary {
  const summary = postSummaryOf(raw, textField, timeField);
  if (summary === null)
    throw new PlatformError('transient', `${platform} answered a post without its id`, { platform });
  return summary;
}

/** The `id` of a `{"id": ...}` answer (publishing, replies), or a transient error when it is missing. */
export function idOf(platform: Platform, body: Record<string, unknown>): string {
  return requiredText(platform, body.id, 'an id');
}

/**
 * A `{"success": true}` answer. Meta's pages write it both ways (`true` in the Page Subscribed
 * Apps reference, `"true"` in its Webhooks for Pages guide), so both count; anything else
 * is a platform fault, worth another try.
 */
export function requireSuccess(platform: Platform, body: Record<string, unknown>, what: string): void {
  if (body.success === true || body.success === 'true') return;
  throw new PlatformError('transient', `${platform} did not confirm ${what}`, { platform });
}

/**
 * Graph's answer for an object it does not have (or no longer has): code 100, subcode 33,
 * "Unsupported get request. Object with ID ... does not exist".
 */
export function isGone(error: unknown): boolean {
  return error instanceof PlatformError && error.detail.code === 100 && error.detail.subcode === 33;
}

/**
 * The value of metric `name` in an insights answer (`{"data":[{"name", ...}]}`): a
 * `total_value.value`, the sum of `values[].value` (a time series), or of
 * `link_total_values[].value`. A metric absent from the answer, or with no values, is null:
 * no data is not 0.
 */
export function metricValue(body: Record<string, unknown>, name: string): number | null {
  const entry = list(body.data)
    .map(record)
    .find((d) => d.name === name);
  if (entry === undefined) return null;
  const total = num(record(entry.total_value).value);
  if (total !== null) return total;
  for (const series of [entry.values, entry.link_total_values]) {
    const values = list(series)
      .map((v) => num(record(v).value))
      .filter((v): v is number => v !== null);
    if (values.length > 0) return values.reduce((a, b) => a + b, 0);
  }
  return null;
}

/**
 * The daily values of a time-series metric (`values:[{value, end_time}]`) by the day each
 * belongs to: the UTC date 24 hours before its `end_time`. Instagram's and Threads' days end at
 * 07:00 or 08:00 UTC (Pacific time), the sandbox's at 00:00 UTC: either way that is the day the
 * value counts. A day without a value is absent (no data, not 0).
 */
export function dailyValues(body: Record<string, unknown>, name: string): Map<string, number> {
  const entry = list(body.data)
    .map(record)
    .find((d) => d.name === name);
  const days = new Map<string, number>();
  for (const item of list(entry?.values)) {
    const value = num(record(item).value);
    const end = graphDate(record(item).end_time);
    if (value === null || end === null) continue;
    days.set(new Date(end.getTime() - DAY_MS).toISOString().slice(0, 10), value);
  }
  return days;
}
