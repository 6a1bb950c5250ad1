import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connection.ts';
import { hashKey } from '../modules/api-keys/key-material.ts';
import { findPrincipal, type KeyPrincipal } from '../modules/api-keys/service.ts';
import { findProfile } from '../modules/profiles/service.ts';
import { errors } from './errors.ts';
import { cachedRead } from './read-cache.ts';
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

async function principalFor(db: Db, keyHash: string): Promise<KeyPrincipal | null> {
  return await cachedRead(
    `key:${keyHash}`,
    async () => (await findPrincipal(db, keyHash)) ?? null,
    // Unknown keys are not kept: a guesser's keys would only fill the cache.
    (principal) => principal !== null,
  );
}

async function profileIdFor(db: Db, ownerId: string, ref: string): Promise<string | null> {
  return await cachedRead(
    `profile-ref:${ownerId}:${ref}`,
    async () => (await findProfile(db, ownerId, ref))?.id ?? null,
    (id) => id !== null,
  );
}

const keyHashes = new WeakMap<FastifyRequest, string | null>();

/**
 * Hashes of the keys this process has accepted. The rate limit gives only these a count of
 * their own (see app.ts): any other bearer token counts against its address, so a flood of
 * made-up keys is limited like one client, and the limit is decided without a query. Not
 * the read cache, which forgets everything on any change to keys or profiles: a valid key
 * would then count against its address again, and once that address is limited it would
 * never get the lookup that puts it back.
 */
const acceptedKeys = new Set<string>();
const MAX_ACCEPTED_KEYS = 100_000;

/** True when this process has accepted the key with this hash before. */
export function isAcceptedKey(keyHash: string): boolean {
  return acceptedKeys.has(keyHash);
}

/**
 * The SHA-256 of the API key in `Authorization: Bearer <key>` (scheme in any case), or
 * null without a well-formed one; computed once per request (the rate limit needs it first).
 */
export function bearerKeyHash(request: FastifyRequest): string | null {
  let hash = keyHashes.get(request);
  if (hash === undefined) {
    const key = BEARER.exec(request.headers.authorization ?? '')?.[1];
    hash = key ? hashKey(key) : null;
    keyHashes.set(request, hash);
  }
  return hash;
}

/** Resolves the caller's scope from the API key and the Service-Profile header. */
export async function resolveScope(db: Db, request: FastifyRequest): Promise<Scope> {
  const keyHash = bearerKeyHash(request);
  if (!keyHash) throw errors.unauthorized();
  const principal = await principalFor(db, keyHash);
  if (!principal) throw errors.unauthorized();
  if (!acceptedKeys.has(keyHash)) {
    if (acceptedKeys.size >= MAX_ACCEPTED_KEYS) acceptedKeys.clear();
    acceptedKeys.add(keyHash);
  }

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
