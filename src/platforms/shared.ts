/** Small rules several adapters share. */
import { list, num, record, str } from './http.ts';
import {
  type AuthorizeCallback,
  type Platform,
  type PlatformAction,
  type PlatformAdapter,
  PlatformError,
  type PlatformPostSummary,
} from './types.ts';

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

export function invalidRequest(platform: Platform, message: string): PlatformError {
  return new PlatformError('invalid_request', `${platform}: ${message}`, { platform });
}

/** Unknown metric names are the caller's mistake, said before any call is made. */
export function requireMetrics(platform: Platform, supported: readonly string[], asked: readonly string[]): void {
  const unknown = asked.filter((m) => !supported.includes(m));
  if (unknown.length > 0) {
    throw invalidRequest(platform, `unknown metric ${unknown.join(', ')}; known: ${supported.join(', ')}`);
  }
}

/** The platform's names for the service's metric names. */
export function platformNames(metrics: readonly string[], renames: Record<string, string>): string[] {
  return metrics.map((m) => renames[m] ?? m);
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
    days.set(new Date(end.getTime() - 86_400_000).toISOString().slice(0, 10), value);
  }
  return days;
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

/** The distinct days of `days` up to `last` (a day still to come has no figures to read), in order. */
export function daysUpTo(days: readonly string[], last: string): string[] {
  return [...new Set(days)].filter((day) => day <= last).sort();
}

/** Every day asked with every metric asked, null (no data) until read. */
export function emptyFigures(
  days: readonly string[],
  metrics: readonly string[],
): Record<string, Record<string, number | null>> {
  return Object.fromEntries(days.map((day) => [day, Object.fromEntries(metrics.map((m) => [m, null]))]));
}

/** Records a figure read for a day asked (figures of other days in an answer are left out). */
export function setFigure(
  figures: Record<string, Record<string, number | null>>,
  day: string,
  metric: string,
  value: number | null,
): void {
  const values = figures[day];
  if (values !== undefined) values[metric] = value;
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
    if (first !== undefined && (Date.parse(day) - Date.parse(first)) / 86_400_000 + 1 > maxDays) {
      runs.push(current);
      current = [];
    }
    current.push(day);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

/** Expiry from an `expires_in` in seconds; null when absent or 0 (a token that does not expire). */
export function tokenExpiry(now: Date, expiresIn: unknown): Date | null {
  const seconds = num(expiresIn);
  return seconds === null || seconds <= 0 ? null : new Date(now.getTime() + seconds * 1000);
}

export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** A redirect without a code: the user cancelled (or the platform refused). */
export function denyCallback(query: Record<string, unknown>, state: string | null): AuthorizeCallback {
  return {
    outcome: 'denied',
    error: str(query.error) ?? 'access_denied',
    description: str(query.error_description) ?? str(query.error_reason),
    state,
  };
}

/** A comma-separated scope list (`"a,b, c"`), as Instagram and TikTok send the granted scopes. */
export function splitScopes(value: unknown): string[] {
  return (str(value) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The adapter, with every `permission_missing` of a method that acts for a known action
 * carrying `detail.missingScopes`: the scopes that action needs on the platform
 * (ScopePolicy.refusedFor, else byAction), so the account's recorded permissions can drop them. A
 * platform's refusal rarely names the scope, and a grant may change after the connection
 * (a user removing one permission on the platform). An inner call's own answer wins
 * (Instagram's insights read the profile for the followers count).
 */
export function reportingMissingScopes(adapter: PlatformAdapter): PlatformAdapter {
  async function acting<T>(action: PlatformAction, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const needed = adapter.scopes.refusedFor?.[action] ?? adapter.scopes.byAction[action];
      if (
        !(error instanceof PlatformError) ||
        error.kind !== 'permission_missing' ||
        needed === undefined ||
        error.detail.missingScopes !== undefined
      ) {
        throw error;
      }
      throw new PlatformError(error.kind, error.message, { ...error.detail, missingScopes: [...needed] });
    }
  }
  const { comments, insights, publishing } = adapter;
  const { afterPublish } = publishing;
  const { finishReply } = comments ?? {};
  return {
    ...adapter,
    profile: (credentials) => acting('read_profile', () => adapter.profile(credentials)),
    ...(comments && {
      comments: {
        ...comments,
        recentComments: (credentials, options) =>
          acting('read_comments', () => comments.recentComments(credentials, options)),
        postSummary: (credentials, postId) => acting('read_comments', () => comments.postSummary(credentials, postId)),
        subscribeNotices: (credentials) => acting('comment_notices', () => comments.subscribeNotices(credentials)),
        commentTimes: (credentials, commentIds) =>
          acting('read_comments', () => comments.commentTimes(credentials, commentIds)),
        reply: (credentials, commentId, text) => acting('reply', () => comments.reply(credentials, commentId, text)),
        ...(finishReply && {
          finishReply: (credentials, containerId) => acting('reply', () => finishReply(credentials, containerId)),
        }),
        setHidden: (credentials, commentId, hidden) =>
          acting('hide', () => comments.setHidden(credentials, commentId, hidden)),
      },
    }),
    ...(insights && {
      insights: {
        accountInsights: (credentials, days, metrics) =>
          acting('read_insights', () => insights.accountInsights(credentials, days, metrics)),
        postInsights: (credentials, postId, metrics) =>
          acting('read_insights', () => insights.postInsights(credentials, postId, metrics)),
      },
    }),
    publishing: {
      ...publishing,
      createContainer: (credentials, request) =>
        acting('publish', () => publishing.createContainer(credentials, request)),
      containerStatus: (credentials, containerId) =>
        acting('publish', () => publishing.containerStatus(credentials, containerId)),
      publishContainer: (credentials, containerId) =>
        acting('publish', () => publishing.publishContainer(credentials, containerId)),
      publishingQuota: (credentials) => acting('publish', () => publishing.publishingQuota(credentials)),
      findPublished: (credentials, containerId) =>
        acting('publish', () => publishing.findPublished(credentials, containerId)),
      ...(afterPublish && {
        afterPublish: {
          ...afterPublish,
          run: (credentials, postId, options) =>
            acting(afterPublish.action, () => afterPublish.run(credentials, postId, options)),
        },
      }),
    },
  };
}
