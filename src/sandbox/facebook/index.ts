/**
 * Facebook Pages through Facebook Login, imitated: www.facebook.com (the permission page,
 * where the user also picks pages) and graph.facebook.com (tokens, permissions, the pages
 * and their tokens, page profile, posts, comments, photos and publishing). Shapes as in
 * docs/platforms.md ("Facebook Pages") and Meta's Graph API for pages.
 */
import type { FastifyInstance } from 'fastify';
import { caller, requireScope } from '../caller.ts';
import { installAnswers } from '../kit.ts';
import { requestedFields } from '../meta/fields.ts';
import { multipleIdRoutes, type ObjectReader } from '../meta/multiple-ids.ts';
import { APP_USAGE_PERCENT, reportAppUsage } from '../meta/usage.ts';
import { GRAPH_API_VERSIONS, servesVersions } from '../meta/versions.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { findAccount } from '../store/accounts.ts';
import { call, findPagePost, ownComment, ownPost, platform, SCOPE, targetId } from './access.ts';
import { commentRoutes, renderComment } from './comments.ts';
import { permalink } from './ids.ts';
import { permissionPage, tokenRoutes } from './oauth.ts';
import { addPages, pageRoutes, renderPage, renderPost, renderUser } from './pages.ts';
import { publishingRoutes } from './publishing.ts';
import { commentNotices, subscriptionRoutes } from './webhooks.ts';

/** What `GET /{id}` answers: the token's own user or page, a granted page, a post or a comment. */
function objectReader(store: Store): ObjectReader {
  return async (who, id, request) => {
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
  };
}

/** `GET /{id}`, and several ids in one call (`GET /?ids=`). */
function objectRoutes(app: FastifyInstance, store: Store): void {
  const read = objectReader(store);
  app.get('/:version/:id', async (request) => {
    const who = await caller(store, request, call);
    return read(who, targetId(request, who), request);
  });
  multipleIdRoutes(app, store, call, read);
}

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'www.facebook.com': (app) => permissionPage(app, store),
    'graph.facebook.com': (app) => {
      servesVersions(app, store, GRAPH_API_VERSIONS, { defaultsEnded: true, header: true });
      reportAppUsage(app, store);
      installAnswers(app, call.errors);
      tokenRoutes(app, store);
      pageRoutes(app, store);
      subscriptionRoutes(app, store);
      publishingRoutes(app, store);
      commentRoutes(app, store);
      objectRoutes(app, store);
    },
  };
}

export const facebookPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // A user and each of its pages: two photos, then a status update.
  newUser: { postTypes: ['IMAGE', 'IMAGE', 'TEXT'], comments: true, afterCreate: addPages },
  permalink,
  insightMetrics: null,
  webhooks: commentNotices,
  settings: [APP_USAGE_PERCENT],
  testers: false,
};
