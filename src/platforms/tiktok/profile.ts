/** The TikTok account itself: its profile, as far as the scopes granted let it be read. */
import { num, record, requiredText, str } from '../http.ts';
import { type AccountCredentials, PlatformError, type PlatformProfile } from '../types.ts';
import type { TikTokContext } from './api.ts';

const PROFILE_FIELDS = 'open_id,avatar_url,display_name,username,follower_count';
/** What user.info.basic alone may read. */
const BASIC_PROFILE_FIELDS = 'open_id,avatar_url,display_name';

export async function tiktokProfile(
  { api }: TikTokContext,
  { accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const readUser = async (fields: string) =>
    record((await api.data('GET', '/v2/user/info/', accessToken, { query: { fields } })).user);
  let user: Record<string, unknown>;
  try {
    user = await readUser(PROFILE_FIELDS);
  } catch (error) {
    // username needs user.info.profile and follower_count user.info.stats, which the user may not have granted.
    if (!(error instanceof PlatformError) || error.kind !== 'permission_missing') throw error;
    user = await readUser(BASIC_PROFILE_FIELDS);
  }
  return {
    id: requiredText('tiktok', user.open_id, 'open_id'),
    username: str(user.username),
    name: str(user.display_name),
    avatarUrl: str(user.avatar_url),
    followersCount: num(user.follower_count),
  };
}
