/**
 * The user and the pages it granted: `/me`, `/me/accounts` (each page with its page token),
 * a page installing the app for its webhooks (`subscribed_apps`), and a page's posts.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { limitParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { checkVersion, graphTime, pick, requestedFields } from '../meta/fields.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import { subscribedFields } from '../meta/subscribed-apps.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxPost } from '../schema.ts';
import { pagesOf } from '../store/accounts.ts';
import { setAppSubscription } from '../store/app-subscriptions.ts';
import { listPosts } from '../store/posts.ts';
import { call, ownPage, SCOPE, targetId } from './access.ts';
import { issuePageToken } from './oauth.ts';

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
function renderPicture(account: SandboxAccount) {
  return { data: { height: 50, width: 50, is_silhouette: false, url: account.avatarUrl } };
}

/** A page as Graph gives it (with its page token, for `/me/accounts`). */
export function renderPage(page: SandboxAccount, fields: Set<string>, accessToken?: string) {
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

/** The Facebook user, as `/me` gives it. */
export function renderUser(user: SandboxAccount, fields: Set<string>) {
  return pick({ id: user.id, name: user.name, picture: renderPicture(user) }, fields);
}

/** A page's post as Graph gives it. */
export function renderPost(post: SandboxPost, fields: Set<string>) {
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

export function pageRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/me', async (request) => {
    checkVersion(request);
    const who = await caller(store, request, call);
    const fields = requestedFields(request, ['id', 'name']);
    return who.account.kind === 'page' ? renderPage(who.account, fields) : renderUser(who.account, fields);
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
      const token = fields.has('access_token') ? (await issuePageToken(store, who, page)).token : undefined;
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
}
