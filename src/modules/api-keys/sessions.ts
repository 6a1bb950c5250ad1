/**
 * Dashboard sessions signed in with an API key: a person signs in with a key once, and the
 * browser keeps only a random token in an HttpOnly cookie (src/http/session-lifetime.ts). The
 * session acts as that key (same owner, same profile lock) until it has been idle too long,
 * reaches its absolute limit, is signed out, or its key is deleted.
 */
import { eq, lt, or } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Queryable } from '../../db/connection.ts';
import type { SessionPrincipal } from '../../http/auth.ts';
import type { ScopeSession } from '../../http/scope.ts';
import { idleSince, newSession, sessionAt } from '../../http/session-lifetime.ts';
import { newId } from '../../ids.ts';
import { sha256Hex } from '../../secrets.ts';
import { apiKeys, dashboardSessions } from './tables.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** True when `value` has the shape of a key session's token (it may still open nothing). */
export function looksLikeSessionToken(value: string): boolean {
  return TOKEN.test(value);
}

export async function createSession(db: Queryable, keyId: string): Promise<ScopeSession & { token: string }> {
  const made = newSession(now());
  const id = newId('session');
  await db.insert(dashboardSessions).values({
    id,
    keyId,
    tokenHash: made.tokenHash,
    createdAt: made.createdAt,
    lastSeenAt: made.lastSeenAt,
    expiresAt: made.expiresAt,
  });
  return { id, token: made.token, expiresAt: made.expiresAt, idleExpiresAt: made.idleExpiresAt };
}

/**
 * The live session whose token this is, as the key it acts for; marks it used. A session past
 * either limit is deleted here, so it cannot come back however the clock is read later.
 */
export async function useSession(db: Queryable, token: string): Promise<SessionPrincipal | undefined> {
  if (!looksLikeSessionToken(token)) return undefined;
  const [row] = await db
    .select({
      id: dashboardSessions.id,
      lastSeenAt: dashboardSessions.lastSeenAt,
      expiresAt: dashboardSessions.expiresAt,
      keyId: apiKeys.id,
      keyName: apiKeys.name,
      ownerId: apiKeys.ownerId,
      profileId: apiKeys.profileId,
    })
    .from(dashboardSessions)
    .innerJoin(apiKeys, eq(apiKeys.id, dashboardSessions.keyId))
    .where(eq(dashboardSessions.tokenHash, sha256Hex(token)))
    .limit(1);
  if (!row) return undefined;
  const at = now();
  const state = sessionAt(row, at);
  if (state.ended) {
    await db.delete(dashboardSessions).where(eq(dashboardSessions.id, row.id));
    return undefined;
  }
  if (state.touch) {
    await db.update(dashboardSessions).set({ lastSeenAt: at }).where(eq(dashboardSessions.id, row.id));
  }
  return {
    kind: 'key',
    keyId: row.keyId,
    keyName: row.keyName,
    ownerId: row.ownerId,
    profileId: row.profileId,
    session: state.session,
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
    .where(or(lt(dashboardSessions.expiresAt, at), lt(dashboardSessions.lastSeenAt, idleSince(at))))
    .returning({ id: dashboardSessions.id });
  return deleted.length;
}
