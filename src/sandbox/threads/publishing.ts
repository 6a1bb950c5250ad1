/**
 * Publishing on Threads, as its posts docs describe it: a container (text, an image, a video,
 * a carousel of them, or a reply), then threads_publish within the daily quotas, which
 * threads_publishing_limit reads.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DAY_MS } from '../../days.ts';
import { type Caller, caller, requireScope } from '../caller.ts';
import { isHttpUrl, param, requiredParam } from '../kit.ts';
import { fetchMedia } from '../media-fetch.ts';
import {
  containerExpired,
  containerMediaUrls,
  notReadyToPublish,
  publishQuotaReached,
  stillProcessing,
  unfinishedCarouselItem,
} from '../meta/containers.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { requestedFields } from '../meta/fields.ts';
import type { Store } from '../platform.ts';
import type { SandboxContainer } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { countActivity, recordActivity, recordPublication } from '../store/activity.ts';
import { addComment, findComment } from '../store/comments.ts';
import { createContainer, findContainer, markContainerPublished } from '../store/containers.ts';
import { createPost, findPost } from '../store/posts.ts';
import { wholeNumber } from '../store/setting-kinds.ts';
import { type SettingValues, settingIn } from '../store/settings.ts';
import { notifyCommentAdded } from '../webhooks.ts';
import { call, ownUserId, platform, publishCall, SCOPE } from './access.ts';
import { TEXT_LIMIT, textLength } from './text.ts';

/** 250 posts in a moving 24 hours (Threads API overview, "Posts"); replies have their own 1,000. */
export const PUBLISH_QUOTA = wholeNumber('threads_publish_quota', 250, 10_000);
const MAX_CAROUSEL = 20;

const MEDIA_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];

/** What a reply container answers: any Threads post, or a reply under one. */
async function replyTarget(store: Store, id: string): Promise<{ postId: string; parentId: string | null } | null> {
  const post = await findPost(store, id);
  if (post) {
    const owner = await findAccount(store, post.accountId);
    return owner?.platform === platform && post.replyToId === null ? { postId: post.id, parentId: null } : null;
  }
  const comment = await findComment(store, id);
  if (!comment) return null;
  return (await replyTarget(store, comment.postId)) ? { postId: comment.postId, parentId: comment.id } : null;
}

/** A container's `status` as Threads gives it, with its `error_message` when it failed or expired. */
export function containerStatus(
  store: Store,
  settings: SettingValues,
  container: SandboxContainer,
): { status: string; error_message?: string } {
  if (container.publishedPostId !== null) return { status: 'PUBLISHED' };
  if (container.failure !== null) return { status: 'ERROR', error_message: container.failure };
  if (containerExpired(store, container)) {
    return { status: 'EXPIRED', error_message: 'The container was not published within 24 hours' };
  }
  // Every container is processed first, a text post's too: Threads recommends waiting before
  // publishing any container ("wait on average 30 seconds before publishing",
  // https://developers.facebook.com/docs/threads/posts), so a service that publishes without
  // looking at its status meets IN_PROGRESS here.
  if (stillProcessing(store, settings, container)) return { status: 'IN_PROGRESS' };
  return { status: 'FINISHED' };
}

const REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
];
const MAX_TOPIC_TAG = 50;
/** Threads' media specifications: images JPEG or PNG up to 8 MB, videos MOV or MP4 up to 1 GB. */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const MAX_VIDEO_BYTES = 1024 * 1024 * 1024;
/** Replies an account may publish in a moving 24 hours (Threads' reply management docs). */
const REPLY_QUOTA = 1_000;

/**
 * Why a container's media failed, in the `error_message` values Threads documents
 * (https://developers.facebook.com/docs/threads/troubleshooting): those name videos only,
 * so an image that cannot be used fails as UNKNOWN.
 */
async function mediaFailure(imageUrl: string | undefined, videoUrl: string | undefined): Promise<string | null> {
  if (imageUrl !== undefined) {
    return (await fetchMedia(imageUrl, ['jpeg', 'png'], MAX_IMAGE_BYTES)).ok ? null : 'UNKNOWN';
  }
  if (videoUrl === undefined) return null;
  const fetched = await fetchMedia(videoUrl, ['mp4', 'mov'], MAX_VIDEO_BYTES);
  if (fetched.ok) return null;
  return fetched.reason === 'format' ? 'FAILED_PROCESSING_VIDEO' : 'FAILED_DOWNLOADING_VIDEO';
}

/**
 * Validates a container request the way Threads does (https://developers.facebook.com/docs/threads/posts)
 * and fetches its media; answers what to store and, when the media cannot be used, why the container fails.
 */
async function containerRequest(
  store: Store,
  request: FastifyRequest,
  who: Caller,
): Promise<{ values: Record<string, unknown>; failure: string | null }> {
  const mediaType = requiredParam(request, graph, 'media_type');
  if (!MEDIA_TYPES.includes(mediaType)) {
    throw graph.badParameter(`media_type must be one of ${MEDIA_TYPES.join(', ')}`);
  }
  const text = param(request, 'text') ?? '';
  if (textLength(text) > TEXT_LIMIT) {
    throw graph.badParameter(
      `The text is too long: at most ${TEXT_LIMIT} characters, an emoji counting as its UTF-8 bytes`,
    );
  }
  const imageUrl = param(request, 'image_url');
  const videoUrl = param(request, 'video_url');
  const children = (param(request, 'children') ?? '').split(',').filter((c) => c !== '');
  const isCarouselItem = param(request, 'is_carousel_item') === 'true';
  const replyToId = param(request, 'reply_to_id');
  const replyControl = param(request, 'reply_control');
  const topicTag = param(request, 'topic_tag');
  if (mediaType === 'TEXT' && text.trim() === '') throw graph.badParameter('The parameter text is required');
  if (mediaType === 'IMAGE' && !isHttpUrl(imageUrl)) throw graph.badParameter('image_url must be a public URL');
  if (mediaType === 'VIDEO' && !isHttpUrl(videoUrl)) throw graph.badParameter('video_url must be a public URL');
  if (mediaType === 'CAROUSEL') {
    if (children.length < 2 || children.length > MAX_CAROUSEL) {
      throw graph.badParameter(`children must list 2 to ${MAX_CAROUSEL} containers`);
    }
    for (const child of children) {
      const container = await findContainer(store, child);
      if (!container || container.accountId !== who.account.id || container.request.is_carousel_item !== true) {
        throw graph.notFound(child);
      }
      const { status } = containerStatus(store, who.settings, container);
      if (status !== 'FINISHED') throw unfinishedCarouselItem(child, status);
    }
  }
  if (isCarouselItem && mediaType !== 'IMAGE' && mediaType !== 'VIDEO') {
    throw graph.badParameter('A carousel item must be an IMAGE or a VIDEO');
  }
  if (replyControl !== undefined && !REPLY_CONTROLS.includes(replyControl)) {
    throw graph.badParameter(`reply_control must be one of ${REPLY_CONTROLS.join(', ')}`);
  }
  if (
    topicTag !== undefined &&
    (topicTag.length < 1 || [...topicTag].length > MAX_TOPIC_TAG || /[.&]/.test(topicTag))
  ) {
    throw graph.badParameter(
      `topic_tag must have 1 to ${MAX_TOPIC_TAG} characters, without periods (.) or ampersands (&)`,
    );
  }
  if (replyToId !== undefined && (await replyTarget(store, replyToId)) === null) throw graph.notFound(replyToId);
  const values = {
    media_type: mediaType,
    text,
    image_url: mediaType === 'IMAGE' ? imageUrl : undefined,
    video_url: mediaType === 'VIDEO' ? videoUrl : undefined,
    children: mediaType === 'CAROUSEL' ? children.join(',') : null,
    is_carousel_item: isCarouselItem,
    reply_to_id: replyToId ?? null,
    reply_control: replyControl ?? null,
    topic_tag: topicTag ?? null,
  };
  return { values, failure: await mediaFailure(values.image_url, values.video_url) };
}

function alreadyPublished() {
  return graphAnswer(400, 100, 'The media has already been published');
}

async function quotas(store: Store, who: Caller) {
  return {
    posts: {
      used: await countActivity(store, who.account.id, 'publish', DAY_MS),
      limit: settingIn(who.settings, PUBLISH_QUOTA),
    },
    replies: { used: await countActivity(store, who.account.id, 'reply', DAY_MS), limit: REPLY_QUOTA },
  };
}

async function publishPost(store: Store, who: Caller, container: SandboxContainer) {
  const req = container.request;
  const mediaUrls = await containerMediaUrls(store, container);
  const post = await createPost(store, who.account, {
    caption: String(req.text ?? ''),
    mediaType: String(req.media_type),
    mediaUrl: mediaUrls[0] ?? null,
    viaApi: true,
  });
  if (!(await markContainerPublished(store, container.id, post.id))) {
    throw alreadyPublished();
  }
  const options = Object.fromEntries(
    (['reply_control', 'topic_tag'] as const).filter((name) => req[name] !== null).map((name) => [name, req[name]]),
  );
  await recordPublication(
    store,
    post,
    { text: post.caption, mediaUrls, type: String(req.media_type), options },
    { container_id: container.id, ...req },
  );
  return { id: post.id };
}

async function publishReply(store: Store, who: Caller, container: SandboxContainer, replyToId: string) {
  const target = await replyTarget(store, replyToId);
  if (target === null) throw graph.notFound(replyToId);
  const message = String(container.request.text ?? '');
  const reply = await addComment(store, {
    ...target,
    authorId: who.account.id,
    authorUsername: who.account.username,
    text: message,
  });
  if (!(await markContainerPublished(store, container.id, reply.id))) {
    throw alreadyPublished();
  }
  await recordActivity(store, {
    accountId: who.account.id,
    action: 'reply',
    targetId: replyToId,
    detail: { reply_id: reply.id, message },
  });
  await notifyCommentAdded(store, reply);
  return { id: reply.id };
}

export function publishingRoutes(app: FastifyInstance, store: Store): void {
  app.post('/:version/:id/threads', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    requireScope(who, call, SCOPE.publish);
    // Meta's pages disagree on whether a reply needs threads_manage_replies beside the publish
    // permission (docs/platforms.md, "Open questions"); the sandbox takes the stricter one.
    if (param(request, 'reply_to_id') !== undefined) requireScope(who, call, SCOPE.manageReplies);
    ownUserId(who, (request.params as { id: string }).id);
    const { values, failure } = await containerRequest(store, request, who);
    const container = await createContainer(store, who.account.id, values, failure);
    return { id: container.id };
  });

  app.post('/:version/:id/threads_publish', async (request) => {
    const who = await caller(store, request, publishCall);
    requireScope(who, call, SCOPE.basic);
    requireScope(who, call, SCOPE.publish);
    ownUserId(who, (request.params as { id: string }).id);
    const creationId = requiredParam(request, graph, 'creation_id');
    const container = await findContainer(store, creationId);
    if (!container || container.accountId !== who.account.id) throw graph.notFound(creationId);
    const { status, error_message } = containerStatus(store, who.settings, container);
    if (status === 'PUBLISHED') throw alreadyPublished();
    if (status === 'IN_PROGRESS') throw notReadyToPublish();
    if (status !== 'FINISHED') throw graph.badParameter(`The container cannot be published: ${error_message}`);
    if (container.request.is_carousel_item === true) {
      throw graph.badParameter('A carousel item is published through its carousel');
    }
    const replyToId = container.request.reply_to_id;
    const isReply = typeof replyToId === 'string';
    // The limits are enforced here, at threads_publish (Threads API overview, "Posts").
    // Threads documents no error of its own for them: the sandbox answers Instagram's.
    const { used, limit } = (await quotas(store, who))[isReply ? 'replies' : 'posts'];
    if (used >= limit) {
      throw publishQuotaReached(
        `You reached maximum number of ${isReply ? 'replies' : 'posts'} that is allowed to be published by the Threads API.`,
      );
    }
    return isReply ? publishReply(store, who, container, replyToId) : publishPost(store, who, container);
  });

  app.get('/:version/:id/threads_publishing_limit', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    requireScope(who, call, SCOPE.publish);
    ownUserId(who, (request.params as { id: string }).id);
    const { posts, replies } = await quotas(store, who);
    const all = {
      quota_usage: posts.used,
      config: { quota_total: posts.limit, quota_duration: 86_400 },
      reply_quota_usage: replies.used,
      reply_config: { quota_total: replies.limit, quota_duration: 86_400 },
    };
    const fields = requestedFields(request, ['quota_usage', 'config']);
    return { data: [Object.fromEntries(Object.entries(all).filter(([name]) => fields.has(name)))] };
  });
}
