/**
 * What a Graph host reports of the `app_usage_percent` setting (N), as the Graph API
 * rate-limiting guide describes the headers
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting). 0: no header at
 * all, as Graph sends none before enough calls were made. A host that documents none
 * (graph.threads.net) reports nothing.
 */
import type { FastifyInstance } from 'fastify';
import { requestToken } from '../caller.ts';
import type { Store } from '../platform.ts';
import { findToken } from '../store/grants.ts';
import { wholeNumber } from '../store/setting-kinds.ts';
import { getSetting } from '../store/settings.ts';

/**
 * What the usage headers report (call_count, total_time and total_cputime, percent of the
 * app's limit). 0: no header, as Graph sends none before enough calls were made.
 */
export const APP_USAGE_PERCENT = wholeNumber('app_usage_percent', 0, 100, 'a whole percentage');

async function usageFigures(store: Store) {
  const percent = await getSetting(store, APP_USAGE_PERCENT);
  return percent === 0 ? null : { call_count: percent, total_cputime: percent, total_time: percent };
}

/** The platform header on every answer: `X-App-Usage: {"call_count":N,"total_cputime":N,"total_time":N}`. */
export function reportAppUsage(host: FastifyInstance, store: Store): void {
  host.addHook('onSend', async (_request, reply, payload) => {
    const figures = await usageFigures(store);
    if (figures !== null) reply.header('x-app-usage', JSON.stringify(figures));
    return payload;
  });
}

/**
 * The Business Use Case header on every answer to a call with a token, keyed by the account
 * the token acts for: `X-Business-Use-Case-Usage: {"<id>":[{"type":"<type>","call_count":N,
 * "total_cputime":N,"total_time":N,"estimated_time_to_regain_access":0}]}`.
 */
export function reportBusinessUseCaseUsage(host: FastifyInstance, store: Store, type: string): void {
  host.addHook('onSend', async (request, reply, payload) => {
    const figures = await usageFigures(store);
    // A throttled answer already says when access comes back.
    if (figures === null || reply.hasHeader('x-business-use-case-usage')) return payload;
    const token = requestToken(request);
    const found = token === null ? null : await findToken(store, token);
    if (found !== null) {
      reply.header(
        'x-business-use-case-usage',
        JSON.stringify({ [found.account.id]: [{ type, ...figures, estimated_time_to_regain_access: 0 }] }),
      );
    }
    return payload;
  });
}
