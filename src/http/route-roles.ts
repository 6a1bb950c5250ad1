/**
 * The least role a member needs for each route: one table, checked against every route the API
 * registers (`checkRouteRoles`, at start), so a route cannot be added without saying who may use
 * it. API keys are not judged by it: an owner key may do everything, a profile key what its
 * profile's routes allow (`ownerOnly`, src/http/auth.ts).
 *
 * Roles rank client < viewer < editor < admin: a viewer reads everything a client does and
 * more, an editor changes what it reads, an admin everything. `owner admin` is the admin role
 * held for the whole owner, not on a profile: what changes the owner (its profiles, members,
 * settings) is not any one profile's.
 */
import type { FastifyRequest } from 'fastify';
import type { Caller, MemberRole } from './scope.ts';

/** The least role a route needs, or the only roles that may use it. */
export type LeastRole = MemberRole | 'owner admin' | readonly MemberRole[];

export const ROLE_RANK: Readonly<Record<MemberRole, number>> = { client: 0, viewer: 1, editor: 2, admin: 3 };

export const ROUTE_ROLES: Readonly<Record<string, LeastRole>> = {
  'GET /v1/session': 'client',
  // Sign-in with a key: a member never reaches it (it reads no cookie).
  'POST /v1/session': 'client',
  'DELETE /v1/session': 'client',
  'GET /v1/platforms': 'client',
  'GET /v1/platforms/{platform}': 'client',
  // Every tool call the MCP endpoint makes is a request of its own, judged by this table.
  'POST /mcp': 'client',
  'GET /mcp': 'client',
  'DELETE /mcp': 'client',

  'GET /v1/profiles': 'client',
  'GET /v1/profiles/{id}': 'client',
  'POST /v1/profiles': 'owner admin',
  'PATCH /v1/profiles/{id}': 'admin',
  'DELETE /v1/profiles/{id}': 'owner admin',
  'POST /v1/profiles/{id}/api-keys': 'admin',
  'GET /v1/profiles/{id}/api-keys': 'admin',
  'DELETE /v1/profiles/{id}/api-keys/{keyId}': 'admin',

  'GET /v1/members': 'owner admin',
  'POST /v1/members': 'owner admin',
  'GET /v1/members/{id}': 'owner admin',
  'PATCH /v1/members/{id}': 'owner admin',
  'DELETE /v1/members/{id}': 'owner admin',
  'POST /v1/members/{id}/invitation': 'owner admin',
  'GET /v1/audit-log': 'admin',

  'GET /v1/webhooks': 'viewer',
  'GET /v1/webhooks/{id}': 'viewer',
  'GET /v1/webhooks/{id}/deliveries': 'viewer',
  'POST /v1/webhooks': 'admin',
  'PATCH /v1/webhooks/{id}': 'admin',
  'DELETE /v1/webhooks/{id}': 'admin',
  'POST /v1/webhooks/{id}/test': 'admin',
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend': 'admin',
  'POST /v1/webhooks/{id}/rotate-secret': 'admin',

  // The owner's settings: a role for the whole owner reads them (they belong to no profile).
  'GET /v1/connect/settings': 'viewer',
  'GET /v1/connect/preview': 'viewer',
  'GET /v1/connect/redirect-origins': 'viewer',
  'GET /v1/platform-apps': 'viewer',
  'GET /v1/connect/settings/logo': 'viewer',
  'PATCH /v1/connect/settings': 'owner admin',
  'PUT /v1/connect/settings/logo': 'owner admin',
  'DELETE /v1/connect/settings/logo': 'owner admin',
  'POST /v1/connect/redirect-origins': 'owner admin',
  'DELETE /v1/connect/redirect-origins/{id}': 'owner admin',
  'PUT /v1/platform-apps/{platform}': 'owner admin',
  'DELETE /v1/platform-apps/{platform}': 'owner admin',

  'GET /v1/accounts': 'client',
  'GET /v1/accounts/{id}': 'client',
  'GET /v1/accounts/{id}/options/{option}': 'viewer',
  'POST /v1/profiles/{id}/connect-links': 'editor',
  'POST /v1/accounts/{id}/reconnect-links': 'editor',
  // Ending a connection is more than an editor's work; moving it to another client changes two
  // profiles, so it needs the role for the whole owner.
  'DELETE /v1/accounts/{id}': 'admin',
  'POST /v1/accounts/{id}/move': 'owner admin',

  'GET /v1/posts': 'client',
  'GET /v1/posts/{id}': 'client',
  'POST /v1/posts': 'editor',
  'PATCH /v1/posts/{id}': 'editor',
  'DELETE /v1/posts/{id}': 'editor',
  'POST /v1/posts/{id}/retry': 'editor',
  // The client's own decision (or an admin's, who may do what an owner key does): not a
  // viewer's, who changes nothing, nor an editor's, who makes the posts.
  'POST /v1/posts/{id}/approval': ['client', 'admin'],
  'GET /v1/posts/{id}/approval-links': 'viewer',
  'POST /v1/posts/{id}/approval-links': 'editor',
  'DELETE /v1/posts/{id}/approval-links/{link_id}': 'editor',

  'GET /v1/comments': 'viewer',
  'GET /v1/comments/{id}': 'viewer',
  'PATCH /v1/comments/{id}': 'editor',
  'POST /v1/comments/{id}/reply': 'editor',
  'POST /v1/comments/{id}/hide': 'editor',
  'DELETE /v1/comments/{id}/replies/{reply_id}': 'editor',
  'POST /v1/comments/sync': 'editor',

  'GET /v1/accounts/{id}/insights': 'client',
  'GET /v1/posts/{id}/insights': 'client',
  'POST /v1/insights/sync': 'editor',
  // A client reads its own report, as it reads its accounts' figures.
  'GET /v1/profiles/{id}/report': 'client',
  'GET /v1/profiles/{id}/report.csv': 'client',
  'GET /v1/profiles/{id}/report.pdf': 'client',
  'GET /v1/profiles/{id}/report-links': 'viewer',
  'POST /v1/profiles/{id}/report-links': 'editor',
  'DELETE /v1/profiles/{id}/report-links/{link_id}': 'editor',
  'GET /v1/profiles/{id}/report-schedule': 'viewer',
  'PUT /v1/profiles/{id}/report-schedule': 'editor',
  'DELETE /v1/profiles/{id}/report-schedule': 'editor',
  'GET /v1/profiles/{id}/report-sends': 'viewer',
  'POST /v1/profiles/{id}/report-sends': 'editor',

  'GET /v1/media': 'viewer',
  'GET /v1/media/{id}': 'viewer',
  'POST /v1/media': 'editor',
  'DELETE /v1/media/{id}': 'editor',
};

/**
 * Routes a member with roles on several profiles may call without naming one of them: they
 * read nothing of any profile but the list of the member's own.
 */
export const ANY_PROFILE_ROUTES: ReadonlySet<string> = new Set([
  'GET /v1/session',
  'DELETE /v1/session',
  'GET /v1/platforms',
  'GET /v1/platforms/{platform}',
  'GET /v1/profiles',
  'POST /mcp',
]);

/** `/v1/posts/:id` as the OpenAPI document writes it: `/v1/posts/{id}`. */
export function documentedPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The route's operation as the OpenAPI document names it: `DELETE /v1/posts/{id}`. */
export function operationOf(method: string, url: string): string {
  return `${method} ${documentedPath(url)}`;
}

/** The request's operation, or undefined before routing found a route. A HEAD is its GET without the body. */
export function requestOperation(request: FastifyRequest): string | undefined {
  const url = request.routeOptions.url;
  return url === undefined ? undefined : operationOf(request.method === 'HEAD' ? 'GET' : request.method, url);
}

/**
 * Throws for a route the table does not name: called for every route of the authenticated
 * API as it is registered, so the service does not start with one.
 */
export function checkRouteRoles(route: { method: string | string[]; url: string }): void {
  for (const method of [route.method].flat()) {
    if (method === 'HEAD') continue;
    const operation = operationOf(method, route.url);
    if (ROUTE_ROLES[operation] === undefined) {
      throw new Error(`route ${operation} states no least role: add it to ROUTE_ROLES (src/http/route-roles.ts)`);
    }
  }
}

/** True when a member with this role (and this role for the whole owner) may use a route needing `least`. */
export function roleSuffices(role: MemberRole, ownerRole: MemberRole | null, least: LeastRole): boolean {
  if (least === 'owner admin') return ownerRole === 'admin';
  if (typeof least !== 'string') return least.includes(role);
  return ROLE_RANK[role] >= ROLE_RANK[least];
}

/**
 * Whether the caller may use `operation` on an object of `profileId` that the request did not name
 * (a member acting for the whole owner): judged by its role there, the higher of its role for the
 * whole owner and its role on that profile. API keys are judged by their kind alone.
 */
export function callerMayOn(caller: Caller, operation: string, profileId: string): boolean {
  if (caller.type !== 'member') return true;
  const role = higherRole(caller.ownerRole, caller.profileRoles.get(profileId));
  const least = ROUTE_ROLES[operation];
  return role !== null && least !== undefined && roleSuffices(role, caller.ownerRole, least);
}

/** The higher of two roles (either may be absent). */
export function higherRole(a: MemberRole | null | undefined, b: MemberRole | null | undefined): MemberRole | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return ROLE_RANK[a] >= ROLE_RANK[b] ? a : b;
}
