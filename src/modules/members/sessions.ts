/**
 * Members' dashboard sessions: the same cookie, limits and CSRF token as a key's
 * (src/http/session-lifetime.ts), kept in this module's table. Their tokens carry a prefix, so
 * a request's cookie is looked up in one table only. A session reads the member's roles at each
 * request: a changed role counts at once, and a removed member's sessions are deleted with it.
 */
import { eq, lt, or } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Queryable } from '../../db/connection.ts';
import type { SessionPrincipal } from '../../http/auth.ts';
import type { MemberRole, ScopeSession } from '../../http/scope.ts';
import { idleSince, newSession, sessionAt } from '../../http/session-lifetime.ts';
import { newId } from '../../ids.ts';
import { sha256Hex } from '../../secrets.ts';
import { memberRoles, memberSessions, members } from './tables.ts';

const PREFIX = 'mbr_';
const TOKEN = /^mbr_[A-Za-z0-9_-]{43}$/;

/** True when a session cookie's token is a member's (it may still open nothing). */
export function isMemberSessionToken(token: string): boolean {
  return token.startsWith(PREFIX);
}

export async function createMemberSession(db: Queryable, memberId: string): Promise<ScopeSession & { token: string }> {
  const made = newSession(now(), PREFIX);
  const id = newId('session');
  await db.insert(memberSessions).values({
    id,
    memberId,
    tokenHash: made.tokenHash,
    createdAt: made.createdAt,
    lastSeenAt: made.lastSeenAt,
    expiresAt: made.expiresAt,
  });
  return { id, token: made.token, expiresAt: made.expiresAt, idleExpiresAt: made.idleExpiresAt };
}

/** The member a live session acts for, with its roles as they are now; marks the session used. */
export async function useMemberSession(db: Queryable, token: string): Promise<SessionPrincipal | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const rows = await db
    .select({
      id: memberSessions.id,
      lastSeenAt: memberSessions.lastSeenAt,
      expiresAt: memberSessions.expiresAt,
      memberId: members.id,
      email: members.email,
      name: members.name,
      ownerId: members.ownerId,
      role: memberRoles.role,
      profileId: memberRoles.profileId,
    })
    .from(memberSessions)
    .innerJoin(members, eq(members.id, memberSessions.memberId))
    .leftJoin(memberRoles, eq(memberRoles.memberId, members.id))
    .where(eq(memberSessions.tokenHash, sha256Hex(token)));
  const [row] = rows;
  if (!row) return undefined;
  const at = now();
  const state = sessionAt(row, at);
  if (state.ended) {
    await db.delete(memberSessions).where(eq(memberSessions.id, row.id));
    return undefined;
  }
  if (state.touch) await db.update(memberSessions).set({ lastSeenAt: at }).where(eq(memberSessions.id, row.id));
  let ownerRole: MemberRole | null = null;
  const profileRoles = new Map<string, MemberRole>();
  for (const r of rows) {
    if (r.role === null) continue;
    if (r.profileId === null) ownerRole = r.role;
    else profileRoles.set(r.profileId, r.role);
  }
  return {
    kind: 'member',
    memberId: row.memberId,
    email: row.email,
    name: row.name,
    ownerId: row.ownerId,
    ownerRole,
    profileRoles,
    session: state.session,
  };
}

/** Signs out: the session ends now. */
export async function endMemberSession(db: Queryable, sessionId: string): Promise<void> {
  await db.delete(memberSessions).where(eq(memberSessions.id, sessionId));
}

/** The periodic clean-up of sessions past either limit. */
export async function deleteEndedMemberSessions(db: Queryable): Promise<number> {
  const at = now();
  const rows = await db
    .delete(memberSessions)
    .where(or(lt(memberSessions.expiresAt, at), lt(memberSessions.lastSeenAt, idleSince(at))))
    .returning({ id: memberSessions.id });
  return rows.length;
}
