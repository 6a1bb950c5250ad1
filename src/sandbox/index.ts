/**
 * The sandbox platforms as one Fastify plugin: the imitated hosts of every platform the
 * registry lists, each under its own name (`/<host>/<path>`), the control API under
 * `/_control`. Mounted at
 * `/sandbox` by `npm start` when PLATFORMS=sandbox, or served alone by
 * `switchboard sandbox --port N`. Hidden from the service's OpenAPI document.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { now as clockNow } from '../clock.ts';
import type { Db } from '../db/connection.ts';
import { CallLog } from './calls.ts';
import { controlRoutes } from './control.ts';
import { subscribePush } from './google/pubsub.ts';
import type { Store } from './platform.ts';
import { SANDBOX_PLATFORMS, type SandboxPlatformName } from './registry.ts';
import { subscribe } from './webhooks.ts';

function sandboxStore(db: Db, now: () => Date): Store {
  return { db, now, calls: new CallLog(), platforms: new Map(SANDBOX_PLATFORMS.map((p) => [p.name, p])) };
}

export function sandboxRoutes(options: { db: Db; now?: () => Date }) {
  const store = sandboxStore(options.db, options.now ?? clockNow);
  return async (app: FastifyInstance) => {
    store.calls.mountedAt(app.prefix);
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(formbody);
    // A host several platforms share (Google's OAuth, for YouTube and Business Profile) is
    // declared by each with the same routes, and served once.
    const served = new Set<string>();
    for (const platform of SANDBOX_PLATFORMS) {
      for (const [host, register] of Object.entries(platform.hosts(store))) {
        if (served.has(host)) continue;
        served.add(host);
        await app.register(async (scope) => register(scope), { prefix: `/${host}` });
      }
    }
    await app.register(controlRoutes(store), { prefix: '/_control' });
  };
}

/**
 * What an app's developer does once in each Meta app's dashboard, done by `npm start` in
 * sandbox mode: subscribes the service's `/platform-webhooks/<platform>` to the comment
 * notices of every platform that sends them, signed with the secret the service's adapters use
 * for that platform (docs/sandbox.md).
 */
export async function subscribeToSandboxWebhooks(
  db: Db,
  service: { baseUrl: string; verifyToken: string; appSecret: (platform: SandboxPlatformName) => string },
): Promise<void> {
  // Subscribing makes no platform call: a log of its own, never read.
  const store = sandboxStore(db, clockNow);
  for (const platform of SANDBOX_PLATFORMS) {
    if (platform.webhooks === null) continue;
    await subscribe(store, platform.name, {
      callbackUrl: `${service.baseUrl}/platform-webhooks/${platform.name}`,
      verifyToken: service.verifyToken,
      appSecret: service.appSecret(platform.name),
    });
  }
}

/**
 * What the operator does once in Google Cloud for Business Profile's review notifications, done
 * by `npm start` in sandbox mode when GOOGLE_BUSINESS_PUBSUB_TOPIC is set: a push subscription of
 * the topic to the service's `/platform-webhooks/google_business`, its tokens made for the
 * service account and audience the service checks (docs/sandbox.md, "Pub/Sub").
 */
export async function subscribeToSandboxPubsub(
  db: Db,
  push: { topic: string; endpoint: string; serviceAccount: string; audience: string },
): Promise<void> {
  await subscribePush(sandboxStore(db, clockNow), {
    name: push.topic.replace(/\/topics\/([^/]+)$/, '/subscriptions/$1-switchboard-push'),
    topic: push.topic,
    pushEndpoint: push.endpoint,
    serviceAccountEmail: push.serviceAccount,
    audience: push.audience,
  });
}
