/**
 * The account's media: its posts, stories excepted. The stories edge (IG User Stories) is
 * documented for Facebook Login tokens on graph.facebook.com only, so this host has none.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { limitParam } from '../kit.ts';
import { graph } from '../meta/errors.ts';
import { graphTime, pick, requestedFields } from '../meta/fields.ts';
import { afterCursor, graphList } from '../meta/paging.ts';
import type { Store } from '../platform.ts';
import type { SandboxPost } from '../schema.ts';
import { listComments } from '../store/comments.ts';
import { listPosts } from '../store/posts.ts';
import { call, SCOPE } from './access.ts';

/** How a published story is kept among the posts: as IMAGE or VIDEO with the STORY product type. */
export const STORY_TYPES = ['STORY_IMAGE', 'STORY_VIDEO'];

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

/** Instagram's `media_product_type` of a kept post: FEED, REELS or STORY. */
export function productType(post: SandboxPost): string {
  return RENDERED_TYPES[post.mediaType]?.product ?? 'FEED';
}

/** A post as IG Media gives it. */
export function renderPost(post: SandboxPost, commentsCount: number, fields: Set<string>) {
  return pick(
    {
      id: post.id,
      caption: post.caption,
      media_type: RENDERED_TYPES[post.mediaType]?.type ?? post.mediaType,
      media_product_type: productType(post),
      media_url: post.mediaUrl ?? undefined,
      permalink: post.permalink,
      timestamp: graphTime(post.createdAt),
      like_count: 0,
      comments_count: commentsCount,
    },
    fields,
  );
}

export function mediaRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/:id/media', async (request) => {
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
}
