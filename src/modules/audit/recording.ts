/**
 * Every change made through the API is recorded as it is answered: each POST, PUT, PATCH and
 * DELETE of a /v1 route answered with a 2xx (a replayed answer changed nothing, nor did a
 * refused request). The entry is written after the change committed and before the answer
 * leaves, so a client that got its answer can find the entry; a failure to write it is logged
 * for the operator, with everything the entry would have held, and the answer still sent (the
 * change is made: refusing its answer would only invite a second one).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { requestOrigin } from '../../http/request-origin.ts';
import { withHook } from '../../http/route-hooks.ts';
import { operationOf } from '../../http/route-roles.ts';
import type { Caller } from '../../http/scope.ts';
import { looksLikeId } from '../../ids.ts';
import { findProfile } from '../profiles/index.ts';
import { profileReaderOf } from './profile-of.ts';
import { type NewAuditEntry, recordAuditEntry } from './service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on a route whose requests change nothing themselves (the MCP endpoint: each tool call is an API request of its own). */
    audit?: false;
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request of a kind that changes something, on a route whose requests are recorded. */
function mayChange(request: FastifyRequest): boolean {
  return CHANGES.has(request.method) && request.routeOptions.config.audit !== false;
}
/** Answers longer than this are not read for the changed resource's id (no JSON answer of a change comes near). */
const MAX_READ_ANSWER = 1_000_000;

/** The answer's top-level `id` and `profile_id`, when it is a JSON object holding them as strings. */
function answerIds(payload: unknown): { id: string | null; profileId: string | null } {
  const none = { id: null, profileId: null };
  if (typeof payload !== 'string' || payload.length > MAX_READ_ANSWER || !payload.startsWith('{')) return none;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return none;
  }
  if (body === null || typeof body !== 'object') return none;
  const { id, profile_id } = body as Record<string, unknown>;
  return { id: typeof id === 'string' ? id : null, profileId: typeof profile_id === 'string' ? profile_id : null };
}

/** What a change's path addresses, read before the change: its first id as stored, and that object's profile. */
interface Addressed {
  /** The path's first parameter, `{id}`, with a profile's `external_id` read as the profile's id. */
  param: string;
  id: string;
  profileId: string | null;
}

const addressedBy = new WeakMap<FastifyRequest, Addressed>();

/** `/v1/<collection>/:<param>...`: the collection and the name of its first parameter. */
const FIRST_PARAM = /^\/v1\/([a-z-]+)\/:([A-Za-z0-9_]+)/;

/**
 * Reads what a change's path addresses before the change is made, so that a deletion's entry
 * still names the profile of what it deleted.
 */
function readAddressed(db: Db) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!mayChange(request)) return;
    const [, collection, param] = FIRST_PARAM.exec(request.routeOptions.url ?? '') ?? [];
    if (collection === undefined || param === undefined) return;
    const ref = (request.params as Record<string, unknown>)[param];
    if (typeof ref !== 'string') return;
    const { ownerId } = request.scope;
    if (collection === 'profiles') {
      // A profile is named by its id or its external_id: the entry holds the id, which stays its own.
      const profile = await findProfile(db, ownerId, ref);
      if (profile) addressedBy.set(request, { param, id: profile.id, profileId: profile.id });
      return;
    }
    // A request scoped to a profile is recorded in it, whatever its path addresses.
    const reader = request.scope.profileId === null ? profileReaderOf(collection) : undefined;
    if (reader) addressedBy.set(request, { param, id: ref, profileId: await reader.profileOf(db, ownerId, ref) });
  };
}

/** Who made a request, as an entry names them: a key by its name, a member by its e-mail address. */
function actorOf(caller: Caller): NewAuditEntry['actor'] {
  return caller.type === 'api_key'
    ? { type: 'api_key', id: caller.id, name: caller.name }
    : { type: 'member', id: caller.id, name: caller.email };
}

/** The entry of a change a request made, or null when it made none. */
function entryOf(request: FastifyRequest, reply: FastifyReply, payload: unknown): NewAuditEntry | null {
  const url = request.routeOptions.url;
  const status = reply.statusCode;
  if (!mayChange(request) || url === undefined || status < 200 || status >= 300) return null;
  if (reply.getHeader('idempotent-replayed') === 'true') return null;
  // Set by authentication, which every /v1 route passes before it can answer 2xx.
  const scope = request.scope as FastifyRequest['scope'] | undefined;
  if (scope === undefined) return null;
  const answer = answerIds(payload);
  const addressed = addressedBy.get(request);
  const params = Object.entries((request.params ?? {}) as Record<string, unknown>).flatMap(([name, value]) =>
    typeof value !== 'string' ? [] : [name === addressed?.param ? addressed.id : value],
  );
  const objectId = (status === 201 ? answer.id : null) ?? params.at(-1) ?? answer.id;
  // A new profile is the profile of its own creation.
  const created = objectId !== null && looksLikeId('profile', objectId) ? objectId : null;
  return {
    ownerId: scope.ownerId,
    profileId: scope.profileId ?? addressed?.profileId ?? answer.profileId ?? created,
    actor: actorOf(scope.caller),
    via: scope.session === undefined ? 'api' : 'dashboard',
    operation: operationOf(request.method, url),
    objectId,
    status,
    origin: requestOrigin(request),
  };
}

/** Records each change as it is answered. */
function recordChanges(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const entry = entryOf(request, reply, payload);
    if (entry === null) return payload;
    try {
      await recordAuditEntry(db, entry);
    } catch (error) {
      request.log.error(
        { err: error, audit_entry: entry },
        'a change was made but its audit entry could not be written; the entry is in this line',
      );
    }
    return payload;
  };
}

/**
 * Records every change made through the routes of `app` (the /v1 routes): what the path
 * addresses first, then the change as it is answered. Route hooks, on the routes of a method
 * that changes something only, so reads do not pay for them; first of each route's own, as
 * hooks of `app` would be.
 */
export function installChangeRecording(app: FastifyInstance, db: Db): void {
  const before = readAddressed(db);
  const answered = recordChanges(db);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => CHANGES.has(method)) || route.config?.audit === false) return;
    route.preHandler = withHook(route.preHandler, before, 'first');
    route.onSend = withHook(route.onSend, answered, 'first');
  });
}
