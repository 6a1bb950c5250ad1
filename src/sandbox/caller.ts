/**
 * Who is calling a sandbox API, and whether the call may go on: the token is known, live
 * and not revoked; the user is not throttled; no fault set through the control API waits
 * for this call; the token carries the scope the call needs.
 */
import type { FastifyRequest } from 'fastify';
import {
  FAULT_PRESETS,
  type Family,
  type FaultPreset,
  graphAnswer,
  presetAnswer,
  SandboxAnswer,
  tiktokAnswer,
} from './answers.ts';
import type { Store } from './platform.ts';
import type { SandboxAccount, SandboxToken } from './schema.ts';
import { takeFault } from './store/faults.ts';
import { findToken } from './store/grants.ts';

export interface Caller {
  token: SandboxToken;
  account: SandboxAccount;
}

export interface CallOptions {
  platform: string;
  family: Family;
  /** A publish call also takes faults set for `publish`. */
  publishing?: boolean;
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

function invalidToken(family: Family, message: string): SandboxAnswer {
  return family === 'tiktok'
    ? tiktokAnswer(401, 'access_token_invalid', 'The access token is invalid or not found in the request.')
    : graphAnswer(400, 190, message);
}

export async function caller(
  store: Store,
  request: FastifyRequest,
  options: CallOptions,
  /** The token to check instead of the request's own (Facebook's `fb_exchange_token`). */
  explicitToken?: string,
): Promise<Caller> {
  const { family, platform } = options;
  const token = explicitToken ?? requestToken(request);
  if (token === null) throw invalidToken(family, 'An active access token must be used to query information.');
  const found = await findToken(store, token);
  // The platform counts a call made with its token even when it then refuses it (an expired
  // token, a fault, a throttle): so does the call log, before any of those checks.
  if (found && found.token.platform === platform) {
    store.calls.record(platform, found.account.id, request, store.now());
  }
  if (!found || found.token.platform !== platform || found.token.kind === 'refresh') {
    throw invalidToken(family, 'Invalid OAuth access token - Cannot parse access token');
  }
  const now = store.now();
  if (found.token.revokedAt !== null) throw presetAnswer(family, 'access_revoked', { platform });
  if (found.token.expiresAt !== null && found.token.expiresAt <= now) {
    throw presetAnswer(family, 'token_expired', { platform });
  }
  const accountIds = [found.account.id, ...(found.account.parentId ? [found.account.parentId] : [])];
  const fault = await takeFault(store, accountIds, options.publishing === true);
  if (fault) {
    if (fault.error === 'custom') throw new SandboxAnswer(fault.status ?? 400, fault.body);
    if ((FAULT_PRESETS as readonly string[]).includes(fault.error)) {
      throw presetAnswer(family, fault.error as FaultPreset, { platform });
    }
  }
  const throttledUntil = found.account.throttledUntil;
  if (throttledUntil !== null && throttledUntil > now) {
    throw presetAnswer(family, 'rate_limited', {
      platform,
      waitSeconds: (throttledUntil.getTime() - now.getTime()) / 1000,
    });
  }
  return found;
}

/** Refuses the call, the platform's way, unless the token carries one of `scopes`. */
export function requireScope(who: Caller, options: CallOptions, ...scopes: string[]): void {
  if (!scopes.some((scope) => who.token.scopes.includes(scope))) {
    throw presetAnswer(options.family, 'permission_missing', { platform: options.platform });
  }
}
