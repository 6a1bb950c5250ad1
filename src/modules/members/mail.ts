/** The e-mails that carry a member's links: the invitation, and a sign-in link it asked for. */
import { and, eq, gt } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import type { Db } from '../../db/connection.ts';
import type { SendMail } from '../../mail.ts';
import { decrypt } from '../../secrets.ts';
import { brandNameOf } from '../connect/index.ts';
import { members, memberTokens } from './tables.ts';
import { MEMBER_LINK_PATHS, TOKEN_LIFETIME_MS } from './tokens.ts';

export interface MemberMailDeps {
  db: Db;
  secretKey: Buffer;
  sendMail: SendMail;
  /** PUBLIC_URL: where links lead; without it, the address the member was invited at. */
  publicUrl: string | undefined;
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
    .where(and(eq(memberTokens.id, payload.token_id), gt(memberTokens.expiresAt, now())));
  if (!row || row.member.id !== payload.member_id) return;
  const { member, purpose } = row;
  const brand = (await brandNameOf(deps.db, member.ownerId)) || 'Switchboard';
  const url = `${deps.publicUrl ?? member.linkBase}${MEMBER_LINK_PATHS[purpose]}/${decrypt(deps.secretKey, payload.token)}`;
  const words =
    purpose === 'invitation'
      ? {
          subject: `You are invited to ${brand}'s dashboard`,
          why: `You have been invited to ${brand}'s Switchboard dashboard as ${member.email}.`,
          button: 'Accept and sign in',
          lasts: `${TOKEN_LIFETIME_MS.invitation / DAY_MS} days. If you did not expect it, ignore this e-mail.`,
        }
      : {
          subject: `Sign in to ${brand}'s dashboard`,
          why: `Someone asked to sign in to ${brand}'s Switchboard dashboard as ${member.email}.`,
          button: 'Sign in',
          lasts: `${TOKEN_LIFETIME_MS.sign_in / 60_000} minutes. If it was not you, ignore this e-mail: nobody can sign in without it.`,
        };
  await deps.sendMail({
    to: member.email,
    subject: words.subject,
    text: [
      member.name ? `Hello ${member.name},` : 'Hello,',
      '',
      words.why,
      `Open this link and choose "${words.button}":`,
      '',
      url,
      '',
      `The link works once, for ${words.lasts}`,
    ].join('\n'),
  });
}
