/**
 * TikTok's notice that a user removed the app: its `authorization.removed` webhook, signed in its
 * `TikTok-Signature` header with the app secret, so only TikTok can send one.
 */
import { createHmac } from 'node:crypto';
import { invalidRequest } from '../errors.ts';
import { record, str } from '../http.ts';
import { noticeJson, sameBytes } from '../notice-checks.ts';
import type { PlatformNotice } from '../types.ts';

/** TikTok notices older (or newer) than this are refused: a replayed one is not genuine. */
const TIKTOK_TOLERANCE_MS = 5 * 60_000;

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
  const event = record(noticeJson(platform, notice.body));
  if (str(event.client_key) !== client.clientKey) throw invalidRequest(platform, 'the notice is for another app');
  if (str(event.event) !== 'authorization.removed') return [];
  const user = str(event.user_openid);
  return user ? [user] : [];
}
