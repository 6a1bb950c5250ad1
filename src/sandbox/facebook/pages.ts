/** The user and the pages it granted: `/me`, `/me/accounts` (each page with its page token), and a page's posts. */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { limitParam } from '../kit.ts';
import { graph, graphAnswer } from '../meta/errors.ts';
import { graphTime, pick, requestedFields } from '../meta/fields.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxPost } from '../schema.ts';
import { addPage, pagesOf } from '../store/accounts.ts';
import { numericId } from '../store/ids.ts';
import { listPosts } from '../store/posts.ts';
import { call, ownPage, SCOPE, targetId } from './access.ts';
import { issuePageToken } from './oauth.ts';

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

/** The pages a Facebook user manages: three, the first linked to an Instagram professional account. */
const PAGES_PER_USER = 3;

/** Makes the pages of a user just made, each with posts and comments of its own. */
export async function addPages(store: Store, user: SandboxAccount): Promise<void> {
  for (let n = 1; n <= PAGES_PER_USER; n += 1) {
    await addPage(store, user, {
      username: `${user.username}.page${n}`,
      name: `${user.name} Page ${n}`,
      instagramBusinessAccountId: n === 1 ? numericId() : null,
    });
  }
}

export function pageRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/me', async (request) => {
    const who = await caller(store, request, call);
    const fields = requestedFields(request, ['id', 'name']);
    return who.account.kind === 'page' ? renderPage(who.account, fields) : renderUser(who.account, fields);
  });

  app.get('/:version/me/accounts', async (request) => {
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
