import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../secrets.ts';
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

/** Who an API key belongs to. */
export interface KeyPrincipal {
  keyId: string;
  ownerId: string;
  /** The profile a profile key is locked to; null for an owner key. */
  profileId: string | null;
}

/**
 * What authentication asks of the modules that own keys and profiles (handed in by the app, so
 * this layer depends on no module).
 */
export interface Principals {
  /** The key whose SHA-256 (hex) this is. */
  findKey(keyHash: string): Promise<KeyPrincipal | undefined>;
  /** The id of the owner's live profile that `ref` (an id or an external_id) names. */
  findProfileId(ownerId: string, ref: string): Promise<string | undefined>;
}

async function principalFor(principals: Principals, keyHash: string): Promise<KeyPrincipal | null> {
  return await cachedRead(
    `key:${keyHash}`,
    async () => (await principals.findKey(keyHash)) ?? null,
    // Unknown keys are not kept: a guesser's keys would only fill the cache.
    (principal) => principal !== null,
  );
}

async function profileIdFor(principals: Principals, ownerId: string, ref: string): Promise<string | null> {
  return await cachedRead(
    `profile-ref:${ownerId}:${ref}`,
    async () => (await principals.findProfileId(ownerId, ref)) ?? null,
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
    hash = key ? sha256Hex(key) : null;
    keyHashes.set(request, hash);
  }
  return hash;
}

/** Resolves the caller's scope from the API key and the Service-Profile header. */
export async function resolveScope(principals: Principals, request: FastifyRequest): Promise<Scope> {
  const keyHash = bearerKeyHash(request);
  if (!keyHash) throw errors.unauthorized();
  const principal = await principalFor(principals, keyHash);
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
      const named = await profileIdFor(principals, principal.ownerId, ref);
      if (named !== principal.profileId) throw errors.profileMismatch();
    }
  } else if (ref !== undefined) {
    profileId = await profileIdFor(principals, principal.ownerId, ref);
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
export function authenticate(principals: Principals) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.scope = await resolveScope(principals, request);
    if (request.routeOptions.config.ownerOnly && request.scope.keyKind !== 'owner') {
      throw errors.ownerKeyRequired();
    }
  };
}
