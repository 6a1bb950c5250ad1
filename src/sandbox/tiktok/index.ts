/**
 * TikTok, imitated: www.tiktok.com (the permission page) and open.tiktokapis.com (OAuth
 * tokens, user info, Content Posting API with PULL_FROM_URL). Shapes as in
 * docs/platforms.md ("TikTok"): API answers are `{"data":{...},"error":{"code":"ok",...}}`, OAuth
 * answers are flat, and errors are TikTok's own (envelope.ts).
 */
import type { FastifyInstance } from 'fastify';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { platform } from './access.ts';
import { tiktok } from './envelope.ts';
import { permalink } from './ids.ts';
import { permissionPage, tokenRoutes } from './oauth.ts';
import { CLIENT_AUDIT, VERIFIED_URL_PREFIXES } from './posting-rules.ts';
import { MAX_VIDEO_POST_DURATION_SEC, MODERATION_SECONDS, publishingRoutes } from './publishing.ts';
import { userRoutes } from './user.ts';

/** JSON bodies, an empty one included: creator_info/query says application/json without a body, which Fastify's own parser refuses. */
function parseEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(tiktok.badParameter('The request body is not valid JSON'), undefined);
    }
  });
}

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'www.tiktok.com': (app) => permissionPage(app, store),
    'open.tiktokapis.com': (app) => {
      installAnswers(app, tiktok);
      parseEmptyJson(app);
      tokenRoutes(app, store);
      userRoutes(app, store);
      publishingRoutes(app, store);
    },
  };
}

export const tiktokPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  newUser: { postTypes: ['VIDEO', 'VIDEO', 'VIDEO'], comments: false },
  permalink,
  // Comments and insights are not offered to ordinary TikTok apps.
  insightMetrics: null,
  webhooks: null,
  settings: [
    CONTAINER_PROCESSING_SECONDS,
    MODERATION_SECONDS,
    MAX_VIDEO_POST_DURATION_SEC,
    CLIENT_AUDIT,
    VERIFIED_URL_PREFIXES,
  ],
  testers: false,
};
