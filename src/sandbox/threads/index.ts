/**
 * Threads, imitated: threads.net (the permission page) and graph.threads.net (tokens, the
 * user and its posts, publishing, replies, insights). Shapes as in docs/platforms.md ("Threads").
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { installAnswers } from '../kit.ts';
import { pick, requestedFields } from '../meta/fields.ts';
import { ownComment } from '../meta/ownership.ts';
import { servesVersions, THREADS_API_VERSIONS } from '../meta/versions.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import { findComment } from '../store/comments.ts';
import { CONTAINER_PROCESSING_SECONDS, findContainer } from '../store/containers.ts';
import { findPost } from '../store/posts.ts';
import { call, platform, SCOPE } from './access.ts';
import { permalink } from './ids.ts';
import { INSIGHT_METRICS, insightRoutes } from './insights.ts';
import { permissionPage, tokenRoutes } from './oauth.ts';
import { postRoutes, renderPost, renderUser } from './posts.ts';
import { containerStatus, PUBLISH_QUOTA, publishingRoutes } from './publishing.ts';
import { renderReply, replyRoutes } from './replies.ts';
import { commentNotices } from './webhooks.ts';

/** `GET /{id}`: the user itself, a container (its status), a post or a reply. */
function objectRoutes(app: FastifyInstance, store: Store): void {
  app.get('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    requireScope(who, call, SCOPE.basic);
    const { id } = request.params as { id: string };
    const fields = requestedFields(request, ['id']);
    if (id === 'me' || id === who.account.id) return renderUser(who.account, fields);
    const container = await findContainer(store, id);
    if (container && container.accountId === who.account.id) {
      return pick({ id, ...containerStatus(store, who.settings, container) }, fields);
    }
    const post = await findPost(store, id);
    if (post && post.accountId === who.account.id) return renderPost(post, who.account, fields);
    // The caller's own replies are visible wherever they are; others' only under its posts.
    const comment = await findComment(store, id);
    if (comment && comment.authorId === who.account.id) return renderReply(comment, who, fields);
    return renderReply(await ownComment(store, who, id), who, fields);
  });
}

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'threads.net': (app) => permissionPage(app, store),
    'graph.threads.net': (app) => {
      // Threads documents no version rule of its own, nor Graph's answer header.
      servesVersions(app, store, THREADS_API_VERSIONS, { defaultsEnded: false, header: false });
      installAnswers(app, call.errors);
      tokenRoutes(app, store);
      postRoutes(app, store);
      publishingRoutes(app, store);
      replyRoutes(app, store);
      insightRoutes(app, store);
      objectRoutes(app, store);
    },
  };
}

export const threadsPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  newUser: { postTypes: ['IMAGE', 'IMAGE', 'TEXT'], comments: true },
  permalink,
  insightMetrics: INSIGHT_METRICS,
  webhooks: commentNotices,
  settings: [CONTAINER_PROCESSING_SECONDS, PUBLISH_QUOTA],
  // debug_token answers only a tester of the app.
  testers: true,
};
