/**
 * `/v1/session`: the dashboard's sign-in. An API key is exchanged for an HttpOnly,
 * SameSite=Strict cookie, so the page never keeps the key; the answer gives the page the
 * CSRF token its changes must carry.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { SESSION_COOKIE, sessionToken } from '../../http/auth.ts';
import { ApiError } from '../../http/errors.ts';
import { AUTHENTICATED_ERRORS, absentBodyAsEmpty, errorResponses, Timestamp } from '../../http/schemas.ts';
import type { Caller, Scope, ScopeSession } from '../../http/scope.ts';
import {
  csrfTokenFor,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  sessionCookieOptions,
} from '../../http/session-lifetime.ts';
import { createSession, endSession } from './sessions.ts';

const tags = ['Dashboard sessions'];

/** What the session routes ask of the members module (handed in by the app: members depend on modules this one is below). */
export interface MemberSessions {
  end(sessionId: string): Promise<void>;
}

/** A member's roles as its session shows them, read with the session: the whole owner's first, then profiles by id. */
function memberRoles(caller: Extract<Caller, { type: 'member' }>) {
  const byProfile = [...caller.profileRoles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    ...(caller.ownerRole === null ? [] : [{ role: caller.ownerRole, profile_id: null }]),
    ...byProfile.map(([profileId, role]) => ({ role, profile_id: profileId })),
  ];
}

export const SessionJson = Type.Object(
  {
    id: Type.String({ description: 'Session id, `ses_...`.' }),
    key_id: Type.Union([Type.String(), Type.Null()], {
      description: "The API key the session acts for; null for a member's session.",
    }),
    key_kind: Type.Union([Type.Literal('owner'), Type.Literal('profile'), Type.Null()], {
      description: "Null for a member's session.",
    }),
    profile_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'The profile a profile key is locked to, or the one profile a member has roles on (and none for the whole owner); null otherwise.',
    }),
    member: Type.Union(
      [
        Type.Object({
          id: Type.String({ description: 'Member id, `mem_...`.' }),
          email: Type.String(),
          name: Type.Union([Type.String(), Type.Null()]),
          roles: Type.Array(
            Type.Object({
              role: Type.Union([
                Type.Literal('admin'),
                Type.Literal('editor'),
                Type.Literal('viewer'),
                Type.Literal('client'),
              ]),
              profile_id: Type.Union([Type.String(), Type.Null()], { description: 'Null: the whole owner.' }),
            }),
          ),
        }),
        Type.Null(),
      ],
      { description: "The member a member's session acts for, with its roles; null for a key's session." },
    ),
    csrf_token: Type.String({
      description: 'Send it as `X-CSRF-Token` on every request that changes something (any method but GET and HEAD).',
    }),
    expires_at: Timestamp,
    idle_expires_at: Timestamp,
    idle_timeout_seconds: Type.Integer({ description: `${SESSION_IDLE_MS / 1000}: a request resets it.` }),
  },
  { title: 'DashboardSession' },
);

const description = `A session ends after ${SESSION_IDLE_MS / 60_000} minutes without a request, ${SESSION_ABSOLUTE_MS / 3_600_000} hours after sign-in however busy, at sign-out, or when its key (or member) is deleted. With the cookie, every /v1 request acts as the key it was signed in with (or as the member, with its roles); requests that change something also need \`X-CSRF-Token\` (403 \`csrf_token_invalid\`). A request with an \`Authorization\` header is judged by that header alone.`;

/** A session as the API shows it: `scope` is the caller's, whose key (or member) the session acts for. */
function renderSession(
  secretKey: Buffer,
  token: string,
  session: ScopeSession,
  scope: Scope,
): Static<typeof SessionJson> {
  const { caller } = scope;
  const roles = caller.type === 'member' ? memberRoles(caller) : [];
  const onlyProfile = roles.length === 1 ? roles[0]?.profile_id : null;
  return {
    id: session.id,
    key_id: caller.type === 'api_key' ? caller.id : null,
    key_kind: caller.type === 'api_key' ? caller.kind : null,
    profile_id: caller.type === 'api_key' ? (caller.kind === 'owner' ? null : scope.profileId) : (onlyProfile ?? null),
    member: caller.type === 'member' ? { id: caller.id, email: caller.email, name: caller.name, roles } : null,
    csrf_token: csrfTokenFor(secretKey, token),
    expires_at: session.expiresAt.toISOString(),
    idle_expires_at: session.idleExpiresAt.toISOString(),
    idle_timeout_seconds: SESSION_IDLE_MS / 1000,
  };
}

function noSession(): ApiError {
  return new ApiError(
    404,
    'session_not_found',
    'This request carries no dashboard session cookie (it was made with an API key).',
  );
}

/** The request's session cookie, which `scope` says was accepted, and its session. */
function acceptedSession(request: FastifyRequest, scope: Scope): { token: string; session: ScopeSession } {
  const token = sessionToken(request);
  if (scope.session === undefined || token === null) throw noSession();
  return { token, session: scope.session };
}

export function sessionRoutes({
  db,
  secretKey,
  config,
  members,
}: {
  db: Db;
  secretKey: Buffer;
  config: Pick<Config, 'publicUrl'>;
  members: MemberSessions;
}): FastifyPluginAsyncTypebox {
  const cookieOptions = sessionCookieOptions(config);
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, cookieOptions);

  return async (app) => {
    app.post(
      '/v1/session',
      {
        config: { keyOnly: true, idempotencyKey: false },
        preValidation: absentBodyAsEmpty,
        schema: {
          tags,
          summary: 'Sign in to the dashboard',
          description: `Exchanges the API key in the Authorization header (owner or profile key) for a session cookie \`${SESSION_COOKIE}\` (HttpOnly, SameSite=Strict, Secure when PUBLIC_URL is https). Answers 201. ${description}`,
          body: Type.Object({}, { additionalProperties: false }),
          response: { 201: SessionJson, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
      },
      async (request, reply) => {
        const { caller } = request.scope;
        // The route reads no cookie (keyOnly): its caller is the key in the header.
        if (caller.type !== 'api_key') throw noSession();
        const session = await createSession(db, caller.id);
        reply.setCookie(SESSION_COOKIE, session.token, {
          ...cookieOptions,
          maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
        });
        request.log.info(
          { sessionId: session.id, keyId: caller.id, ownerId: request.scope.ownerId },
          'dashboard session started',
        );
        return reply.code(201).send(renderSession(secretKey, session.token, session, request.scope));
      },
    );

    app.get(
      '/v1/session',
      {
        schema: {
          tags,
          summary: 'The current dashboard session',
          description: `The session of the cookie sent, with its CSRF token (so a reloaded page can go on). 404 \`session_not_found\` for a request made with an API key. ${description}`,
          response: { 200: SessionJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      // The auth hook has just found (and touched) the session: rendered from that, not read again.
      async (request) => {
        const { token, session } = acceptedSession(request, request.scope);
        return renderSession(secretKey, token, session, request.scope);
      },
    );

    app.delete(
      '/v1/session',
      {
        config: { idempotencyKey: false },
        schema: {
          tags,
          summary: 'Sign out of the dashboard',
          description:
            'Ends the session of the cookie sent and clears the cookie; needs `X-CSRF-Token`. Answers 204. 404 `session_not_found` for a request made with an API key.',
          response: { 204: Type.Null({ description: 'Signed out.' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request, reply) => {
        const { session } = acceptedSession(request, request.scope);
        if (request.scope.caller.type === 'member') await members.end(session.id);
        else await endSession(db, session.id);
        clearCookie(reply);
        request.log.info({ sessionId: session.id }, 'dashboard session ended by sign-out');
        return reply.code(204).send(null);
      },
    );
  };
}
