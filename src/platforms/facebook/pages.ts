/** The pages a Facebook login grants, each becoming an account, and a page's own profile. */
import { num, record, requiredText, str } from '../http.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import type { AccountCredentials, PageGrant, PlatformProfile } from '../types.ts';

const PAGE_FIELDS = 'id,name,access_token,instagram_business_account,picture';
const PROFILE_FIELDS = 'id,name,username,picture,followers_count,fan_count';

/** `picture` as Graph answers it: `{"data":{"url"}}` (a bare URL string is accepted too). */
function pictureUrl(picture: unknown): string | null {
  return str(picture) ?? str(record(record(picture).data).url);
}

function toPage(raw: unknown): PageGrant | null {
  const p = record(raw);
  const id = str(p.id);
  const accessToken = str(p.access_token);
  if (id === null || accessToken === null || accessToken === '') return null;
  return {
    id,
    name: str(p.name) ?? id,
    avatarUrl: pictureUrl(p.picture),
    accessToken,
    instagramBusinessAccountId: str(record(p.instagram_business_account).id),
  };
}

export async function facebookPages(
  { graph }: GraphContext,
  { accessToken }: AccountCredentials,
): Promise<PageGrant[]> {
  const data = await graph.getAll('/me/accounts', accessToken, { fields: PAGE_FIELDS, limit: 100 }, 1000);
  return data.map(toPage).filter((p): p is PageGrant => p !== null);
}

export async function facebookProfile(
  { graph }: GraphContext,
  { platformUserId, accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const page = await graph.get(`/${platformUserId}`, accessToken, { fields: PROFILE_FIELDS });
  return {
    id: requiredText('facebook', page.id, 'id'),
    username: str(page.username),
    name: str(page.name),
    avatarUrl: pictureUrl(page.picture),
    // Pages without followers_count (older ones) still have likes.
    followersCount: num(page.followers_count) ?? num(page.fan_count),
  };
}
