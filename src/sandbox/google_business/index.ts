/**
 * Google Business Profile, imitated: Google's OAuth (shared with YouTube), the Account
 * Management API (mybusinessaccountmanagement.googleapis.com), the Business Information API
 * (mybusinessbusinessinformation.googleapis.com), the v4 local posts (mybusiness.googleapis.com)
 * with a location's reviews, the Performance API (businessprofileperformance.googleapis.com) and
 * the Notifications API (mybusinessnotifications.googleapis.com), whose notifications of reviews
 * go out through the Pub/Sub stand-in (google/pubsub.ts; the keys their tokens are signed with
 * are served on www.googleapis.com, which YouTube's part declares), in Google's shapes and errors
 * (docs/platforms.md, "Google Business Profile").
 */
import type { FastifyInstance } from 'fastify';
import { googleRpc as google } from '../google/answers.ts';
import { googleOAuthHosts } from '../google/oauth.ts';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { platform } from './access.ts';
import { localPostRoutes, POST_REVIEW } from './local-posts.ts';
import { accountRoutes, addLocations, locationRoutes } from './locations.ts';
import { notificationRoutes, notifyReview } from './notifications.ts';
import { INSIGHT_METRICS, performanceRoutes } from './performance.ts';
import { reviewRoutes } from './reviews.ts';

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    ...googleOAuthHosts(store),
    'mybusinessaccountmanagement.googleapis.com': (app) => {
      installAnswers(app, google);
      accountRoutes(app, store);
    },
    'mybusinessbusinessinformation.googleapis.com': (app) => {
      installAnswers(app, google);
      locationRoutes(app, store);
    },
    'businessprofileperformance.googleapis.com': (app) => {
      installAnswers(app, google);
      performanceRoutes(app, store);
    },
    'mybusinessnotifications.googleapis.com': (app) => {
      installAnswers(app, google);
      notificationRoutes(app, store);
    },
    'mybusiness.googleapis.com': (app) => {
      installAnswers(app, google);
      localPostRoutes(app, store);
      reviewRoutes(app, store);
    },
  };
}

export const googleBusinessPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  // A Google user and the locations they manage: each with two local updates, and two reviews
  // by others stored under each (five stars: a review made without a rating).
  newUser: { postTypes: ['STANDARD', 'STANDARD'], comments: true, afterCreate: addLocations },
  // A local post's searchUrl: its place on Google, showing the post.
  permalink: (account: SandboxAccount, postId: string) =>
    `https://local.google.com/place?id=${account.id.slice(-19)}&use=posts&lpsid=${postId}`,
  insightMetrics: INSIGHT_METRICS,
  // Google sends review notifications to a Cloud Pub/Sub topic only, never to a webhook.
  webhooks: null,
  commentChanged: notifyReview,
  settings: [CONTAINER_PROCESSING_SECONDS, POST_REVIEW],
  testers: false,
};
