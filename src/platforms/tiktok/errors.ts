/**
 * How TikTok answers a failure, classified into the service's kinds: its API answers
 * `{"data":{...},"error":{"code":"ok"}}` (any other code, even under HTTP 200, is a failure), its
 * OAuth endpoints a flat `{error, error_description}`. Facts: docs/platforms.md, "TikTok".
 */
import { type PlatformResponse, record, retryAfterSeconds, str } from '../http.ts';
import { PlatformError, type PlatformErrorKind } from '../types.ts';

const platform = 'tiktok';
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;
/** TikTok's daily caps (posts by one creator, users posting through one app) say nothing about when they lift. */
const DAILY_CAP_WAIT_SECONDS = 3600;
const DAILY_CAP_CODES = new Set([
  'spam_risk_too_many_posts',
  'spam_risk_too_many_pending_share',
  'reached_active_user_cap',
]);

/**
 * The kind of a TikTok error code (API `error.code` or OAuth `error`), null when the code
 * says nothing the HTTP status does not.
 */
function kindOfCode(code: string): PlatformErrorKind | null {
  switch (code) {
    // TikTok answers the same for an expired token and one the user revoked: both are
    // `access_token_invalid`. Revocation is told by the `authorization.removed` webhook.
    case 'access_token_invalid':
    // A code or refresh token that expired, was used or was revoked: reconnect.
    case 'invalid_grant':
      return 'token_expired';
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return 'permission_missing';
    case 'rate_limit_exceeded':
    // Posting errors, as TikTok's Direct Post reference lists them
    // (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post):
    // the creator's daily cap of API posts, or of shares waiting in the inbox.
    case 'spam_risk_too_many_posts':
    case 'spam_risk_too_many_pending_share':
    // The app's daily quota of distinct users posting (5 for an unaudited app): slots free
    // up as the 24-hour window rolls.
    case 'reached_active_user_cap':
      return 'rate_limited';
    // An unaudited app posts only SELF_ONLY, from private accounts: another privacy level will not do.
    case 'unaudited_client_can_only_post_to_private_accounts':
    // PULL_FROM_URL needs a URL prefix or domain the app verified with TikTok.
    case 'url_ownership_unverified':
    // The privacy level is missing or not among the creator's privacy_level_options.
    case 'privacy_level_option_mismatch':
    // The creator may not post at all (spam_risk_user_banned_from_posting), or TikTok judged
    // this post spam: sending it again will not help.
    case 'spam_risk_user_banned_from_posting':
      return 'invalid_request';
    case 'internal_error':
    case 'server_error':
    case 'temporarily_unavailable':
      return 'transient';
    case 'invalid_params':
    case 'invalid_request':
    case 'invalid_client':
    case 'unsupported_grant_type':
    case 'invalid_scope':
      return 'invalid_request';
    default:
      return code.startsWith('spam_risk') ? 'invalid_request' : null;
  }
}

function kindOfStatus(status: number): PlatformErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  return status >= 500 ? 'transient' : 'invalid_request';
}

/** Classifies a TikTok error answer: the API envelope, the OAuth one, or neither. */
export function tiktokError(response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const envelope = record(body.error);
  const oauth = typeof body.error === 'string';
  const code = oauth ? str(body.error) : str(envelope.code);
  const platformMessage =
    (oauth ? str(body.error_description) : str(envelope.message)) ||
    code ||
    response.text.slice(0, 300) ||
    `HTTP ${response.status}`;
  const kind = (code !== null ? kindOfCode(code) : null) ?? kindOfStatus(response.status);
  const retryAfter =
    kind === 'rate_limited'
      ? (retryAfterSeconds(response, now) ??
        (code !== null && DAILY_CAP_CODES.has(code) ? DAILY_CAP_WAIT_SECONDS : DEFAULT_RATE_LIMIT_WAIT_SECONDS))
      : undefined;
  return new PlatformError(kind, `tiktok: ${platformMessage}`, {
    platform,
    status: response.status,
    ...(code !== null && code !== '' ? { code } : {}),
    platformMessage,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  });
}

/** An API answer failed: HTTP error, or an `error.code` other than "ok". */
export function apiFailed(response: PlatformResponse): boolean {
  const body = record(response.body);
  if (response.status >= 400 || typeof body.error === 'string') return true;
  const code = str(record(body.error).code);
  return code !== null && code !== 'ok';
}
