/** What every Business Profile route of the sandbox checks of its caller: the Google user's token, Google's errors, the business scope. */

import type { FastifyRequest } from 'fastify';
import { type Caller, type CallOptions, caller, requireScope } from '../caller.ts';
import { googleRpc as google } from '../google/answers.ts';
import type { Store } from '../platform.ts';
import type { SandboxAccount } from '../schema.ts';
import { pagesOf } from '../store/accounts.ts';

export const platform = 'google_business';
export const call: CallOptions = { platform, errors: google };
/** Creating a local post also takes the faults set for `publish`. */
export const publishCall: CallOptions = { ...call, publishing: true };

/** "https://www.googleapis.com/auth/business.manage": every Business Profile API asks it. */
const BUSINESS_MANAGE = 'https://www.googleapis.com/auth/business.manage';

/** The caller, holding the business scope. */
export async function businessCaller(store: Store, request: FastifyRequest, options = call): Promise<Caller> {
  const who = await caller(store, request, options);
  requireScope(who, options, BUSINESS_MANAGE);
  return who;
}

/** The location `accounts/{a}/locations/{l}` (or `locations/{l}`) of the caller's, or Google's 404 (another user's included). */
export async function callerLocation(store: Store, who: Caller, name: string): Promise<SandboxAccount> {
  const wanted = name.startsWith('accounts/') ? name : `accounts/${who.account.id}/${name}`;
  const location = (await pagesOf(store, who.account.id)).find((l) => l.id === wanted);
  if (location === undefined) throw google.notFound(name);
  return location;
}
