/**
 * The accounts one LinkedIn login offers: the member's own profile (where the login granted
 * w_member_social), then the organization pages the member administers (Organization Access
 * Control); and each one's profile (Profile API, Organization Lookup).
 */
import { list, num, record, requiredText, str } from '../http.ts';
import type { AccountCredentials, PageGrant, PlatformProfile } from '../types.ts';
import type { LinkedInContext } from './api.ts';
import { authorOf, personUrn } from './author.ts';
import { LINKEDIN_SCOPE } from './scopes.ts';

const platform = 'linkedin';
const ORGANIZATION_URN = /^urn:li:organization:(\d+)$/;
/** Organizations read at most, a page of ACLs at a time. */
const ACL_PAGE = 100;
const MAX_ORGANIZATIONS = 1_000;

/** The organization's name, as its localized name gives it. */
async function organization(
  { api }: LinkedInContext,
  accessToken: string,
  id: string,
): Promise<Record<string, unknown>> {
  return api.restObject('GET', `/organizations/${encodeURIComponent(id)}`, accessToken);
}

/** The member's own profile (`GET /rest/me`, r_basicprofile): their id, name and vanity name. */
async function me(
  { api }: LinkedInContext,
  accessToken: string,
): Promise<{ id: string; name: string | null; vanityName: string | null }> {
  const answer = await api.restObject('GET', '/me', accessToken);
  const name = [str(answer.localizedFirstName), str(answer.localizedLastName)]
    .filter((part): part is string => part !== null && part !== '')
    .join(' ');
  return {
    id: requiredText(platform, answer.id, 'id'),
    name: name === '' ? null : name,
    vanityName: str(answer.vanityName),
  };
}

/**
 * The member's own profile first, where `granted` holds w_member_social (posting as the member
 * needs it); then the organizations the member administers: `GET /rest/organizationAcls?q=roleAssignee`
 * with `role=ADMINISTRATOR&state=APPROVED`, paged by `start` and `count`.
 */
export async function linkedinPages(
  context: LinkedInContext,
  { accessToken }: AccountCredentials,
  granted: readonly string[],
): Promise<PageGrant[]> {
  const pages: PageGrant[] = [];
  if (granted.includes(LINKEDIN_SCOPE.memberWrite)) {
    const member = await me(context, accessToken);
    // Acted on with the login's own token, as the organizations are.
    pages.push({
      id: personUrn(member.id),
      name: member.name ?? member.vanityName ?? member.id,
      avatarUrl: null,
      accessToken: null,
      instagramBusinessAccountId: null,
    });
  }
  const ids: string[] = [];
  for (let start = 0; start < MAX_ORGANIZATIONS; start += ACL_PAGE) {
    const answer = await context.api.restObject('GET', '/organizationAcls', accessToken, {
      query: { q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED', start, count: ACL_PAGE },
    });
    const elements = list(answer.elements);
    for (const element of elements) {
      const id = ORGANIZATION_URN.exec(str(record(element).organization) ?? '')?.[1];
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    const total = num(record(answer.paging).total);
    if (elements.length < ACL_PAGE || (total !== null && start + ACL_PAGE >= total)) break;
  }
  for (const id of ids) {
    const org = await organization(context, accessToken, id);
    // Acted on with the member's own token: LinkedIn has no token per organization.
    pages.push({
      id,
      name: str(org.localizedName) ?? id,
      avatarUrl: null,
      accessToken: null,
      instagramBusinessAccountId: null,
    });
  }
  return pages;
}

/** The account's profile: the member's own (their URN, vanity name and name), or the organization's. */
export async function linkedinProfile(
  context: LinkedInContext,
  { platformUserId, accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const author = authorOf(platformUserId);
  if (author.kind === 'person') {
    const member = await me(context, accessToken);
    return {
      id: personUrn(member.id),
      username: member.vanityName,
      name: member.name,
      avatarUrl: null,
      followersCount: null,
    };
  }
  const org = await organization(context, accessToken, author.id);
  return {
    id: requiredText(platform, org.id, 'id'),
    username: str(org.vanityName),
    name: str(org.localizedName),
    avatarUrl: null,
    followersCount: null,
  };
}
