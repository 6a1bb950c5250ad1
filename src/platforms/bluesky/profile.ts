/** The account itself: app.bsky.actor.getProfile, called at the account's PDS (which answers it from the AppView). */
import { num, str } from '../http.ts';
import type { AccountCredentials, PlatformProfile } from '../types.ts';
import type { BlueskyContext } from './api.ts';
import { openSession } from './session.ts';

export async function blueskyProfile(
  { api }: BlueskyContext,
  credentials: AccountCredentials,
): Promise<PlatformProfile> {
  const body = await api.xrpc(openSession(credentials.accessToken), 'GET', 'app.bsky.actor.getProfile', {
    query: { actor: credentials.platformUserId },
  });
  return {
    id: credentials.platformUserId,
    username: str(body.handle),
    name: str(body.displayName),
    avatarUrl: str(body.avatar),
    followersCount: num(body.followersCount),
  };
}
