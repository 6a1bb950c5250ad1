/**
 * Notices a platform sends the service when a user removes the app: Meta's deauthorize
 * (Instagram) and uninstall (Threads) callbacks carry a `signed_request`; TikTok's
 * `authorization.removed` webhook is signed in its `TikTok-Signature` header. Each is
 * signed with the app secret, so only the platform can send one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseJson, record, str } from './http.ts';
import { invalidRequest } from './shared.ts';
import type { Platform, PlatformNotice } from './types.ts';

/** TikTok notices older (or newer) than this are refused: a replayed one is not genuine. */
const TIKTOK_TOLERANCE_MS = 5 * 60_000;

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function json(platform: Platform, text: string): Record<string, unknown> {
  try {
    return record(parseJson(text));
  } catch {
    throw invalidRequest(platform, 'the notice is not JSON');
  }
}

/**
 * The user of a Meta `signed_request` (`<signature>.<payload>`, both base64url; the
 * signature is HMAC-SHA256 of the payload text under the app secret).
 */
export function metaDeauthorizedUsers(platform: Platform, notice: PlatformNotice, appSecret: string): string[] {
  const signed = new URLSearchParams(notice.body).get('signed_request') ?? '';
  const [signature, payload, extra] = signed.split('.');
  if (!signature || !payload || extra !== undefined) throw invalidRequest(platform, 'signed_request is missing');
  const expected = createHmac('sha256', appSecret).update(payload).digest();
  if (!sameBytes(Buffer.from(signature, 'base64url'), expected)) {
    throw invalidRequest(platform, 'the signed_request signature does not match');
  }
  const data = json(platform, Buffer.from(payload, 'base64url').toString('utf8'));
  if (str(data.algorithm)?.toUpperCase() !== 'HMAC-SHA256') throw invalidRequest(platform, 'unknown algorithm');
  // Meta may send the id as a number; parseJson keeps one beyond 2^53 exact.
  const user = str(data.user_id);
  if (!user) throw invalidRequest(platform, 'the signed_request names no user');
  return [user];
}

/** The user of TikTok's `authorization.removed` event; other events name nobody. */
export function tiktokDeauthorizedUsers(
  notice: PlatformNotice,
  client: { clientKey: string; clientSecret: string },
  now: Date,
): string[] {
  const platform = 'tiktok';
  const parts = new Map(
    (notice.headers['tiktok-signature'] ?? '').split(',').map((part): [string, string] => {
      const [key = '', value = ''] = part.trim().split('=');
      return [key, value];
    }),
  );
  const t = Number(parts.get('t'));
  const s = parts.get('s') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(s)) throw invalidRequest(platform, 'TikTok-Signature is missing');
  const expected = createHmac('sha256', client.clientSecret).update(`${t}.${notice.body}`).digest();
  if (!sameBytes(Buffer.from(s, 'hex'), expected))
    throw invalidRequest(platform, 'the TikTok-Signature does not match');
  if (Math.abs(now.getTime() - t * 1000) > TIKTOK_TOLERANCE_MS) throw invalidRequest(platform, 'the notice is too old');
  const event = json(platform, notice.body);
  if (str(event.client_key) !== client.clientKey) throw invalidRequest(platform, 'the notice is for another app');
  if (str(event.event) !== 'authorization.removed') return [];
  const user = str(event.user_openid);
  return user ? [user] : [];
}
