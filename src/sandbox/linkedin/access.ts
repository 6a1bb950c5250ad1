/** What every LinkedIn route checks of its caller: the member's token, LinkedIn's errors, its versioned headers, the organizations administered. */
import type { FastifyRequest } from 'fastify';
import { type Caller, type CallOptions, requireScope } from '../caller.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { linkedin, linkedinAnswer } from './answers.ts';

export const platform = 'linkedin';
export const call: CallOptions = { platform, errors: linkedin };
/** Creating a post also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };

export const SCOPE = {
  basicProfile: 'r_basicprofile',
  organizationAdmin: 'rw_organization_admin',
  organizationRead: 'r_organization_social',
  organizationWrite: 'w_organization_social',
  memberWrite: 'w_member_social',
  /** Reading a member's posts and their comments: "granted to select developers only". */
  memberRead: 'r_member_social',
};

export const personUrn = (id: string) => `urn:li:person:${id}`;
export const organizationUrn = (id: string) => `urn:li:organization:${id}`;
const ORGANIZATION_URN = /^urn:li:organization:(\d+)$/;
const PERSON_URN = /^urn:li:person:([A-Za-z0-9_-]+)$/;

/**
 * "All APIs require the request header LinkedIn-Version: {Version in YYYYMM format}" and
 * "X-Restli-Protocol-Version: 2.0.0" (Posts API). A month not yet come (or not a month) is
 * NONEXISTENT_VERSION; the sandbox keeps every past version.
 */
export function checkVersionHeaders(request: FastifyRequest, now: Date): void {
  const version = request.headers['linkedin-version'];
  if (typeof version !== 'string' || version === '') {
    throw linkedinAnswer(
      400,
      'VERSION_MISSING',
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    );
  }
  const month = /^(\d{4})(\d{2})$/.exec(version);
  const current = now.getUTCFullYear() * 100 + now.getUTCMonth() + 1;
  if (month === null || Number(month[2]) < 1 || Number(month[2]) > 12 || Number(version) > current) {
    throw linkedinAnswer(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`);
  }
  if (request.headers['x-restli-protocol-version'] !== '2.0.0') {
    throw linkedinAnswer(400, 'ILLEGAL_ARGUMENT', 'The X-Restli-Protocol-Version header must be 2.0.0');
  }
}

/**
 * The organization `idOrUrn` names, which the caller must administer (a 403 otherwise, as
 * LinkedIn's ACLs refuse). A fault the control API set on the organization page itself answers
 * here (a call, and a post's creation when `publishing`), as one set on the member does for
 * any call of theirs.
 */
export async function administered(
  store: Store,
  who: Caller,
  idOrUrn: string,
  publishing = false,
): Promise<SandboxAccount> {
  const id = ORGANIZATION_URN.exec(idOrUrn)?.[1] ?? idOrUrn;
  const org = /^\d+$/.test(id) ? await findAccount(store, id) : undefined;
  if (!org || org.platform !== platform || org.kind !== 'page') throw linkedin.notFound(organizationUrn(id));
  if (org.parentId !== who.account.id) {
    throw linkedinAnswer(403, 'ACCESS_DENIED', `Not enough permissions to access: ${organizationUrn(id)}`, 100);
  }
  await answerWaitingFault(store, [org.id], publishing ? ['call', 'publish'] : ['call'], (preset) =>
    linkedin.preset(preset),
  );
  return org;
}

/**
 * Whom a post or an upload names as its `author` or `owner`: the token's own member (a post "on
 * behalf of the authenticated member" needs w_member_social; any other member is refused, 403),
 * or an organization the member administers (w_organization_social). The account it is made
 * under, and the URN to record.
 */
export async function authoredBy(
  store: Store,
  who: Caller,
  urn: string,
  publishing = false,
): Promise<{ account: SandboxAccount; urn: string }> {
  const person = PERSON_URN.exec(urn)?.[1];
  if (person !== undefined) {
    if (person !== who.account.id) {
      throw linkedinAnswer(403, 'ACCESS_DENIED', `Not enough permissions to act as ${urn}`, 100);
    }
    requireScope(who, call, SCOPE.memberWrite);
    return { account: who.account, urn: personUrn(who.account.id) };
  }
  requireScope(who, call, SCOPE.organizationWrite);
  const org = await administered(store, who, urn, publishing);
  return { account: org, urn: organizationUrn(org.id) };
}

/** An upload's owner, read back (its status, its bytes): the token's member, or an organization they administer. */
export async function ownedBy(store: Store, who: Caller, owner: string): Promise<void> {
  const person = PERSON_URN.exec(owner)?.[1];
  if (person === undefined) {
    await administered(store, who, owner);
  } else if (person !== who.account.id) {
    throw linkedinAnswer(403, 'ACCESS_DENIED', `Not enough permissions to access: ${owner}`, 100);
  }
}
