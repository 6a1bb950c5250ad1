/**
 * Publishing on Instagram, as the IG User Media and Media Publish references describe it:
 * a container (an image, a reel, a story, a carousel item or a carousel), then media_publish
 * within the daily quota, which content_publishing_limit reads.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DAY_MS } from '../../days.ts';
import type { SandboxAnswer } from '../answers.ts';
import { type Caller, caller, requireScope } from '../caller.ts';
import { isHttpUrl, param, requiredParam } from '../kit.ts';
import { fetchMedia, type MediaFailure } from '../media-fetch.ts';
import {
  containerExpired,
  containerMediaUrls,
  notReadyToPublish,
  publishQuotaReached,
  stillProcessing,
  unfinishedCarouselItem,
} from '../meta/containers.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { countActivity, recordPublication } from '../store/activity.ts';
import { createContainer, findContainer, markContainerPublished } from '../store/containers.ts';
import { createPost } from '../store/posts.ts';
import { wholeNumber } from '../store/setting-kinds.ts';
import { type SettingValues, settingIn } from '../store/settings.ts';
import { call, publishCall, SCOPE } from './access.ts';

/**
 * Posts an account may publish through the API in a moving 24 hours: 100, as the Content
 * Publishing guide says (carousels count once). Lower it to spend it in a test.
 */
export const PUBLISH_QUOTA = wholeNumber('instagram_publish_quota', 100, 10_000);
const MAX_CAROUSEL = 10;
/** "The image is too large to download. It should be less than 8 MiB." (error-code reference, 2207004) */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Reels: at most 300 MB (the IG User Media reference's reel specifications). */
const MAX_VIDEO_BYTES = 300 * 1024 * 1024;

/*
 * What Instagram answers when it cannot use a media URL, from its error-code reference
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes):
 * 9004/2207052 the media could not be fetched, -2/2207003 the download timed out,
 * 36000/2207004 the image is too large, 36001/2207005 the image format is not supported
 * (JPEG only), 352/2207026 the video format is not supported (MP4 or MOV).
 */
const MEDIA_ERRORS = {
  unreachable: { code: 9004, subcode: 2207052, message: 'The media could not be fetched from this URI' },
  status: { code: 9004, subcode: 2207052, message: 'The media could not be fetched from this URI' },
  timeout: { code: -2, subcode: 2207003, message: 'It takes too long to download the media.' },
  size: { code: 36000, subcode: 2207004, message: 'The image size is too large.' },
  format: { code: 36001, subcode: 2207005, message: 'The image format is not supported. Only JPEG is accepted.' },
} as const;

/*
 * A caption: "Maximum 2200 characters, 30 hashtags, and 20 @ tags" (IG User Media reference,
 * `caption`). Too long: 36004/2207010; too many @ tags: 100/2207040 (the error-code reference).
 * Instagram documents no error of its own for hashtags: the sandbox answers code 100.
 */
const MAX_CAPTION_CHARACTERS = 2_200;
const MAX_CAPTION_HASHTAGS = 30;
const MAX_CAPTION_TAGS = 20;

function refuseCaption(caption: string): void {
  const characters = [...caption].length;
  if (characters > MAX_CAPTION_CHARACTERS) {
    throw graphAnswer(
      400,
      36004,
      `The submitted image's caption was ${characters} characters long. The maximum number of characters permitted for a caption is ${MAX_CAPTION_CHARACTERS}. Please submit media with a shorter caption.`,
      { subcode: 2207010 },
    );
  }
  if ((caption.match(/@[A-Za-z0-9._]+/g) ?? []).length > MAX_CAPTION_TAGS) {
    throw graphAnswer(400, 100, `Cannot use more than ${MAX_CAPTION_TAGS} tags per created media.`, {
      subcode: 2207040,
    });
  }
  const hashtags = (caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).length;
  if (hashtags > MAX_CAPTION_HASHTAGS) {
    throw graph.badParameter(`A caption has at most ${MAX_CAPTION_HASHTAGS} hashtags; this one has ${hashtags}`);
  }
}

/** An image URL Instagram cannot use: refused when the container is made. */
function imageRefusal(url: string, reason: MediaFailure): SandboxAnswer {
  const error = MEDIA_ERRORS[reason];
  const message = error.subcode === 2207052 ? `${error.message}: ${url}` : error.message;
  return graphAnswer(400, error.code, message, { subcode: error.subcode });
}

/** A video Instagram cannot use fails its container; `status` says why, with the subcode. */
function videoFailure(reason: MediaFailure): string {
  const subcode = reason === 'format' ? 2207026 : MEDIA_ERRORS[reason].subcode;
  return `Error: Media upload has failed with error code ${subcode}`;
}

/** How a published container is kept among the posts. */
function postType(request: Record<string, unknown>): string {
  switch (request.media_type) {
    case 'STORIES':
      return request.image_url !== undefined && request.image_url !== null ? 'STORY_IMAGE' : 'STORY_VIDEO';
    case 'REELS':
      return 'REELS';
    case 'CAROUSEL':
      return 'CAROUSEL';
    default:
      return 'IMAGE';
  }
}

/**
 * A container that was published is used up: Instagram's error-code reference names code 24
 * subcode 2207008 for a creation id that "does not exist or has been expired".
 */
function consumedContainer(creationId: string): SandboxAnswer {
  return graphAnswer(
    400,
    24,
    `The media builder with creation id = ${creationId} does not exist or has been expired.`,
    {
      subcode: 2207008,
    },
  );
}

/**
 * A container request, checked as Instagram does (IG User Media reference): an image
 * (`image_url`, JPEG only), a reel (`REELS`, `video_url`), a story (`STORIES`, either),
 * a carousel item (`is_carousel_item`, an image or a `VIDEO`) or a `CAROUSEL` of 2 to
 * 10 of the account's items. The media is fetched now: an image that cannot be used
 * is refused at once, a video fails its container (ERROR), as Instagram reports them.
 */
async function mediaRequest(store: Store, request: FastifyRequest, who: Caller) {
  const imageUrl = param(request, 'image_url');
  const videoUrl = param(request, 'video_url');
  const isCarouselItem = param(request, 'is_carousel_item') === 'true';
  const mediaType = param(request, 'media_type') ?? (imageUrl !== undefined ? 'IMAGE' : undefined);
  const children = (param(request, 'children') ?? '').split(',').filter((c) => c !== '');
  const caption = param(request, 'caption') ?? '';
  refuseCaption(caption);
  const base = { media_type: mediaType, caption, is_carousel_item: isCarouselItem };
  if (mediaType === 'CAROUSEL') {
    if (children.length < 2 || children.length > MAX_CAROUSEL) {
      throw graph.badParameter(`children must list 2 to ${MAX_CAROUSEL} containers`);
    }
    for (const child of children) {
      const container = await findContainer(store, child);
      if (!container || container.accountId !== who.account.id || container.request.is_carousel_item !== true) {
        throw graph.notFound(child);
      }
      const { status_code } = containerStatus(store, who.settings, container);
      if (status_code !== 'FINISHED') throw unfinishedCarouselItem(child, status_code);
    }
    return { values: { ...base, children: children.join(',') }, failure: null };
  }
  const allowed = isCarouselItem ? ['IMAGE', 'VIDEO'] : ['IMAGE', 'REELS', 'STORIES'];
  if (mediaType === undefined || !allowed.includes(mediaType)) {
    throw graph.badParameter(
      mediaType === 'VIDEO'
        ? 'The VIDEO media type is only for carousel items; a video post is published as REELS'
        : `media_type must be one of ${allowed.join(', ')}${isCarouselItem ? ' for a carousel item' : ''}`,
    );
  }
  const wantsImage = mediaType === 'IMAGE' || (mediaType === 'STORIES' && imageUrl !== undefined);
  const url = wantsImage ? imageUrl : videoUrl;
  if (!isHttpUrl(url)) {
    throw graph.badParameter(`The parameter ${wantsImage ? 'image_url' : 'video_url'} must be a public URL`);
  }
  const values = { ...base, [wantsImage ? 'image_url' : 'video_url']: url, children: null };
  if (wantsImage) {
    const fetched = await fetchMedia(url, ['jpeg'], MAX_IMAGE_BYTES);
    if (!fetched.ok) throw imageRefusal(url, fetched.reason);
    return { values, failure: null };
  }
  const fetched = await fetchMedia(url, ['mp4', 'mov'], MAX_VIDEO_BYTES);
  return { values, failure: fetched.ok ? null : videoFailure(fetched.reason) };
}

/** A container's status as IG Container gives it: its `status_code`, and `status` (why it failed). */
export function containerStatus(store: Store, settings: SettingValues, container: SandboxContainer) {
  const code = container.publishedPostId
    ? 'PUBLISHED'
    : containerExpired(store, container)
      ? 'EXPIRED'
      : container.failure
        ? 'ERROR'
        : stillProcessing(store, settings, container)
          ? 'IN_PROGRESS'
          : 'FINISHED';
  return { status_code: code, status: container.failure ?? code };
}

function publishedToday(store: Store, accountId: string): Promise<number> {
  return countActivity(store, accountId, 'publish', DAY_MS);
}

export function publishingRoutes(app: FastifyInstance, store: Store): void {
  app.post('/:version/:id/media', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.publish);
    const { id } = request.params as { id: string };
    if (id !== who.account.id) throw graph.notFound(id);
    const { values, failure } = await mediaRequest(store, request, who);
    const container = await createContainer(store, who.account.id, values, failure);
    return { id: container.id };
  });

  app.post('/:version/:id/media_publish', async (request) => {
    const who = await caller(store, request, publishCall);
    requireScope(who, call, SCOPE.publish);
    const { id } = request.params as { id: string };
    if (id !== who.account.id) throw graph.notFound(id);
    const creationId = requiredParam(request, graph, 'creation_id');
    const container = await findContainer(store, creationId);
    if (!container || container.accountId !== who.account.id) throw graph.notFound(creationId);
    if (container.publishedPostId !== null || containerExpired(store, container)) throw consumedContainer(creationId);
    if (container.request.is_carousel_item === true) {
      throw graph.badParameter('A carousel item is published through its carousel');
    }
    if (stillProcessing(store, who.settings, container)) throw notReadyToPublish();
    if (container.failure !== null) throw graph.badParameter(`The media cannot be published: ${container.failure}`);
    // The daily cap is enforced here, at media_publish (error-code reference: code 9, subcode 2207042).
    if ((await publishedToday(store, who.account.id)) >= settingIn(who.settings, PUBLISH_QUOTA)) {
      throw publishQuotaReached(
        'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
      );
    }
    const req = container.request;
    const mediaUrls = await containerMediaUrls(store, container);
    const post = await createPost(store, who.account, {
      caption: req.media_type === 'STORIES' ? '' : String(req.caption ?? ''),
      mediaType: postType(req),
      mediaUrl: mediaUrls[0] ?? null,
      viaApi: true,
    });
    if (!(await markContainerPublished(store, container.id, post.id))) throw consumedContainer(creationId);
    await recordPublication(
      store,
      post,
      { text: post.caption, mediaUrls, type: String(req.media_type), options: {} },
      { container_id: container.id, ...req },
    );
    return { id: post.id };
  });

  app.get('/:version/:id/content_publishing_limit', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.publish);
    const { id } = request.params as { id: string };
    if (id !== who.account.id) throw graph.notFound(id);
    const quota = settingIn(who.settings, PUBLISH_QUOTA);
    const usage = await publishedToday(store, who.account.id);
    return { data: [{ quota_usage: usage, config: { quota_total: quota, quota_duration: 86_400 } }] };
  });
}
