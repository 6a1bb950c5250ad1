/** The Pinterest user's own account (`GET /v5/user_account`): id, username, name, picture and follower count. */
import { num, requiredText, str } from '../http.ts';
import type { AccountCredentials, PlatformProfile } from '../types.ts';
import type { PinterestContext } from './api.ts';

const platform = 'pinterest';

export async function pinterestProfile(
  { api }: PinterestContext,
  { accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const account = await api.call('GET', '/user_account', accessToken);
  const username = str(account.username);
  return {
    id: requiredText(platform, account.id, 'id'),
    username,
    // A business account's name; a personal account has none but its username.
    name: str(account.business_name) ?? username,
    avatarUrl: str(account.profile_image),
    followersCount: num(account.follower_count),
  };
}
