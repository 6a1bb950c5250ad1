import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../secrets.ts';
import { errors } from './errors.ts';
import { cachedRead } from './read-cache.ts';
import type { Scope, ScopeSession } from './scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every /v1 route. */
    scope: Scope;
  }
  interface FastifyContextConfig {
    /** Profile keys get 403 owner_key_required on this route. */
    ownerOnly?: boolean;
    /**
     * The route reads or changes the owner's own settings, which belong to no profile (the
     * redirect origins, the connect page): owner-only, and an owner key with a Service-Profile
     * header gets 403 owner_key_required too, as a request scoped to a profile sees and changes
     * only that profile.
     */
    ownerLevel?: boolean;
    /** Only an API key in the Authorization header is accepted, never a session cookie. */
    keyOnly?: boolean;
  }
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i;

/** The dashboard's session cookie; see modules/api-keys/sessions.ts. */
export const SESSION_COOKIE = 'sb_session';
/** The header that carries a session's CSRF token on every change made with the cookie. */
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing, which a session cookie may use without a CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who an API key belongs to. */
export interface KeyPrincipal {
  keyId: string;
  /** The name its maker gave the key, if any (audit entries name the key by it). */
  keyName: string | null;
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
  /** The key a live dashboard session acts for, by the cookie's token. */
  findSession(token: string): Promise<(KeyPrincipal & { session: ScopeSession }) | undefined>;
  /** True when `sent` is the CSRF token of the session with this cookie token. */
  isCsrfToken(token: string, sent: string): boolean;
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

function accept(keyHash: string): void {
  if (acceptedKeys.has(keyHash)) return;
  if (acceptedKeys.size >= MAX_ACCEPTED_KEYS) acceptedKeys.clear();
  acceptedKeys.add(keyHash);
}

function sessionRateKey(token: string): string {
  return `session:${sha256Hex(token)}`;
}

/**
 * What the rate limit counts this request against: its key (or its session) once this
 * process has accepted it, else null (then its address).
 */
export function acceptedCaller(request: FastifyRequest): string | null {
  const keyHash = bearerKeyHash(request);
  if (keyHash) return acceptedKeys.has(keyHash) ? `key:${keyHash}` : null;
  const token = sessionToken(request);
  if (token === null) return null;
  const key = sessionRateKey(token);
  return acceptedKeys.has(key) ? key : null;
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

/** The session cookie's token, when the request carries one and no Authorization header. */
export function sessionToken(request: FastifyRequest): string | null {
  if (request.headers.authorization !== undefined) return null;
  return request.cookies?.[SESSION_COOKIE] ?? null;
}

/**
 * The key a request acts for: the one in its Authorization header or, without that header,
 * the one its session cookie was signed in with. A change made with the cookie must carry
 * the session's CSRF token, so a page of another site that gets the browser to send the
 * cookie still changes nothing.
 */
async function callerOf(
  principals: Principals,
  request: FastifyRequest,
): Promise<(KeyPrincipal & { session?: ScopeSession }) | null> {
  const token = sessionToken(request);
  if (token === null || request.routeOptions.config.keyOnly) {
    const keyHash = bearerKeyHash(request);
    if (!keyHash) return null;
    const principal = await principalFor(principals, keyHash);
    if (principal) accept(keyHash);
    return principal;
  }
  const session = await principals.findSession(token);
  if (!session) throw errors.sessionEnded();
  accept(sessionRateKey(token));
  if (!SAFE_METHODS.has(request.method)) {
    const header = request.headers[CSRF_HEADER];
    const sent = Array.isArray(header) ? header[0] : header;
    if (sent === undefined || !principals.isCsrfToken(token, sent)) throw errors.csrfTokenInvalid();
  }
  return session;
}

/** Resolves the caller's scope from the API key (or session) and the Service-Profile header. */
export async function resolveScope(principals: Principals, request: FastifyRequest): Promise<Scope> {
  const principal = await callerOf(principals, request);
  if (!principal) throw errors.unauthorized();

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
    keyName: principal.keyName,
    keyKind: principal.profileId === null ? 'owner' : 'profile',
    ...(principal.session !== undefined ? { session: principal.session } : {}),
  };
}

/** The onRequest hook of every /v1 route. */
export function authenticate(principals: Principals) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.scope = await resolveScope(principals, request);
    const { ownerOnly, ownerLevel } = request.routeOptions.config;
    if ((ownerOnly || ownerLevel) && request.scope.keyKind !== 'owner') throw errors.ownerKeyRequired();
    if (ownerLevel && request.scope.profileId !== null) throw errors.ownerLevelScoped();
  };
}
