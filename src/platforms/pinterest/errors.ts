/**
 * How Pinterest answers a failure, classified into the service's kinds: the API v5 answers its
 * HTTP status with `{"code", "message"}` (the OpenAPI description's `Error`), its status saying
 * what went wrong (401 authentication, 403 authorization, 429 rate limit). Facts:
 * docs/platforms.md, "Pinterest".
 */
import { num, type PlatformResponse, record, retryAfterSeconds, str } from '../http.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';

const platform = 'pinterest';
/** The wait when a 429 names none: Pinterest's limits are per minute ("Rate limits"). */
const RATE_LIMIT_WAIT_SECONDS = 60;

function kindOf(status: number, tokenEndpoint: boolean): PlatformErrorKind {
  // The token endpoint refuses a code or refresh token expired, used or revoked with a 400 or
  // 401 (its error shape says no more): the grant cannot be used again.
  if (tokenEndpoint && (status === 400 || status === 401)) return 'token_expired';
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return 'invalid_request';
}

/** A failed answer (HTTP 4xx or 5xx) as a PlatformError; `tokenEndpoint`: an answer of `/v5/oauth/token`. */
export function pinterestError(response: PlatformResponse, now: Date, tokenEndpoint = false): PlatformError {
  const body = record(response.body);
  const code = num(body.code) ?? str(body.error);
  const message = str(body.message) ?? str(body.error_description) ?? `HTTP ${response.status}`;
  const kind = kindOf(response.status, tokenEndpoint);
  const wait = kind === 'rate_limited' ? (retryAfterSeconds(response, now) ?? RATE_LIMIT_WAIT_SECONDS) : undefined;
  return new PlatformError(kind, `pinterest: ${message}`, {
    platform,
    status: response.status,
    ...(code === null ? {} : { code }),
    platformMessage: message,
    ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
  });
}
