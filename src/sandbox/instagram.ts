/**
 * Instagram API with Instagram Login, imitated: www.instagram.com (the permission page),
 * api.instagram.com (code exchange) and graph.instagram.com (tokens, profile, media,
 * comments, insights, publishing). Shapes as in docs/platforms.md ("Instagram").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SandboxAnswer } from './answers.ts';
import { metaLoginDialog, registerAuthorizeDialog } from './authorize-page.ts';
import { type Caller, type CallOptions, caller, requireScope } from './caller.ts';
import { instagramAppScopedId, instagramScopedId } from './instagram/ids.ts';
import { installAnswers, isHttpUrl, jsonInteger, limitParam, param, requiredParam } from './kit.ts';
import { fetchMedia, type MediaFailure } from './media-fetch.ts';
import { containerMediaUrls, notReadyToPublish, stillProcessing } from './meta/containers.ts';
import { graph, graphAnswer, graphErrors } from './meta/errors.ts';
import { checkVersion, graphTime, pick, requestedFields } from './meta/fields.ts';
import { dayEndTime, dayOf, daysBetween, insightsRange, lifetimeInsights, rangePaging } from './meta/insights.ts';
import { afterCursor, graphList } from './meta/paging.ts';
import { subscribedFields } from './meta/subscribed-apps.ts';
import { longLivedTokenAnswer } from './meta/tokens.ts';
import { reportBusinessUseCaseUsage } from './meta/usage.ts';
import type { Store } from './platform.ts';
import type { SandboxComment, SandboxContainer, SandboxPost } from './schema.ts';
import { countActivity, recordActivity, recordPublication } from './store/activity.ts';
import { setAppSubscription } from './store/app-subscriptions.ts';
import { addComment, findComment, listComments, setCommentHidden } from './store/comments.ts';
import { createContainer, findContainer, markContainerPublished } from './store/containers.ts';
import { issueToken, redeemCode } from './store/grants.ts';
import { insightFigures } from './store/insights.ts';
import { createPost, findPost, listPosts } from './store/posts.ts';
import { getSetting } from './store/settings.ts';
import { notifyCommentAdded } from './webhooks.ts';

const platform = 'instagram';
const call: CallOptions = { platform, errors: graphErrors(platform, { revokedSubcode: 458 }) };
const publishCall: CallOptions = { ...call, publishing: true };
const HOUR = 3_600_000;
const LONG_LIVED_SECONDS = 5_183_944;

const SCOPE = {
  basic: 'instagram_business_basic',
  publish: 'instagram_business_content_publish',
  comments: 'instagram_business_manage_comments',
  insights: 'instagram_business_manage_insights',
};

/*
 * Account insights, as the Instagram Account Insights reference describes them
 * (https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights):
 * `metric_type=total_value` answers one total per metric over since..until; without it (or with
 * `time_series`) only the metrics that have a daily series may be asked, answered day by day.
 * `follower_count` is the number of new followers a day (the user field `followers_count` is the
 * count itself).
 */
const ACCOUNT_METRICS = [
  'views',
  'reach',
  'accounts_engaged',
  'total_interactions',
  'likes',
  'comments',
  'saves',
  'shares',
  'replies',
  'reposts',
  'profile_links_taps',
  'follows_and_unfollows',
  'follower_count',
];
const TIME_SERIES_METRICS = ['reach', 'follower_count'];
const METRIC_TYPES = ['time_series', 'total_value'];
/**
 * follower_count: "not available on Instagram business or creator accounts with fewer than 100
 * followers", and it "returns a maximum of 30 days of data" (the reference's limitations; the
 * sandbox reads the latter as: no data for days more than 30 days back).
 */
const FOLLOWER_COUNT_MIN_FOLLOWERS = 100;
const FOLLOWER_COUNT_DAYS = 30;
/*
 * Media metrics by media product type, as the IG Media Insights reference's table lists them
 * (https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights;
 * a carousel album is a FEED post). Asking one a product type does not have fails the whole
 * request with code 100 naming it, as Instagram answers: "(#100) The Media Insights API does not
 * support the likes, comments metric for this media product type."
 */
const MEDIA_METRICS_BY_PRODUCT: Record<string, readonly string[]> = {
  FEED: [
    'comments',
    'follows',
    'likes',
    'profile_activity',
    'profile_visits',
    'reach',
    'reposts',
    'saved',
    'shares',
    'total_interactions',
    'views',
  ],
  REELS: [
    'comments',
    'ig_reels_avg_watch_time',
    'ig_reels_video_view_total_time',
    'likes',
    'reach',
    'reels_skip_rate',
    'reposts',
    'saved',
    'shares',
    'total_interactions',
    'views',
  ],
  STORY: [
    'follows',
    'link_clicks',
    'navigation',
    'profile_activity',
    'profile_visits',
    'reach',
    'replies',
    'reposts',
    'shares',
    'total_interactions',
    'views',
  ],
};
const MEDIA_METRICS = [...new Set(Object.values(MEDIA_METRICS_BY_PRODUCT).flat())].sort();
/** The metric names Instagram has, per level: the control API refuses figures for any other. */
export const INSTAGRAM_INSIGHT_METRICS = { account: ACCOUNT_METRICS, post: MEDIA_METRICS };
/**
 * "Story media metrics with values less than 5 return an error code 10 with the message (#10)
 * Not enough viewers for the media to show insights" (the same reference's limitations).
 */
const STORY_MIN_FIGURE = 5;
const MAX_INSIGHT_SECONDS = 30 * 86_400;
const MAX_CAROUSEL = 10;
/** "The image is too large to download. It should be less than 8 MiB." (error-code reference, 2207004) */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** Reels: at most 300 MB (the IG User Media reference's reel specifications). */
const MAX_VIDEO_BYTES = 300 * 1024 * 1024;
/** How a published story is kept among the posts: as IMAGE or VIDEO with the STORY product type. */
const STORY_TYPES = ['STORY_IMAGE', 'STORY_VIDEO'];

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

/** Instagram Login's webhook fields, each with the permission it needs (Instagram webhooks page). */
const WEBHOOK_FIELDS: Record<string, string> = {
  comments: SCOPE.comments,
  live_comments: SCOPE.comments,
  mentions: SCOPE.comments,
  messages: 'instagram_business_manage_messages',
  message_edit: 'instagram_business_manage_messages',
  message_reactions: 'instagram_business_manage_messages',
  messaging_handover: 'instagram_business_manage_messages',
  messaging_optins: 'instagram_business_manage_messages',
  messaging_postbacks: 'instagram_business_manage_messages',
  messaging_referral: 'instagram_business_manage_messages',
  messaging_seen: 'instagram_business_manage_messages',
  standby: 'instagram_business_manage_messages',
};

/** "Containers expire after 24 hours" (IG User Media reference, General Limitations). */
const CONTAINER_LIFETIME_MS = 24 * HOUR;

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

/** Instagram's media_type and media_product_type of a kept post. */
const RENDERED_TYPES: Record<string, { type: string; product: string }> = {
  TEXT: { type: 'IMAGE', product: 'FEED' },
  IMAGE: { type: 'IMAGE', product: 'FEED' },
  VIDEO: { type: 'VIDEO', product: 'REELS' },
  REELS: { type: 'VIDEO', product: 'REELS' },
  CAROUSEL: { type: 'CAROUSEL_ALBUM', product: 'FEED' },
  STORY_IMAGE: { type: 'IMAGE', product: 'STORY' },
  STORY_VIDEO: { type: 'VIDEO', product: 'STORY' },
};

/** The figure of a lifetime insights entry (`values:[{value}]`). */
function lifetimeValue(entry: Record<string, unknown>): number {
  const [first] = entry.values as { value: number }[];
  return first?.value ?? 0;
}

/** The flat OAuth error Instagram's token endpoint answers with. */
function oauthError(message: string): SandboxAnswer {
  return new SandboxAnswer(400, { error_type: 'OAuthException', code: 400, error_message: message });
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
 * A comment as the IG Comment reference gives it: `from.id` is the author's Instagram-scoped
 * id (IGSID), the account's own too; `user` ("ID of IG User who created the IG Comment. Only
 * returned if the app user created the IG Comment") is how the account's own comments are told.
 */
function renderComment(
  comment: SandboxComment,
  accountId: string,
  replies: SandboxComment[] | undefined,
  fields: Set<string>,
) {
  const own = comment.authorId === accountId;
  const values: Record<string, unknown> = {
    id: comment.id,
    text: comment.text,
    timestamp: graphTime(comment.createdAt),
    username: comment.authorUsername,
    from: { id: own ? instagramScopedId(accountId) : comment.authorId, username: comment.authorUsername },
    user: own ? { id: accountId } : undefined,
    hidden: comment.hidden,
    like_count: 0,
    parent_id: comment.parentId ?? undefined,
  };
  if (replies !== undefined) {
    values.replies = { data: replies.map((r) => renderComment(r, accountId, undefined, fields)) };
  }
  return pick(values, fields);
}

function renderPost(post: SandboxPost, commentsCount: number, fields: Set<string>) {
  return pick(
    {
      id: post.id,
      caption: post.caption,
      media_type: RENDERED_TYPES[post.mediaType]?.type ?? post.mediaType,
      media_product_type: RENDERED_TYPES[post.mediaType]?.product ?? 'FEED',
      media_url: post.mediaUrl ?? undefined,
      permalink: post.permalink,
      timestamp: graphTime(post.createdAt),
      like_count: 0,
      comments_count: commentsCount,
    },
    fields,
  );
}

/** The post, when it belongs to the caller; else Graph's "does not exist" error. */
async function ownPost(store: Store, who: Caller, id: string): Promise<SandboxPost> {
  const post = await findPost(store, id);
  if (!post || post.accountId !== who.account.id) throw graph.notFound(id);
  return post;
}

async function ownComment(store: Store, who: Caller, id: string): Promise<SandboxComment> {
  const comment = await findComment(store, id);
  if (!comment) throw graph.notFound(id);
  await ownPost(store, who, comment.postId);
  return comment;
}

export function instagramHosts(store: Store): Record<string, (app: FastifyInstance) => void> {
  return {
    'www.instagram.com': (app) => {
      registerAuthorizeDialog(app, '/oauth/authorize', store, metaLoginDialog(platform, 'Instagram'));
    },

    'api.instagram.com': (app) => {
      installAnswers(app, call.errors);
      app.post('/oauth/access_token', async (request) => {
        const form = (request.body ?? {}) as Record<string, unknown>;
        for (const name of ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code']) {
          if (typeof form[name] !== 'string' || form[name] === '') throw oauthError(`Missing required field ${name}`);
        }
        if (form.grant_type !== 'authorization_code') throw oauthError('Invalid grant_type');
        const grant = await redeemCode(store, {
          platform,
          code: String(form.code),
          clientId: String(form.client_id),
          redirectUri: String(form.redirect_uri),
        });
        if (!grant) throw oauthError('Matching code was not found or was already used');
        const token = await issueToken(
          store,
          {
            platform,
            accountId: grant.accountId,
            kind: 'short',
            clientId: grant.clientId,
            scopes: grant.scopes,
            prefix: 'IGQV',
          },
          HOUR,
        );
        // "their Instagram App-scoped User ID" (Business Login for Instagram, step 2): not the
        // professional account id of `/me`'s user_id, webhooks and paths. Some answers give it
        // as a JSON integer, beyond 2^53.
        const answer = {
          access_token: token.token,
          user_id: jsonInteger(instagramAppScopedId(grant.accountId)),
          permissions: grant.scopes.join(','),
        };
        return (await getSetting(store, 'instagram_token_shape')) === 'flat' ? answer : { data: [answer] };
      });
    },

    'graph.instagram.com': (app) => {
      // Instagram's calls count against the Business Use Case limits, so its answers say so.
      reportBusinessUseCaseUsage(app, store, 'instagram');
      installAnswers(app, call.errors);

      app.get('/access_token', async (request) => {
        if (param(request, 'grant_type') !== 'ig_exchange_token')
          throw graph.badParameter('grant_type must be ig_exchange_token');
        requiredParam(request, graph, 'client_secret');
        const who = await caller(store, request, call);
        if (who.token.kind !== 'short') throw graph.badParameter('access_token must be a short-lived token');
        return longLivedTokenAnswer(store, who.token, 'IGAA', LONG_LIVED_SECONDS);
      });

      app.get('/refresh_access_token', async (request) => {
        if (param(request, 'grant_type') !== 'ig_refresh_token')
          throw graph.badParameter('grant_type must be ig_refresh_token');
        const who = await caller(store, request, call);
        if (who.token.kind !== 'long') throw graph.badParameter('access_token must be a long-lived token');
        if (store.now().getTime() - who.token.issuedAt.getTime() < 24 * HOUR) {
          throw graph.badParameter('The access token can be refreshed only after it is 24 hours old');
        }
        return longLivedTokenAnswer(store, who.token, 'IGAA', LONG_LIVED_SECONDS);
      });

      app.get('/:version/me', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        const a = who.account;
        // "id: The app user's app-scoped ID"; "user_id: The Instagram professional acount ID,
        // <IG_ID> ... This ID is value of the id field received in webhook notifications" (Get Started).
        return pick(
          {
            id: instagramAppScopedId(a.id),
            user_id: a.id,
            username: a.username,
            name: a.name,
            account_type: 'BUSINESS',
            profile_picture_url: a.avatarUrl,
            followers_count: a.followersCount,
            media_count: 0,
          },
          requestedFields(request, ['id']),
        );
      });

      /*
       * "Enable Subscriptions": POST /me/subscribed_apps with `subscribed_fields`, the user's
       * token; `comments` needs instagram_business_manage_comments, the messaging fields
       * instagram_business_manage_messages (Instagram webhooks page). Meta then sends the
       * account's notices; it sends none before.
       */
      app.post('/:version/:id/subscribed_apps', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        const { id } = request.params as { id: string };
        if (id !== 'me' && id !== who.account.id) throw graph.notFound(id);
        const known = Object.keys(WEBHOOK_FIELDS);
        const fields = subscribedFields(
          request,
          known,
          (unknown) => `subscribed_fields must be a list of: ${known.join(', ')} (got ${unknown ?? 'none'})`,
        );
        for (const field of fields) requireScope(who, call, WEBHOOK_FIELDS[field] as string);
        await setAppSubscription(store, who.account.id, fields);
        return { success: true };
      });

      app.get('/:version/:id/media', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        const { id } = request.params as { id: string };
        if (id !== who.account.id) throw graph.notFound(id);
        const limit = limitParam(request, graph, 25, 100);
        const { posts, more } = await listPosts(store, who.account.id, {
          limit,
          after: afterCursor(request),
          kinds: { exclude: STORY_TYPES },
        });
        const fields = requestedFields(request, ['id']);
        const data = [];
        for (const post of posts) {
          const { comments } = await listComments(store, post.id, { parentId: null, limit: 1000 });
          data.push(renderPost(post, comments.length, fields));
        }
        return graphList(request, data, more, posts.at(-1)?.id ?? null);
      });

      app.post('/:version/:id/media', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.publish);
        const { id } = request.params as { id: string };
        if (id !== who.account.id) throw graph.notFound(id);
        const { values, failure } = await mediaRequest(request, who);
        const container = await createContainer(store, who.account.id, values, failure);
        return { id: container.id };
      });

      /**
       * A container request, checked as Instagram does (IG User Media reference): an image
       * (`image_url`, JPEG only), a reel (`REELS`, `video_url`), a story (`STORIES`, either),
       * a carousel item (`is_carousel_item`, an image or a `VIDEO`) or a `CAROUSEL` of 2 to
       * 10 of the account's items. The media is fetched now: an image that cannot be used
       * is refused at once, a video fails its container (ERROR), as Instagram reports them.
       */
      async function mediaRequest(request: FastifyRequest, who: Caller) {
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

      /** "Containers expire after 24 hours" (IG User Media reference): one not published by then is EXPIRED. */
      function expired(container: SandboxContainer): boolean {
        return store.now().getTime() - container.createdAt.getTime() >= CONTAINER_LIFETIME_MS;
      }

      app.post('/:version/:id/media_publish', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, publishCall);
        requireScope(who, call, SCOPE.publish);
        const { id } = request.params as { id: string };
        if (id !== who.account.id) throw graph.notFound(id);
        const creationId = requiredParam(request, graph, 'creation_id');
        const container = await findContainer(store, creationId);
        if (!container || container.accountId !== who.account.id) throw graph.notFound(creationId);
        if (container.publishedPostId !== null || expired(container)) throw consumedContainer(creationId);
        if (container.request.is_carousel_item === true) {
          throw graph.badParameter('A carousel item is published through its carousel');
        }
        if (await stillProcessing(store, container)) throw notReadyToPublish();
        if (container.failure !== null) throw graph.badParameter(`The media cannot be published: ${container.failure}`);
        // The daily cap is enforced here, at media_publish (error-code reference: code 9, subcode 2207042).
        if ((await publishedToday(who.account.id)) >= (await getSetting(store, 'instagram_publish_quota'))) {
          throw graphAnswer(
            400,
            9,
            'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
            { subcode: 2207042 },
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

      function publishedToday(accountId: string): Promise<number> {
        return countActivity(store, accountId, 'publish', 24 * HOUR);
      }

      app.get('/:version/:id/content_publishing_limit', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.publish);
        const { id } = request.params as { id: string };
        if (id !== who.account.id) throw graph.notFound(id);
        const quota = await getSetting(store, 'instagram_publish_quota');
        const usage = await publishedToday(who.account.id);
        return { data: [{ quota_usage: usage, config: { quota_total: quota, quota_duration: 86_400 } }] };
      });

      // The account's stories of the last 24 hours (IG User Stories reference), newest first.
      app.get('/:version/:id/stories', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.basic);
        const { id } = request.params as { id: string };
        if (id !== who.account.id) throw graph.notFound(id);
        const { posts } = await listPosts(store, who.account.id, { limit: 100, kinds: { include: STORY_TYPES } });
        const since = store.now().getTime() - 24 * HOUR;
        const fields = requestedFields(request, ['id']);
        return {
          data: posts.filter((p) => p.createdAt.getTime() > since).map((p) => renderPost(p, 0, fields)),
          paging: {},
        };
      });

      // A comment by the account itself on one of its posts (the first comment of a post).
      app.post('/:version/:id/comments', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.comments);
        const post = await ownPost(store, who, (request.params as { id: string }).id);
        const message = requiredParam(request, graph, 'message');
        if (STORY_TYPES.includes(post.mediaType)) throw graph.badParameter('Stories cannot be commented on');
        const comment = await addComment(store, {
          postId: post.id,
          parentId: null,
          authorId: who.account.id,
          authorUsername: who.account.username,
          text: message,
        });
        await recordActivity(store, {
          accountId: who.account.id,
          action: 'comment',
          targetId: post.id,
          detail: { comment_id: comment.id, message },
        });
        await notifyCommentAdded(store, comment);
        return { id: comment.id };
      });

      app.get('/:version/:id/comments', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.comments);
        const post = await ownPost(store, who, (request.params as { id: string }).id);
        const limit = limitParam(request, graph, 25, 50);
        const offset = afterCursor(request);
        const { comments, more } = await listComments(store, post.id, { parentId: null, limit, after: offset });
        const fields = requestedFields(request, ['id', 'text', 'timestamp']);
        const data = [];
        for (const comment of comments) {
          const replies = fields.has('replies')
            ? (await listComments(store, post.id, { parentId: comment.id, limit: 1000 })).comments
            : undefined;
          data.push(renderComment(comment, who.account.id, replies, fields));
        }
        return graphList(request, data, more, String((Number(offset ?? 0) || 0) + comments.length));
      });

      app.post('/:version/:id/replies', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.comments);
        const comment = await ownComment(store, who, (request.params as { id: string }).id);
        const message = requiredParam(request, graph, 'message');
        // "You can only reply to top-level comments; replies to a reply will be added to the
        // top-level comment. You cannot reply to hidden comments." (IG Comment Replies reference)
        const top = comment.parentId === null ? comment : await findComment(store, comment.parentId);
        if (!top) throw graph.notFound(comment.parentId ?? comment.id);
        if (comment.hidden || top.hidden) throw graph.badParameter('Hidden comments cannot be replied to');
        const reply = await addComment(store, {
          postId: comment.postId,
          parentId: top.id,
          authorId: who.account.id,
          authorUsername: who.account.username,
          text: message,
        });
        await recordActivity(store, {
          accountId: who.account.id,
          action: 'reply',
          targetId: comment.id,
          detail: { reply_id: reply.id, parent_id: top.id, message },
        });
        await notifyCommentAdded(store, reply);
        return { id: reply.id };
      });

      app.get('/:version/:id/insights', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.insights);
        const { id } = request.params as { id: string };
        const metrics = requiredParam(request, graph, 'metric').split(',');
        if (id === who.account.id) return accountInsights(request, who, metrics);
        const post = await ownPost(store, who, id);
        const unknown = metrics.findIndex((m) => !MEDIA_METRICS.includes(m));
        if (unknown !== -1) {
          throw graph.badParameter(
            `metric[${unknown}] must be one of the following values: ${MEDIA_METRICS.join(', ')}`,
          );
        }
        const product = RENDERED_TYPES[post.mediaType]?.product ?? 'FEED';
        const offered = MEDIA_METRICS_BY_PRODUCT[product] ?? [];
        const notOffered = metrics.filter((m) => !offered.includes(m));
        if (notOffered.length > 0) {
          throw graph.badParameter(
            `The Media Insights API does not support the ${notOffered.join(', ')} metric for this media product type.`,
          );
        }
        const answer = await lifetimeInsights(store, who.account.id, post.id, metrics);
        if (product === 'STORY' && answer.data.some((d) => lifetimeValue(d) < STORY_MIN_FIGURE)) {
          throw graphAnswer(400, 10, '(#10) Not enough viewers for the media to show insights');
        }
        return answer;
      });

      /*
       * Refused as Instagram refuses it: an unknown metric, a period other than day, a metric
       * without a daily series asked without metric_type=total_value (Instagram's words, as apps
       * quote its answer: "(#100) The following metrics (views) should be specified with parameter
       * metric_type=total_value"), more than 30 days between since and until. A metric without
       * data is left out, never 0. Simplification: Instagram's days end at 07:00 UTC (UTC−07:00),
       * the sandbox's at 00:00 UTC, as the service's days do.
       */
      async function accountInsights(request: FastifyRequest, who: Caller, metrics: string[]) {
        const unknown = metrics.findIndex((m) => !ACCOUNT_METRICS.includes(m));
        if (unknown !== -1) {
          throw graph.badParameter(
            `metric[${unknown}] must be one of the following values: ${ACCOUNT_METRICS.join(', ')}`,
          );
        }
        const period = requiredParam(request, graph, 'period');
        if (period !== 'day') {
          // Instagram's other period, lifetime, is for the demographics metrics the sandbox does not serve.
          throw graph.badParameter(`Incompatible period (${period}) for these metrics: they take period=day`);
        }
        const metricType = param(request, 'metric_type') ?? 'time_series';
        if (!METRIC_TYPES.includes(metricType)) {
          throw graph.badParameter(`metric_type must be one of the following values: ${METRIC_TYPES.join(', ')}`);
        }
        const totalsOnly = metrics.filter((m) => !TIME_SERIES_METRICS.includes(m));
        if (metricType === 'time_series' && totalsOnly.length > 0) {
          throw graph.badParameter(
            `The following metrics (${totalsOnly.join(',')}) should be specified with parameter metric_type=total_value`,
          );
        }
        const { since, until } = insightsRange(request, Math.floor(store.now().getTime() / 1000));
        if (until - since > MAX_INSIGHT_SECONDS) {
          throw graph.badParameter('There cannot be more than 30 days (2592000 s) between since and until');
        }
        if (until <= since) throw graph.badParameter('since must be before until');
        const days = daysBetween(since, until);
        const figures = await insightFigures(store, { accountId: who.account.id, postId: '', metrics, days });
        const firstFollowerDay = dayOf(store.now().getTime() / 1000 - FOLLOWER_COUNT_DAYS * 86_400);
        const data = [];
        for (const metric of metrics) {
          const daily: { day: string; value: number }[] = [];
          for (const day of days) {
            const value = figures.get(metric)?.get(day) ?? null;
            if (value === null) continue;
            if (
              metric === 'follower_count' &&
              (who.account.followersCount < FOLLOWER_COUNT_MIN_FOLLOWERS || day < firstFollowerDay)
            ) {
              continue;
            }
            daily.push({ day, value });
          }
          // No data is an absent metric, never 0.
          if (daily.length === 0) continue;
          const head = { name: metric, period: 'day' };
          const tail = { title: metric, description: '', id: `${who.account.id}/insights/${metric}/day` };
          data.push(
            metricType === 'total_value'
              ? { ...head, ...tail, total_value: { value: daily.reduce((sum, d) => sum + d.value, 0) } }
              : { ...head, values: daily.map((d) => ({ value: d.value, end_time: dayEndTime(d.day) })), ...tail },
          );
        }
        return metricType === 'total_value' ? { data } : { data, paging: rangePaging(request, since, until) };
      }

      app.get('/:version/:id', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const { id } = request.params as { id: string };
        const fields = requestedFields(request, ['id']);
        const container = await findContainer(store, id);
        if (container && container.accountId === who.account.id) {
          const code = container.publishedPostId
            ? 'PUBLISHED'
            : expired(container)
              ? 'EXPIRED'
              : container.failure
                ? 'ERROR'
                : (await stillProcessing(store, container))
                  ? 'IN_PROGRESS'
                  : 'FINISHED';
          return pick({ id, status_code: code, status: container.failure ?? code }, fields);
        }
        const post = await findPost(store, id);
        if (post && post.accountId === who.account.id) {
          const { comments } = await listComments(store, post.id, { parentId: null, limit: 1000 });
          return renderPost(post, comments.length, fields);
        }
        const comment = await ownComment(store, who, id);
        return renderComment(comment, who.account.id, undefined, fields);
      });

      app.post('/:version/:id', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        requireScope(who, call, SCOPE.comments);
        const comment = await ownComment(store, who, (request.params as { id: string }).id);
        const hide = param(request, 'hide');
        if (hide !== 'true' && hide !== 'false') throw graph.badParameter('hide must be true or false');
        await setCommentHidden(store, comment.id, hide === 'true');
        await recordActivity(store, {
          accountId: who.account.id,
          action: hide === 'true' ? 'hide' : 'unhide',
          targetId: comment.id,
          detail: {},
        });
        return { success: true };
      });
    },
  };
}
