/**
 * Bluesky, imitated: a handle's HTTPS well-known, the PLC directory, the entryway bsky.social (the
 * OAuth authorization server), one PDS and the video service, in the AT Protocol's shapes (docs/platforms.md,
 * "Bluesky"). Every handle is served under its own name, as every host is.
 */
import type { FastifyInstance } from 'fastify';
import { installAnswers } from '../kit.ts';
import type { SandboxPlatform, Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { CONTAINER_PROCESSING_SECONDS } from '../store/containers.ts';
import { HOST, platform, xrpcDialect } from './access.ts';
import { dpopServer } from './dpop.ts';
import { handleRoutes, newDid, newTid, plcRoutes } from './identity.ts';
import { type OAuthState, oauthRoutes } from './oauth.ts';
import { POST_COUNTS, pdsRoutes } from './pds.ts';
import { type StoredBlob, serviceTokens, VIDEO_DAILY_UPLOADS, VIDEO_PROCESSING, videoRoutes } from './video.ts';

function hosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  const state: OAuthState = { pushed: new Map(), codes: new Map() };
  // The entryway and the PDS are two servers: each has nonces of its own.
  const entryway = dpopServer(store.now);
  const pds = dpopServer(store.now);
  const shared = { blobs: new Map<string, StoredBlob>(), tokens: serviceTokens() };
  return {
    [HOST.plc]: (app) => {
      installAnswers(app, xrpcDialect(store.now));
      plcRoutes(app, store);
    },
    [HOST.entryway]: (app) => {
      installAnswers(app, xrpcDialect(store.now));
      oauthRoutes(app, store, entryway, state);
    },
    [HOST.pds]: (app) => {
      installAnswers(app, xrpcDialect(store.now));
      pdsRoutes(app, store, pds, shared);
    },
    [HOST.video]: (app) => {
      installAnswers(app, xrpcDialect(store.now));
      videoRoutes(app, store, shared.blobs, shared.tokens);
    },
    // Any other name is a handle's own host, answering its well-known DID.
    ':handle': (app) => handleRoutes(app, store),
  };
}

export const blueskyPlatform: SandboxPlatform<typeof platform> = {
  name: platform,
  hosts,
  newUser: { postTypes: [], comments: false, newId: newDid },
  // Someone else's reply is a post in their own repository.
  commentIds() {
    const did = newDid();
    return { id: `at://${did}/app.bsky.feed.post/${newTid()}`, authorId: did };
  },
  permalink: (account: SandboxAccount, postId: string) =>
    `https://bsky.app/profile/${account.id}/post/${postId.slice(postId.lastIndexOf('/') + 1)}`,
  // The profile's followersCount; a post view's counts.
  insightMetrics: { account: ['followersCount'], post: POST_COUNTS },
  webhooks: null,
  settings: [CONTAINER_PROCESSING_SECONDS, VIDEO_PROCESSING, VIDEO_DAILY_UPLOADS],
  testers: false,
};
