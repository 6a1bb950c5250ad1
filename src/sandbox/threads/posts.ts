/** The Threads user's profile (`/me`) and its posts, newest first. */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { limitParam } from '../kit.ts';
import { graph } from '../meta/errors.ts';
import { graphTime, pick, requestedFields } from '../meta/fields.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount, SandboxPost } from '../schema.ts';
import { listPosts } from '../store/posts.ts';
import { call, ownUserId, SCOPE } from './access.ts';

/** How Threads names a stored post's type in its answers. */
const RENDERED_MEDIA_TYPE: Record<string, string> = { TEXT: 'TEXT_POST', CAROUSEL: 'CAROUSEL_ALBUM' };

/** A post as Threads Media gives it. */
export function renderPost(post: SandboxPost, owner: SandboxAccount, fields: Set<string>) {
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

/** The Threads user, as `/me` gives it. */
export function renderUser(account: SandboxAccount, fields: Set<string>) {
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

export function postRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/me', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    return renderUser(who.account, requestedFields(request, ['id']));
  });

  app.get('/:version/:id/threads', async (request) => {
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
}
