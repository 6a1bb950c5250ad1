/**
 * YouTube, imitated: Google's OAuth (accounts.google.com's consent page, oauth2.googleapis.com's
 * token endpoint) and the YouTube Data API v3 on www.googleapis.com (a user's channels), in
 * Google's shapes and errors (docs/platforms.md, "YouTube").
 */
import type { FastifyInstance } from 'fastify';
import { google } from '../google/answers.ts';
import { googleOAuthHosts } from '../google/oauth.ts';
import { googleCertRoutes } from '../google/pubsub.ts';
import { DAILY_QUOTA_UNITS } from '../google/quota.ts';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { platform } from './access.ts';
import { analyticsRoutes, INSIGHT_METRICS } from './analytics.ts';
import { addChannels, channelRoutes } from './channels.ts';
import { commentRoutes } from './comments.ts';
import { DAILY_UPLOADS, PROJECT_AUDIT, videoRoutes } from './videos.ts';

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    ...googleOAuthHosts(store),
    'youtubeanalytics.googleapis.com': (app) => {
      installAnswers(app, google);
      analyticsRoutes(app, store);
    },
    'www.googleapis.com': (app) => {
      installAnswers(app, google);
      channelRoutes(app, store);
      videoRoutes(app, store);
      commentRoutes(app, store);
      // Google's OAuth 2.0 certificates live on this host too: the keys of Pub/Sub pushes' tokens
      // (Business Profile's review notifications). One platform declares a shared host's routes.
      googleCertRoutes(app);
    },
  };
}

export const youtubePlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // A Google user and each channel they own: three videos.
  newUser: { postTypes: ['VIDEO', 'VIDEO', 'VIDEO'], comments: true, afterCreate: addChannels },
  permalink: (_account: SandboxAccount, videoId: string) => `https://www.youtube.com/watch?v=${videoId}`,
  insightMetrics: INSIGHT_METRICS,
  // YouTube pushes no comment notices.
  webhooks: null,
  settings: [DAILY_UPLOADS, DAILY_QUOTA_UNITS, PROJECT_AUDIT],
  testers: false,
};
