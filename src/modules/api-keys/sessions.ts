/**
 * Dashboard sessions: a person signs in with an API key once, and the browser keeps only a
 * random token in an HttpOnly cookie. The session acts as that key (same owner, same
 * profile lock) until it has been idle too long, reaches its absolute limit, is signed out,
 * or its key is deleted.
 *
 * Changes made with the cookie need a CSRF token: an HMAC of the session token under the
 * service's SECRET_KEY, so it is never stored, can be given to the page again after a
 * reload, and is worthless to anyone without the cookie's token.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, lt, or } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Queryable } from '../../db/connection.ts';
import type { ScopeSession } from '../../http/scope.ts';
import { newId } from '../../ids.ts';
import { sha256Hex } from '../../secrets.ts';
import type { KeyPrincipal } from './service.ts';
import { apiKeys, dashboardSessions } from './tables.ts';

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 60 * 60_000;
/** A session ends this long after sign-in, however busy. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** How stale `last_seen_at` may be before a request writes it again. */
const TOUCH_AFTER_MS = 60_000;

/** The key a live session acts for, and the session. */
export interface SessionPrincipal extends KeyPrincipal {
  session: ScopeSession;
}

export interface NewSession {
  id: string;
  /** The cookie's value; exists in clear only in this answer and in the browser. */
  token: string;
  expiresAt: Date;
  idleExpiresAt: Date;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** True when `value` has the shape of a session token (it may still open nothing). */
export function looksLikeSessionToken(value: string): boolean {
  return TOKEN.test(value);
}

export function csrfTokenFor(secretKey: Buffer, sessionToken: string): string {
  return createHmac('sha256', secretKey).update(`dashboard-csrf:${sessionToken}`).digest('base64url');
}

/** Compares in constant time, so the token cannot be guessed a character at a time. */
export function isCsrfTokenOf(secretKey: Buffer, sessionToken: string, sent: string): boolean {
  const expected = Buffer.from(csrfTokenFor(secretKey, sessionToken));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function createSession(db: Queryable, keyId: string): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const at = now();
  const session = {
    id: newId('session'),
    keyId,
    tokenHash: sha256Hex(token),
    createdAt: at,
    lastSeenAt: at,
    expiresAt: new Date(at.getTime() + SESSION_ABSOLUTE_MS),
  };
  await db.insert(dashboardSessions).values(session);
  return {
    id: session.id,
    token,
    expiresAt: session.expiresAt,
    idleExpiresAt: new Date(at.getTime() + SESSION_IDLE_MS),
  };
}

/**
 * The live session whose token this is, as the key it acts for; marks it used. A session past
 * either limit is deleted here, so it cannot come back however the clock is read later.
 */
export async function useSession(db: Queryable, token: string): Promise<SessionPrincipal | undefined> {
  if (!looksLikeSessionToken(token)) return undefined;
  const tokenHash = sha256Hex(token);
  const [row] = await db
    .select({
      sessionId: dashboardSessions.id,
      lastSeenAt: dashboardSessions.lastSeenAt,
      expiresAt: dashboardSessions.expiresAt,
      keyId: apiKeys.id,
      keyName: apiKeys.name,
      ownerId: apiKeys.ownerId,
      profileId: apiKeys.profileId,
    })
    .from(dashboardSessions)
    .innerJoin(apiKeys, eq(apiKeys.id, dashboardSessions.keyId))
    .where(eq(dashboardSessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return undefined;
  const at = now();
  if (at >= row.expiresAt || at.getTime() - row.lastSeenAt.getTime() >= SESSION_IDLE_MS) {
    await db.delete(dashboardSessions).where(eq(dashboardSessions.id, row.sessionId));
    return undefined;
  }
  let lastSeenAt = row.lastSeenAt;
  if (at.getTime() - lastSeenAt.getTime() >= TOUCH_AFTER_MS) {
    await db.update(dashboardSessions).set({ lastSeenAt: at }).where(eq(dashboardSessions.id, row.sessionId));
    lastSeenAt = at;
  }
  return {
    keyId: row.keyId,
    keyName: row.keyName,
    ownerId: row.ownerId,
    profileId: row.profileId,
    session: {
      id: row.sessionId,
      expiresAt: row.expiresAt,
      idleExpiresAt: new Date(Math.min(lastSeenAt.getTime() + SESSION_IDLE_MS, row.expiresAt.getTime())),
    },
  };
}

/** Signs out: the session ends now. */
export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.delete(dashboardSessions).where(eq(dashboardSessions.id, sessionId));
}

/** The periodic clean-up of sessions past either limit: answers how many it deleted. */
export async function deleteEndedSessions(db: Queryable): Promise<number> {
  const at = now();
  const deleted = await db
    .delete(dashboardSessions)
    .where(
      or(
        lt(dashboardSessions.expiresAt, at),
        lt(dashboardSessions.lastSeenAt, new Date(at.getTime() - SESSION_IDLE_MS)),
      ),
    )
    .returning({ id: dashboardSessions.id });
  return deleted.length;
}
