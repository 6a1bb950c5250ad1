/** Instagram API with Instagram Login (professional accounts). Facts: docs/platforms.md, "Instagram". */
import { Type } from 'typebox';
import { MultiLineText } from '../http/schemas.ts';
import { instagramCommentNotices } from './comment-notices.ts';
import type { InsightMetrics, PlatformDefinition } from './definition.ts';
import { invalidRequest, unsupported } from './errors.ts';
import { type AdapterOptions, list, num, record, requiredText, str } from './http.ts';
import {
  checkDays,
  daysUpTo,
  emptyFigures,
  platformNames,
  readRange,
  requireMetrics,
  runsWithin,
  setFigure,
  today,
} from './insight-requests.ts';
import { commentTimesByReading } from './meta/comments.ts';
import {
  containerRef,
  matchPublished,
  permalinkAfterPublish,
  quotaOf,
  recentPostOf,
  requireContainerRef,
} from './meta/containers.ts';
import { metaDeauthorizedUsers } from './meta/deauthorization.ts';
import {
  dailyValues,
  idOf,
  metricValue,
  postSummaryOf,
  requiredPostSummary,
  requireSuccess,
} from './meta/graph-answers.ts';
import { GraphClient } from './meta/graph-client.ts';
import { isNotEnoughViewers } from './meta/graph-errors.ts';
import { reportingMissingScopes } from './missing-scopes.ts';
import { draftOf, durationProblem, optionsOf, problem, refuseProblems } from './publish-checks.ts';
import { callbackOf, loginUrl, splitScopes, tokenExpiry } from './sign-in.ts';
import {
  type AccountCredentials,
  type AfterPublishRule,
  type ContainerState,
  type ContainerStatus,
  type DailyMetrics,
  type PlatformAdapter,
  type PlatformComment,
  PlatformError,
  type PlatformPostSummary,
  type PublishDraft,
  type PublishProblem,
  type ScopePolicy,
} from './types.ts';

const VERSION = 'v25.0';
const HOURS = 3_600_000;
const DAYS = 24 * HOURS;

const SCOPE = {
  basic: 'instagram_business_basic',
  publish: 'instagram_business_content_publish',
  comments: 'instagram_business_manage_comments',
  insights: 'instagram_business_manage_insights',
} as const;

const SCOPES: ScopePolicy = {
  requested: [SCOPE.basic, SCOPE.publish, SCOPE.comments, SCOPE.insights],
  required: [SCOPE.basic],
  byAction: {
    read_profile: [SCOPE.basic],
    read_comments: [SCOPE.basic, SCOPE.comments],
    comment_notices: [SCOPE.basic, SCOPE.comments],
    reply: [SCOPE.comments],
    hide: [SCOPE.comments],
    read_insights: [SCOPE.insights],
    publish: [SCOPE.publish],
  },
  // instagram_business_basic is required at connection: a refusal of these is for the comments permission.
  refusedFor: { read_comments: [SCOPE.comments], comment_notices: [SCOPE.comments] },
};

/** The service's metric names Instagram answers; followers_count is a user field read as it is now, the others are insights metrics. */
const METRICS: InsightMetrics = {
  account: [
    'followers_count',
    'views',
    'reach',
    'accounts_engaged',
    'total_interactions',
    'likes',
    'comments',
    'saves',
    'shares',
  ],
  post: ['views', 'reach', 'likes', 'comments', 'saves', 'shares', 'total_interactions'],
};

/** The account metrics the service offers that Instagram also answers as a daily series (time_series). */
const DAILY_SERIES_METRICS = ['reach'];
/** "There cannot be more than 30 days (2592000 s) between since and until", Instagram answers past it. */
const MAX_RANGE_DAYS = 30;

/** Service metric name -> Instagram's, where they differ (media insights say `saved`). */
const POST_METRIC_NAMES: Record<string, string> = { saves: 'saved' };

const CONTAINER_STATES: Record<string, ContainerState> = {
  IN_PROGRESS: 'in_progress',
  FINISHED: 'finished',
  PUBLISHED: 'published',
  ERROR: 'failed',
  EXPIRED: 'expired',
};

/**
 * `user` comes only on a comment the account wrote ("Only returned if the app user created the
 * IG Comment", IG Comment reference): `from.id` is an Instagram-scoped id, which for the
 * account's own comments is not the professional account id the service keeps.
 */
const COMMENT_FIELDS = 'id,text,timestamp,username,from,user,hidden,like_count,parent_id';

/*
 * Publishing rules, from the Content Publishing guide
 * (https://developers.facebook.com/docs/instagram-platform/content-publishing) and the
 * IG User Media reference: captions at most 2,200 characters, 30 hashtags and 20 @ tags;
 * a carousel 2 to 10 images and videos; reels 3 s to 15 min; story and carousel videos
 * at most 60 s.
 */
const MAX_CAPTION = 2_200;
const MAX_HASHTAGS = 30;
const MAX_MENTIONS = 20;
const MAX_CAROUSEL = 10;
const REEL_SECONDS = { min: 3, max: 900 };
const SHORT_VIDEO_SECONDS = { min: 3, max: 60 };
const INSTAGRAM_TYPES = ['feed', 'reel', 'story'] as const;

/** What an Instagram post takes beside its text (`platforms.instagram`). */
const INSTAGRAM_OPTIONS = Type.Object(
  {
    type: Type.Optional(
      Type.Enum(INSTAGRAM_TYPES, {
        description:
          '`feed` (default): an image, a video (published as a reel, as Instagram does with feed videos) or a carousel of 2 to 10; `reel`: one video; `story`: one image or video.',
      }),
    ),
    first_comment: Type.Optional(
      MultiLineText({
        minLength: 1,
        maxLength: MAX_CAPTION,
        description:
          'A comment the account writes on its new post right after publishing (needs `instagram_business_manage_comments`; its failure does not fail the post).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Every Instagram rule the draft breaks. */
function instagramProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const options = optionsOf(INSTAGRAM_OPTIONS, given);
  const type = options.type ?? 'feed';
  const problems: PublishProblem[] = [];
  if (!(INSTAGRAM_TYPES as readonly string[]).includes(type)) {
    problems.push(problem('platforms.instagram.type', `must be one of ${INSTAGRAM_TYPES.join(', ')}`));
  }
  const caption = text ?? '';
  if ([...caption].length > MAX_CAPTION) {
    problems.push(problem('text', `an Instagram caption has at most ${MAX_CAPTION} characters`));
  }
  if ((caption.match(/#[\p{L}\p{N}_]/gu) ?? []).length > MAX_HASHTAGS) {
    problems.push(problem('text', `an Instagram caption has at most ${MAX_HASHTAGS} hashtags`));
  }
  if ((caption.match(/@[\p{L}\p{N}_.]/gu) ?? []).length > MAX_MENTIONS) {
    problems.push(problem('text', `an Instagram caption mentions at most ${MAX_MENTIONS} accounts`));
  }
  const videos = media.filter((m) => m.type === 'video').length;
  if (media.length === 0) {
    problems.push(problem('media_ids', 'an Instagram post needs an image or a video'));
  } else if (type === 'reel') {
    if (media.length !== 1 || videos !== 1) problems.push(problem('media_ids', 'a reel is exactly one video'));
    else problems.push(...[durationProblem(media, REEL_SECONDS, 'a reel')].filter((p) => p !== null));
  } else if (type === 'story') {
    if (media.length !== 1) problems.push(problem('media_ids', 'a story is exactly one image or video'));
    else problems.push(...[durationProblem(media, SHORT_VIDEO_SECONDS, 'a story video')].filter((p) => p !== null));
  } else if (media.length > MAX_CAROUSEL) {
    problems.push(problem('media_ids', `an Instagram carousel has 2 to ${MAX_CAROUSEL} images and videos`));
  } else {
    const range = media.length === 1 ? REEL_SECONDS : SHORT_VIDEO_SECONDS;
    const found = durationProblem(
      media,
      range,
      media.length === 1 ? 'a video (published as a reel)' : 'a carousel video',
    );
    if (found !== null) problems.push(found);
  }
  const comment = options.first_comment;
  if (comment !== undefined) {
    if (typeof comment !== 'string' || comment.trim() === '') {
      problems.push(problem('platforms.instagram.first_comment', 'must be a non-empty text'));
    } else if ([...comment].length > MAX_CAPTION) {
      problems.push(problem('platforms.instagram.first_comment', `has at most ${MAX_CAPTION} characters`));
    } else if (type === 'story') {
      problems.push(problem('platforms.instagram.first_comment', 'stories take no comments'));
    }
  }
  return problems;
}

/** "(#100) The Media Insights API does not support the likes, comments metric for this media product type." */
const NOT_OFFERED = /does not support the (.+?) metrics? for this media product type/i;

/** The metrics (Instagram's names) a refusal says the media product type does not have; none for other refusals. */
function metricsNotOffered(error: PlatformError): string[] {
  if (error.detail.code !== 100) return [];
  const named = NOT_OFFERED.exec(error.detail.platformMessage ?? '')?.[1];
  return named === undefined ? [] : named.split(',').map((name) => name.trim());
}

/** `/me`'s fields: the Get Started page shows them inside `data: [...]`, a node answers them flat; both are read. */
function meNode(answer: Record<string, unknown>): Record<string, unknown> {
  return record(list(answer.data)[0] ?? answer);
}

function containerOf(containerId: string) {
  return requireContainerRef('instagram', containerId);
}

function recentPost(raw: unknown) {
  return recentPostOf(raw, 'caption');
}

export function instagramAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const platform = 'instagram';
  const graph = new GraphClient(platform, options.hostUrl('graph.instagram.com'), VERSION, options, now);

  function toComment(raw: unknown, postId: string, accountId: string): PlatformComment | null {
    const c = record(raw);
    const id = str(c.id);
    const created = Date.parse(str(c.timestamp) ?? '');
    if (id === null || Number.isNaN(created)) return null;
    const from = record(c.from);
    // `user` is the IG User node ({id}) or, as some answers have it, its id alone.
    const user = str(record(c.user).id) ?? str(c.user);
    const byAccount = user !== null || str(from.id) === accountId;
    return {
      id,
      postId,
      parentId: str(c.parent_id),
      authorId: byAccount ? accountId : str(from.id),
      authorUsername: str(from.username) ?? str(c.username),
      text: str(c.text) ?? '',
      createdAt: new Date(created),
      hidden: c.hidden === true,
      byAccount,
    };
  }

  /**
   * The professional account id (IG_ID): `/me`'s `user_id`, "the value of the id field received
   * in webhook notifications", and the id in the API's paths. `/me`'s `id` is app-scoped, and so
   * is the code exchange's `user_id` (docs/platforms.md, "Instagram account ids").
   */
  async function professionalAccountId(token: string): Promise<string> {
    const me = meNode(await graph.get('/me', token, { fields: 'user_id' }));
    return requiredText(platform, me.user_id, 'user_id');
  }

  /** The long-lived token (60 days) a short-lived one is exchanged for. */
  async function longLived(shortToken: string): Promise<{ accessToken: string; expiresAt: Date | null }> {
    const body = await graph.call({
      method: 'GET',
      url: graph.url('/access_token', true),
      query: { grant_type: 'ig_exchange_token', client_secret: options.clientSecret, access_token: shortToken },
    });
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(now(), body.expires_in),
    };
  }

  async function containerStatus({ accessToken }: AccountCredentials, containerId: string): Promise<ContainerStatus> {
    const body = await graph.get(`/${containerOf(containerId).id}`, accessToken, { fields: 'status_code,status' });
    const code = str(body.status_code) ?? '';
    const state = CONTAINER_STATES[code];
    if (state === undefined) {
      throw new PlatformError('transient', `instagram: unknown container status ${JSON.stringify(code)}`, {
        platform,
      });
    }
    if (state === 'in_progress') return { state, message: 'Instagram is still processing the media (IN_PROGRESS)' };
    // `status` says why for an ERROR (its subcode) or an EXPIRED container; otherwise it only repeats the code.
    const message = str(body.status);
    return message !== null && (state === 'failed' || state === 'expired') ? { state, message } : { state };
  }

  return reportingMissingScopes({
    platform,
    scopes: SCOPES,
    refresh: { refreshBeforeExpiryMs: 7 * DAYS, minTokenAgeMs: 24 * HOURS },

    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('www.instagram.com')}/oauth/authorize`, {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: (scopes ?? SCOPES.requested).join(','),
        state,
        enable_fb_login: '0',
        force_reauth: 'true',
      });
    },

    parseDeauthorization(notice) {
      return metaDeauthorizedUsers(platform, notice, options.clientSecret);
    },

    parseCallback(query) {
      return callbackOf(query, /#_$/);
    },

    async exchangeCode(code, redirectUri) {
      const body = await graph.call({
        method: 'POST',
        url: `${options.hostUrl('api.instagram.com')}/oauth/access_token`,
        form: {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        },
      });
      // Documented as {"data":[{...}]}; some clients read it flat: accept both.
      const grant = record(list(body.data)[0] ?? body);
      const permissions = grant.permissions;
      // What the user left ticked; an empty list is an answer too (every permission unticked).
      if (permissions === undefined || permissions === null) {
        throw new PlatformError('transient', 'instagram answered the code exchange without permissions', { platform });
      }
      const scopes = Array.isArray(permissions)
        ? permissions.map(str).filter((s): s is string => s !== null)
        : splitScopes(permissions);
      const token = await longLived(requiredText(platform, grant.access_token, 'access_token'));
      // The exchange's user_id is app-scoped: the account is its professional account id, read
      // from `/me`, which instagram_business_basic opens; the app-scoped id is kept beside, as a
      // deauthorization may name it. Without that scope nothing can be connected (the connect
      // flow refuses a grant lacking a required scope), and the exchange's id is all there is.
      const appScopedId = requiredText(platform, grant.user_id, 'user_id');
      if (!scopes.includes(SCOPE.basic)) return { ...token, platformUserId: appScopedId, scopes };
      const platformUserId = await professionalAccountId(token.accessToken);
      return { ...token, platformUserId, aliases: [appScopedId], scopes };
    },

    async refreshToken({ accessToken, platformUserId }) {
      const body = await graph.call({
        method: 'GET',
        url: graph.url('/refresh_access_token', true),
        query: { grant_type: 'ig_refresh_token', access_token: accessToken },
      });
      return {
        accessToken: requiredText(platform, body.access_token, 'access_token'),
        expiresAt: tokenExpiry(now(), body.expires_in),
        platformUserId,
        // The refresh answer does not name the scopes; the grant's stay as they were.
        scopes: null,
      };
    },

    async revokeAccess() {
      // Instagram API with Instagram Login documents no way to revoke the app's access:
      // graph.instagram.com has no permissions edge (DELETE /{user-id}/permissions is Facebook
      // Login's, on graph.facebook.com). The user removes the app in Instagram's settings.
      throw unsupported(
        platform,
        "revoking the app's access (Instagram API with Instagram Login has no endpoint for it)",
      );
    },

    async profile({ accessToken }) {
      const me = meNode(
        await graph.get('/me', accessToken, { fields: 'user_id,username,name,profile_picture_url,followers_count' }),
      );
      return {
        // Never `id`: it is app-scoped, and matches neither notices nor paths.
        id: requiredText(platform, me.user_id, 'user_id'),
        username: str(me.username),
        name: str(me.name),
        avatarUrl: str(me.profile_picture_url),
        followersCount: num(me.followers_count),
      };
    },

    comments: {
      async recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
        const { graph: metered, meter } = graph.metered();
        const media = await metered.getAll(
          `/${platformUserId}/media`,
          accessToken,
          { fields: 'id,caption,media_type,permalink,timestamp,comments_count', limit: Math.min(posts, 50) },
          posts,
        );
        const summaries = media
          .map((m) => postSummaryOf(m, 'caption'))
          .filter((p): p is PlatformPostSummary => p !== null);
        const comments: PlatformComment[] = [];
        for (const { id: postId } of summaries) {
          const top = await metered.getAll(
            `/${postId}/comments`,
            accessToken,
            { fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`, limit: 50 },
            500,
          );
          for (const raw of top) {
            const comment = toComment(raw, postId, platformUserId);
            if (comment) comments.push(comment);
            for (const reply of list(record(record(raw).replies).data)) {
              const parsed = toComment(reply, postId, platformUserId);
              if (parsed) comments.push({ ...parsed, parentId: parsed.parentId ?? comment?.id ?? null });
            }
          }
        }
        return {
          posts: summaries,
          comments: comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
          usagePercent: meter.highest,
        };
      },

      parseCommentNotices(notice) {
        return instagramCommentNotices(notice, options.clientSecret, now());
      },

      async subscribeNotices({ accessToken }) {
        // "Enable Subscriptions": POST /me/subscribed_apps with subscribed_fields, the user's token;
        // `comments` needs instagram_business_basic and instagram_business_manage_comments
        // (https://developers.facebook.com/docs/instagram-platform/webhooks; docs/platforms.md, "Comment notices").
        const body = await graph.post('/me/subscribed_apps', accessToken, { subscribed_fields: 'comments' });
        requireSuccess(platform, body, 'the subscription to comment notices');
      },

      async commentTimes({ accessToken }, commentIds) {
        // "timestamp: ISO 8601 formatted timestamp indicating when IG Comment was created" (IG Comment reference).
        return commentTimesByReading(graph, accessToken, commentIds, 'timestamp');
      },

      async postSummary({ accessToken }, postId) {
        const media = await graph.get(`/${postId}`, accessToken, { fields: 'id,caption,permalink,timestamp' });
        return requiredPostSummary(platform, media, 'caption');
      },

      async reply({ accessToken }, commentId, text) {
        const id = idOf(platform, await graph.post(`/${commentId}/replies`, accessToken, { message: text }));
        return { state: 'sent', id };
      },

      async setHidden({ accessToken }, commentId, hidden) {
        await graph.call({
          method: 'POST',
          url: graph.url(`/${commentId}`),
          query: { hide: hidden },
          form: { access_token: accessToken },
        });
      },
    },

    insights: {
      /*
       * Daily values in the fewest calls the Instagram Account Insights reference allows
       * (https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights):
       * views, accounts_engaged, total_interactions, likes, comments, saves and shares exist only as
       * `metric_type=total_value`, one total over since..until, so a daily value costs a call per
       * day, in which every metric asked rides along. Only when reach alone is asked does its daily
       * series (`metric_type=time_series`) give up to 30 days a call. followers_count is a user
       * field read as it is now: one `/me` call, when today is asked. Days still to come cost
       * nothing (null). For N days up to today, all metrics: N calls, +1 with followers_count and
       * today; reach alone: one call per 30 days.
       */
      async accountInsights({ platformUserId, accessToken }, days, metrics) {
        requireMetrics(platform, METRICS.account, metrics);
        checkDays(platform, days);
        const { graph: metered, meter } = graph.metered();
        const at = now();
        const todayDay = today(at);
        const figures: DailyMetrics = emptyFigures(days, metrics);
        const read = daysUpTo(days, todayDay);
        const asked = metrics.filter((m) => m !== 'followers_count');
        const insights = (range: { since: number; until: number }, metricType: string) =>
          metered.get(`/${platformUserId}/insights`, accessToken, {
            metric: asked.join(','),
            period: 'day',
            metric_type: metricType,
            ...range,
          });
        if (asked.length > 0 && asked.every((m) => DAILY_SERIES_METRICS.includes(m))) {
          for (const run of runsWithin(read, MAX_RANGE_DAYS)) {
            const body = await insights(readRange(run[0] as string, run.at(-1) as string, at), 'time_series');
            for (const metric of asked) {
              const series = dailyValues(body, metric);
              for (const day of run) setFigure(figures, day, metric, series.get(day) ?? null);
            }
          }
        } else if (asked.length > 0) {
          for (const day of read) {
            const body = await insights(readRange(day, day, at), 'total_value');
            for (const metric of asked) setFigure(figures, day, metric, metricValue(body, metric));
          }
        }
        if (metrics.includes('followers_count') && read.includes(todayDay)) {
          // A user field, not a metric: only today's count exists.
          const me = meNode(await metered.get('/me', accessToken, { fields: 'followers_count' }));
          setFigure(figures, todayDay, 'followers_count', num(me.followers_count));
        }
        return { figures, usagePercent: meter.highest };
      },

      /*
       * One call, unless Instagram refuses metrics the post's media product type does not have (a
       * story has no likes, comments or saves): "(#100) The Media Insights API does not support
       * the likes, comments metric for this media product type" fails the whole request, so it is
       * asked again without them, which stay null. A story with fewer than 5 viewers answers "(#10)
       * Not enough viewers for the media to show insights": no figures for that post, and no
       * permission matter (IG Media Insights reference; docs/platforms.md, "Instagram media insights").
       */
      async postInsights({ accessToken }, postId, metrics) {
        requireMetrics(platform, METRICS.post, metrics);
        const { graph: metered, meter } = graph.metered();
        const names = platformNames(metrics, POST_METRIC_NAMES);
        const figures: Record<string, number | null> = Object.fromEntries(metrics.map((m) => [m, null]));
        const notOffered = new Set<string>();
        for (;;) {
          const asked = names.filter((name) => !notOffered.has(name));
          if (asked.length === 0) break;
          let body: Record<string, unknown>;
          try {
            body = await metered.get(`/${postId}/insights`, accessToken, { metric: asked.join(',') });
          } catch (error) {
            if (!(error instanceof PlatformError)) throw error;
            if (isNotEnoughViewers(error)) break;
            const refused = metricsNotOffered(error).filter((name) => asked.includes(name));
            if (refused.length === 0) throw error;
            for (const name of refused) notOffered.add(name);
            continue;
          }
          metrics.forEach((metric, i) => {
            const name = names[i] as string;
            if (!notOffered.has(name)) figures[metric] = metricValue(body, name);
          });
          break;
        }
        return { figures, usagePercent: meter.highest };
      },
    },

    publishing: {
      checkPublish(draft) {
        return instagramProblems(draft);
      },

      async createContainer({ platformUserId, accessToken }, request) {
        refuseProblems(platform, instagramProblems(draftOf(request)));
        const { text, media } = request;
        const type = optionsOf(INSTAGRAM_OPTIONS, request.options).type ?? 'feed';
        const path = `/${platformUserId}/media`;
        const create = async (fields: Record<string, string | undefined>) =>
          idOf(platform, await graph.post(path, accessToken, fields));
        const url = (item: (typeof media)[number]) =>
          item.type === 'image' ? { image_url: item.url } : { video_url: item.url };
        const made = now();
        const [first] = media as [(typeof media)[number], ...typeof media];
        if (type === 'story') {
          // Stories take no caption (the Content Publishing guide's story parameters).
          return { containerId: containerRef(await create({ ...url(first), media_type: 'STORIES' }), 's', made, '') };
        }
        const caption = text ?? '';
        if (media.length === 1) {
          // A single video goes as a reel: Instagram retired VIDEO for feed posts in 2023.
          const fields = first.type === 'image' ? url(first) : { ...url(first), media_type: 'REELS' };
          const kind = first.type === 'image' ? 'f' : 'r';
          return { containerId: containerRef(await create({ ...fields, caption }), kind, made, caption) };
        }
        const children: string[] = [];
        for (const item of media) {
          const fields = item.type === 'image' ? url(item) : { ...url(item), media_type: 'VIDEO' };
          children.push(await create({ ...fields, is_carousel_item: 'true' }));
        }
        const id = await create({ media_type: 'CAROUSEL', children: children.join(','), caption });
        return { containerId: containerRef(id, 'f', made, caption) };
      },

      containerStatus,

      async publishContainer({ platformUserId, accessToken }, containerId) {
        const published = await graph.call({
          method: 'POST',
          url: graph.url(`/${platformUserId}/media_publish`),
          query: { creation_id: containerOf(containerId).id },
          form: { access_token: accessToken },
        });
        const id = idOf(platform, published);
        const permalink = await permalinkAfterPublish(
          () => graph.get(`/${id}`, accessToken, { fields: 'permalink' }),
          'permalink',
        );
        return { id, permalink };
      },

      async publishingQuota({ platformUserId, accessToken }) {
        // https://developers.facebook.com/docs/instagram-platform/content-publishing#rate-limit
        const body = await graph.get(`/${platformUserId}/content_publishing_limit`, accessToken, {
          fields: 'quota_usage,config',
        });
        return quotaOf(platform, body, 'quota_usage', 'config');
      },

      async findPublished(credentials, containerId) {
        const ref = containerOf(containerId);
        if ((await containerStatus(credentials, containerId)).state !== 'published') return null;
        if (ref.at === null) {
          throw invalidRequest(
            platform,
            'the container was published, but its reference does not say what to look for',
          );
        }
        // A container does not name the media it became: the account's recent media (or,
        // for a story, its live stories) with the same caption, published since the
        // container was made. Stories carry no caption, so the earliest story since then.
        const story = ref.kind === 's';
        const items = await graph.getAll(
          `/${credentials.platformUserId}/${story ? 'stories' : 'media'}`,
          credentials.accessToken,
          { fields: 'id,caption,permalink,timestamp', limit: 50 },
          50,
        );
        const match = matchPublished(
          items.map(recentPost).filter((p) => p !== null),
          ref,
          !story,
        );
        return match === null ? null : { id: match.id, permalink: match.permalink };
      },

      afterPublish: {
        ...FIRST_COMMENT,
        async run({ accessToken }, postId, options) {
          const text = optionsOf(INSTAGRAM_OPTIONS, options).first_comment ?? '';
          if (text.trim() === '') throw invalidRequest(platform, 'a comment needs text');
          // "Create a comment on a media object": POST /{ig-media-id}/comments with message
          // (https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/comment-moderation).
          return { id: idOf(platform, await graph.post(`/${postId}/comments`, accessToken, { message: text })) };
        },
      },
    },
  });
}

// The first comment: a comment by the account on its new post, which needs what replying
// needs. Stories take no comments (checkPublish refuses a first comment on one).
const FIRST_COMMENT = {
  action: 'reply',
  asked: (options) => optionsOf(INSTAGRAM_OPTIONS, options).first_comment !== undefined,
} as const satisfies AfterPublishRule;

export const instagramPlatform: PlatformDefinition & { platform: 'instagram' } = {
  platform: 'instagram',
  label: 'Instagram',
  grantsPages: false,
  // "You cannot reply to hidden comments" (IG Comment Replies reference,
  // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies);
  // `hide` is a field of any IG Comment, replies included (IG Comment reference).
  comments: { replyToHidden: false, hideReplies: true },
  insights: METRICS,
  publishing: {
    // No text-only posts: an Instagram post needs an image or a video.
    kinds: ['image', 'video', 'carousel'],
    containerPublishes: false,
    // "JPEG is the only image format supported" (Instagram's content publishing guide).
    imageTypes: ['image/jpeg'],
    options: INSTAGRAM_OPTIONS,
    afterPublish: FIRST_COMMENT,
  },
  create: instagramAdapter,
};
