/**
 * How Google's APIs answer a failure, classified into the service's kinds: its JSON APIs
 * answer `{"error": {"code", "message", "errors": [{"domain", "reason", "message"}], "status"}}`,
 * its OAuth endpoints `{"error", "error_description"}`. Shared by every Google platform.
 * Facts: docs/platforms.md, "YouTube".
 */
import { list, type PlatformResponse, record, retryAfterSeconds, str } from '../http.ts';
import { type Platform, PlatformError, type PlatformErrorKind } from '../types.ts';

/**
 * Seconds until the next midnight in Pacific Time, when a Google project's daily quotas reset
 * (YouTube's "Quota Calculator"). America/Los_Angeles keeps daylight saving time as Pacific Time does.
 */
export function untilMidnightPacific(now: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = part('hour') * 3600 + part('minute') * 60 + part('second');
  return Math.max(1, 86_400 - elapsed);
}

/** The next midnight in Pacific Time after `at` (to the second): when a project's day renews. */
export function midnightPacificAfter(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 1000) * 1000 + untilMidnightPacific(at) * 1000);
}

/** The day in Pacific Time at `at` (YYYY-MM-DD): the day a Google project's daily quotas count. */
export function pacificDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(at);
}

/** The reasons of a JSON API's error (`errors[].reason`) that say a daily quota is spent. */
const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);
/** Whether `error` is a Google answer (or the service's own count) that the project's day is spent. */
export function isDaySpent(error: unknown): boolean {
  return (
    error instanceof PlatformError && error.kind === 'rate_limited' && QUOTA_REASONS.has(String(error.detail.code))
  );
}
/** The reasons that say too many calls were made in a short time (ErrorInfo's in the newer APIs). */
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED']);
/** The reasons that say the token lacks a scope the call needs. */
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);

function kindOf(status: number, reason: string | null, oauthError: string | null): PlatformErrorKind {
  // OAuth: "Token has been expired or revoked." A refresh token the user revoked, or that
  // expired (six months unused, a Testing app's seven days): the account must be reconnected.
  if (oauthError === 'invalid_grant' || oauthError === 'invalid_token') return 'token_expired';
  if (oauthError === 'invalid_scope') return 'permission_missing';
  if (reason !== null) {
    if (QUOTA_REASONS.has(reason) || RATE_REASONS.has(reason)) return 'rate_limited';
    if (SCOPE_REASONS.has(reason)) return 'permission_missing';
    if (reason === 'authError') return 'token_expired';
  }
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return 'invalid_request';
}

/** A failed answer (HTTP 4xx or 5xx) of a Google API as a PlatformError of `platform`. */
export function googleError(platform: Platform, response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const apiError = typeof body.error === 'object' ? record(body.error) : null;
  const oauthError = apiError === null ? str(body.error) : null;
  const first = record(list(apiError?.errors)[0]);
  // The newer APIs (Business Profile's) give no `errors[]`: their reason is in `details[]`'s ErrorInfo.
  const info = list(apiError?.details)
    .map(record)
    .find((detail) => str(detail['@type'])?.endsWith('google.rpc.ErrorInfo') === true);
  const specific = str(first.reason) ?? str(info?.reason);
  const reason = specific ?? (apiError === null ? null : str(apiError.status));
  const message =
    str(apiError?.message) ?? str(first.message) ?? str(body.error_description) ?? `HTTP ${response.status}`;
  const kind = kindOf(response.status, specific, oauthError);
  const code = oauthError ?? reason;
  return new PlatformError(kind, `${platform}: ${message}`, {
    platform,
    status: response.status,
    ...(code === null ? {} : { code }),
    platformMessage: message,
    ...(kind === 'rate_limited'
      ? {
          retryAfterSeconds:
            retryAfterSeconds(response, now) ??
            (reason !== null && QUOTA_REASONS.has(reason) ? untilMidnightPacific(now) : 60),
        }
      : {}),
  });
}
