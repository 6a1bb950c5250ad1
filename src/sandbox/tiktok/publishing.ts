/**
 * TikTok's Content Posting API, Direct Post with PULL_FROM_URL: creator_info, video/init
 * (the video is pulled now), and status/fetch, which reports processing, then the post, and
 * for a public one its id once moderation is done.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, caller, requireScope } from '../caller.ts';
import { formOf, isHttpUrl, jsonInteger } from '../kit.ts';
import { fetchMedia } from '../media-fetch.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { recordPublication } from '../store/activity.ts';
import {
  CONTAINER_PROCESSING_SECONDS,
  createContainer,
  findContainer,
  markContainerPublished,
  setContainerPost,
} from '../store/containers.ts';
import { createPost } from '../store/posts.ts';
import { seconds, secondsOrNever, waitMs } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';
import { call, publishCall, SCOPE } from './access.ts';
import { ok, tiktok } from './envelope.ts';
import { checkPostingRules, postingRefusal, privacyLevelOptions } from './posting-rules.ts';

const MAX_TITLE_LENGTH = 2_200;
/**
 * How long moderating a public post takes: "usually within one minute. In some cases,
 * moderation may take a few hours" (TikTok's post status docs). `never`: the public id never comes.
 */
export const MODERATION_SECONDS = secondsOrNever('tiktok_moderation_seconds', 30, 2 * 86_400);
/**
 * The longest video (whole seconds) an account may post, which creator_info answers as
 * max_video_post_duration_sec: "Different users have different maximum video-duration
 * privileges" (Query Creator Info reference), 3, 5 or 10 minutes (Media Transfer Guide).
 * The sandbox gives every account the longest, 10 minutes.
 */
export const MAX_VIDEO_POST_DURATION_SEC = seconds('tiktok_max_video_post_duration_sec', 600, 86_400);
/** The size reported for every pulled video: the sandbox downloads nothing. */
const VIDEO_BYTES = 1_048_576;
/** Publish ids look like TikTok's (`v_pub_url~v2.<digits>`); the digits are the container id. */
const PUBLISH_ID_PREFIX = 'v_pub_url~v2.';
/** Marks a container whose post is being made, so two status fetches never make two posts. */
const PUBLISHING = 'publishing';

function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw tiktok.badParameter(`${name} must be an object`);
  }
  return value as Record<string, unknown>;
}

function httpUrl(value: unknown): URL | null {
  return typeof value === 'string' && isHttpUrl(value) ? new URL(value) : null;
}

/** TikTok's video restrictions: MP4, WebM or MOV, at most 4 GB. */
const MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024;

/**
 * What TikTok finds on pulling the video (status fetch reference's fail reasons): null
 * when it is a video it accepts, `file_format_check_failed` for another kind of file,
 * `video_pull_failed` when the URL does not give one, `duration_check_failed` ("Video does
 * not meet our duration restrictions") when it lasts longer than the account may post. A
 * video whose length cannot be read is not refused for it.
 */
async function pullFailure(videoUrl: string, maxSeconds: number): Promise<string | null> {
  const fetched = await fetchMedia(videoUrl, ['mp4', 'webm', 'mov'], MAX_VIDEO_BYTES, { readDuration: true });
  if (!fetched.ok) return fetched.reason === 'format' ? 'file_format_check_failed' : 'video_pull_failed';
  const seconds = fetched.durationSeconds ?? null;
  return seconds !== null && seconds > maxSeconds ? 'duration_check_failed' : null;
}

/**
 * The Content Posting calls carry `Content-Type: application/json; charset=UTF-8`, TikTok's
 * reference says, creator_info/query too although it has no body.
 */
function requireJsonContentType(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw tiktok.badParameter('The Content-Type must be application/json; charset=UTF-8');
  }
}

/** The validated video init request: post_info (a privacy level among `offered`) and a PULL_FROM_URL source. */
function videoInit(request: FastifyRequest, offered: readonly string[]) {
  const body = jsonObject(request.body ?? null, 'The request body');
  const postInfo = jsonObject(body.post_info ?? {}, 'post_info');
  const sourceInfo = jsonObject(body.source_info, 'source_info');
  const title = postInfo.title ?? '';
  if (typeof title !== 'string' || title.length > MAX_TITLE_LENGTH) {
    throw tiktok.badParameter(`post_info.title must be a string of at most ${MAX_TITLE_LENGTH} characters`);
  }
  const privacy = postInfo.privacy_level;
  if (typeof privacy !== 'string' || !offered.includes(privacy)) {
    throw postingRefusal(
      'privacy_level_option_mismatch',
      `privacy_level must be one of the creator's privacy_level_options: ${offered.join(', ')}`,
    );
  }
  // The Direct Post reference marks brand_content_toggle required; brand_organic_toggle has
  // no Required cell of its own there, so it is only held to its type.
  if (typeof postInfo.brand_content_toggle !== 'boolean') {
    throw tiktok.badParameter('post_info.brand_content_toggle is required and must be a bool');
  }
  const brandOrganic = postInfo.brand_organic_toggle ?? false;
  if (typeof brandOrganic !== 'boolean') {
    throw tiktok.badParameter('post_info.brand_organic_toggle must be a bool');
  }
  if (sourceInfo.source !== 'PULL_FROM_URL') {
    throw tiktok.badParameter('source_info.source must be PULL_FROM_URL (the sandbox takes no file uploads)');
  }
  const videoUrl = httpUrl(sourceInfo.video_url);
  if (videoUrl === null) throw tiktok.badParameter('source_info.video_url must be a public http(s) URL');
  return {
    title,
    privacy_level: privacy,
    disable_comment: postInfo.disable_comment === true,
    disable_duet: postInfo.disable_duet === true,
    disable_stitch: postInfo.disable_stitch === true,
    brand_content_toggle: postInfo.brand_content_toggle,
    brand_organic_toggle: brandOrganic,
    video_url: videoUrl.toString(),
  };
}

async function ownContainer(store: Store, who: Caller, publishId: string): Promise<SandboxContainer> {
  const id = publishId.startsWith(PUBLISH_ID_PREFIX) ? publishId.slice(PUBLISH_ID_PREFIX.length) : null;
  const container = id === null ? undefined : await findContainer(store, id);
  if (!container || container.accountId !== who.account.id) throw tiktok.notFound(publishId);
  return container;
}

/** Makes the container's post once; null while another request is making it. */
async function publishOnce(store: Store, who: Caller, container: SandboxContainer): Promise<string | null> {
  if (container.publishedPostId !== null) {
    return container.publishedPostId === PUBLISHING ? null : container.publishedPostId;
  }
  if (!(await markContainerPublished(store, container.id, PUBLISHING))) return null;
  const req = container.request;
  const post = await createPost(store, who.account, {
    caption: String(req.title ?? ''),
    mediaType: 'VIDEO',
    mediaUrl: String(req.video_url),
    viaApi: true,
  });
  await setContainerPost(store, container.id, post.id);
  const options = Object.fromEntries(
    (
      [
        'privacy_level',
        'disable_comment',
        'disable_duet',
        'disable_stitch',
        'brand_content_toggle',
        'brand_organic_toggle',
      ] as const
    ).map((name) => [name, req[name]]),
  );
  await recordPublication(
    store,
    post,
    { text: post.caption, mediaUrls: [String(req.video_url)], type: 'VIDEO', options },
    { publish_id: `${PUBLISH_ID_PREFIX}${container.id}`, ...req },
  );
  return post.id;
}

/** The status fetch answer: processing for a while, then FAILED or PUBLISH_COMPLETE. */
async function publishStatus(store: Store, who: Caller, container: SandboxContainer) {
  const size = VIDEO_BYTES;
  const age = store.now().getTime() - container.createdAt.getTime();
  const processingMs = waitMs(await getSetting(store, CONTAINER_PROCESSING_SECONDS));
  if (age < processingMs) {
    return { status: 'PROCESSING_DOWNLOAD', publicaly_available_post_id: [], uploaded_bytes: 0, downloaded_bytes: 0 };
  }
  if (container.failure !== null) {
    return {
      status: 'FAILED',
      fail_reason: container.failure,
      publicaly_available_post_id: [],
      uploaded_bytes: 0,
      downloaded_bytes: size,
    };
  }
  const postId = await publishOnce(store, who, container);
  if (postId === null) {
    return { status: 'PROCESSING_UPLOAD', publicaly_available_post_id: [], uploaded_bytes: 0, downloaded_bytes: size };
  }
  // Only public posts have a public id, sent as an int64 number (list<int64> in TikTok's
  // reference), and only once moderation is done: "developers are not provided with the
  // post_id until this process is complete".
  const isPublic = container.request.privacy_level === 'PUBLIC_TO_EVERYONE';
  const moderationMs = waitMs(await getSetting(store, MODERATION_SECONDS));
  const moderated = age >= processingMs + moderationMs;
  return {
    status: 'PUBLISH_COMPLETE',
    publicaly_available_post_id: isPublic && moderated ? [jsonInteger(postId)] : [],
    uploaded_bytes: size,
    downloaded_bytes: size,
  };
}

export function publishingRoutes(app: FastifyInstance, store: Store): void {
  app.post('/v2/post/publish/creator_info/query/', async (request) => {
    requireJsonContentType(request);
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.publish);
    return ok(store, {
      creator_avatar_url: who.account.avatarUrl,
      creator_username: who.account.username,
      creator_nickname: who.account.name,
      privacy_level_options: privacyLevelOptions(who.account),
      comment_disabled: false,
      // "Returns true if the creator account is private or they set the Duet (Stitch)
      // interaction to "No one"" (Query Creator Info reference).
      duet_disabled: who.account.private,
      stitch_disabled: who.account.private,
      max_video_post_duration_sec: await getSetting(store, MAX_VIDEO_POST_DURATION_SEC),
    });
  });

  app.post('/v2/post/publish/video/init/', async (request) => {
    requireJsonContentType(request);
    const who = await caller(store, request, publishCall);
    requireScope(who, call, SCOPE.publish);
    const values = videoInit(request, privacyLevelOptions(who.account));
    await checkPostingRules(store, who, values.privacy_level, values.video_url);
    const failure = await pullFailure(values.video_url, await getSetting(store, MAX_VIDEO_POST_DURATION_SEC));
    const clientId = who.token.clientId;
    const container = await createContainer(store, who.account.id, { ...values, client_id: clientId }, failure);
    return ok(store, { publish_id: `${PUBLISH_ID_PREFIX}${container.id}` });
  });

  app.post('/v2/post/publish/status/fetch/', async (request) => {
    requireJsonContentType(request);
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.publish, SCOPE.upload);
    const publishId = formOf(request).publish_id;
    if (typeof publishId !== 'string' || publishId === '') {
      throw tiktok.badParameter('The parameter publish_id is required');
    }
    const container = await ownContainer(store, who, publishId);
    return ok(store, await publishStatus(store, who, container));
  });
}
