/**
 * Meta's notice that a user removed the app: the deauthorize (Instagram) and uninstall (Threads)
 * callbacks carry a `signed_request`, signed with an app secret, so only Meta can send one.
 */
import { createHmac } from 'node:crypto';
import { invalidRequest } from '../errors.ts';
import { record, str } from '../http.ts';
import { noticeJson, sameBytes } from '../notice-checks.ts';
import type { Platform, PlatformNotice } from '../types.ts';

/**
 * The user of a Meta `signed_request` (`<signature>.<payload>`, both base64url; the
 * signature is HMAC-SHA256 of the payload text under the app secret, any of `secrets` as for
 * the comment notices: the pages do not say which app's).
 */
export function metaDeauthorizedUsers(
  platform: Platform,
  notice: PlatformNotice,
  secrets: readonly string[],
): string[] {
  const signed = new URLSearchParams(notice.body).get('signed_request') ?? '';
  const [signature, payload, extra] = signed.split('.');
  if (!signature || !payload || extra !== undefined) throw invalidRequest(platform, 'signed_request is missing');
  const given = Buffer.from(signature, 'base64url');
  const matches = secrets.map((secret) => sameBytes(given, createHmac('sha256', secret).update(payload).digest()));
  if (!matches.includes(true)) throw invalidRequest(platform, 'the signed_request signature does not match');
  const data = record(noticeJson(platform, Buffer.from(payload, 'base64url').toString('utf8')));
  if (str(data.algorithm)?.toUpperCase() !== 'HMAC-SHA256') throw invalidRequest(platform, 'unknown algorithm');
  // Meta may send the id as a number; parseJson keeps one beyond 2^53 exact.
  const user = str(data.user_id);
  if (!user) throw invalidRequest(platform, 'the signed_request names no user');
  return [user];
}
