/**
 * What every dashboard session shares, whoever signed in (with an API key, or as a member): a
 * random token that only the browser's HttpOnly cookie holds (its SHA-256 is stored), the
 * idle and absolute limits, and the CSRF token its changes carry: an HMAC of the session token
 * under the service's SECRET_KEY, so it is never stored, can be given to the page again after a
 * reload, and is worthless to anyone without the cookie's token.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import { keyObjectOf, sha256Hex } from '../secrets.ts';
import type { ScopeSession } from './scope.ts';

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 60 * 60_000;
/** A session ends this long after sign-in, however busy. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** How stale `last_seen_at` may be before a request writes it again. */
const TOUCH_AFTER_MS = 60_000;

/**
 * The session cookie's attributes: HttpOnly, so no script reads it; SameSite=Strict, so no other
 * site's page sends it; Secure when the service is reached over https.
 */
export function sessionCookieOptions(config: Pick<Config, 'publicUrl'>) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.publicUrl?.startsWith('https:') ?? false,
  };
}

/** A session just made, before it is stored. */
export interface NewSession {
  /** The cookie's value; exists in clear only in this answer and in the browser. */
  token: string;
  tokenHash: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  idleExpiresAt: Date;
}

/** A new session's token and times, with a prefix telling whose sessions' table holds it. */
export function newSession(at: Date, prefix = ''): NewSession {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`;
  return {
    token,
    tokenHash: sha256Hex(token),
    createdAt: at,
    lastSeenAt: at,
    expiresAt: new Date(at.getTime() + SESSION_ABSOLUTE_MS),
    idleExpiresAt: new Date(at.getTime() + SESSION_IDLE_MS),
  };
}

/**
 * A stored session as of `at`: ended (past either limit), or live, with whether this request
 * must write its `last_seen_at` again and the times the request sees.
 */
export function sessionAt(
  stored: { id: string; lastSeenAt: Date; expiresAt: Date },
  at: Date,
): { ended: true } | { ended: false; touch: boolean; session: ScopeSession } {
  if (at >= stored.expiresAt || at.getTime() - stored.lastSeenAt.getTime() >= SESSION_IDLE_MS) return { ended: true };
  const touch = at.getTime() - stored.lastSeenAt.getTime() >= TOUCH_AFTER_MS;
  const lastSeenAt = touch ? at : stored.lastSeenAt;
  return {
    ended: false,
    touch,
    session: {
      id: stored.id,
      expiresAt: stored.expiresAt,
      idleExpiresAt: new Date(Math.min(lastSeenAt.getTime() + SESSION_IDLE_MS, stored.expiresAt.getTime())),
    },
  };
}

/** The last-seen time before which a session has been idle too long (for the periodic clean-up). */
export function idleSince(at: Date): Date {
  return new Date(at.getTime() - SESSION_IDLE_MS);
}

export function csrfTokenFor(secretKey: Buffer, sessionToken: string): string {
  return createHmac('sha256', keyObjectOf(secretKey)).update(`dashboard-csrf:${sessionToken}`).digest('base64url');
}

/** Compares in constant time, so the token cannot be guessed a character at a time. */
export function isCsrfTokenOf(secretKey: Buffer, sessionToken: string, sent: string): boolean {
  const expected = Buffer.from(csrfTokenFor(secretKey, sessionToken));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
