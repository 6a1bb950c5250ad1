/**
 * Pinterest, imitated: www.pinterest.com (the permission page), api.pinterest.com/v5 (the token
 * endpoint, the user's account and boards, pins, media uploads) and the media upload host, in
 * Pinterest's shapes and errors (docs/platforms.md, "Pinterest").
 */
import type { FastifyInstance } from 'fastify';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { platform } from './access.ts';
import { accountRoutes, addBoards } from './account.ts';
import { analyticsRoutes, INSIGHT_METRICS } from './analytics.ts';
import { pinterest } from './answers.ts';
import { mediaRoutes, UPLOAD_HOST, uploadRoutes } from './media.ts';
import { permissionPage, tokenRoutes } from './oauth.ts';
import { pinRoutes } from './pins.ts';

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'www.pinterest.com': (app) => {
      installAnswers(app, pinterest);
      permissionPage(app, store);
    },
    'api.pinterest.com': (app) => {
      installAnswers(app, pinterest);
      tokenRoutes(app, store);
      accountRoutes(app, store);
      pinRoutes(app, store);
      mediaRoutes(app, store);
      analyticsRoutes(app, store);
    },
    [UPLOAD_HOST]: (app) => {
      installAnswers(app, pinterest);
      uploadRoutes(app, store);
    },
  };
}

export const pinterestPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // A user and its two boards, each with two image pins.
  newUser: { postTypes: ['IMAGE', 'IMAGE'], comments: false, afterCreate: addBoards },
  permalink: (_account: SandboxAccount, postId: string) => `https://www.pinterest.com/pin/${postId}/`,
  // The account's analytics and follower_count, a pin's analytics.
  insightMetrics: INSIGHT_METRICS,
  // Pinterest has no comments API, and sends no notices.
  webhooks: null,
  // How long an uploaded video is processing before it has succeeded.
  settings: [CONTAINER_PROCESSING_SECONDS],
  testers: false,
};
