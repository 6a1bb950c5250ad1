/**
 * The sandbox platforms as one Fastify plugin: each imitated host under its own name
 * (`/graph.instagram.com/v25.0/me`), the control API under `/_control`. Mounted at
 * `/sandbox` by `npm start` when PLATFORMS=sandbox, or served alone by
 * `switchboard sandbox --port N`. Hidden from the service's OpenAPI document.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { now as clockNow } from '../clock.ts';
import type { Db } from '../db/connection.ts';
import { CallLog } from './calls.ts';
import { controlRoutes } from './control.ts';
import { facebookHosts } from './facebook/index.ts';
import { instagramHosts } from './instagram/index.ts';
import type { Store } from './platform.ts';
import { threadsHosts } from './threads/index.ts';
import { tiktokHosts } from './tiktok/index.ts';
import { subscribeService, type WebhookPlatform } from './webhooks.ts';

export function sandboxRoutes(options: { db: Db; now?: () => Date }) {
  const store: Store = { db: options.db, now: options.now ?? clockNow, calls: new CallLog() };
  return async (app: FastifyInstance) => {
    store.calls.mountedAt(app.prefix);
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(formbody);
    const hosts = {
      ...instagramHosts(store),
      ...threadsHosts(store),
      ...tiktokHosts(store),
      ...facebookHosts(store),
    };
    for (const [host, register] of Object.entries(hosts)) {
      await app.register(
        async (scope) => {
          await register(scope);
        },
        { prefix: `/${host}` },
      );
    }
    await app.register(controlRoutes(store), { prefix: '/_control' });
  };
}

/** Subscribes the service at `baseUrl` to the sandbox's comment webhooks (docs/sandbox.md). */
export async function subscribeToSandboxWebhooks(
  db: Db,
  service: { baseUrl: string; verifyToken: string; appSecret: (platform: WebhookPlatform) => string },
): Promise<void> {
  // Subscribing makes no platform call: a log of its own, never read.
  await subscribeService({ db, now: clockNow, calls: new CallLog() }, service);
}
