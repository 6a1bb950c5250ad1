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
 * (ScopePolicy.byAction), so the account's recorded permissions can drop them. A
 * platform's refusal rarely names the scope, and a grant may change after the connection
 * (a user removing one permission on the platform). An inner call's own answer wins
 * (Instagram's insights read the profile for the followers count).
 */
export function reportingMissingScopes(adapter: PlatformAdapter): PlatformAdapter {
  async function acting<T>(action: PlatformAction, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const needed = adapter.scopes.byAction[action];
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
  const wrapped: PlatformAdapter = {
    ...adapter,
    profile: (credentials) => acting('read_profile', () => adapter.profile.call(wrapped, credentials)),
    recentComments: (credentials, options) =>
      acting('read_comments', () => adapter.recentComments.call(wrapped, credentials, options)),
    postSummary: (credentials, postId) =>
      acting('read_comments', () => adapter.postSummary.call(wrapped, credentials, postId)),
    reply: (credentials, commentId, text) =>
      acting('reply', () => adapter.reply.call(wrapped, credentials, commentId, text)),
    finishReply: (credentials, containerId) =>
      acting('reply', () => adapter.finishReply.call(wrapped, credentials, containerId)),
    setHidden: (credentials, commentId, hidden) =>
      acting('hide', () => adapter.setHidden.call(wrapped, credentials, commentId, hidden)),
    accountInsights: (credentials, days, metrics) =>
      acting('read_insights', () => adapter.accountInsights.call(wrapped, credentials, days, metrics)),
    postInsights: (credentials, postId, metrics) =>
      acting('read_insights', () => adapter.postInsights.call(wrapped, credentials, postId, metrics)),
    createContainer: (credentials, request) =>
      acting('publish', () => adapter.createContainer.call(wrapped, credentials, request)),
    containerStatus: (credentials, containerId) =>
      acting('publish', () => adapter.containerStatus.call(wrapped, credentials, containerId)),
    publishContainer: (credentials, containerId) =>
      acting('publish', () => adapter.publishContainer.call(wrapped, credentials, containerId)),
    publishingQuota: (credentials) => acting('publish', () => adapter.publishingQuota.call(wrapped, credentials)),
    findPublished: (credentials, containerId) =>
      acting('publish', () => adapter.findPublished.call(wrapped, credentials, containerId)),
    // A first comment is a comment by the account: it needs what replying needs.
    commentOnPost: (credentials, postId, text) =>
      acting('reply', () => adapter.commentOnPost.call(wrapped, credentials, postId, text)),
  };
  return wrapped;
}
