/**
 * The Data API's calls as the sandbox charges them: the caller, then the call's units in the
 * Quota Calculator's table charged to the caller's project (its client id).
 */
import type { FastifyRequest } from 'fastify';
import { type Caller, caller } from '../caller.ts';
import { chargeUnits } from '../google/quota.ts';
import type { Store } from '../platform.ts';
import { call } from './access.ts';

/** The Quota Calculator's costs of the methods the sandbox imitates (videos.insert is a bucket of its own). */
export const UNITS = {
  list: 1,
  /** comments.insert, comments.setModerationStatus, comments.delete, videos.update, videos.delete. */
  write: 50,
} as const;

/** The caller of a Data API call, its units charged first (refused with 403 quotaExceeded past the day's). */
export async function chargedCaller(store: Store, request: FastifyRequest, units: number): Promise<Caller> {
  const who = await caller(store, request, call);
  await chargeUnits(store, who.token.clientId, units);
  return who;
}
