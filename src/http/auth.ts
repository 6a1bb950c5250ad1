import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connection.ts';
import { hashKey } from '../modules/api-keys/key-material.ts';
import { findPrincipal, type KeyPrincipal } from '../modules/api-keys/service.ts';
import { findProfile } from '../modules/profiles/service.ts';
import { cached, cacheEpoch, remember } from './auth-cache.ts';
import { errors } from './errors.ts';
import type { Scope } from './scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every /v1 route. */
    scope: Scope;
  }
  interface FastifyContextConfig {
    /** Profile keys get 403 owner_key_required on this route. */
    ownerOnly?: boolean;
  }
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i;

async function principalFor(db: Db, key: string): Promise<KeyPrincipal | null> {
  const cacheKey = `key:${hashKey(key)}`;
  const hit = cached<KeyPrincipal | null>(cacheKey);
  if (hit !== undefined) return hit;
  const epoch = cacheEpoch();
  const principal = (await findPrincipal(db, key)) ?? null;
  // Unknown keys are not cached: a guesser's keys would only fill the cache.
  if (principal) remember(cacheKey, principal, epoch);
  return principal;
}

async function profileIdFor(db: Db, ownerId: string, ref: string): Promise<string | null> {
  const cacheKey = `profile:${ownerId}:${ref}`;
  const hit = cached<string>(cacheKey);
  if (hit !== undefined) return hit;
  const epoch = cacheEpoch();
  const profile = await findProfile(db, ownerId, ref);
  if (profile) remember(cacheKey, profile.id, epoch);
  return profile?.id ?? null;
}

/** The API key of `Authorization: Bearer <key>` (scheme in any case), if well formed. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

/** Resolves the caller's scope from the API key and the Service-Profile header. */
export async function resolveScope(db: Db, request: FastifyRequest): Promise<Scope> {
  const key = bearerToken(request);
  if (!key) throw errors.unauthorized();
  const principal = await principalFor(db, key);
  if (!principal) throw errors.unauthorized();

  const header = request.headers['service-profile'];
  const ref = Array.isArray(header) ? header[0] : header;
  let profileId = principal.profileId;
  if (principal.profileId !== null) {
    if (ref !== undefined && ref !== principal.profileId) {
      // A profile key may also name its own profile by external_id.
      const named = await profileIdFor(db, principal.ownerId, ref);
      if (named !== principal.profileId) throw errors.profileMismatch();
    }
  } else if (ref !== undefined) {
    profileId = await profileIdFor(db, principal.ownerId, ref);
    if (profileId === null) throw errors.profileNotFound(ref);
  }
  return {
    ownerId: principal.ownerId,
    profileId,
    keyId: principal.keyId,
    keyKind: principal.profileId === null ? 'owner' : 'profile',
  };
}

/** The onRequest hook of every /v1 route. */
export function authenticate(db: Db) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.scope = await resolveScope(db, request);
    if (request.routeOptions.config.ownerOnly && request.scope.keyKind !== 'owner') {
      throw errors.ownerKeyRequired();
    }
  };
}
