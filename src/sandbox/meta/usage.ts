/**
 * What a Graph host reports of the `app_usage_percent` setting (N), as the Graph API
 * rate-limiting guide describes the headers
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting). 0: no header at
 * all, as Graph sends none before enough calls were made. A host that documents none
 * (graph.threads.net) reports nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, requestToken } from '../caller.ts';
import type { Store } from '../platform.ts';
import { findToken } from '../store/grants.ts';
import { wholeNumber } from '../store/setting-kinds.ts';
import { getSetting, settingIn } from '../store/settings.ts';

/**
 * What the usage headers report (call_count, total_time and total_cputime, percent of the
 * app's limit). 0: no header, as Graph sends none before enough calls were made.
 */
export const APP_USAGE_PERCENT = wholeNumber('app_usage_percent', 0, 100, 'a whole percentage');

/** The figures, from the switches the call's caller read (`callerOf`), else read now: no caller on a refused call. */
async function usageFigures(store: Store, request: FastifyRequest) {
  const settings = callerOf(request)?.settings;
  const percent =
    settings === undefined ? await getSetting(store, APP_USAGE_PERCENT) : settingIn(settings, APP_USAGE_PERCENT);
  return percent === 0 ? null : { call_count: percent, total_cputime: percent, total_time: percent };
}

/** The platform header on every answer: `X-App-Usage: {"call_count":N,"total_cputime":N,"total_time":N}`. */
export function reportAppUsage(host: FastifyInstance, store: Store): void {
  host.addHook('onSend', async (request, reply, payload) => {
    const figures = await usageFigures(store, request);
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
    const figures = await usageFigures(store, request);
    // A throttled answer already says when access comes back.
    if (figures === null || reply.hasHeader('x-business-use-case-usage')) return payload;
    const account = callerOf(request)?.account ?? (await tokenAccount(store, request));
    if (account !== null) {
      reply.header(
        'x-business-use-case-usage',
        JSON.stringify({ [account.id]: [{ type, ...figures, estimated_time_to_regain_access: 0 }] }),
      );
    }
    return payload;
  });
}

/** The account of the request's token, as a refused call has no caller: null without a token the sandbox knows. */
async function tokenAccount(store: Store, request: FastifyRequest) {
  const token = requestToken(request);
  return token === null ? null : ((await findToken(store, token))?.account ?? null);
}
