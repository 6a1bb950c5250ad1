import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../secrets.ts';
import { errors } from './errors.ts';
import { cachedRead } from './read-cache.ts';
import {
  ANY_PROFILE_ROUTES,
  higherRole,
  type LeastRole,
  ROUTE_ROLES,
  requestOperation,
  roleSuffices,
} from './route-roles.ts';
import type { MemberRole, Scope, ScopeSession } from './scope.ts';

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

/** A person signed in as a member of an owner, with its roles. */
export interface MemberPrincipal {
  memberId: string;
  email: string;
  name: string | null;
  ownerId: string;
  /** Its role for the whole owner, if any. */
  ownerRole: MemberRole | null;
  /** Its roles on single profiles, by profile id. */
  profileRoles: ReadonlyMap<string, MemberRole>;
}

/** Who a live dashboard session acts for: a key it was signed in with, or a member. */
export type SessionPrincipal =
  | (KeyPrincipal & { kind: 'key'; session: ScopeSession })
  | (MemberPrincipal & { kind: 'member'; session: ScopeSession });

/**
 * What authentication asks of the modules that own keys and profiles (handed in by the app, so
 * this layer depends on no module).
 */
export interface Principals {
  /** The key whose SHA-256 (hex) this is. */
  findKey(keyHash: string): Promise<KeyPrincipal | undefined>;
  /** The id of the owner's live profile that `ref` (an id or an external_id) names. */
  findProfileId(ownerId: string, ref: string): Promise<string | undefined>;
  /** Who a live dashboard session acts for, by the cookie's token. */
  findSession(token: string): Promise<SessionPrincipal | undefined>;
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
type RequestPrincipal = SessionPrincipal | (KeyPrincipal & { kind: 'key'; session?: undefined });

async function callerOf(principals: Principals, request: FastifyRequest): Promise<RequestPrincipal | null> {
  const token = sessionToken(request);
  if (token === null || request.routeOptions.config.keyOnly) {
    const keyHash = bearerKeyHash(request);
    if (!keyHash) return null;
    const principal = await principalFor(principals, keyHash);
    if (!principal) return null;
    accept(keyHash);
    return { ...principal, kind: 'key' };
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

/** The profile a `/v1/profiles/{id}...` path names. */
function pathProfileOf(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.url?.startsWith('/v1/profiles/:id')) return undefined;
  const { id } = request.params as { id?: unknown };
  return typeof id === 'string' ? id : undefined;
}

/** What a session principal's request carries besides its owner, profile and caller. */
function sessionOf(principal: RequestPrincipal) {
  return principal.session !== undefined ? { session: principal.session } : {};
}

/**
 * A member's scope: the profile the Service-Profile header names (one it has a role on: any
 * other is not shown to it, so it is not found), else all of the owner's with a role for the
 * whole owner, else its one profile; with roles on several, none yet (`role` null).
 */
async function memberScope(
  principals: Principals,
  member: MemberPrincipal & { session: ScopeSession },
  header: string | undefined,
  pathProfile: string | undefined,
): Promise<Scope> {
  // With roles on several profiles, a profile's own path (`/v1/profiles/{id}...`) names it.
  const ref = header ?? (member.ownerRole === null && member.profileRoles.size > 1 ? pathProfile : undefined);
  const base = { ownerId: member.ownerId, session: member.session };
  const caller = (role: MemberRole | null) =>
    ({
      type: 'member',
      id: member.memberId,
      email: member.email,
      name: member.name,
      role,
      ownerRole: member.ownerRole,
      profileRoles: member.profileRoles,
    }) as const;
  if (ref !== undefined) {
    const profileId = await profileIdFor(principals, member.ownerId, ref);
    const role = profileId === null ? null : higherRole(member.ownerRole, member.profileRoles.get(profileId));
    if (profileId === null || role === null) throw errors.profileNotFound(ref);
    return { ...base, profileId, visibleProfileIds: [profileId], caller: caller(role) };
  }
  if (member.ownerRole !== null) {
    return { ...base, profileId: null, visibleProfileIds: null, caller: caller(member.ownerRole) };
  }
  const [only, ...others] = member.profileRoles;
  if (only !== undefined && others.length === 0) {
    return { ...base, profileId: only[0], visibleProfileIds: [only[0]], caller: caller(only[1]) };
  }
  return { ...base, profileId: null, visibleProfileIds: [...member.profileRoles.keys()], caller: caller(null) };
}

/** Resolves the caller's scope from the API key (or session) and the Service-Profile header. */
export async function resolveScope(principals: Principals, request: FastifyRequest): Promise<Scope> {
  const principal = await callerOf(principals, request);
  if (!principal) throw errors.unauthorized();

  const header = request.headers['service-profile'];
  const ref = Array.isArray(header) ? header[0] : header;
  if (principal.kind === 'member') return await memberScope(principals, principal, ref, pathProfileOf(request));
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
    visibleProfileIds: profileId === null ? null : [profileId],
    caller: {
      type: 'api_key',
      id: principal.keyId,
      name: principal.keyName,
      kind: principal.profileId === null ? 'owner' : 'profile',
    },
    ...sessionOf(principal),
  };
}

/**
 * A member may use a route when its role for the request reaches the route's least role
 * (ROUTE_ROLES); a route of the owner's own settings also needs that role for the whole owner.
 */
function checkMemberRole(request: FastifyRequest, scope: Scope): void {
  const { caller } = scope;
  if (caller.type !== 'member') return;
  const operation = requestOperation(request) ?? '';
  const least = ROUTE_ROLES[operation];
  // Every route is in the table (checked as routes are registered); an unknown one is refused.
  if (least === undefined) throw errors.roleRequired('admin', 'the whole owner');
  // The owner's own settings (and what changes the owner) need the role for the whole owner,
  // whichever profile the member would name.
  if (least === 'owner admin' || request.routeOptions.config.ownerLevel === true) {
    if (caller.ownerRole === null || !roleSuffices(caller.ownerRole, caller.ownerRole, least)) {
      throw errors.roleRequired(roleNames(least === 'owner admin' ? 'admin' : least), 'the whole owner');
    }
    return;
  }
  if (caller.role === null) {
    if (ANY_PROFILE_ROUTES.has(operation)) return;
    throw errors.profileRequired();
  }
  if (!roleSuffices(caller.role, caller.ownerRole, least)) {
    throw errors.roleRequired(
      roleNames(least),
      scope.profileId === null ? 'the whole owner' : `profile ${scope.profileId}`,
    );
  }
}

/** A route's need in words: `editor`, or `client or admin`. */
function roleNames(least: Exclude<LeastRole, 'owner admin'>): string {
  return typeof least === 'string' ? least : least.join(' or ');
}

/** The onRequest hook of every /v1 route. */
export function authenticate(principals: Principals) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const scope = await resolveScope(principals, request);
    request.scope = scope;
    const { ownerOnly, ownerLevel } = request.routeOptions.config;
    if (scope.caller.type === 'member') checkMemberRole(request, scope);
    else if ((ownerOnly || ownerLevel) && scope.caller.kind !== 'owner') throw errors.ownerKeyRequired();
    if (ownerLevel && scope.profileId !== null) throw errors.ownerLevelScoped();
  };
}
