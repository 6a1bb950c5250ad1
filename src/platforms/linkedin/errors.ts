/**
 * How LinkedIn answers a failure, classified into the service's kinds: its REST API answers
 * `{"status", "serviceErrorCode", "code", "message"}`, its OAuth endpoints
 * `{"error", "error_description"}`. Facts: docs/platforms.md, "LinkedIn".
 */
import { num, type PlatformResponse, record, retryAfterSeconds, str } from '../http.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';

const platform = 'linkedin';

/** Seconds until the next midnight UTC: LinkedIn's daily rate limits reset then. */
function untilMidnightUtc(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

function kindOf(status: number, code: string | null, message: string): PlatformErrorKind {
  switch (code) {
    case 'REVOKED_ACCESS_TOKEN':
      return 'access_revoked';
    case 'EXPIRED_ACCESS_TOKEN':
    case 'INVALID_ACCESS_TOKEN':
    // OAuth: a code or refresh token that expired or was revoked.
    case 'invalid_grant':
      return 'token_expired';
    case 'ACCESS_DENIED':
      return 'permission_missing';
    case 'TOO_MANY_REQUESTS':
      return 'rate_limited';
  }
  // "Error Handling" names a 401 for a token "revoked by the member from their privacy
  // settings" by its message only; the code names above are what LinkedIn sends with it.
  if (status === 401) return /revoked/i.test(message) ? 'access_revoked' : 'token_expired';
  if (status === 403) return 'permission_missing';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return 'invalid_request';
}

/** A failed answer (HTTP 4xx or 5xx) as a PlatformError. */
export function linkedinError(response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const code = str(body.code) ?? str(body.error);
  const serviceErrorCode = num(body.serviceErrorCode);
  const message = str(body.message) ?? str(body.error_description) ?? `HTTP ${response.status}`;
  const kind = kindOf(response.status, code, message);
  return new PlatformError(kind, `linkedin: ${message}`, {
    platform,
    status: response.status,
    ...(code === null ? {} : { code }),
    ...(serviceErrorCode === null ? {} : { subcode: serviceErrorCode }),
    platformMessage: message,
    ...(kind === 'rate_limited'
      ? { retryAfterSeconds: retryAfterSeconds(response, now) ?? untilMidnightUtc(now) }
      : {}),
  });
}
