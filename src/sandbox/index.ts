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
import { requestToken } from './caller.ts';
import { CallLog } from './calls.ts';
import { controlRoutes } from './control.ts';
import { facebookHosts } from './facebook.ts';
import { instagramHosts } from './instagram.ts';
import type { Store } from './platform.ts';
import { findToken } from './store/grants.ts';
import { getSetting } from './store/settings.ts';
import { threadsHosts } from './threads.ts';
import { tiktokHosts } from './tiktok.ts';
import { subscribeService, type WebhookPlatform } from './webhooks.ts';

/**
 * What each Graph host reports of the `app_usage_percent` setting (N), as the Graph API
 * rate-limiting guide describes the headers
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting): Facebook's answers
 * carry the platform header, `X-App-Usage: {"call_count":N,"total_cputime":N,"total_time":N}`;
 * Instagram's fall under the Business Use Case limits and carry
 * `X-Business-Use-Case-Usage: {"<ig-user-id>":[{"type":"instagram","call_count":N,
 * "total_cputime":N,"total_time":N,"estimated_time_to_regain_access":0}]}`, keyed by the account
 * the token acts for. Threads documents no usage headers, so graph.threads.net sends none.
 */
const USAGE_HEADERS: Record<string, 'app' | 'business'> = {
  'graph.facebook.com': 'app',
  'graph.instagram.com': 'business',
};

function reportUsage(scope: FastifyInstance, store: Store, kind: 'app' | 'business'): void {
  scope.addHook('onSend', async (request, reply, payload) => {
    const percent = await getSetting(store, 'app_usage_percent');
    if (percent === 0) return payload;
    const figures = { call_count: percent, total_cputime: percent, total_time: percent };
    if (kind === 'app') {
      reply.header('x-app-usage', JSON.stringify(figures));
      return payload;
    }
    // A throttled answer already says when access comes back.
    if (reply.hasHeader('x-business-use-case-usage')) return payload;
    const token = requestToken(request);
    const found = token === null ? null : await findToken(store, token);
    if (found !== null) {
      reply.header(
        'x-business-use-case-usage',
        JSON.stringify({
          [found.account.id]: [{ type: 'instagram', ...figures, estimated_time_to_regain_access: 0 }],
        }),
      );
    }
    return payload;
  });
}

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
          const usage = USAGE_HEADERS[host];
          if (usage !== undefined) reportUsage(scope, store, usage);
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
