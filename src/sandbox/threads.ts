import type { FastifyInstance, FastifyRequest } from 'fastify';
import { THREADS_MAX_TEXT, threadsTextLength } from '../platforms/threads-text.ts';
import { metaLoginDialog, registerAuthorizeDialog } from './authorize-page.ts';
import { type Caller, type CallOptions, caller, requireScope } from './caller.ts';
import { installAnswers, isHttpUrl, jsonInteger, limitParam, param, requiredParam } from './kit.ts';
import { fetchMedia } from './media-fetch.ts';
import { containerMediaUrls, notReadyToPublish, stillProcessing } from './meta/containers.ts';
import { graph, graphAnswer, graphErrors } from './meta/errors.ts';
import { checkVersion, graphTime, pick, requestedFields } from './meta/fields.ts';
import { dayEndTime, daysBetween, insightsRange, lifetimeInsights } from './meta/insights.ts';
import { afterCursor, graphList } from './meta/paging.ts';
import { longLivedTokenRoutes } from './meta/tokens.ts';
import type { Store } from './platform.ts';
import type { SandboxAccount, SandboxComment, SandboxContainer, SandboxPost, SandboxToken } from './schema.ts';
import { findAccount } from './store/accounts.ts';
import { countActivity, recordActivity, recordPublication } from './store/activity.ts';
import {
  addComment,
  commentsUnder,
  findComment,
  listComments,
  listCommentsBy,
  setCommentHidden,
} from './store/comments.ts';
import { createContainer, findContainer, markContainerPublished } from './store/containers.ts';
import { findToken, issueToken, redeemCode } from './store/grants.ts';
import { findInsight, type InsightFigures, insightFigures } from './store/insights.ts';
import { createPost, findPost, listPosts } from './store/posts.ts';
import { getSetting } from './store/settings.ts';
import { isTester } from './store/testers.ts';
import { threadsReplyPermalink } from './threads/ids.ts';
import { notifyCommentAdded } from './webhooks.ts';

const platform = 'threads';
const call: CallOptions = { platform, errors: graphErrors(platform, { revokedSubcode: null }) };
const publishCall: CallOptions = { ...call, publishing: true };
const HOUR = 3_600_000;
const LONG_LIVED_SECONDS = 60 * 86_400;
/** Unpublished containers expire after a day. */
const CONTAINER_TTL_MS = 24 * HOUR;
const MAX_CAROUSEL = 20;
/** Threads has no insights before this moment (2024-04-13 07:00 UTC). */
const INSIGHTS_EPOCH = 1_712_991_600;

const SCOPE = {
  basic: 'threads_basic',
  publish: 'threads_content_publish',
  readReplies: 'threads_read_replies',
  manageReplies: 'threads_manage_replies',
  insights: 'threads_manage_insights',
};

const USER_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count'];
const MEDIA_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
/** The metric names Threads has, per level: the control API refuses figures for any other. */
export const THREADS_INSIGHT_METRICS = { account: USER_METRICS, post: MEDIA_METRICS };
const MEDIA_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];

/** How Threads names a stored post's type in its answers. */
const RENDERED_MEDIA_TYPE: Record<string, string> = { TEXT: 'TEXT_POST', CAROUSEL: 'CAROUSEL_ALBUM' };

function renderReply(comment: SandboxComment, who: Caller, fields: Set<string>) {
  return pick(
    {
      id: comment.id,
      text: comment.text,
      username: comment.authorUsername,
      permalink: threadsReplyPermalink(comment),
      timestamp: graphTime(comment.createdAt),
      media_product_type: 'THREADS',
      media_type: 'TEXT_POST',
      shortcode: comment.id,
      is_reply: true,
      is_reply_owned_by_me: comment.authorId === who.account.id,
      hide_status: comment.hidden ? 'HIDDEN' : 'NOT_HUSHED',
      replied_to: { id: comment.parentId ?? comment.postId },
      root_post: { id: comment.postId },
    },
    fields,
  );
}

function renderPost(post: SandboxPost, owner: SandboxAccount, fields: Set<string>) {
  return pick(
    {
      id: post.id,
      media_product_type: 'THREADS',
      media_type: RENDERED_MEDIA_TYPE[post.mediaType] ?? post.mediaType,
      media_url: post.mediaUrl ?? undefined,
      permalink: post.permalink,
      owner: { id: owner.id },
      username: owner.username,
      text: post.caption,
      timestamp: graphTime(post.createdAt),
      shortcode: post.id,
      is_quote_post: false,
      is_reply: false,
    },
    fields,
  );
}

function renderUser(account: SandboxAccount, fields: Set<string>) {
  return pick(
    {
      id: account.id,
      username: account.username,
      name: account.name,
      threads_profile_picture_url: account.avatarUrl,
      threads_biography: '',
    },
    fields,
  );
}

/** `me` or the caller's own id; any other user is not visible to this token. */
function ownUserId(who: Caller, id: string): void {
  if (id !== 'me' && id !== who.account.id) throw graph.notFound(id);
}

async function ownPost(store: Store, who: Caller, id: string): Promise<SandboxPost> {
  const post = await findPost(store, id);
  if (!post || post.accountId !== who.account.id) throw graph.notFound(id);
  return post;
}

/** A reply in a conversation under one of the caller's posts. */
async function ownReply(store: Store, who: Caller, id: string): Promise<SandboxComment> {
  const comment = await findComment(store, id);
  if (!comment) throw graph.notFound(id);
  await ownPost(store, who, comment.postId);
  return comment;
}

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

async function containerStatus(
  store: Store,
  container: SandboxContainer,
): Promise<{ status: string; error_message?: string }> {
  if (container.publishedPostId !== null) return { status: 'PUBLISHED' };
  if (container.failure !== null) return { status: 'ERROR', error_message: container.failure };
  if (store.now().getTime() - container.createdAt.getTime() >= CONTAINER_TTL_MS) {
    return { status: 'EXPIRED', error_message: 'The container was not published within 24 hours' };
  }
  // Every container is processed first, a text post's too: Threads recommends waiting before
  // publishing any container ("wait on average 30 seconds before publishing",
  // https://developers.facebook.com/docs/threads/posts), so a service that publishes without
  // looking at its status meets IN_PROGRESS here.
  if (await stillProcessing(store, container)) return { status: 'IN_PROGRESS' };
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
  if (threadsTextLength(text) > THREADS_MAX_TEXT) {
    throw graph.badParameter(
      `The text is too long: at most ${THREADS_MAX_TEXT} characters, an emoji counting as its UTF-8 bytes`,
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

export function threadsHosts(store: Store): Record<string, (app: FastifyInstance) => void> {
  return {
    'threads.net': (app) => {
      registerAuthorizeDialog(app, '/oauth/authorize', store, metaLoginDialog(platform, 'Threads'));
    },

    'graph.threads.net': (app) => {
      installAnswers(app, call.errors);

      app.post('/oauth/access_token', async (request) => {
        for (const name of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
          requiredParam(request, graph, name);
        }
        if (param(request, 'grant_type') !== 'authorization_code') {
          throw graph.badParameter('grant_type must be authorization_code');
        }
        const grant = await redeemCode(store, {
          platform,
          code: requiredParam(request, graph, 'code'),
          clientId: requiredParam(request, graph, 'client_id'),
          redirectUri: requiredParam(request, graph, 'redirect_uri'),
        });
        if (!grant) throw graphAnswer(400, 100, 'Matching code was not found or was already used', { subcode: 36009 });
        const token = await issueToken(
          store,
          {
            platform,
            accountId: grant.accountId,
            kind: 'short',
            clientId: grant.clientId,
            scopes: grant.scopes,
            prefix: 'THQV',
          },
          HOUR,
        );
        // Threads sends user_id here as a JSON number (client libraries read it as a u64; some
        // say a string comes too, which the adapter reads as well), beyond 2^53 for today's ids.
        return { access_token: token.token, user_id: jsonInteger(grant.accountId) };
      });

      longLivedTokenRoutes(app, store, call, {
        exchangeGrant: 'th_exchange_token',
        refreshGrant: 'th_refresh_token',
        prefix: 'THAA',
        seconds: LONG_LIVED_SECONDS,
      });

      /*
       * Threads answers debug_token only to a user token of a Threads tester of the same app
       * as the inspected token ("Debug Access Token"); that token must itself be live. The
       * inspected one may be expired or revoked: saying so is what debug_token is for.
       */
      app.get('/:version/debug_token', async (request) => {
        checkVersion(request);
        const tester = await caller(store, request, call);
        const inputToken = requiredParam(request, graph, 'input_token');
        if (!(await isTester(store, platform, tester.token.clientId, tester.account.id))) {
          throw graphAnswer(
            400,
            100,
            '(#100) The access_token must be a user access token of a Threads tester of the app',
          );
        }
        const input = await findToken(store, inputToken);
        if (!input || input.token.platform !== platform) {
          return {
            data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] },
          };
        }
        if (input.token.clientId !== tester.token.clientId) {
          throw graphAnswer(400, 100, '(#100) The input_token and the access_token must belong to the same app');
        }
        const now = store.now();
        const live = (t: SandboxToken) => t.revokedAt === null && (t.expiresAt === null || t.expiresAt > now);
        const token = input.token;
        const error =
          token.revokedAt !== null
            ? { code: 190, message: 'Error validating access token: The user has not authorized application.' }
            : !live(token)
              ? { code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' }
              : undefined;
        return {
          data: {
            app_id: token.clientId,
            type: 'USER',
            application: 'Switchboard sandbox',
            ...(error ? { error } : {}),
            is_valid: error === undefined,
            issued_at: Math.floor(token.issuedAt.getTime() / 1000),
            expires_at: token.expiresAt === null ? 0 : Math.floor(token.expiresAt.getTime() / 1000),
            scopes: token.scopes,
            user_id: token.accountId,
          },
        };
      });

      app.get('/:version/me', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        return renderUser(who.account, requestedFields(request, ['id']));
      });

      app.get('/:version/:id/threads', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        ownUserId(who, (request.params as { id: string }).id);
        const limit = limitParam(request, graph, 25, 100);
        const { posts, more } = await listPosts(store, who.account.id, { limit, after: afterCursor(request) });
        const fields = requestedFields(request, ['id']);
        return graphList(
          request,
          posts.map((p) => renderPost(p, who.account, fields)),
          more,
          posts.at(-1)?.id ?? null,
        );
      });

      app.post('/:version/:id/threads', async (request) => {
        checkVersion(request);
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
        checkVersion(request);
        const who = await caller(store, request, publishCall);
        requireScope(who, call, SCOPE.basic);
        requireScope(who, call, SCOPE.publish);
        ownUserId(who, (request.params as { id: string }).id);
        const creationId = requiredParam(request, graph, 'creation_id');
        const container = await findContainer(store, creationId);
        if (!container || container.accountId !== who.account.id) throw graph.notFound(creationId);
        const { status, error_message } = await containerStatus(store, container);
        if (status === 'PUBLISHED') throw graphAnswer(400, 100, 'The media has already been published');
        if (status === 'IN_PROGRESS') throw notReadyToPublish();
        if (status !== 'FINISHED') throw graph.badParameter(`The container cannot be published: ${error_message}`);
        if (container.request.is_carousel_item === true) {
          throw graph.badParameter('A carousel item is published through its carousel');
        }
        const replyToId = container.request.reply_to_id;
        const isReply = typeof replyToId === 'string';
        // The limits are enforced here, at threads_publish (Threads API overview, "Posts").
        // Threads documents no error of its own for them: the sandbox answers Instagram's.
        const { used, limit } = (await quotas(who.account.id))[isReply ? 'replies' : 'posts'];
        if (used >= limit) {
          throw graphAnswer(
            400,
            9,
            `You reached maximum number of ${isReply ? 'replies' : 'posts'} that is allowed to be published by the Threads API.`,
            { subcode: 2207042 },
          );
        }
        return isReply ? publishReply(who, container, replyToId) : publishPost(who, container);
      });

      async function quotas(accountId: string) {
        return {
          posts: {
            used: await countActivity(store, accountId, 'publish', 24 * HOUR),
            limit: await getSetting(store, 'threads_publish_quota'),
          },
          replies: { used: await countActivity(store, accountId, 'reply', 24 * HOUR), limit: REPLY_QUOTA },
        };
      }

      app.get('/:version/:id/threads_publishing_limit', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        requireScope(who, call, SCOPE.publish);
        ownUserId(who, (request.params as { id: string }).id);
        const { posts, replies } = await quotas(who.account.id);
        const all = {
          quota_usage: posts.used,
          config: { quota_total: posts.limit, quota_duration: 86_400 },
          reply_quota_usage: replies.used,
          reply_config: { quota_total: replies.limit, quota_duration: 86_400 },
        };
        const fields = requestedFields(request, ['quota_usage', 'config']);
        return { data: [Object.fromEntries(Object.entries(all).filter(([name]) => fields.has(name)))] };
      });

      async function publishPost(who: Caller, container: SandboxContainer) {
        const req = container.request;
        const mediaUrls = await containerMediaUrls(store, container);
        const post = await createPost(store, who.account, {
          caption: String(req.text ?? ''),
          mediaType: String(req.media_type),
          mediaUrl: mediaUrls[0] ?? null,
          viaApi: true,
        });
        if (!(await markContainerPublished(store, container.id, post.id))) {
          throw graphAnswer(400, 100, 'The media has already been published');
        }
        const options = Object.fromEntries(
          (['reply_control', 'topic_tag'] as const)
            .filter((name) => req[name] !== null)
            .map((name) => [name, req[name]]),
        );
        await recordPublication(
          store,
          post,
          { text: post.caption, mediaUrls, type: String(req.media_type), options },
          { container_id: container.id, ...req },
        );
        return { id: post.id };
      }

      async function publishReply(who: Caller, container: SandboxContainer, replyToId: string) {
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
          throw graphAnswer(400, 100, 'The media has already been published');
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

      for (const edge of ['replies', 'conversation'] as const) {
        app.get(`/:version/:id/${edge}`, async (request) => {
          checkVersion(request);
          const who = await caller(store, request, call);
          requireScope(who, call, SCOPE.basic);
          requireScope(who, call, SCOPE.readReplies);
          const { id } = request.params as { id: string };
          const limit = limitParam(request, graph, 25, 100);
          const offset = Number(afterCursor(request) ?? 0) || 0;
          // The user's own replies (GET /{threads-user-id}/replies), or the replies under a post or reply.
          const ownReplies = edge === 'replies' && (id === 'me' || id === who.account.id);
          const replies = ownReplies
            ? await listCommentsBy(store, who.account.id)
            : await repliesUnder(who, id, edge === 'conversation');
          const page = replies.slice(offset, offset + limit);
          const fields = requestedFields(request, ['id']);
          return graphList(
            request,
            page.map((r) => renderReply(r, who, fields)),
            offset + limit < replies.length,
            String(offset + page.length),
          );
        });
      }

      /** The ids of the replies nested under `reply`, at every depth. */
      async function nestedUnder(reply: SandboxComment): Promise<string[]> {
        const { comments } = await listComments(store, reply.postId, { limit: 10_000 });
        return commentsUnder(comments, reply.id).map((c) => c.id);
      }

      /** The replies under a post or a reply, newest first: direct ones, or (`all`) every depth. */
      async function repliesUnder(who: Caller, id: string, all: boolean): Promise<SandboxComment[]> {
        const post = await findPost(store, id);
        const postId = post ? (await ownPost(store, who, id)).id : (await ownReply(store, who, id)).postId;
        const { comments } = await listComments(store, postId, { limit: 10_000 });
        const parentOf = (c: SandboxComment) => c.parentId ?? c.postId;
        if (!all) return comments.filter((c) => parentOf(c) === id);
        if (post) return comments;
        return commentsUnder(comments, id);
      }

      app.post('/:version/:id/manage_reply', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.manageReplies);
        const reply = await ownReply(store, who, (request.params as { id: string }).id);
        const hide = param(request, 'hide');
        if (hide !== 'true' && hide !== 'false') throw graph.badParameter('hide must be true or false');
        // Threads' reply management: top-level replies only, and the nested ones follow.
        if (reply.parentId !== null) {
          throw graphAnswer(
            400,
            100,
            '(#100) Only top-level replies can be hidden or unhidden; replies nested deeper follow their top-level reply',
          );
        }
        for (const id of [reply.id, ...(await nestedUnder(reply))]) await setCommentHidden(store, id, hide === 'true');
        await recordActivity(store, {
          accountId: who.account.id,
          action: hide === 'true' ? 'hide' : 'unhide',
          targetId: reply.id,
          detail: {},
        });
        return { success: true };
      });

      app.get('/:version/:id/insights', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.insights);
        const post = await ownPost(store, who, (request.params as { id: string }).id);
        const metrics = metricList(request, MEDIA_METRICS);
        return lifetimeInsights(store, who.account.id, post.id, metrics);
      });

      app.get('/:version/:id/threads_insights', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.insights);
        ownUserId(who, (request.params as { id: string }).id);
        const metrics = metricList(request, USER_METRICS);
        const nowSeconds = Math.floor(store.now().getTime() / 1000);
        const { since, until } = insightsRange(request, nowSeconds);
        // "The earliest Unix timestamp that can be used is 1712991600, any timestamp before that
        // will be rejected", for since and until alike (https://developers.facebook.com/docs/threads/insights).
        // Threads documents no longest range and no refusal of an until still to come: none here.
        for (const [name, value] of [
          ['since', since],
          ['until', until],
        ] as const) {
          if (value < INSIGHTS_EPOCH) {
            throw graph.badParameter(`${name} must be a Unix time on or after ${INSIGHTS_EPOCH}`);
          }
        }
        if (until <= since) throw graph.badParameter('since must be before until');
        // Days still to come have no data: the days looked at end with today, however far until is.
        const endOfToday = (Math.floor(nowSeconds / 86_400) + 1) * 86_400;
        const days = daysBetween(since, Math.min(until, endOfToday));
        const daily = metrics.filter((m) => m !== 'followers_count');
        const figures = await insightFigures(store, { accountId: who.account.id, postId: '', metrics: daily, days });
        const data = [];
        for (const metric of metrics) {
          const entry = await userMetric(who, metric, days, figures);
          if (entry !== null) data.push(entry);
        }
        return { data, paging: { previous: '', next: '' } };
      });

      /** One metric of threads_insights in its documented shape, or null when there is no data. */
      async function userMetric(who: Caller, metric: string, days: string[], figures: InsightFigures) {
        const head = { name: metric, period: 'day', title: metric, description: '' };
        const id = `${who.account.id}/insights/${metric}/day`;
        if (metric === 'followers_count') {
          const today = store.now().toISOString().slice(0, 10);
          const set = await findInsight(store, { accountId: who.account.id, postId: '', metric, day: today });
          const value = set === undefined ? who.account.followersCount : set.value;
          return value === null ? null : { ...head, total_value: { value }, id };
        }
        const daily: { day: string; value: number }[] = [];
        for (const day of days) {
          const value = figures.get(metric)?.get(day) ?? null;
          if (value !== null) daily.push({ day, value });
        }
        if (daily.length === 0) return null;
        if (metric === 'views') {
          const values = daily.map(({ day, value }) => ({ value, end_time: dayEndTime(day) }));
          return { ...head, values, id };
        }
        const total = daily.reduce((sum, d) => sum + d.value, 0);
        if (metric === 'clicks') {
          const link_url = `https://www.threads.net/@${encodeURIComponent(who.account.username)}`;
          return { ...head, link_total_values: [{ value: total, link_url }], id };
        }
        return { ...head, total_value: { value: total }, id };
      }

      function metricList(request: FastifyRequest, known: string[]): string[] {
        const metrics = requiredParam(request, graph, 'metric')
          .split(',')
          .map((m) => m.trim());
        const unknown = metrics.findIndex((m) => !known.includes(m));
        if (unknown !== -1) {
          throw graph.badParameter(`metric[${unknown}] must be one of the following values: ${known.join(', ')}`);
        }
        return metrics;
      }

      // Containers, posts, replies and the user itself, by id.
      app.get('/:version/:id', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        const { id } = request.params as { id: string };
        const fields = requestedFields(request, ['id']);
        if (id === 'me' || id === who.account.id) return renderUser(who.account, fields);
        const container = await findContainer(store, id);
        if (container && container.accountId === who.account.id) {
          return pick({ id, ...(await containerStatus(store, container)) }, fields);
        }
        const post = await findPost(store, id);
        if (post && post.accountId === who.account.id) return renderPost(post, who.account, fields);
        // The caller's own replies are visible wherever they are; others' only under its posts.
        const comment = await findComment(store, id);
        if (comment && comment.authorId === who.account.id) return renderReply(comment, who, fields);
        return renderReply(await ownReply(store, who, id), who, fields);
      });
    },
  };
}
