/**
 * The organization pages a LinkedIn member administers (Organization Access Control), each
 * becoming an account, and an organization's own profile (Organization Lookup).
 */
import { list, num, record, requiredText, str } from '../http.ts';
import type { AccountCredentials, PageGrant, PlatformProfile } from '../types.ts';
import type { LinkedInContext } from './api.ts';

const platform = 'linkedin';
const ORGANIZATION_URN = /^urn:li:organization:(\d+)$/;
/** Organizations read at most, a page of ACLs at a time. */
const ACL_PAGE = 100;
const MAX_ORGANIZATIONS = 1_000;

/** An organization's URN, which the REST API's fields name it by. */
export const organizationUrn = (id: string) => `urn:li:organization:${id}`;

/** The organization's name, as its localized name gives it. */
async function organization(
  { api }: LinkedInContext,
  accessToken: string,
  id: string,
): Promise<Record<string, unknown>> {
  return api.restObject('GET', `/organizations/${encodeURIComponent(id)}`, accessToken);
}

/**
 * The organizations the member administers: `GET /rest/organizationAcls?q=roleAssignee`
 * with `role=ADMINISTRATOR&state=APPROVED`, paged by `start` and `count`.
 */
export async function linkedinPages(
  context: LinkedInContext,
  { accessToken }: AccountCredentials,
): Promise<PageGrant[]> {
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
  const pages: PageGrant[] = [];
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

export async function linkedinProfile(
  context: LinkedInContext,
  { platformUserId, accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const org = await organization(context, accessToken, platformUserId);
  return {
    id: requiredText(platform, org.id, 'id'),
    username: str(org.vanityName),
    name: str(org.localizedName),
    avatarUrl: null,
    followersCount: null,
  };
}
