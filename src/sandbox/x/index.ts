/**
 * X, imitated: x.com (the authorization page) and api.x.com (the OAuth 2.0 token endpoints,
 * the user's profile, media uploads, posts), in X's shapes and errors (docs/platforms.md, "X").
 */
import type { FastifyInstance } from 'fastify';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { platform } from './access.ts';
import { xDialect } from './answers.ts';
import { commentRoutes } from './comments.ts';
import { MEDIA_PROCESSING, mediaRoutes } from './media.ts';
import { permissionPage, tokenRoutes } from './oauth.ts';
import { POST_METRICS, postRoutes } from './posts.ts';
import { publishingRoutes } from './publishing.ts';
import { userRoutes } from './users.ts';

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  // The authorization page and the token endpoint are two hosts: the codes' PKCE challenges pass between them.
  const challenges = new Map<string, { challenge: string; method: string }>();
  return {
    'x.com': (app) => {
      installAnswers(app, xDialect(store.now));
      permissionPage(app, store, challenges);
    },
    'api.x.com': (app) => {
      installAnswers(app, xDialect(store.now));
      tokenRoutes(app, store, challenges);
      userRoutes(app, store);
      mediaRoutes(app, store);
      publishingRoutes(app, store);
      postRoutes(app, store);
      commentRoutes(app, store);
    },
  };
}

export const xPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // A user with two text posts, then one with an image.
  newUser: { postTypes: ['TEXT', 'TEXT', 'IMAGE'], comments: true },
  permalink: (account: SandboxAccount, postId: string) => `https://x.com/${account.username}/status/${postId}`,
  // The follower count (users/me public_metrics) and a post's public_metrics.
  insightMetrics: { account: ['followers_count'], post: POST_METRICS },
  webhooks: null,
  // How long an upload of a video or GIF is processed, and whether its processing fails.
  settings: [CONTAINER_PROCESSING_SECONDS, MEDIA_PROCESSING],
  testers: false,
};
