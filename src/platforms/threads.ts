/** Threads API (graph.threads.net). Facts: docs/platforms.md, "Threads". */
import { Type } from 'typebox';
import { threadsCommentNotices } from './comment-notices.ts';
import type { InsightMetrics, PlatformDefinition } from './definition.ts';
import { invalidRequest, unsupported } from './errors.ts';
import { type AdapterOptions, list, num, record, requiredText, str } from './http.ts';
import { checkDays, daysUpTo, emptyFigures, readRange, requireMetrics, setFigure, today } from './insight-requests.ts';
import { commentTimesByReading } from './meta/comments.ts';
import { containerRef, matchPublished, recentPostOf, requireContainerRef } from './meta/container-refs.ts';
import { permalinkAfterPublish, readQuota } from './meta/containers.ts';
import { metaDeauthorizedUsers } from './meta/deauthorization.ts';
import { dailyValues, idOf, metricValue, postSummaryOf, requiredPostSummary } from './meta/graph-answers.ts';
import { GraphClient } from './meta/graph-client.ts';
import { reportingMissingScopes } from './missing-scopes.ts';
import { draftOf, durationProblem, optionsOf, problem, refuseProblems } from './publish-checks.ts';
import { callbackOf, loginUrl, tokenExpiry } from './sign-in.ts';
import { THREADS_MAX_TEXT, threadsTextLength } from './threads-text.ts';
import {
  type AccountCredentials,
  type ContainerState,
  type DailyMetrics,
  type PlatformAdapter,
  type PlatformComment,
  PlatformError,
  type PlatformPostSummary,
  type PublishDraft,
  type PublishProblem,
  type PublishRequest,
  type ReplyOutcome,
  type ScopePolicy,
} from './types.ts';

const VERSION = 'v1.0';
const HOURS = 3_600_000;
const DAYS = 24 * HOURS;
/** https://developers.facebook.com/docs/threads/posts#carousel-posts: 2 to 20 images and videos. */
const MAX_CAROUSEL = 20;
/** Threads' video specification: at most 5 minutes. */
const VIDEO_SECONDS = { min: 0, max: 300 };
/** https://developers.facebook.com/docs/threads/posts: a topic tag has 1 to 50 characters, no period or ampersand. */
const MAX_TOPIC_TAG = 50;

const THREADS_REPLY_CONTROLS = [
  'everyone',
  'accounts_you_follow',
  'mentioned_only',
  'parent_post_author_only',
  'followers_only',
] as const;

/** What a Threads post takes beside its text (`platforms.threads`). */
const THREADS_OPTIONS = Type.Object(
  {
    reply_control: Type.Optional(
      Type.Enum(THREADS_REPLY_CONTROLS, {
        description: 'Who may reply (Threads `reply_control`); default `everyone`.',
      }),
    ),
    topic_tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_TOPIC_TAG, description: 'A topic tag (Threads `topic_tag`).' }),
    ),
  },
  { additionalProperties: false },
);

/** Every Threads rule the draft breaks. */
function threadsProblems({ text, media, options: given }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (text !== undefined && threadsTextLength(text) > THREADS_MAX_TEXT) {
    problems.push(
      problem(
        'text',
        `a Threads post has at most ${THREADS_MAX_TEXT} characters, an emoji counting as its UTF-8 bytes`,
      ),
    );
  }
  if (media.length === 0 && (text ?? '').trim() === '') {
    problems.push(problem('text', 'a Threads post needs text or media'));
  }
  if (media.length > MAX_CAROUSEL) {
    problems.push(problem('media_ids', `a Threads carousel has at most ${MAX_CAROUSEL} images and videos`));
  }
  const long = durationProblem(media, VIDEO_SECONDS, 'a Threads video');
  if (long !== null) problems.push(long);
  const options = optionsOf(THREADS_OPTIONS, given);
  if (
    options.reply_control !== undefined &&
    !(THREADS_REPLY_CONTROLS as readonly unknown[]).includes(options.reply_control)
  ) {
    problems.push(problem('platforms.threads.reply_control', `must be one of ${THREADS_REPLY_CONTROLS.join(', ')}`));
  }
  const tag = options.topic_tag;
  if (tag !== undefined) {
    if (typeof tag !== 'string' || tag.trim() === '' || [...tag].length > MAX_TOPIC_TAG) {
      problems.push(problem('platforms.threads.topic_tag', `must have 1 to ${MAX_TOPIC_TAG} characters`));
    } else if (/[.&]/.test(tag)) {
      problems.push(problem('platforms.threads.topic_tag', 'may not contain a period (.) or an ampersand (&)'));
    }
  }
  return problems;
}
/** Threads refuses insights `since` or `until` before this moment (2024-04-13 07:00 UTC): there is no data earlier. */
const INSIGHTS_EPOCH = 1_712_991_600;
/** The user metric Threads answers as a daily series (`values:[{value, end_time}]`); the others are totals. */
const DAILY_SERIES_METRICS = ['views'];
/** Replies read per post: enough for any recent post, bounded against a viral one. */
const MAX_REPLIES_PER_POST = 500;

const SCOPE = {
  basic: 'threads_basic',
  publish: 'threads_content_publish',
  readReplies: 'threads_read_replies',
  manageReplies: 'threads_manage_replies',
  insights: 'threads_manage_insights',
} as const;

const SCOPES: ScopePolicy = {
  requested: [SCOPE.basic, SCOPE.publish, SCOPE.readReplies, SCOPE.manageReplies, SCOPE.insights],
  required: [SCOPE.basic],
  byAction: {
    read_profile: [SCOPE.basic],
    read_comments: [SCOPE.readReplies],
    comment_notices: [SCOPE.basic, SCOPE.readReplies],
    reply: [SCOPE.publish],
    hide: [SCOPE.manageReplies],
    read_insights: [SCOPE.insights],
    publish: [SCOPE.publish],
  },
  /*
   * Meta's pages disagree on what replying needs: the Permissions reference gives
   * threads_content_publish to publishing replies, the reply management page names
   * threads_manage_replies (docs/platforms.md, "Open questions"). Both are asked at
   * connection; a refused reply names threads_manage_replies, never the publish scope that
   * posting works with.
   */
  refusedFor: { reply: [SCOPE.manageReplies] },
};

const METRICS: InsightMetrics = {
  account: ['followers_count', 'views', 'likes', 'replies', 'reposts', 'quotes', 'clicks'],
  post: ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'],
};

const CONTAINER_STATES: Record<string, ContainerState> = {
  IN_PROGRESS: 'in_progress',
  FINISHED: 'finished',
  PUBLISHED: 'published',
  ERROR: 'failed',
  EXPIRED: 'expired',
};

const REPLY_FIELDS = 'id,text,username,permalink,timestamp,is_reply_owned_by_me,hide_status,replied_to,root_post';

export function threadsAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const platform = 'threads';
  const graph = new GraphClient(platform, options.hostUrl('graph.threads.net'), VERSION, options, now);

  function checkText(text: string | undefined): void {
    if (text !== undefined && threadsTextLength(text) > THREADS_MAX_TEXT) {
      throw invalidRequest(
        platform,
        `a Threads post or reply has at most ${THREADS_MAX_TEXT} characters, an emoji counting as its UTF-8 bytes`,
      );
    }
  }

  /** A reply in a conversation; `parentId` is null for a reply to the post itself. */
  function toComment(raw: unknown, postId: string, accountId: string): PlatformComment | null {
    const r = record(raw);
    const id = str(r.id);
    const created = Date.parse(str(r.timestamp) ?? '');
    if (id === null || Number.isNaN(created)) return null;
    const repliedTo = str(record(r.replied_to).id);
    const root = str(record(r.root_post).id) ?? postId;
    const byAccount = r.is_reply_owned_by_me === true;
    return {
      id,
      postId,
      parentId: repliedTo === null || repliedTo === root || repliedTo === postId ? null : repliedTo,
      // Threads names the author of a reply, not its id: only the account's own are known.
      authorId: byAccount ? accountId : null,
      authorUsername: str(r.username),
      text: str(r.text) ?? '',
      createdAt: new Date(created),
      // Only HIDDEN is what manage_reply sets (and can undo); NOT_HUSHED and the rest are visible or not ours.
      hidden: r.hide_status === 'HIDDEN',
      byAccount,
    };
  }

  /**
   * debug_token's `data` on `inputToken`. Threads answers it only to a user token of a
   * tester of the same app ("Debug Access Token",
   * https://developers.facebook.com/docs/threads/troubleshooting/debug-access-token).
   * Null when Threads refuses the tester token (it runs out too, unless the operator renews it).
   */
  async function debugToken(inputToken: string, testerToken: string): Promise<Record<string, unknown> | null> {
    try {
      return record((await graph.get('/debug_token', testerToken, { input_token: inputToken })).data);
    } catch (error) {
      if (error instanceof PlatformError && error.kind !== 'transient' && error.kind !== 'rate_limited') return null;
      throw error;
    }
  }

  /** The scopes of a live token's debug_token data, or the PlatformError a dead token means. */
  function liveScopes(data: Record<string, unknown>): string[] {
    const expiresAt = num(data.expires_at);
    // 0 means a token that does not expire.
    const expired = expiresAt !== null && expiresAt > 0 && expiresAt * 1000 <= now().getTime();
    if (data.is_valid === true && !expired) {
      return list(data.scopes)
        .map(str)
        .filter((s): s is string => s !== null);
    }
    const error = record(data.error);
    const platformMessage = str(error.message) ?? 'the token is not valid';
    const revoked = /not authorized application/i.test(platformMessage);
    const code = num(error.code);
    const subcode = num(error.subcode);
    throw new PlatformError(revoked ? 'access_revoked' : 'token_expired', `threads: ${platformMessage}`, {
      platform,
      ...(code !== null ? { code } : {}),
      ...(subcode !== null ? { subcode } : {}),
      platformMessage,
    });
  }

  /**
   * The scopes a new token carries. The code exchange does not say; debug_token does, with
   * the operator's tester token. Without one (or when Threads refuses it), what a call
   * shows: `/me` answers only with threads_basic, and the other scopes are taken as
   * requested; a call refused later for one of them reports it (`missingScopes`), so the
   * account's permissions can drop it then.
   */
  async function grantedScopes(accessToken: string, requested: readonly string[]): Promise<string[]> {
    const inspected = options.testerToken === undefined ? null : await debugToken(accessToken, options.testerToken);
    if (inspected !== null) return liveScopes(inspected);
    try {
      await graph.get('/me', accessToken, { fields: 'id' });
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'permission_missing') return [];
      throw error;
    }
    return [...requested];
  }

  async function createOne(
    { platformUserId, accessToken }: AccountCredentials,
    fields: Record<string, string | undefined>,
  ): Promise<string> {
    return idOf(platform, await graph.post(`/${platformUserId}/threads`, accessToken, fields));
  }

  function mediaFields(item: PublishRequest['media'][number]): Record<string, string> {
    return item.type === 'image'
      ? { media_type: 'IMAGE', image_url: item.url }
      : { media_type: 'VIDEO', video_url: item.url };
  }

  async function containerState(accessToken: string, containerId: string) {
    const body = await graph.get(`/${containerId}`, accessToken, { fields: 'status,error_message' });
    const code = str(body.status) ?? '';
    const state = CONTAINER_STATES[code];
    if (state === undefined) {
      throw new PlatformError('transient', `threads: unknown container status ${JSON.stringify(code)}`, { platform });
    }
    if (state === 'in_progress') return { state, message: 'Threads is still processing the media (IN_PROGRESS)' };
    const message = str(body.error_message);
    return message !== null && (state === 'failed' || state === 'expired') ? { state, message } : { state };
  }

  async function publish({ platformUserId, accessToken }: AccountCredentials, containerId: string): Promise<string> {
    const published = await graph.call({
      method: 'POST',
      url: graph.url(`/${platformUserId}/threads_publish`),
      query: { creation_id: containerId },
      form: { access_token: accessToken },
    });
    return idOf(platform, published);
  }

  /**
   * Publishes a reply container if Threads finished processing it, after reading its status
   * once: Threads recommends waiting before publishing a container
   * (https://developers.facebook.com/docs/threads/posts, "wait on average 30 seconds"), and a
   * worker slot must not be held for it, so a container still IN_PROGRESS is handed back as
   * pending for a job due later.
   */
  async function publishReplyIfReady(credentials: AccountCredentials, containerId: string): Promise<ReplyOutcome> {
    const status = await containerState(credentials.accessToken, containerId);
    if (status.state === 'in_progress') return { state: 'pending', containerId };
    if (status.state !== 'finished') {
      // A published one cannot say which reply it became; failed and expired ones never will be.
      throw invalidRequest(platform, `the reply could not be published: ${status.message ?? status.state}`);
    }
    return { state: 'sent', id: await publish(credentials, containerId) };
  }

  return reportingMissingScopes({
    platform,
    scopes: SCOPES,
    refresh: { refreshBeforeExpiryMs: 7 * DAYS, minTokenAgeMs: 24 * HOURS },

    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('threads.net')}/oauth/authorize`, {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        scope: (scopes ?? SCOPES.requested).join(','),
        response_type: 'code',
        state,
      });
    },

    parseDeauthorization(notice) {
      return metaDeauthorizedUsers(platform, notice, options.clientSecret);
    },

    parseCallback(query) {
      return callbackOf(query, /#_$/);
    },

    async exchangeCode(code, redirectUri) {
      const short = await graph.call({
        method: 'POST',
        url: graph.url('/oauth/access_token', true),
        form: {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        },
      });
      const userId = requiredText(platform, short.user_id, 'user_id');
      const long = await graph.call({
        method: 'GET',
        url: graph.url('/access_token', true),
        query: {
          grant_type: 'th_exchange_token',
          client_secret: options.clientSecret,
          access_token: requiredText(platform, short.access_token, 'access_token'),
        },
      });
      const accessToken = requiredText(platform, long.access_token, 'access_token');
      const scopes = await grantedScopes(accessToken, SCOPES.requested);
      return { accessToken, expiresAt: tokenExpiry(now(), long.expires_in), platformUserId: userId, scopes };
    },

    async refreshToken({ accessToken, platformUserId }) {
      const body = await graph.call({
        method: 'GET',
        url: graph.url('/refresh_access_token', true),
        query: { grant_type: 'th_refresh_token', access_token: accessToken },
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
      // The Threads API documents no endpoint that revokes the app's access (no
      // DELETE /me/permissions): users remove the app in Threads' settings, and Threads then
      // calls the app's uninstall callback.
      throw unsupported(platform, "revoking the app's access (the Threads API has no endpoint for it)");
    },

    async profile({ platformUserId, accessToken }) {
      const me = await graph.get('/me', accessToken, { fields: 'id,username,name,threads_profile_picture_url' });
      return {
        id: requiredText(platform, me.id, 'id'),
        username: str(me.username),
        name: str(me.name),
        avatarUrl: str(me.threads_profile_picture_url),
        followersCount: await followersCount(platformUserId, accessToken),
      };
    },

    comments: {
      async recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
        const { graph: metered, meter } = graph.metered();
        const threads = await metered.getAll(
          `/${platformUserId}/threads`,
          accessToken,
          { fields: 'id,text,media_type,permalink,timestamp', limit: Math.min(posts, 100) },
          posts,
        );
        const summaries = threads
          .map((t) => postSummaryOf(t, 'text'))
          .filter((p): p is PlatformPostSummary => p !== null);
        const comments: PlatformComment[] = [];
        for (const { id: postId } of summaries) {
          const replies = await metered.getAll(
            `/${postId}/conversation`,
            accessToken,
            { fields: REPLY_FIELDS, limit: 100 },
            MAX_REPLIES_PER_POST,
          );
          for (const raw of replies) {
            const comment = toComment(raw, postId, platformUserId);
            if (comment) comments.push(comment);
          }
        }
        return {
          posts: summaries,
          comments: comments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
          usagePercent: meter.highest,
        };
      },

      parseCommentNotices(notice) {
        // A notice comes as the comment is made: without a time of its own, it is now.
        return threadsCommentNotices(notice, options.clientSecret, now());
      },

      async subscribeNotices() {
        // Threads documents no subscription per user: the app subscribes to the `replies` field in
        // its dashboard, and a user's replies are notified once the user granted threads_basic and
        // threads_read_replies (https://developers.facebook.com/docs/threads/webhooks).
      },

      async commentTimes({ accessToken }, commentIds) {
        // A reply is a Threads media object: its `timestamp` is when it was published.
        return commentTimesByReading(graph, accessToken, commentIds, 'timestamp');
      },

      async postSummary({ accessToken }, postId) {
        const post = await graph.get(`/${postId}`, accessToken, { fields: 'id,text,permalink,timestamp' });
        return requiredPostSummary(platform, post, 'text');
      },

      async reply(credentials, commentId, text) {
        checkText(text);
        if (text.trim() === '') throw invalidRequest(platform, 'a reply needs text');
        const containerId = await createOne(credentials, { media_type: 'TEXT', text, reply_to_id: commentId });
        return publishReplyIfReady(credentials, containerId);
      },

      async finishReply(credentials, containerId) {
        return publishReplyIfReady(credentials, containerId);
      },

      async setHidden({ accessToken }, commentId, hidden) {
        // Threads hides top-level replies only, each with the replies nested under it
        // (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies").
        const reply = await graph.get(`/${commentId}`, accessToken, { fields: 'replied_to,root_post' });
        const repliedTo = str(record(reply.replied_to).id);
        const root = str(record(reply.root_post).id);
        if (repliedTo !== null && root !== null && repliedTo !== root) {
          throw invalidRequest(
            platform,
            'only a top-level reply can be hidden or unhidden on Threads, and with it every reply nested under it',
          );
        }
        const body = await graph.post(`/${commentId}/manage_reply`, accessToken, { hide: String(hidden) });
        if (body.success === false) {
          throw new PlatformError('transient', 'threads did not confirm hiding the reply', { platform });
        }
      },
    },

    insights: {
      /*
       * Daily values in the fewest calls Threads' user insights allow
       * (https://developers.facebook.com/docs/threads/insights): likes, replies, reposts, quotes and
       * clicks come as one total over since..until, so a daily value costs a call per day, in which
       * every metric asked rides along, followers_count (today's count, whatever the range) only in
       * today's. views alone is a daily series, and Threads documents no longest range: then one
       * call for every day asked. Days before 2024-04-13 (Threads refuses an earlier since or until)
       * and days still to come cost nothing (null). For N days from 2024-04-13 up to today: N calls
       * (followers_count rides along); views and followers_count alone: one call.
       */
      async accountInsights({ platformUserId, accessToken }, days, metrics) {
        requireMetrics(platform, METRICS.account, metrics);
        checkDays(platform, days);
        const { graph: metered, meter } = graph.metered();
        const at = now();
        const todayDay = today(at);
        const figures: DailyMetrics = emptyFigures(days, metrics);
        const firstDay = new Date(INSIGHTS_EPOCH * 1000).toISOString().slice(0, 10);
        const read = daysUpTo(days, todayDay).filter((day) => day >= firstDay);
        const daily = metrics.filter((m) => m !== 'followers_count');
        const followers = metrics.includes('followers_count') && read.includes(todayDay);
        const insights = async (first: string, last: string, asked: string[]) => {
          const { since, until } = readRange(first, last, at);
          return metered.get(`/${platformUserId}/threads_insights`, accessToken, {
            metric: asked.join(','),
            since: Math.max(since, INSIGHTS_EPOCH),
            until,
          });
        };
        if (daily.every((m) => DAILY_SERIES_METRICS.includes(m))) {
          const asked = [...daily, ...(followers ? ['followers_count'] : [])];
          if (asked.length > 0 && read.length > 0) {
            const body = await insights(read[0] as string, read.at(-1) as string, asked);
            for (const metric of daily) {
              const series = dailyValues(body, metric);
              for (const day of read) setFigure(figures, day, metric, series.get(day) ?? null);
            }
            if (followers) setFigure(figures, todayDay, 'followers_count', metricValue(body, 'followers_count'));
          }
        } else {
          for (const day of read) {
            // followers_count is today's count whatever the range: it says nothing of other days.
            const asked = [...daily, ...(followers && day === todayDay ? ['followers_count'] : [])];
            const body = await insights(day, day, asked);
            for (const metric of asked) setFigure(figures, day, metric, metricValue(body, metric));
          }
        }
        return { figures, usagePercent: meter.highest };
      },

      async postInsights({ accessToken }, postId, metrics) {
        requireMetrics(platform, METRICS.post, metrics);
        const { graph: metered, meter } = graph.metered();
        const body = await metered.get(`/${postId}/insights`, accessToken, { metric: metrics.join(',') });
        return {
          figures: Object.fromEntries(metrics.map((m) => [m, metricValue(body, m)])),
          usagePercent: meter.highest,
        };
      },
    },

    publishing: {
      checkPublish(draft) {
        return threadsProblems(draft);
      },

      async createContainer(credentials, request) {
        refuseProblems(platform, threadsProblems(draftOf(request)));
        const { text, media, replyToId } = request;
        const options = optionsOf(THREADS_OPTIONS, request.options);
        // https://developers.facebook.com/docs/threads/posts: reply_control and topic_tag go on
        // the post's own container (the carousel's, not its items').
        const extra = {
          ...(replyToId !== undefined ? { reply_to_id: replyToId } : {}),
          ...(options.reply_control !== undefined ? { reply_control: options.reply_control } : {}),
          ...(options.topic_tag !== undefined ? { topic_tag: options.topic_tag } : {}),
        };
        const kind = replyToId !== undefined ? 'r' : 'p';
        const made = now();
        const ref = (id: string) => ({ containerId: containerRef(id, kind, made, text ?? '') });
        const [first] = media;
        if (first === undefined) return ref(await createOne(credentials, { media_type: 'TEXT', text, ...extra }));
        if (media.length === 1) return ref(await createOne(credentials, { ...mediaFields(first), text, ...extra }));
        const children: string[] = [];
        for (const item of media) {
          children.push(await createOne(credentials, { ...mediaFields(item), is_carousel_item: 'true' }));
        }
        return ref(
          await createOne(credentials, { media_type: 'CAROUSEL', children: children.join(','), text, ...extra }),
        );
      },

      async containerStatus({ accessToken }, containerId) {
        return containerState(accessToken, requireContainerRef(platform, containerId).id);
      },

      async publishContainer(credentials, containerId) {
        const id = await publish(credentials, requireContainerRef(platform, containerId).id);
        const permalink = await permalinkAfterPublish(graph, credentials.accessToken, id);
        return { id, permalink };
      },

      async publishingQuota({ platformUserId, accessToken }) {
        // https://developers.facebook.com/docs/threads/overview#rate-limiting: 250 posts in a
        // moving 24 hours, a carousel counting as one.
        return readQuota(graph, { platformUserId, accessToken }, 'threads_publishing_limit');
      },

      async findPublished(credentials, containerId) {
        const ref = requireContainerRef(platform, containerId);
        if ((await containerState(credentials.accessToken, ref.id)).state !== 'published') return null;
        if (ref.at === null) {
          throw invalidRequest(
            platform,
            'the container was published, but its reference does not say what to look for',
          );
        }
        // A container does not name the post it became: the account's recent posts (or its
        // replies, for a reply) with the same text, published since the container was made.
        const items = await graph.getAll(
          `/${credentials.platformUserId}/${ref.kind === 'r' ? 'replies' : 'threads'}`,
          credentials.accessToken,
          { fields: 'id,text,permalink,timestamp', limit: 50 },
          50,
        );
        const match = matchPublished(
          items.map((item) => recentPostOf(item, 'text')).filter((p) => p !== null),
          ref,
        );
        return match === null ? null : { id: match.id, permalink: match.permalink };
      },
    },
  });

  /**
   * Followers are an insights metric on Threads, not a user field: null when the token may
   * not read insights (or Threads has no figure), rather than failing the whole profile.
   */
  async function followersCount(userId: string, accessToken: string): Promise<number | null> {
    try {
      const body = await graph.get(`/${userId}/threads_insights`, accessToken, { metric: 'followers_count' });
      return metricValue(body, 'followers_count');
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'permission_missing') return null;
      throw error;
    }
  }
}

export const threadsPlatform: PlatformDefinition & { platform: 'threads' } = {
  platform: 'threads',
  label: 'Threads',
  grantsPages: false,
  // Hiding: top-level replies only, the nested ones follow their top-level reply
  // (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies"). Threads
  // documents no rule against answering a hidden reply.
  comments: { replyToHidden: true, hideReplies: false },
  insights: METRICS,
  publishing: {
    kinds: ['text', 'image', 'video', 'carousel'],
    containerPublishes: false,
    // Threads' media specification: JPEG and PNG.
    imageTypes: ['image/jpeg', 'image/png'],
    options: THREADS_OPTIONS,
  },
  create: threadsAdapter,
};
