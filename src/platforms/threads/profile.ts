/** The Threads account itself: its profile, and its followers, which Threads counts among insights. */
import { requiredText, str } from '../http.ts';
import { metricValue } from '../meta/graph-answers.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { type AccountCredentials, PlatformError, type PlatformProfile } from '../types.ts';

/**
 * Followers are an insights metric on Threads, not a user field: null when the token may
 * not read insights (or Threads has no figure), rather than failing the whole profile.
 */
async function followersCount({ graph }: GraphContext, userId: string, accessToken: string): Promise<number | null> {
  try {
    const body = await graph.get(`/${userId}/threads_insights`, accessToken, { metric: 'followers_count' });
    return metricValue(body, 'followers_count');
  } catch (error) {
    if (error instanceof PlatformError && error.kind === 'permission_missing') return null;
    throw error;
  }
}

export async function threadsProfile(
  context: GraphContext,
  { platformUserId, accessToken }: AccountCredentials,
): Promise<PlatformProfile> {
  const me = await context.graph.get('/me', accessToken, { fields: 'id,username,name,threads_profile_picture_url' });
  return {
    id: requiredText('threads', me.id, 'id'),
    username: str(me.username),
    name: str(me.name),
    avatarUrl: str(me.threads_profile_picture_url),
    followersCount: await followersCount(context, platformUserId, accessToken),
  };
}
