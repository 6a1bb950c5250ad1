/**
 * How Meta's Graph platforms (Instagram, Threads, Facebook) answer a failure, classified into the
 * service's kinds: `{"error":{...}}` envelopes (and Instagram's flat OAuth one), codes, subcodes
 * and how long a rate limit asks to wait.
 */
import { num, type PlatformResponse, record, retryAfterSeconds, str } from '../http.ts';
import { type Platform, PlatformError, type PlatformErrorKind } from '../types.ts';
import { usageHeaderWait } from './usage-headers.ts';

/*
 * Meta's error classes, as https://developers.facebook.com/docs/graph-api/guides/error-handling
 * lists them (and, for 32, 613 and 80000-80014, the rate-limiting guide
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting). Instagram's
 * publishing subcodes come from the Instagram Platform's error-code reference.
 */
/** API Too Many Calls (4), API User Too Many Calls (17), page-level throttling (32), "exceeded the rate limit" (613). */
const THROTTLING_CODES = new Set([4, 17, 32, 613]);
/** Application limit reached: the app-level limit counts calls over a rolling hour, so a minute's wait would only fail again. */
const APPLICATION_LIMIT_CODE = 341;
const APPLICATION_LIMIT_WAIT_SECONDS = 900;
/** Temporarily blocked for policies violations: Meta says to wait and retry; such blocks last hours, not seconds. */
const POLICY_BLOCK_CODE = 368;
const POLICY_BLOCK_WAIT_SECONDS = 3600;
/** Business Use Case rate limits (ads insights, pages, Instagram, ... catalog batch). */
const BUC_RATE_LIMIT_CODES = { first: 80_000, last: 80_014 };
/** API Method: a capability the app itself lacks, not a scope the user could grant. */
const APP_CAPABILITY_CODE = 3;
/**
 * Subcodes of 190 (and 102) that say the access was taken away, not merely that the token
 * stopped working: the user removed the app (458, "App Not Installed"), or the user behind a
 * page token lost their role on the page (492, "Invalid session"). The others (459
 * checkpointed, 460 password changed, 463 expired, 464 unconfirmed user, 467 "Access token
 * has expired, been revoked, or is otherwise invalid") say the token is gone: a new login
 * brings the account back.
 */
const REVOKED_SUBCODES = new Set([458, 492]);
/** Instagram's daily publishing cap (content_publishing_limit): an hour's wait, as it says nothing about when it lifts. */
const DAILY_PUBLISH_CAP_SUBCODE = 2207042;
const DAILY_PUBLISH_CAP_WAIT_SECONDS = 3600;
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;

/*
 * Instagram's publishing error table (the Instagram Platform's error-code reference,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes;
 * docs/platforms.md, "Instagram errors"), by subcode, read before the code: the codes are
 * generic (-1, 1, 4, 24, 100...) and say the opposite of the subcode more than once (4 is
 * throttling, but 4/2207051 is suspected spam; 1 is a passing failure, but 1/2207057 a bad
 * thumbnail offset). What the page's "recommended solution" says decides the kind: "try again"
 * is transient; a wait for the container is transient; tomorrow is a rate limit; anything the
 * user or the content must change is a refusal.
 */
const PUBLISHING_SUBCODES: ReadonlyMap<number, PlatformErrorKind> = new Map([
  // "Instagram server error. Try again."
  [2207001, 'transient'],
  // "A timeout occured while downloading the media. Try again."
  [2207003, 'transient'],
  // "The media you are trying to access has expired... Generate a new container ID and use it to try again."
  [2207020, 'transient'],
  // "Failed to create a media container. Try again."
  [2207032, 'transient'],
  // "unknown upload error ... Generate a new container and use it to try again."
  [2207053, 'transient'],
  // "Temporary error publishing a container. Try again 1-2 times in the next 30 seconds to 2 minutes."
  [2207008, 'transient'],
  // "The media is not ready for publishing": "Check the container status and publish when its status is FINISHED."
  [2207027, 'transient'],
  // The daily publishing cap: "try again the following day".
  [2207042, 'rate_limited'],
  // Suspected spam (code 4, otherwise throttling): trying again will not help; the platform's message says why.
  [2207051, 'invalid_request'],
  // The account is restricted: its owner must act in the Instagram app.
  [2207050, 'invalid_request'],
  // "The media with {media-id} cannot be found": a missing permission or an expired token, a new container needed.
  [2207006, 'invalid_request'],
  // Thumbnail offset out of bounds (code 1, otherwise a passing failure).
  [2207057, 'invalid_request'],
  // Unknown media type, carousel of 2 to 10, product tags, more than 20 @ tags.
  [2207023, 'invalid_request'],
  [2207028, 'invalid_request'],
  [2207035, 'invalid_request'],
  [2207036, 'invalid_request'],
  [2207037, 'invalid_request'],
  [2207040, 'invalid_request'],
  // Video format, media not fetchable, image too large, image format, aspect ratio, caption too long.
  [2207026, 'invalid_request'],
  [2207052, 'invalid_request'],
  [2207004, 'invalid_request'],
  [2207005, 'invalid_request'],
  [2207009, 'invalid_request'],
  [2207010, 'invalid_request'],
]);

/**
 * "Story media metrics with values less than 5 return an error code 10 with the message (#10)
 * Not enough viewers for the media to show insights" (IG Media Insights reference): no figures
 * for that post, not a missing permission, which code 10 otherwise means.
 */
const NOT_ENOUGH_VIEWERS = /not enough viewers/i;

function notEnoughViewers(code: number | null | undefined, message: string): boolean {
  return code === 10 && NOT_ENOUGH_VIEWERS.test(message);
}

/** Instagram's answer for a story with too few viewers to show its figures (see NOT_ENOUGH_VIEWERS). */
export function isNotEnoughViewers(error: PlatformError): boolean {
  return notEnoughViewers(num(error.detail.code), error.detail.platformMessage ?? '');
}

function kindOf(
  code: number | null,
  subcode: number | null,
  message: string,
  status: number,
  isTransient: boolean,
): PlatformErrorKind {
  if (code === 190 || code === 102) {
    if (subcode !== null && REVOKED_SUBCODES.has(subcode)) return 'access_revoked';
    // Threads says so in words, without a subcode.
    if (/not authorized application/i.test(message)) return 'access_revoked';
    return 'token_expired';
  }
  const bySubcode = subcode === null ? undefined : PUBLISHING_SUBCODES.get(subcode);
  if (bySubcode !== undefined) return bySubcode;
  if (notEnoughViewers(code, message)) return 'invalid_request';
  if (
    code !== null &&
    (THROTTLING_CODES.has(code) ||
      code === APPLICATION_LIMIT_CODE ||
      code === POLICY_BLOCK_CODE ||
      (code >= BUC_RATE_LIMIT_CODES.first && code <= BUC_RATE_LIMIT_CODES.last))
  ) {
    return 'rate_limited';
  }
  if (isTransient) return 'transient';
  if (code === 10 || (code !== null && code >= 200 && code <= 299)) return 'permission_missing';
  if (code === APP_CAPABILITY_CODE) return 'unsupported';
  // 1 "API Unknown" and 2 "API Service" (Graph's error guide: "Wait and retry the operation");
  // -1 and -2, Instagram's server errors and timeouts (its error-code reference: "Try again").
  if (code === 1 || code === 2 || code === -1 || code === -2) return 'transient';
  if (code !== null) return status >= 500 ? 'transient' : 'invalid_request';
  if (status === 429) return 'rate_limited';
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  return status >= 500 ? 'transient' : 'invalid_request';
}

/** How long a rate-limited call should wait when the answer's headers do not say. */
function defaultWait(code: number | null, subcode: number | null): number {
  if (subcode === DAILY_PUBLISH_CAP_SUBCODE) return DAILY_PUBLISH_CAP_WAIT_SECONDS;
  if (code === APPLICATION_LIMIT_CODE) return APPLICATION_LIMIT_WAIT_SECONDS;
  if (code === POLICY_BLOCK_CODE) return POLICY_BLOCK_WAIT_SECONDS;
  return DEFAULT_RATE_LIMIT_WAIT_SECONDS;
}

/** Classifies a Graph-style error answer (also Instagram's flat OAuth one, `{error_type, code, error_message}`). */
export function graphError(platform: Platform, response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const envelope = record(body.error);
  const flat = body.error_type !== undefined || body.error_message !== undefined;
  const code = num(flat ? body.code : envelope.code);
  const subcode = num(envelope.error_subcode);
  const platformMessage =
    str(flat ? body.error_message : envelope.message) ?? (response.text.slice(0, 300) || `HTTP ${response.status}`);
  // The flat OAuth shape carries the HTTP status as its `code` (400 for a used code).
  const kind =
    flat && code !== null && code >= 400
      ? kindOf(null, null, platformMessage, code, false)
      : kindOf(code, subcode, platformMessage, response.status, envelope.is_transient === true);
  const retryAfter =
    kind === 'rate_limited'
      ? (retryAfterSeconds(response, now) ?? usageHeaderWait(response) ?? defaultWait(code, subcode))
      : undefined;
  return new PlatformError(kind, `${platform}: ${platformMessage}`, {
    platform,
    status: response.status,
    ...(code !== null ? { code } : {}),
    ...(subcode !== null ? { subcode } : {}),
    platformMessage,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  });
}
