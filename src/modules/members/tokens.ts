/**
 * The single-use links a member is sent: an invitation (7 days) and a sign-in link (15
 * minutes). The token exists in clear only in the e-mail: the job that sends it gets it sealed
 * under SECRET_KEY, and the table keeps its SHA-256. Using one deletes it, in the statement that
 * reads it, so two uses of one link at once make one session.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import type { Queryable, Tx } from '../../db/connection.ts';
import { newId } from '../../ids.ts';
import { enqueue } from '../../jobs/queue.ts';
import { encrypt, sha256Hex } from '../../secrets.ts';
import { type MemberTokenPurpose, members, memberTokens } from './tables.ts';

export const TOKEN_LIFETIME_MS: Readonly<Record<MemberTokenPurpose, number>> = {
  invitation: 7 * DAY_MS,
  sign_in: 15 * 60_000,
};

/** Where a link of each purpose opens (its token follows): the members' hosted pages, and the e-mails. */
export const MEMBER_LINK_PATHS: Readonly<Record<MemberTokenPurpose, string>> = {
  invitation: '/members/accept',
  sign_in: '/members/sign-in',
};

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Makes a link of `purpose` for the member and queues the e-mail that sends it, in the
 * caller's transaction: the e-mail goes exactly when the link exists.
 */
export async function sendLink(
  tx: Tx,
  secretKey: Buffer,
  memberId: string,
  purpose: MemberTokenPurpose,
  at = now(),
): Promise<{ expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const id = newId('memberToken');
  const expiresAt = new Date(at.getTime() + TOKEN_LIFETIME_MS[purpose]);
  await tx
    .insert(memberTokens)
    .values({ id, memberId, purpose, tokenHash: sha256Hex(token), createdAt: at, expiresAt });
  await enqueue(
    tx,
    'send_member_email',
    { member_id: memberId, token_id: id, token: encrypt(secretKey, token) },
    // The link is worthless once expired; an e-mail failing that long is not sent late.
    { maxAttempts: purpose === 'sign_in' ? 5 : 15 },
  );
  return { expiresAt };
}

/** The member a live link of `purpose` is for, without using it (the page that shows its button). */
export async function peekLink(
  db: Queryable,
  token: string,
  purpose: MemberTokenPurpose,
): Promise<{ memberId: string; email: string; ownerId: string } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const [row] = await db
    .select({ memberId: memberTokens.memberId, email: members.email, ownerId: members.ownerId })
    .from(memberTokens)
    .innerJoin(members, eq(members.id, memberTokens.memberId))
    .where(
      and(
        eq(memberTokens.tokenHash, sha256Hex(token)),
        eq(memberTokens.purpose, purpose),
        gt(memberTokens.expiresAt, now()),
      ),
    );
  return row;
}

/** Uses a live link of `purpose`: deletes it and answers its member, or undefined when there is none. */
export async function useLink(
  tx: Tx,
  token: string,
  purpose: MemberTokenPurpose,
): Promise<{ memberId: string } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const [row] = await tx
    .delete(memberTokens)
    .where(
      and(
        eq(memberTokens.tokenHash, sha256Hex(token)),
        eq(memberTokens.purpose, purpose),
        gt(memberTokens.expiresAt, now()),
      ),
    )
    .returning({ memberId: memberTokens.memberId });
  return row;
}

/** Voids the member's unused links of `purpose` (a new invitation replaces the old). */
export async function voidLinks(tx: Tx, memberId: string, purpose: MemberTokenPurpose): Promise<void> {
  await tx.delete(memberTokens).where(and(eq(memberTokens.memberId, memberId), eq(memberTokens.purpose, purpose)));
}

/** The periodic clean-up of links past their time. */
export async function deleteExpiredLinks(db: Queryable): Promise<number> {
  const rows = await db
    .delete(memberTokens)
    .where(lt(memberTokens.expiresAt, now()))
    .returning({ id: memberTokens.id });
  return rows.length;
}
