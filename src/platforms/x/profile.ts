/** The X user's own profile (`GET /2/users/me`): id, username, name, picture and follower count. */
import { num, record, requiredText, str } from '../http.ts';
import type { AccountCredentials, PlatformProfile } from '../types.ts';
import type { XContext } from './api.ts';

const platform = 'x';

export async function xProfile({ api }: XContext, { accessToken }: AccountCredentials): Promise<PlatformProfile> {
  const answer = await api.call('GET', '/users/me', accessToken, {
    query: { 'user.fields': 'profile_image_url,public_metrics' },
  });
  const user = record(answer.data);
  return {
    id: requiredText(platform, user.id, 'data.id'),
    username: str(user.username),
    name: str(user.name),
    avatarUrl: str(user.profile_image_url),
    followersCount: num(record(user.public_metrics).followers_count),
  };
}
