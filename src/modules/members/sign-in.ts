/**
 * How a member signs in: by accepting its invitation, by a sign-in link asked for its address,
 * or by its password where the operator allows passwords. A link is used once and makes a
 * dashboard session. Asking for links and trying passwords is limited per address and per IP;
 * a request for links answers the same, as fast, whether the address is a member's or not (a
 * job looks it up), so the page tells nobody who the members are.
 */

import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import { now } from '../../clock.ts';
import type { Db } from '../../db/connection.ts';
import { countAttempt } from '../../http/rate-limit-store.ts';
import type { ScopeSession } from '../../http/scope.ts';
import { enqueue } from '../../jobs/queue.ts';
import { sha256Hex } from '../../secrets.ts';
import { hashPassword, NO_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { createMemberSession } from './sessions.ts';
import { members } from './tables.ts';
import { peekLink, sendLink, useLink } from './tokens.ts';

/** Sign-in links one address may be sent in a window, and tries one IP (or IPv6 /64) may make. */
export const SIGN_IN_LIMITS = { perAddress: 5, perIp: 20, windowMs: 15 * 60_000 } as const;

export type Limited = { kind: 'limited'; retryAfterMs: number };

/** Who asks, as the limits count it: an IPv4 address, or an IPv6 address's /64 (one host may hold all of it). */
function askerKey(forwarded: string): string {
  // Some proxies forward `address:port` (`[v6]:port`): the port is not the asker's.
  const ip = forwarded.replace(/^\[([^\]]+)\](:\d+)?$/, '$1').replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/, '$1');
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/** Counts a try of `what` by the asker (its IP) or for an address: limited once over `max`. */
async function overLimit(
  db: Db,
  what: 'link' | 'password',
  by: { ip: string } | { address: string },
): Promise<Limited | undefined> {
  const [key, max] =
    'ip' in by
      ? [`member-${what}:ip:${askerKey(by.ip)}`, SIGN_IN_LIMITS.perIp]
      : [`member-${what}:address:${sha256Hex(by.address)}`, SIGN_IN_LIMITS.perAddress];
  const { count, ttlMs } = await countAttempt(db, key, SIGN_IN_LIMITS.windowMs);
  return count > max ? { kind: 'limited', retryAfterMs: ttlMs } : undefined;
}

/**
 * Asks for sign-in links to an address: a job sends one to each of its memberships that has
 * accepted its invitation. Past the asker's limit, refused (429); past the address's, nothing more
 * is sent, silently, so no one can lock a member out of its links or learn of it by asking.
 */
export async function requestSignInLinks(
  db: Db,
  input: { email: string; ip: string },
): Promise<{ kind: 'sent' } | Limited> {
  const limited = await overLimit(db, 'link', { ip: input.ip });
  if (limited) return limited;
  const address = input.email.trim().toLowerCase();
  if (await overLimit(db, 'link', { address })) return { kind: 'sent' };
  await db.transaction((tx) =>
    // Tried briefly: a link asked for is wanted now, not after a day of retries.
    enqueue(tx, 'send_sign_in_links', { email: address, asked_at: now().toISOString() }, { maxAttempts: 3 }),
  );
  return { kind: 'sent' };
}

/** How late a request for links may still be answered by the job (then the person has asked again, or given up). */
const LINK_REQUEST_TTL_MS = 10 * 60_000;

/** The job of a request for links: a link to each active membership of the address, none when there is none. */
export async function sendSignInLinks(
  deps: { db: Db; secretKey: Buffer },
  request: { email: string; asked_at: string },
): Promise<void> {
  if (now().getTime() - Date.parse(request.asked_at) > LINK_REQUEST_TTL_MS) return;
  const { email } = request;
  await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(sql`lower(${members.email}) = ${email}`, eq(members.status, 'active')));
    for (const row of rows) await sendLink(tx, deps.secretKey, row.id, 'sign_in');
  });
}

export interface SignedIn {
  memberId: string;
  ownerId: string;
  session: ScopeSession & { token: string };
}

/**
 * Uses an invitation (the member becomes active) or a sign-in link: the link is spent and a
 * session made in one transaction. Undefined when the link is unknown, used or expired. A
 * password set on the way is hashed only for a live link, and counted against the asker.
 */
export async function signInWithLink(
  db: Db,
  token: string,
  purpose: 'invitation' | 'sign_in',
  /** A password the member sets as it signs in (where passwords are allowed), and who asks. */
  setting?: { password: string; ip: string },
): Promise<SignedIn | Limited | undefined> {
  let passwordHash: string | undefined;
  if (setting !== undefined) {
    if (!(await peekLink(db, token, purpose))) return undefined;
    const limited = await overLimit(db, 'password', { ip: setting.ip });
    if (limited) return limited;
    passwordHash = await hashPassword(setting.password);
  }
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
 * is (one address may be a member of several owners, each with its own password). Limited per
 * asker and per address; an address without a password is refused after the same work as a
 * wrong password.
 */
export async function signInWithPassword(
  db: Db,
  input: { email: string; password: string; ip: string },
): Promise<SignedIn | Limited | { kind: 'refused' }> {
  const address = input.email.trim().toLowerCase();
  const limited = (await overLimit(db, 'password', { ip: input.ip })) ?? (await overLimit(db, 'password', { address }));
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
