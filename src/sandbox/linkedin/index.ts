/**
 * LinkedIn, imitated: www.linkedin.com (the permission page, the OAuth token endpoint, the
 * image upload URLs) and api.linkedin.com/rest (the member, the organizations they administer,
 * images, posts and their comments, and the organizations' statistics), in LinkedIn's shapes and errors (docs/platforms.md, "LinkedIn").
 */
import type { FastifyInstance } from 'fastify';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { platform } from './access.ts';
import { linkedin } from './answers.ts';
import { commentRoutes } from './comments.ts';
import { permissionPage, tokenRoutes } from './oauth.ts';
import { addOrganizations, organizationRoutes, personId } from './organizations.ts';
import { publishingRoutes, uploadRoutes } from './publishing.ts';
import { INSIGHT_METRICS, statisticsRoutes } from './statistics.ts';

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'www.linkedin.com': (app) => {
      installAnswers(app, linkedin);
      permissionPage(app, store);
      tokenRoutes(app, store);
      uploadRoutes(app, store);
    },
    'api.linkedin.com': (app) => {
      installAnswers(app, linkedin);
      organizationRoutes(app, store);
      publishingRoutes(app, store);
      commentRoutes(app, store);
      statisticsRoutes(app, store);
    },
  };
}

export const linkedinPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // A member and each organization they administer: two text posts, then an image.
  newUser: { postTypes: ['TEXT', 'TEXT', 'IMAGE'], comments: false, afterCreate: addOrganizations, newId: personId },
  permalink: (_account: SandboxAccount, postId: string) =>
    `https://www.linkedin.com/feed/update/urn:li:share:${postId}`,
  insightMetrics: INSIGHT_METRICS,
  // LinkedIn pushes no comment notices to an ordinary app: its comments are read.
  webhooks: null,
  // An uploaded image is PROCESSING this long before it is AVAILABLE.
  settings: [CONTAINER_PROCESSING_SECONDS],
  testers: false,
};
