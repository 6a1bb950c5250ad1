/**
 * Where a TikTok post stands, read from its container id (the privacy level and TikTok's
 * publish_id) and TikTok's status answer, and the post a finished publish became.
 */
import { invalidRequest } from '../errors.ts';
import { list, str } from '../http.ts';
import { type ContainerState, PlatformError, type PublishedPost } from '../types.ts';
import type { TikTokContext } from './api.ts';

const platform = 'tiktok';

const PUBLISH_STATES: Record<string, ContainerState> = {
  PROCESSING_DOWNLOAD: 'in_progress',
  PROCESSING_UPLOAD: 'in_progress',
  PUBLISH_COMPLETE: 'published',
  FAILED: 'failed',
};

/**
 * A container id is the privacy level and TikTok's publish_id (`SELF_ONLY:v_pub_url~v2.123`):
 * only the privacy level tells whether a PUBLISH_COMPLETE without a public post id is final.
 */
const CONTAINER_ID = /^([A-Z_]+):(.+)$/;
const PUBLIC_PRIVACY = 'PUBLIC_TO_EVERYONE';

/** The privacy level and publish_id a container id holds (see CONTAINER_ID). */
function containerParts(containerId: string): { privacy: string; publishId: string } {
  const match = CONTAINER_ID.exec(containerId);
  if (!match) throw invalidRequest(platform, `not a TikTok post container: ${containerId.slice(0, 60)}`);
  return { privacy: match[1] as string, publishId: match[2] as string };
}

/** TikTok's reference sends no body here, but requires the JSON content type all the same. */
export async function creatorInfo({ api }: TikTokContext, token: string): Promise<Record<string, unknown>> {
  return api.data('POST', '/v2/post/publish/creator_info/query/', token, { jsonWithoutBody: true });
}

/**
 * Where a post stands. PUBLISH_COMPLETE is final for a post that is not public; a public
 * one goes through TikTok's moderation first, which may take hours, and only then gets
 * the public id TikTok's status answer carries
 * (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status): until
 * then it is `awaiting_permalink`, published but without its public id and link.
 */
export async function postState(context: TikTokContext, token: string, containerId: string) {
  const { privacy, publishId } = containerParts(containerId);
  const data = await context.api.data('POST', '/v2/post/publish/status/fetch/', token, {
    json: { publish_id: publishId },
  });
  const status = str(data.status) ?? '';
  const state = PUBLISH_STATES[status];
  if (state === undefined) {
    throw new PlatformError('transient', `tiktok: unknown publish status ${JSON.stringify(status)}`, { platform });
  }
  // TikTok's spelling; int64s, which parseJson keeps exact.
  const publicId = str(list(data.publicaly_available_post_id)[0]);
  const moderating = state === 'published' && privacy === PUBLIC_PRIVACY && publicId === null;
  return { state: moderating ? ('awaiting_permalink' as const) : state, status, publicId, publishId, data };
}

/** The post a finished publish became: its public id and link, or for a post that is not public its publish id. */
export async function publishedPost(
  context: TikTokContext,
  token: string,
  publicId: string | null,
  publishId: string,
): Promise<PublishedPost> {
  if (publicId === null) return { id: publishId, permalink: null };
  const username = str((await creatorInfo(context, token)).creator_username);
  const permalink = username ? `https://www.tiktok.com/@${encodeURIComponent(username)}/video/${publicId}` : null;
  return { id: publicId, permalink };
}
