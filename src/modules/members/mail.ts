/** The e-mails that carry a member's links: the invitation, and a sign-in link it asked for. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection.ts';
import type { SendMail } from '../../mail.ts';
import { decrypt } from '../../secrets.ts';
import { brandNameOf } from '../connect/index.ts';
import { members, memberTokens } from './tables.ts';
import { linkIsLive, TOKEN_LIFETIME_MS } from './tokens.ts';

export interface MemberMailDeps {
  db: Db;
  secretKey: Buffer;
  sendMail: SendMail;
  /** PUBLIC_URL: where links lead; without it, the address the member was invited at. */
  publicUrl: string | undefined;
}

/** Where a link of `purpose` opens, under `base`. */
export function memberLinkUrl(base: string, purpose: 'invitation' | 'sign_in', token: string): string {
  return `${base}/members/${purpose === 'invitation' ? 'accept' : 'sign-in'}/${token}`;
}

/**
 * Sends the e-mail of one link, unless the link was used, replaced or has expired meanwhile
 * (a retried job must not send a link that no longer works).
 */
export async function sendMemberEmail(
  deps: MemberMailDeps,
  payload: { member_id: string; token_id: string; token: string },
): Promise<void> {
  const [row] = await deps.db
    .select({ member: members, purpose: memberTokens.purpose })
    .from(memberTokens)
    .innerJoin(members, eq(members.id, memberTokens.memberId))
    .where(eq(memberTokens.id, payload.token_id));
  if (!row || row.member.id !== payload.member_id || !(await linkIsLive(deps.db, payload.token_id))) return;
  const { member, purpose } = row;
  const brand = (await brandNameOf(deps.db, member.ownerId)) || 'Switchboard';
  const url = memberLinkUrl(deps.publicUrl ?? member.linkBase, purpose, decrypt(deps.secretKey, payload.token));
  const hello = member.name ? `Hello ${member.name},` : 'Hello,';
  if (purpose === 'invitation') {
    await deps.sendMail({
      to: member.email,
      subject: `You are invited to ${brand}'s dashboard`,
      text: [
        hello,
        '',
        `You have been invited to ${brand}'s Switchboard dashboard as ${member.email}.`,
        'Open this link and choose "Accept and sign in":',
        '',
        url,
        '',
        `The link works once, for ${TOKEN_LIFETIME_MS.invitation / 86_400_000} days. If you did not expect it, ignore this e-mail.`,
      ].join('\n'),
    });
    return;
  }
  await deps.sendMail({
    to: member.email,
    subject: `Sign in to ${brand}'s dashboard`,
    text: [
      hello,
      '',
      `Someone asked to sign in to ${brand}'s Switchboard dashboard as ${member.email}.`,
      'Open this link and choose "Sign in":',
      '',
      url,
      '',
      `The link works once, for ${TOKEN_LIFETIME_MS.sign_in / 60_000} minutes. If it was not you, ignore this e-mail: nobody can sign in without it.`,
    ].join('\n'),
  });
}
