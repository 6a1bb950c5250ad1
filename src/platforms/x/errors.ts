/**
 * How X answers a failure, classified into the service's kinds: the API v2 answers problems
 * (`{"title", "type", "detail", "status"}`, RFC 7807, some with a `reason`), its OAuth endpoints
 * `{"error", "error_description"}`. Rate limits carry `x-rate-limit-reset` (epoch seconds).
 * Facts: docs/platforms.md, "X".
 */
import { header, num, type PlatformResponse, record, retryAfterSeconds, str } from '../http.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';

const platform = 'x';
const PROBLEMS = 'https://api.twitter.com/2/problems/';
/** The wait when a usage cap names no reset: a day, after which the try is read again. */
const USAGE_CAP_WAIT_SECONDS = 86_400;

/** Seconds until `x-rate-limit-reset` (epoch seconds), when the answer carries it. */
export function untilReset(response: PlatformResponse, now: Date): number | undefined {
  const reset = num(header(response, 'x-rate-limit-reset'));
  if (reset === null) return undefined;
  return Math.max(1, Math.ceil(reset - now.getTime() / 1000));
}

/** A problem type's last part (`usage-capped`), or the OAuth error, or the problem's `reason`. */
function codeOf(body: Record<string, unknown>): string | null {
  const type = str(body.type);
  const reason = str(body.reason);
  if (reason !== null) return reason;
  if (type?.startsWith(PROBLEMS)) return type.slice(PROBLEMS.length);
  return str(body.error);
}

function kindOf(status: number, code: string | null): PlatformErrorKind {
  switch (code) {
    // The app's plan does not include this endpoint (or the app is not in a project).
    case 'client-not-enrolled':
    case 'client-forbidden':
      return 'unsupported';
    case 'usage-capped':
      return 'rate_limited';
    // OAuth: a code, or a refresh token already used, revoked or expired.
    case 'invalid_grant':
    case 'invalid_request':
      if (status === 400) return 'token_expired';
      break;
    case 'unauthorized_client':
      return 'invalid_request';
  }
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return 'invalid_request';
}

/**
 * What the API user is told: X's own words, and for a plan error what it means (the app and its
 * paid plan are the owner's own, so only the owner can lift it).
 */
function toldOf(code: string | null, detail: string): string {
  if (code === 'usage-capped') {
    return `The X app's usage cap (its plan's monthly posts or reads) is reached; X says: ${detail}`;
  }
  if (code === 'client-not-enrolled' || code === 'client-forbidden') {
    return `The X app's plan does not give access to this endpoint (the app must be in a project with a plan that includes it); X says: ${detail}`;
  }
  return detail;
}

/** A failed answer (HTTP 4xx or 5xx) as a PlatformError. */
export function xError(response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const first = record(Array.isArray(body.errors) ? body.errors[0] : undefined);
  const code = codeOf(body) ?? codeOf(first);
  const detail =
    str(body.detail) ??
    str(body.error_description) ??
    str(first.message) ??
    str(body.title) ??
    `HTTP ${response.status}`;
  const kind = kindOf(response.status, code);
  const wait =
    kind === 'rate_limited'
      ? (untilReset(response, now) ??
        retryAfterSeconds(response, now) ??
        (code === 'usage-capped' ? USAGE_CAP_WAIT_SECONDS : 900))
      : undefined;
  const told = toldOf(code, detail);
  return new PlatformError(kind, `x: ${told}`, {
    platform,
    status: response.status,
    ...(code === null ? {} : { code }),
    platformMessage: told,
    ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
  });
}
