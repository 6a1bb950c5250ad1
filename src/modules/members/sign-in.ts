/**
 * How a member signs in: by accepting its invitation, or by a sign-in link asked for its
 * address. Either link is used once, and makes a dashboard session. Asking for links is limited
 * per address and per IP, and answers the same whether the address is a member's or not, so the
 * page tells nobody who the members are.
 */
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db } from '../../db/connection.ts';
import { countAttempt } from '../../http/rate-limit-store.ts';
import type { ScopeSession } from '../../http/scope.ts';
import { sha256Hex } from '../../secrets.ts';
import { hashPassword, NO_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { createMemberSession } from './sessions.ts';
import { members } from './tables.ts';
import { sendLink, useLink } from './tokens.ts';

/** Sign-in links one address may be sent in a window, and requests one IP may make. */
export const SIGN_IN_LIMITS = { perAddress: 5, perIp: 20, windowMs: 15 * 60_000 } as const;

export type SignInRequest = { kind: 'sent' } | { kind: 'limited'; retryAfterMs: number };

/** Counts an attempt of `what` against the asker's IP and the address: limited once either is over. */
async function overLimit(
  db: Db,
  what: 'link' | 'password',
  address: string,
  ip: string,
): Promise<{ kind: 'limited'; retryAfterMs: number } | undefined> {
  for (const [key, max] of [
    [`member-${what}:ip:${ip}`, SIGN_IN_LIMITS.perIp],
    [`member-${what}:address:${sha256Hex(address)}`, SIGN_IN_LIMITS.perAddress],
  ] as const) {
    const { count, ttlMs } = await countAttempt(db, key, SIGN_IN_LIMITS.windowMs);
    if (count > max) return { kind: 'limited', retryAfterMs: ttlMs };
  }
  return undefined;
}

/**
 * Sends a sign-in link to every membership of an address that has accepted its invitation
 * (one address may be a member of several owners); nothing when there is none.
 */
export async function requestSignInLinks(
  db: Db,
  secretKey: Buffer,
  input: { email: string; ip: string },
): Promise<SignInRequest> {
  const address = input.email.trim().toLowerCase();
  const limited = await overLimit(db, 'link', address, input.ip);
  if (limited) return limited;
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(sql`lower(${members.email}) = ${address}`, eq(members.status, 'active')));
    for (const row of rows) await sendLink(tx, secretKey, row.id, 'sign_in');
  });
  return { kind: 'sent' };
}

export interface SignedIn {
  memberId: string;
  ownerId: string;
  session: ScopeSession & { token: string };
}

/**
 * Uses an invitation (the member becomes active) or a sign-in link: the link is spent and a
 * session made in one transaction. Undefined when the link is unknown, used or expired.
 */
export async function signInWithLink(
  db: Db,
  token: string,
  purpose: 'invitation' | 'sign_in',
  /** A password the member sets as it signs in (where passwords are allowed). */
  password?: string,
): Promise<SignedIn | undefined> {
  const passwordHash = password === undefined ? undefined : await hashPassword(password);
  return await db.transaction(async (tx) => {
    const link = await useLink(tx, token, purpose);
    if (!link) return undefined;
    const changed = purpose === 'invitation' || passwordHash !== undefined;
    const [member] = await tx
      .update(members)
      .set({
        status: 'active',
        lastSignInAt: now(),
        ...(changed ? { updatedAt: now() } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
      })
      .where(eq(members.id, link.memberId))
      .returning({ id: members.id, ownerId: members.ownerId });
    if (!member) return undefined;
    return { memberId: member.id, ownerId: member.ownerId, session: await createMemberSession(tx, member.id) };
  });
}

/**
 * Signs in with an address and a password: the active member of that address whose password it
 * is (one address may be a member of several owners, each with its own password). Limited like
 * asking for links; an address without a password takes as long to refuse as a wrong password.
 */
export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string; ip: string },
): Promise<SignedIn | { kind: 'limited'; retryAfterMs: number } | { kind: 'refused' }> {
  const address = input.email.trim().toLowerCase();
  const limited = await overLimit(db, 'password', address, input.ip);
  if (limited) return limited;
  const candidates = await db
    .select({ id: members.id, ownerId: members.ownerId, passwordHash: members.passwordHash })
    .from(members)
    .where(
      and(sql`lower(${members.email}) = ${address}`, eq(members.status, 'active'), isNotNull(members.passwordHash)),
    )
    .orderBy(asc(members.id));
  if (candidates.length === 0) {
    await verifyPassword(input.password, NO_PASSWORD_HASH);
    return { kind: 'refused' };
  }
  for (const candidate of candidates) {
    if (!(await verifyPassword(input.password, candidate.passwordHash ?? NO_PASSWORD_HASH))) continue;
    return await db.transaction(async (tx) => {
      await tx.update(members).set({ lastSignInAt: now() }).where(eq(members.id, candidate.id));
      return {
        memberId: candidate.id,
        ownerId: candidate.ownerId,
        session: await createMemberSession(tx, candidate.id),
      };
    });
  }
  return { kind: 'refused' };
}
