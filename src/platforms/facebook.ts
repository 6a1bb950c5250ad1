/**
 * Facebook Pages through Facebook Login: one login grants several pages, each with a page
 * token of its own; every page the user picks becomes an account. Facts: docs/platforms.md
 * ("Facebook Pages") and Meta's Graph API for pages.
 */
import { Type } from 'typebox';
import { facebookCommentNotices } from './comment-notices.ts';
import type { PlatformDefinition } from './definition.ts';
import { invalidRequest, unsupported } from './errors.ts';
import { type AdapterOptions, list, num, record, requiredText, str } from './http.ts';
import { commentTimesByReading } from './meta/comments.ts';
import { matchPublished, recentPostOf, textDigest } from './meta/container-refs.ts';
import { permalinkAfterPublish } from './meta/containers.ts';
import { idOf, postSummaryOf, requiredPostSummary, requireSuccess } from './meta/graph-answers.ts';
import { GraphClient } from './meta/graph-client.ts';
import { reportingMissingScopes } from './missing-scopes.ts';
import { draftOf, isHttpUrl, optionsOf, problem, refuseProblems } from './publish-checks.ts';
import { callbackOf, loginUrl, tokenExpiry } from './sign-in.ts';
import {
  type AccountCredentials,
  type GrantedTokenSet,
  type PageGrant,
  type PlatformAdapter,
  type PlatformComment,
  PlatformError,
  type PlatformPostSummary,
  type PublishDraft,
  type PublishedPost,
  type PublishProblem,
  type ScopePolicy,
} from './types.ts';

const VERSION = 'v22.0';
const HOURS = 3_600_000;
const DAYS = 24 * HOURS;

const SCOPE = {
  showList: 'pages_show_list',
  readEngagement: 'pages_read_engagement',
  readUserContent: 'pages_read_user_content',
  manageEngagement: 'pages_manage_engagement',
  managePosts: 'pages_manage_posts',
  /** Needed (with pages_show_list) to subscribe a page to the app's `feed` webhooks. */
  manageMetadata: 'pages_manage_metadata',
} as const;

const SCOPES: ScopePolicy = {
  requested: [
    SCOPE.showList,
    SCOPE.readEngagement,
    SCOPE.readUserContent,
    SCOPE.manageEngagement,
    SCOPE.managePosts,
    SCOPE.manageMetadata,
  ],
  required: [SCOPE.showList, SCOPE.readEngagement],
  byAction: {
    read_profile: [SCOPE.showList],
    read_comments: [SCOPE.readUserContent],
    comment_notices: [SCOPE.manageMetadata, SCOPE.showList],
    reply: [SCOPE.manageEngagement],
    hide: [SCOPE.manageEngagement],
    publish: [SCOPE.managePosts],
  },
  // pages_show_list is required at connection: a refused subscription lacks pages_manage_metadata.
  refusedFor: { comment_notices: [SCOPE.manageMetadata] },
};

const PAGE_FIELDS = 'id,name,access_token,instagram_business_account,picture';
const PROFILE_FIELDS = 'id,name,username,picture,followers_count,fan_count';
const POST_FIELDS = 'id,message,created_time,permalink_url';
const COMMENT_FIELDS = 'id,message,created_time,from{id,name},is_hidden,parent{id}';
const COMMENTS_PER_POST = 500;

/**
 * Facebook has no publishing containers: the "container" is the post itself, written into
 * its id (photos already uploaded unpublished), so publishing needs no state of ours.
 */
const CONTAINER_PREFIX = 'fbpost.';

interface PendingPost {
  page: string;
  message: string | null;
  photoIds: string[];
  link: string | null;
  /** Unix seconds the container was made (absent in containers made before findPublished). */
  at: number | null;
}

function encodeContainer(post: PendingPost): string {
  const json = JSON.stringify({
    page: post.page,
    message: post.message,
    photo_ids: post.photoIds,
    ...(post.link !== null ? { link: post.link } : {}),
    ...(post.at !== null ? { at: post.at } : {}),
  });
  return `${CONTAINER_PREFIX}${Buffer.from(json, 'utf8').toString('base64url')}`;
}

/** The post a container id stands for, or null when the id is not one this adapter made. */
function decodeContainer(containerId: string): PendingPost | null {
  if (!containerId.startsWith(CONTAINER_PREFIX)) return null;
  const encoded = containerId.slice(CONTAINER_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const body = record(parsed);
  const page = str(body.page);
  const ids = list(body.photo_ids);
  const photoIds = ids.map(str).filter((id): id is string => id !== null && /^[0-9A-Za-z_]+$/.test(id));
  const message = body.message === null || body.message === undefined ? null : str(body.message);
  const link = isHttpUrl(body.link) ? body.link : null;
  const at = num(body.at);
  if (page === null || !/^[0-9A-Za-z_]+$/.test(page) || photoIds.length !== ids.length) return null;
  if (message === null && photoIds.length === 0 && link === null) return null;
  return { page, message, photoIds, link, at };
}

/** Facebook allows 63,206 characters in a post (Pages' post limits). */
const MAX_MESSAGE = 63_206;

/** What a page post takes beside its text (`platforms.facebook`). */
const FACEBOOK_OPTIONS = Type.Object(
  {
    link: Type.Optional(
      Type.String({ maxLength: 2048, description: 'A link the page post shares (absolute http or https URL).' }),
    ),
  },
  { additionalProperties: false },
);

/** Every rule of a page post the draft breaks: text, a link or images; no video through the service. */
function facebookProblems({ text, media, options }: PublishDraft): PublishProblem[] {
  const problems: PublishProblem[] = [];
  const { link } = optionsOf(FACEBOOK_OPTIONS, options);
  if (link !== undefined && !isHttpUrl(link)) {
    problems.push(problem('platforms.facebook.link', 'must be an absolute http(s) URL'));
  }
  if ((text ?? '').trim() === '' && media.length === 0 && link === undefined) {
    problems.push(problem('text', 'a Facebook post needs text, a link or images'));
  }
  if ((text ?? '').length > MAX_MESSAGE) {
    problems.push(problem('text', `a Facebook post has at most ${MAX_MESSAGE} characters`));
  }
  if (media.some((m) => m.type === 'video')) {
    problems.push(problem('media_ids', 'videos are not published to Facebook pages (images only)'));
  }
  return problems;
}

/** `picture` as Graph answers it: `{"data":{"url"}}` (a bare URL string is accepted too). */
function pictureUrl(picture: unknown): string | null {
  return str(picture) ?? str(record(record(picture).data).url);
}

export function facebookAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const platform = 'facebook';
  const graph = new GraphClient(platform, options.hostUrl('graph.facebook.com'), VERSION, options, now);

  /** A long-lived token for a short-lived one, or a fresh one for a long-lived user or page token. */
  async function exchangeToken(token: string): Promise<{ accessToken: string; expiresAt: Date | null }> {
    const body = await graph.call({
      method: 'GET',
      url: graph.url('/oauth/access_token'),
      query: {
        grant_type: 'fb_exchange_token',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        fb_exchange_token: token,
      },
    });
    // Page tokens come back without `expires_in`: they do not expire.
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(now(), body.expires_in),
    };
  }

  async function permissions(accessToken: string): Promise<string[]> {
    const body = await graph.get('/me/permissions', accessToken);
    return list(body.data)
      .map(record)
      .filter((p) => p.status === 'granted')
      .map((p) => str(p.permission))
      .filter((p): p is string => p !== null);
  }

  function toComment(raw: unknown, postId: string, pageId: string): PlatformComment | null {
    const c = record(raw);
    const id = str(c.id);
    const created = Date.parse(str(c.created_time) ?? '');
    if (id === null || Number.isNaN(created)) return null;
    // `from` is left out for people who have not allowed apps to see them.
    const from = record(c.from);
    const authorId = str(from.id);
    return {
      id,
      postId,
      parentId: str(record(c.parent).id),
      authorId,
      authorUsername: str(from.name),
      text: str(c.message) ?? '',
      createdAt: new Date(created),
      hidden: c.is_hidden === true,
      byAccount: authorId !== null && authorId === pageId,
    };
  }

  function toPage(raw: unknown): PageGrant | null {
    const p = record(raw);
    const id = str(p.id);
    const accessToken = str(p.access_token);
    if (id === null || accessToken === null || accessToken === '') return null;
    return {
      id,
      name: str(p.name) ?? id,
      avatarUrl: pictureUrl(p.picture),
      accessToken,
      instagramBusinessAccountId: str(record(p.instagram_business_account).id),
    };
  }

  function pendingPost(credentials: AccountCredentials, containerId: string): PendingPost {
    const post = decodeContainer(containerId);
    if (post === null) throw invalidRequest(platform, `not a Facebook post container: ${containerId.slice(0, 40)}`);
    if (post.page !== credentials.platformUserId) {
      throw invalidRequest(platform, 'the container was made for another page');
    }
    return post;
  }

  /**
   * The post a container became, if it was published: the page's recent posts with its
   * message, published since the container was made (the feed answer is the only link
   * from a container to its post, and a crash may have lost it). Containers made before
   * they carried their time cannot be looked for: null.
   */
  async function publishedAs(credentials: AccountCredentials, post: PendingPost): Promise<PublishedPost | null> {
    if (post.at === null) return null;
    const recent = await graph.getAll(
      `/${credentials.platformUserId}/posts`,
      credentials.accessToken,
      { fields: POST_FIELDS, limit: 25 },
      25,
    );
    const match = matchPublished(
      recent.map((item) => recentPostOf(item, 'message', 'created_time')).filter((p) => p !== null),
      { id: '', kind: null, at: post.at, textDigest: textDigest(post.message ?? '') },
    );
    return match === null ? null : { id: match.id, permalink: match.permalink };
  }

  return reportingMissingScopes({
    platform,
    scopes: SCOPES,
    refresh: { refreshBeforeExpiryMs: 7 * DAYS, minTokenAgeMs: 24 * HOURS },

    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('www.facebook.com')}/${VERSION}/dialog/oauth`, {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        state,
        scope: (scopes ?? SCOPES.requested).join(','),
        response_type: 'code',
      });
    },

    parseDeauthorization() {
      // Its notice names the Facebook user, while the accounts are that user's pages: a
      // removed app shows as access_revoked on the pages' next call instead.
      throw unsupported(platform, 'deauthorize notices (pages are accounts, not users)');
    },

    parseCallback(query) {
      return callbackOf(query, /#_=_$/);
    },

    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      const short = await graph.call({
        method: 'GET',
        url: graph.url('/oauth/access_token'),
        query: { client_id: options.clientId, redirect_uri: redirectUri, client_secret: options.clientSecret, code },
      });
      const long = await exchangeToken(requiredText(platform, short.access_token, 'access_token'));
      const me = await graph.get('/me', long.accessToken, { fields: 'id,name' });
      return {
        accessToken: long.accessToken,
        expiresAt: long.expiresAt,
        platformUserId: requiredText(platform, me.id, 'id'),
        scopes: await permissions(long.accessToken),
      };
    },

    async refreshToken({ accessToken, platformUserId }) {
      // The exchange answer does not name the scopes; the grant's stay as they were.
      return { ...(await exchangeToken(accessToken)), platformUserId, scopes: null };
    },

    async revokeAccess() {
      // Graph revokes a login with DELETE /{user-id}/permissions, made with the user's token
      // or the app's (https://developers.facebook.com/docs/graph-api/reference/user/permissions/).
      // The service keeps page tokens only, and revoking the user's login would also end the
      // access to every other page that login granted, which may be other accounts.
      throw unsupported(platform, "revoking the app's access with a page token (only the user's login can be revoked)");
    },

    async profile({ platformUserId, accessToken }) {
      const page = await graph.get(`/${platformUserId}`, accessToken, { fields: PROFILE_FIELDS });
      return {
        id: requiredText(platform, page.id, 'id'),
        username: str(page.username),
        name: str(page.name),
        avatarUrl: pictureUrl(page.picture),
        // Pages without followers_count (older ones) still have likes.
        followersCount: num(page.followers_count) ?? num(page.fan_count),
      };
    },

    async pages({ accessToken }) {
      const data = await graph.getAll('/me/accounts', accessToken, { fields: PAGE_FIELDS, limit: 100 }, 1000);
      return data.map(toPage).filter((p): p is PageGrant => p !== null);
    },

    comments: {
      async recentComments({ platformUserId, accessToken }, { posts = 10 } = {}) {
        const { graph: metered, meter } = graph.metered();
        const recent = await metered.getAll(
          `/${platformUserId}/posts`,
          accessToken,
          { fields: POST_FIELDS, limit: Math.min(Math.max(posts, 1), 100) },
          posts,
        );
        const summaries = recent
          .map((p) => postSummaryOf(p, 'message', 'created_time'))
          .filter((p): p is PlatformPostSummary => p !== null);
        const comments: PlatformComment[] = [];
        for (const { id: postId } of summaries) {
          // `filter=stream` answers replies at every depth in one flat list, each naming its parent.
          const raw = await metered.getAll(
            `/${postId}/comments`,
            accessToken,
            { fields: COMMENT_FIELDS, filter: 'stream', order: 'reverse_chronological', limit: 100 },
            COMMENTS_PER_POST,
          );
          for (const entry of raw) {
            const comment = toComment(entry, postId, platformUserId);
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
        return facebookCommentNotices(notice, options.clientSecret, now());
      },

      async subscribeNotices({ platformUserId, accessToken }) {
        // "To get your Page to install the app, have your app send a POST request to the Page's
        // subscribed_apps edge using the Page's access token"; `feed` needs pages_manage_metadata
        // and pages_show_list (Webhooks for Pages, https://developers.facebook.com/docs/pages-api/webhooks-for-pages).
        const body = await graph.post(`/${platformUserId}/subscribed_apps`, accessToken, { subscribed_fields: 'feed' });
        requireSuccess(platform, body, 'the subscription to the page feed');
      },

      async commentTimes({ accessToken }, commentIds) {
        return commentTimesByReading(graph, accessToken, commentIds, 'created_time');
      },

      async postSummary({ accessToken }, postId) {
        const post = await graph.get(`/${postId}`, accessToken, { fields: POST_FIELDS });
        return requiredPostSummary(platform, post, 'message', 'created_time');
      },

      async reply({ accessToken }, commentId, text) {
        const id = idOf(platform, await graph.post(`/${commentId}/comments`, accessToken, { message: text }));
        return { state: 'sent', id };
      },

      async setHidden({ accessToken }, commentId, hidden) {
        const body = await graph.post(`/${commentId}`, accessToken, { is_hidden: String(hidden) });
        if (body.success === false) {
          throw new PlatformError('transient', `facebook did not ${hidden ? 'hide' : 'unhide'} ${commentId}`, {
            platform,
          });
        }
      },
    },

    publishing: {
      checkPublish(draft) {
        return facebookProblems(draft);
      },

      async createContainer({ platformUserId, accessToken }, request) {
        refuseProblems(platform, facebookProblems(draftOf(request)));
        const { text, media } = request;
        const message = text !== undefined && text !== '' ? text : null;
        const photoIds: string[] = [];
        for (const image of media) {
          // Unpublished: the photos appear only once the post attaching them is published.
          const body = await graph.post(`/${platformUserId}/photos`, accessToken, {
            url: image.url,
            published: 'false',
          });
          photoIds.push(idOf(platform, body));
        }
        const link = optionsOf(FACEBOOK_OPTIONS, request.options).link ?? null;
        const at = Math.floor(now().getTime() / 1000);
        return { containerId: encodeContainer({ page: platformUserId, message, photoIds, link, at }) };
      },

      async containerStatus(credentials, containerId) {
        const post = pendingPost(credentials, containerId);
        return (await publishedAs(credentials, post)) === null ? { state: 'finished' } : { state: 'published' };
      },

      async publishContainer(credentials, containerId) {
        const post = pendingPost(credentials, containerId);
        const form: Record<string, string | undefined> = {
          message: post.message ?? undefined,
          link: post.link ?? undefined,
        };
        for (const [i, id] of post.photoIds.entries())
          form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
        const id = idOf(
          platform,
          await graph.post(`/${credentials.platformUserId}/feed`, credentials.accessToken, form),
        );
        const permalink = await permalinkAfterPublish(graph, credentials.accessToken, id, 'permalink_url');
        return { id, permalink };
      },

      async publishingQuota() {
        // Pages publish no quota to read; their limits show as throttling errors (rate_limited).
        return null;
      },

      async findPublished(credentials, containerId) {
        return publishedAs(credentials, pendingPost(credentials, containerId));
      },
    },
  });
}

export const facebookPlatform: PlatformDefinition & { platform: 'facebook' } = {
  platform: 'facebook',
  label: 'Facebook Pages',
  grantsPages: true,
  // A Comment's `is_hidden` can be set on replies as on top-level comments, which `can_hide`
  // tells per comment; a page may comment on a hidden comment (Graph API Comment reference,
  // https://developers.facebook.com/docs/graph-api/reference/comment). A page's own comments
  // cannot be hidden: the sandbox answers `can_hide: false` for them.
  comments: { replyToHidden: true, hideReplies: true },
  // The service offers insights for Instagram and Threads only.
  insights: null,
  publishing: {
    // No video on pages; several photos make one post.
    kinds: ['text', 'image', 'carousel'],
    containerPublishes: false,
    // Facebook's photo formats include JPEG and PNG; WebP is converted to be safe.
    imageTypes: ['image/jpeg', 'image/png'],
    options: FACEBOOK_OPTIONS,
  },
  create: facebookAdapter,
};
