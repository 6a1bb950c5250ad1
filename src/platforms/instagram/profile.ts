/** The Instagram account itself: its ids and profile, read from `/me`. */
import { list, num, record, requiredText, str } from '../http.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import type { AccountCredentials, PlatformProfile } from '../types.ts';

/** `/me`'s fields: the Get Started page shows them inside `data: [...]`, a node answers them flat; both are read. */
export function meNode(answer: Record<string, unknown>): Record<string, unknown> {
  return record(list(answer.data)[0] ?? answer);
}

/**
 * The professional account id (IG_ID): `/me`'s `user_id`, "the value of the id field received
 * in webhook notifications", and the id in the API's paths. `/me`'s `id` is app-scoped, and so
 * is the code exchange's `user_id` (docs/platforms.md, "Instagram account ids").
 */
export async function professionalAccountId({ graph }: GraphContext, token: string): Promise<string> {
  const me = meNode(await graph.get('/me', token, { fields: 'user_id' }));
  return requiredText('instagram', me.user_id, 'user_id');
}

export async function instagramProfile(
  { graph }: GraphContext,
  { accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const me = meNode(
    await graph.get('/me', accessToken, { fields: 'user_id,username,name,profile_picture_url,followers_count' }),
  );
  return {
    // Never `id`: it is app-scoped, and matches neither notices nor paths.
    id: requiredText('instagram', me.user_id, 'user_id'),
    username: str(me.username),
    name: str(me.name),
    avatarUrl: str(me.profile_picture_url),
    followersCount: num(me.followers_count),
  };
}
