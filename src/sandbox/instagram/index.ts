/**
 * Instagram API with Instagram Login, imitated: www.instagram.com (the permission page),
 * api.instagram.com (code exchange) and graph.instagram.com (tokens, profile, media,
 * comments, insights, publishing). Shapes as in docs/platforms.md ("Instagram").
 */
import type { FastifyInstance } from 'fastify';
import { caller } from '../caller.ts';
import { installAnswers } from '../kit.ts';
import { graph } from '../meta/errors.ts';
import { pick, requestedFields } from '../meta/fields.ts';
import { multipleIdRoutes, type ObjectReader } from '../meta/multiple-ids.ts';
import { APP_USAGE_PERCENT, reportBusinessUseCaseUsage } from '../meta/usage.ts';
import { GRAPH_API_VERSIONS, servesVersions } from '../meta/versions.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import { listComments } from '../store/comments.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { findObject } from '../store/objects.ts';
import { call, platform } from './access.ts';
import { commentRoutes, renderComment } from './comments.ts';
import { permalink } from './ids.ts';
import { INSIGHT_METRICS, insightRoutes } from './insights.ts';
import { mediaRoutes, renderPost } from './media.ts';
import { codeExchangeRoutes, permissionPage, TOKEN_SHAPE, tokenRoutes } from './oauth.ts';
import { profileRoutes } from './profile.ts';
import { containerStatus, PUBLISH_QUOTA, publishingRoutes } from './publishing.ts';
import { commentNotices, subscriptionRoutes, WEBHOOK_SHAPE } from './webhooks.ts';

/** What `GET /{id}` answers: a container (its status), a post or a comment of the caller's. */
function objectReader(store: Store): ObjectReader {
  return async (who, id, request) => {
    const fields = requestedFields(request, ['id']);
    const { container, post, comment, commentPostAccountId } = await findObject(store, id);
    if (container && container.accountId === who.account.id) {
      return pick({ id, ...containerStatus(store, who.settings, container) }, fields);
    }
    if (post && post.accountId === who.account.id) {
      const { comments } = await listComments(store, post.id, { parentId: null, limit: 1000 });
      return renderPost(post, comments.length, fields);
    }
    // A comment under one of the caller's posts; anything else does not exist for this token.
    if (!comment || commentPostAccountId !== who.account.id) throw graph.notFound(id);
    return renderComment(comment, who.account.id, undefined, fields);
  };
}

/** `GET /{id}`, and several ids in one call (`GET /?ids=`). */
function objectRoutes(app: FastifyInstance, store: Store): void {
  const read = objectReader(store);
  app.get('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    return read(who, (request.params as { id: string }).id, request);
  });
  multipleIdRoutes(app, store, call, read);
}

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'www.instagram.com': (app) => permissionPage(app, store),
    'api.instagram.com': (app) => {
      installAnswers(app, call.errors);
      codeExchangeRoutes(app, store);
    },
    'graph.instagram.com': (app) => {
      servesVersions(app, store, GRAPH_API_VERSIONS, { defaultsEnded: true, header: true });
      // Instagram's calls count against the Business Use Case limits, so its answers say so.
      reportBusinessUseCaseUsage(app, store, platform);
      installAnswers(app, call.errors);
      tokenRoutes(app, store);
      profileRoutes(app, store);
      subscriptionRoutes(app, store);
      mediaRoutes(app, store);
      publishingRoutes(app, store);
      commentRoutes(app, store);
      insightRoutes(app, store);
      objectRoutes(app, store);
    },
  };
}

export const instagramPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // Two photos, then a text post (shown as an image, as Instagram has no text posts).
  newUser: { postTypes: ['IMAGE', 'IMAGE', 'TEXT'], comments: true },
  permalink,
  insightMetrics: INSIGHT_METRICS,
  webhooks: commentNotices,
  settings: [TOKEN_SHAPE, CONTAINER_PROCESSING_SECONDS, PUBLISH_QUOTA, WEBHOOK_SHAPE, APP_USAGE_PERCENT],
  testers: false,
};
