/**
 * Facebook Pages through Facebook Login, imitated: www.facebook.com (the permission page,
 * where the user also picks pages) and graph.facebook.com (tokens, permissions, the pages
 * and their tokens, page profile, posts, comments, photos and publishing). Shapes as in
 * docs/platforms.md ("Facebook Pages") and Meta's Graph API for pages.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerAuthorizeDialog, withParams } from './authorize-page.ts';
import { type Caller, type CallOptions, caller, requireScope } from './caller.ts';
import { installAnswers, isHttpUrl, limitParam, param, requiredParam } from './kit.ts';
import { fetchMedia } from './media-fetch.ts';
import { graph, graphAnswer, graphErrors } from './meta/errors.ts';
import { checkVersion, graphTime, pick, requestedFields } from './meta/fields.ts';
import { afterCursor, graphList } from './meta/paging.ts';
import { subscribedFields } from './meta/subscribed-apps.ts';
import { reportAppUsage } from './meta/usage.ts';
import type { Store } from './platform.ts';
import { type SandboxAccount, type SandboxComment, type SandboxPost, sandboxCodes } from './schema.ts';
import { findAccount, pagesOf } from './store/accounts.ts';
import { recordActivity, recordPublication } from './store/activity.ts';
import { setAppSubscription } from './store/app-subscriptions.ts';
import { addComment, commentsUnder, findComment, listComments, setCommentHidden } from './store/comments.ts';
import { createContainer, findContainer, markContainerPublished } from './store/containers.ts';
import { endTokens, issueToken, redeemCode } from './store/grants.ts';
import { createPost, findPost, listPosts } from './store/posts.ts';
import { notifyCommentAdded } from './webhooks.ts';

const platform = 'facebook';
const call: CallOptions = { platform, errors: graphErrors(platform, { revokedSubcode: 458 }) };
const publishCall: CallOptions = { ...call, publishing: true };
const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
const MINUTE = 60_000;
const SHORT_LIVED_SECONDS = 2 * 3_600;
const LONG_LIVED_SECONDS = 60 * 86_400;
const TOKEN_PREFIX = 'EAAG';

const SCOPE = {
  showList: 'pages_show_list',
  readEngagement: 'pages_read_engagement',
  readUserContent: 'pages_read_user_content',
  manageEngagement: 'pages_manage_engagement',
  managePosts: 'pages_manage_posts',
  manageMetadata: 'pages_manage_metadata',
};
/**
 * The dialog does not keep what the app asked for, only what was ticked: /me/permissions
 * reports these Pages permissions as `declined` when they were not granted.
 */
const PAGE_PERMISSIONS = Object.values(SCOPE);
/** Page webhook fields a page can subscribe the app to (Page reference, `subscribed_apps`, a part of its list). */
const PAGE_WEBHOOK_FIELDS = [
  'feed',
  'mention',
  'name',
  'picture',
  'category',
  'description',
  'conversations',
  'messages',
  'message_echoes',
  'messaging_postbacks',
  'ratings',
  'videos',
  'live_videos',
];
/** Every Facebook login grants the public profile. */
const PUBLIC_PROFILE = 'public_profile';

function renderPicture(account: SandboxAccount) {
  return { data: { height: 50, width: 50, is_silhouette: false, url: account.avatarUrl } };
}

function renderPage(page: SandboxAccount, fields: Set<string>, accessToken?: string) {
  return pick(
    {
      id: page.id,
      name: page.name,
      username: page.username,
      category: 'Brand',
      category_list: [{ id: '1605186416478696', name: 'Brand' }],
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      link: `https://www.facebook.com/${page.id}`,
      picture: renderPicture(page),
      followers_count: page.followersCount,
      fan_count: Math.round(page.followersCount * 0.9),
      access_token: accessToken,
      instagram_business_account:
        page.instagramBusinessAccountId === null ? undefined : { id: page.instagramBusinessAccountId },
    },
    fields,
  );
}

function renderUser(user: SandboxAccount, fields: Set<string>) {
  return pick({ id: user.id, name: user.name, picture: renderPicture(user) }, fields);
}

function renderPost(post: SandboxPost, fields: Set<string>) {
  return pick(
    {
      id: post.id,
      message: post.caption === '' ? undefined : post.caption,
      created_time: graphTime(post.createdAt),
      permalink_url: post.permalink,
      full_picture: post.mediaUrl ?? undefined,
      status_type: post.mediaType === 'TEXT' ? 'mobile_status_update' : 'added_photos',
      is_published: true,
    },
    fields,
  );
}

/** Graph's `from` is `{id, name}`: the page's own comments carry the page's name. */
function renderComment(comment: SandboxComment, page: SandboxAccount, fields: Set<string>) {
  const byPage = comment.authorId === page.id;
  return pick(
    {
      id: comment.id,
      message: comment.text,
      created_time: graphTime(comment.createdAt),
      from: { id: comment.authorId, name: byPage ? page.name : comment.authorUsername },
      is_hidden: comment.hidden,
      can_hide: !byPage,
      parent: comment.parentId === null ? undefined : { id: comment.parentId },
      like_count: 0,
    },
    fields,
  );
}

/** `me` is the token's own account (the user, or the page for a page token). */
function targetId(request: FastifyRequest, who: Caller): string {
  const { id } = request.params as { id: string };
  return id === 'me' ? who.account.id : id;
}

/**
 * Page objects answer page tokens of that page only. A user token naming one of its
 * granted pages is told (as Graph does) that a page token is needed; others see nothing.
 */
function requirePageToken(who: Caller, pageId: string, objectId: string): void {
  if (who.account.id === pageId && who.account.kind === 'page') return;
  if (who.account.kind === 'user' && who.token.pageIds.includes(pageId)) {
    throw graphAnswer(400, 210, '(#210) A page access token is required to request this resource.');
  }
  throw graph.notFound(objectId);
}

/** A post by id, plain or Graph's `<page-id>_<post-id>`. */
async function findPagePost(store: Store, id: string): Promise<SandboxPost | undefined> {
  const match = /^(\d+)_(\d+)$/.exec(id);
  if (!match) return findPost(store, id);
  const post = await findPost(store, match[2] as string);
  return post?.accountId === match[1] ? post : undefined;
}

async function ownPost(store: Store, who: Caller, id: string): Promise<SandboxPost> {
  const post = await findPagePost(store, id);
  if (!post) throw graph.notFound(id);
  requirePageToken(who, post.accountId, id);
  return post;
}

async function ownComment(store: Store, who: Caller, id: string): Promise<SandboxComment> {
  const comment = await findComment(store, id);
  if (!comment) throw graph.notFound(id);
  await ownPost(store, who, comment.postId);
  return comment;
}

/** The page itself, answered to its own page token. */
function ownPage(who: Caller, id: string): SandboxAccount {
  requirePageToken(who, id, id);
  return who.account;
}

/**
 * The code exchange's refusal, told the way Graph tells it: used (36009), expired (36007),
 * another redirect_uri (36008), or unknown.
 */
async function codeRefusal(store: Store, code: string, redirectUri: string) {
  const [row] = await store.db.select().from(sandboxCodes).where(eq(sandboxCodes.code, code));
  if (!row || row.platform !== platform) {
    return graphAnswer(400, 100, 'Invalid verification code format.');
  }
  if (row.usedAt !== null) return graphAnswer(400, 100, 'This authorization code has been used.', { subcode: 36009 });
  if (row.expiresAt <= store.now()) {
    return graphAnswer(400, 100, 'This authorization code has expired.', { subcode: 36007 });
  }
  if (row.redirectUri !== redirectUri) {
    return graphAnswer(
      400,
      100,
      'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      { subcode: 36008 },
    );
  }
  return graphAnswer(400, 1, 'Error validating client.', { subcode: 36010 });
}

/**
 * The caller of an `fb_exchange_token` request, whose token is in that parameter: caller()
 * reads `access_token` (query, form or Bearer), so it is handed a request naming that one.
 */
function tokenAnswer(token: { token: string; expiresAt: Date | null }, store: Store) {
  if (token.expiresAt === null) return { access_token: token.token, token_type: 'bearer' };
  const seconds = Math.round((token.expiresAt.getTime() - store.now().getTime()) / 1000);
  return { access_token: token.token, token_type: 'bearer', expires_in: seconds };
}

function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** The photo id of one `attached_media` entry (`{"media_fbid":"..."}`, as JSON text or parsed). */
function mediaFbid(value: unknown, index: number): string {
  const id = (jsonValue(value) as { media_fbid?: unknown } | undefined)?.media_fbid;
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw graph.badParameter(`attached_media[${index}] must be {"media_fbid":"<photo id>"}`);
  }
  return String(id);
}

/** The `attached_media[N]={"media_fbid":"..."}` parameters of a feed post (a JSON array is accepted too). */
function attachedMedia(request: FastifyRequest): string[] {
  const sources = {
    ...(request.query as Record<string, unknown>),
    ...((request.body ?? {}) as Record<string, unknown>),
  };
  const whole = jsonValue(sources.attached_media);
  if (sources.attached_media !== undefined && !Array.isArray(whole)) {
    throw graph.badParameter('attached_media must be a JSON array of {"media_fbid"}');
  }
  const entries: [number, unknown][] = Array.isArray(whole) ? whole.map((item, i) => [i, item]) : [];
  for (const [name, value] of Object.entries(sources)) {
    const indexed = /^attached_media\[(\d+)\]$/.exec(name);
    if (indexed) entries.push([Number(indexed[1]), value]);
  }
  return entries.sort((a, b) => a[0] - b[0]).map(([i, value]) => mediaFbid(value, i));
}

/** Comments of a post or under a comment: `filter` toplevel | stream, `order` chronological | reverse_chronological. */
function selectComments(all: SandboxComment[], parentId: string | null, request: FastifyRequest): SandboxComment[] {
  const filter = param(request, 'filter') ?? 'toplevel';
  const order = param(request, 'order') ?? 'chronological';
  if (filter !== 'toplevel' && filter !== 'stream') throw graph.badParameter('filter must be toplevel or stream');
  if (!['chronological', 'reverse_chronological', 'ranked'].includes(order)) {
    throw graph.badParameter('order must be chronological, reverse_chronological or ranked');
  }
  let selected: SandboxComment[];
  if (filter === 'toplevel') selected = all.filter((c) => c.parentId === parentId);
  else if (parentId === null) selected = all;
  else selected = commentsUnder(all, parentId);
  const newestFirst = [...selected].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id),
  );
  return order === 'reverse_chronological' ? newestFirst : newestFirst.reverse();
}

export function facebookHosts(store: Store): Record<string, (app: FastifyInstance) => void> {
  async function issueUserToken(
    who: { accountId: string; clientId: string; scopes: string[]; pageIds: string[] },
    kind: 'short' | 'long',
  ) {
    return issueToken(
      store,
      { platform, ...who, kind, prefix: TOKEN_PREFIX },
      (kind === 'short' ? SHORT_LIVED_SECONDS : LONG_LIVED_SECONDS) * 1000,
    );
  }

  /** A page token: from a long-lived user token it does not expire; from a short one it ends with it. */
  async function issuePageToken(user: Caller, page: SandboxAccount) {
    const ttl =
      user.token.kind === 'page' || user.token.expiresAt === null || user.token.kind === 'long'
        ? null
        : Math.max(0, user.token.expiresAt.getTime() - store.now().getTime());
    return issueToken(
      store,
      {
        platform,
        accountId: page.id,
        kind: 'page',
        clientId: user.token.clientId,
        scopes: user.token.scopes,
        pageIds: [page.id],
        prefix: TOKEN_PREFIX,
      },
      ttl,
    );
  }

  async function codeExchange(request: FastifyRequest) {
    const clientId = requiredParam(request, graph, 'client_id');
    const redirectUri = requiredParam(request, graph, 'redirect_uri');
    requiredParam(request, graph, 'client_secret');
    const code = requiredParam(request, graph, 'code');
    const grant = await redeemCode(store, { platform, code, clientId, redirectUri });
    if (!grant) throw await codeRefusal(store, code, redirectUri);
    const token = await issueUserToken(
      { accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes, pageIds: grant.pageIds },
      'short',
    );
    return tokenAnswer(token, store);
  }

  async function tokenExchange(request: FastifyRequest) {
    const clientId = requiredParam(request, graph, 'client_id');
    requiredParam(request, graph, 'client_secret');
    const who = await caller(store, request, call, requiredParam(request, graph, 'fb_exchange_token'));
    if (who.token.clientId !== clientId) {
      throw graphAnswer(400, 100, 'Error validating application. The token was issued to another app.');
    }
    if (who.token.kind === 'page') return tokenAnswer(await issuePageToken(who, who.account), store);
    const long = await issueUserToken(
      { accountId: who.account.id, clientId, scopes: who.token.scopes, pageIds: who.token.pageIds },
      'long',
    );
    return tokenAnswer(long, store);
  }

  return {
    'www.facebook.com': (app) => {
      app.addHook('preHandler', async (request, reply) => {
        const version = (request.params as { version?: string }).version;
        if (version !== undefined && !/^v\d+\.\d+$/.test(version)) {
          return reply.code(404).type('text/html; charset=utf-8').send('<h1>This page isn&#39;t available</h1>');
        }
      });
      registerAuthorizeDialog(app, '/:version/dialog/oauth', store, {
        platform,
        label: 'Facebook (sandbox): allow access',
        clientParam: 'client_id',
        codeTtlMs: 10 * MINUTE,
        withPages: true,
        success: (uri, { code, state }) => withParams(uri, { code, state }, '_=_'),
        cancel: (uri, state) =>
          withParams(uri, {
            error: 'access_denied',
            error_code: '200',
            error_description: 'Permissions error',
            error_reason: 'user_denied',
            state,
          }),
      });
    },

    'graph.facebook.com': (app) => {
      reportAppUsage(app, store);
      installAnswers(app, call.errors);

      async function accessToken(request: FastifyRequest) {
        const grantType = param(request, 'grant_type');
        if (grantType === 'fb_exchange_token') return tokenExchange(request);
        if (grantType !== undefined && grantType !== 'authorization_code') {
          throw graph.badParameter('grant_type must be fb_exchange_token when given');
        }
        return codeExchange(request);
      }
      app.get('/oauth/access_token', accessToken);
      app.get('/:version/oauth/access_token', async (request) => {
        checkVersion(request);
        return accessToken(request);
      });

      app.get('/:version/me', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const fields = requestedFields(request, ['id', 'name']);
        return who.account.kind === 'page' ? renderPage(who.account, fields) : renderUser(who.account, fields);
      });

      app.get('/:version/me/permissions', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const granted = [...new Set([PUBLIC_PROFILE, ...who.token.scopes])];
        const declined = PAGE_PERMISSIONS.filter((p) => !granted.includes(p));
        return {
          data: [
            ...granted.map((permission) => ({ permission, status: 'granted' })),
            ...declined.map((permission) => ({ permission, status: 'declined' })),
          ],
        };
      });

      /*
       * Revoking a login, as Graph offers it (DELETE /{user-id}/permissions, with the user's
       * token): every token of that login ends, its pages' tokens too. A page token cannot.
       */
      app.delete('/:version/:id/permissions', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        if (who.account.kind !== 'user') {
          throw graphAnswer(400, 100, '(#100) A user access token is required to revoke permissions');
        }
        if (targetId(request, who) !== who.account.id) throw graph.notFound(targetId(request, who));
        const tokens = await endTokens(store, who.account, 'revoke');
        await recordActivity(store, {
          accountId: who.account.id,
          action: 'revoke',
          targetId: who.account.id,
          detail: { client_id: who.token.clientId, tokens },
        });
        return { success: true };
      });

      /*
       * A page installs the app for its webhooks: POST /{page-id}/subscribed_apps with
       * `subscribed_fields` (required) and the page's token, which needs pages_manage_metadata
       * and pages_show_list for `feed` (Page Subscribed Apps reference; Webhooks for Pages).
       * Meta sends a page's notices only once it did.
       */
      app.post('/:version/:id/subscribed_apps', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        if (who.account.kind !== 'page') {
          throw graphAnswer(400, 210, '(#210) A page access token is required to request this resource.');
        }
        if (targetId(request, who) !== who.account.id) throw graph.notFound(targetId(request, who));
        requireScope(who, call, SCOPE.manageMetadata);
        requireScope(who, call, SCOPE.showList);
        const fields = subscribedFields(
          request,
          PAGE_WEBHOOK_FIELDS,
          (unknown) =>
            `Param subscribed_fields must be one of {${PAGE_WEBHOOK_FIELDS.join(', ')}} - got "${unknown ?? ''}"`,
        );
        await setAppSubscription(store, who.account.id, fields);
        return { success: true };
      });

      app.get('/:version/me/accounts', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        if (who.account.kind !== 'user') {
          throw graphAnswer(400, 100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)', {
            type: 'GraphMethodException',
          });
        }
        requireScope(who, call, SCOPE.showList);
        const granted = (await pagesOf(store, who.account.id)).filter((p) => who.token.pageIds.includes(p.id));
        const limit = limitParam(request, graph, 25, 100);
        const offset = Number(afterCursor(request) ?? 0) || 0;
        const slice = granted.slice(offset, offset + limit);
        const fields = requestedFields(request, ['id', 'name', 'access_token', 'category', 'category_list', 'tasks']);
        const data = [];
        for (const page of slice) {
          const token = fields.has('access_token') ? (await issuePageToken(who, page)).token : undefined;
          data.push(renderPage(page, fields, token));
        }
        const more = offset + slice.length < granted.length;
        return graphList(request, data, more, String(offset + slice.length));
      });

      app.get('/:version/:id/posts', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const page = ownPage(who, targetId(request, who));
        requireScope(who, call, SCOPE.readEngagement);
        const limit = limitParam(request, graph, 25, 100);
        const { posts, more } = await listPosts(store, page.id, { limit, after: afterCursor(request) });
        const fields = requestedFields(request, ['id', 'message', 'created_time']);
        return graphList(
          request,
          posts.map((p) => renderPost(p, fields)),
          more,
          posts.at(-1)?.id ?? null,
        );
      });

      app.get('/:version/:id/comments', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const id = targetId(request, who);
        const comment = await findComment(store, id);
        const post = comment ? await ownPost(store, who, comment.postId) : await ownPost(store, who, id);
        requireScope(who, call, SCOPE.readUserContent);
        const all = (await listComments(store, post.id, { limit: 10_000 })).comments;
        const selected = selectComments(all, comment?.id ?? null, request);
        const limit = limitParam(request, graph, 25, 100);
        const offset = Number(afterCursor(request) ?? 0) || 0;
        const slice = selected.slice(offset, offset + limit);
        const fields = requestedFields(request, ['id', 'message', 'created_time', 'from']);
        const page = (await findAccount(store, post.accountId)) as SandboxAccount;
        return graphList(
          request,
          slice.map((c) => renderComment(c, page, fields)),
          offset + slice.length < selected.length,
          String(offset + slice.length),
        );
      });

      app.post('/:version/:id/comments', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const id = targetId(request, who);
        const target = await findComment(store, id);
        const post = target ? await ownPost(store, who, target.postId) : await ownPost(store, who, id);
        requireScope(who, call, SCOPE.manageEngagement);
        const message = requiredParam(request, graph, 'message');
        // Facebook threads are two levels deep: a reply to a reply joins its top-level comment.
        const reply = await addComment(store, {
          postId: post.id,
          parentId: target ? (target.parentId ?? target.id) : null,
          authorId: who.account.id,
          authorUsername: who.account.username,
          text: message,
        });
        await recordActivity(store, {
          accountId: who.account.id,
          action: 'reply',
          targetId: target ? target.id : post.id,
          detail: { reply_id: reply.id, message },
        });
        await notifyCommentAdded(store, reply);
        return { id: reply.id };
      });

      app.post('/:version/:id/photos', async (request) => {
        checkVersion(request);
        const published = param(request, 'published') !== 'false';
        const who = await caller(store, request, published ? publishCall : call);
        const page = ownPage(who, targetId(request, who));
        requireScope(who, call, SCOPE.managePosts);
        const url = param(request, 'url');
        if (url === undefined) throw graph.badParameter('The parameter url is required (uploads are not offered)');
        if (!isHttpUrl(url)) throw graph.badParameter('url must be a public URL');
        // Pages' photo guide: "less than 4 MB and saved as JPG, PNG, GIF, TIFF, HEIF, or WebP";
        // Graph fetches the URL while answering.
        if (!(await fetchMedia(url, ['jpeg', 'png', 'gif', 'webp'], MAX_PHOTO_BYTES)).ok) {
          throw graphAnswer(400, 324, '(#324) Missing or invalid image file');
        }
        const caption = param(request, 'caption') ?? param(request, 'message') ?? '';
        const photo = await createContainer(store, page.id, { type: 'photo', url, caption, published });
        if (!published) return { id: photo.id };
        const post = await createPost(store, page, { caption, mediaType: 'IMAGE', mediaUrl: url, viaApi: true });
        await markContainerPublished(store, photo.id, post.id);
        await recordPublication(
          store,
          post,
          { text: caption, mediaUrls: [url], type: 'IMAGE', options: {} },
          { message: caption, photo_ids: [photo.id] },
        );
        return { id: photo.id, post_id: post.id };
      });

      app.post('/:version/:id/feed', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, publishCall);
        const page = ownPage(who, targetId(request, who));
        requireScope(who, call, SCOPE.managePosts);
        const message = param(request, 'message') ?? '';
        const link = param(request, 'link');
        const photoIds = attachedMedia(request);
        if (message === '' && link === undefined && photoIds.length === 0) {
          throw graph.badParameter('Missing message or attachment');
        }
        const urls: string[] = [];
        for (const photoId of photoIds) {
          const photo = await findContainer(store, photoId);
          if (!photo || photo.accountId !== page.id || photo.request.type !== 'photo') throw graph.notFound(photoId);
          if (photo.publishedPostId !== null) {
            throw graph.badParameter(`attached_media ${photoId} is already published`);
          }
          urls.push(String(photo.request.url));
        }
        if (link !== undefined && !isHttpUrl(link)) throw graph.badParameter('link should represent a valid URL');
        const type =
          photoIds.length === 0 ? (link === undefined ? 'TEXT' : 'LINK') : photoIds.length === 1 ? 'IMAGE' : 'ALBUM';
        const post = await createPost(store, page, {
          caption: message,
          mediaType: type,
          mediaUrl: urls[0] ?? null,
          viaApi: true,
        });
        for (const photoId of photoIds) {
          if (!(await markContainerPublished(store, photoId, post.id))) {
            throw graph.badParameter(`attached_media ${photoId} is already published`);
          }
        }
        await recordPublication(
          store,
          post,
          { text: message, mediaUrls: urls, type, options: link === undefined ? {} : { link } },
          { message, photo_ids: photoIds, link: link ?? null },
        );
        return { id: post.id };
      });

      app.get('/:version/:id', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const id = targetId(request, who);
        if (id === who.account.id) {
          const fields = requestedFields(request, ['id', 'name']);
          if (who.account.kind === 'user') return renderUser(who.account, fields);
          requireScope(who, call, SCOPE.showList);
          return renderPage(who.account, fields);
        }
        if (who.account.kind === 'user' && who.token.pageIds.includes(id)) {
          // A granted page's public fields are readable with the user's token.
          requireScope(who, call, SCOPE.showList);
          const page = (await findAccount(store, id)) as SandboxAccount;
          return renderPage(page, requestedFields(request, ['id', 'name']));
        }
        const post = await findPagePost(store, id);
        if (post) {
          await ownPost(store, who, id);
          requireScope(who, call, SCOPE.readEngagement);
          return renderPost(post, requestedFields(request, ['id', 'message', 'created_time']));
        }
        const comment = await ownComment(store, who, id);
        requireScope(who, call, SCOPE.readUserContent);
        return renderComment(comment, who.account, requestedFields(request, ['id', 'message', 'created_time', 'from']));
      });

      app.post('/:version/:id', async (request) => {
        checkVersion(request);
        const who = await caller(store, request, call);
        const comment = await ownComment(store, who, targetId(request, who));
        requireScope(who, call, SCOPE.manageEngagement);
        const hidden = param(request, 'is_hidden');
        if (hidden !== 'true' && hidden !== 'false') throw graph.badParameter('is_hidden must be true or false');
        if (comment.authorId === who.account.id) {
          throw graphAnswer(400, 100, '(#100) A page cannot hide its own comments');
        }
        await setCommentHidden(store, comment.id, hidden === 'true');
        await recordActivity(store, {
          accountId: who.account.id,
          action: hidden === 'true' ? 'hide' : 'unhide',
          targetId: comment.id,
          detail: {},
        });
        return { success: true };
      });
    },
  };
}
