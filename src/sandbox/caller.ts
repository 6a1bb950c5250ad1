/**
 * Who is calling a sandbox API, and whether the call may go on: the token is known, live
 * and not revoked; the user is not throttled; no fault set through the control API waits
 * for this call; the token carries the scope the call needs.
 */
import type { FastifyRequest } from 'fastify';
import type { ErrorDialect } from './answers.ts';
import type { Store } from './platform.ts';
import type { SandboxAccount, SandboxToken } from './schema.ts';
import { answerWaitingFault } from './store/faults.ts';
import { findCaller } from './store/grants.ts';
import type { SettingValues } from './store/settings.ts';

export interface Caller {
  token: SandboxToken;
  account: SandboxAccount;
  /** The switches as the call's first read found them: what its answer reads of them, as they were when it began. */
  settings: SettingValues;
}

/** Each request's caller, once `caller` let it through with no explicit token: what hooks of its answer read. */
const callers = new WeakMap<FastifyRequest, Caller>();

/** The request's caller, if `caller` let it through with no explicit token. */
export function callerOf(request: FastifyRequest): Caller | undefined {
  return callers.get(request);
}

export interface CallOptions {
  platform: string;
  /** How the platform words the refusals. */
  errors: ErrorDialect;
  /** A publish call also takes faults set for `publish`. */
  publishing?: boolean;
  /** A token refresh also takes faults set for `refresh`. */
  refreshing?: boolean;
}

/** The access token of a request: `access_token` in the query or form, or a Bearer header. */
export function requestToken(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | undefined;
  for (const value of [query?.access_token, body && typeof body === 'object' ? body.access_token : undefined]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  const auth = request.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim() || null;
  return null;
}

export async function caller(
  store: Store,
  request: FastifyRequest,
  options: CallOptions,
  /** The token to check instead of the request's own (Facebook's `fb_exchange_token`). */
  explicitToken?: string,
): Promise<Caller> {
  const { errors, platform } = options;
  const token = explicitToken ?? requestToken(request);
  if (token === null) throw errors.invalidToken('An active access token must be used to query information.');
  const found = await findCaller(store, token);
  // The platform counts a call made with its token even when it then refuses it (an expired
  // token, a fault, a throttle): so does the call log, before any of those checks.
  if (found && found.token.platform === platform) {
    store.calls.record(platform, found.account.id, request, store.now());
  }
  if (!found || found.token.platform !== platform || found.token.kind === 'refresh') {
    throw errors.invalidToken('Invalid OAuth access token - Cannot parse access token');
  }
  const now = store.now();
  if (found.token.revokedAt !== null) throw errors.preset('access_revoked');
  if (found.token.expiresAt !== null && found.token.expiresAt <= now) {
    throw errors.preset('token_expired');
  }
  if (found.faultSet) {
    await answerWaitingFault(
      store,
      [found.account.id, ...(found.account.parentId ? [found.account.parentId] : [])],
      [
        'call',
        ...(options.publishing === true ? (['publish'] as const) : []),
        ...(options.refreshing === true ? (['refresh'] as const) : []),
      ],
      (preset) => errors.preset(preset),
    );
  }
  const throttledUntil = found.account.throttledUntil;
  if (throttledUntil !== null && throttledUntil > now) {
    throw errors.preset('rate_limited', (throttledUntil.getTime() - now.getTime()) / 1000);
  }
  const who: Caller = { token: found.token, account: found.account, settings: found.settings };
  if (explicitToken === undefined) callers.set(request, who);
  return who;
}

/** Refuses the call, the platform's way, unless the token carries one of `scopes`. */
export function requireScope(who: Caller, options: CallOptions, ...scopes: string[]): void {
  if (!scopes.some((scope) => who.token.scopes.includes(scope))) {
    throw options.errors.preset('permission_missing');
  }
}
