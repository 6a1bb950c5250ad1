import { createHash } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { now } from '../clock.ts';
import { DAY_MS } from '../days.ts';
import type { Db, Queryable } from '../db/connection.ts';
import { JSON_CONTENT_TYPE } from './cached-answer.ts';
import { ApiError, errors } from './errors.ts';
import { withHook } from './route-hooks.ts';
import { idempotencyKeys } from './tables.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * False on a POST whose answer must never be shown twice (a new API key): an
     * Idempotency-Key there is refused rather than silently ignored.
     */
    idempotencyKey?: false;
  }
  interface FastifyRequest {
    idempotencyClaim?: { apiKeyId: string; key: string };
  }
}

const HEADER = 'idempotency-key';
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** How long an answer is kept for retries. */
export const IDEMPOTENCY_TTL_MS = DAY_MS;
/** A first request unanswered this long died with its process; a retry may take over. */
const ABANDONED_MS = 2 * 60 * 1000;

function requestHash(method: string, url: string, profile: string | undefined, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, url, profile ?? null, body ?? null]))
    .digest('hex');
}

/** Claims the key for this request; false when another request holds or answered it. */
async function claim(db: Db, apiKeyId: string, key: string, hash: string): Promise<boolean> {
  const at = now();
  const expired = new Date(at.getTime() - IDEMPOTENCY_TTL_MS);
  const abandoned = new Date(at.getTime() - ABANDONED_MS);
  const rows = await db
    .insert(idempotencyKeys)
    .values({ apiKeyId, key, requestHash: hash, createdAt: at })
    .onConflictDoUpdate({
      target: [idempotencyKeys.apiKeyId, idempotencyKeys.key],
      set: { requestHash: hash, statusCode: null, responseBody: null, createdAt: at },
      setWhere: sql`${idempotencyKeys.createdAt} < ${expired.toISOString()}::timestamptz
        or (${idempotencyKeys.statusCode} is null and ${idempotencyKeys.createdAt} < ${abandoned.toISOString()}::timestamptz)`,
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/**
 * `Idempotency-Key` on POST requests: the first request with a key runs and its answer
 * (any status below 500 but 429) is kept for 24 hours; a retry with the same key and the same
 * request gets that answer again, marked `Idempotent-Replayed: true`. The same key with
 * a different request is 422 `idempotency_key_reused`; while the first is still running,
 * 409 `idempotency_request_in_progress`. A 5xx or 429 answer is not kept, so a retry runs again.
 * Keys are per API key. Runs after authentication and validation: a request that fails
 * those never claims a key.
 */
export function installIdempotency(app: FastifyInstance, db: Db): void {
  const claimOrReplay: preHandlerAsyncHookHandler = async (request, reply) => {
    const header = request.headers[HEADER];
    if (header === undefined) return;
    const key = Array.isArray(header) ? (header[0] ?? '') : header;
    if (request.routeOptions.config.idempotencyKey === false) {
      throw new ApiError(
        400,
        'idempotency_key_not_supported',
        'This endpoint does not take an Idempotency-Key: its answer holds a secret that is shown only once.',
      );
    }
    if (!KEY_FORMAT.test(key)) {
      throw errors.validation([
        { field: 'header.idempotency-key', message: 'must be 1 to 255 printable ASCII characters' },
      ]);
    }
    const profileHeader = request.headers['service-profile'];
    // A member's profile may be implied by its roles, which change: the hash holds the profile it acted in.
    const profile =
      request.scope.caller.type === 'member'
        ? (request.scope.profileId ?? undefined)
        : Array.isArray(profileHeader)
          ? profileHeader[0]
          : profileHeader;
    const hash = requestHash(request.method, request.url, profile, request.body);
    // A member's requests are its own, as a key's are: their ids never meet.
    const apiKeyId = request.scope.caller.id;
    if (await claim(db, apiKeyId, key, hash)) {
      request.idempotencyClaim = { apiKeyId, key };
      return;
    }
    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)));
    if (!stored) throw new ApiError(409, 'idempotency_request_in_progress', 'Retry this request.');
    if (stored.requestHash !== hash) {
      throw new ApiError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request (method, path, profile or body).',
      );
    }
    if (stored.statusCode === null) {
      throw new ApiError(
        409,
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still being handled; retry in a moment.',
      );
    }
    reply.header('Idempotent-Replayed', 'true').code(stored.statusCode);
    if (stored.responseBody === null) return reply.send();
    return reply.type(JSON_CONTENT_TYPE).send(stored.responseBody);
  };

  const keepAnswer: onSendAsyncHookHandler = async (request, reply, payload) => {
    const held = request.idempotencyClaim;
    if (!held) return payload;
    request.idempotencyClaim = undefined;
    const where = and(eq(idempotencyKeys.apiKeyId, held.apiKeyId), eq(idempotencyKeys.key, held.key));
    // An answer that says "later" changed nothing, and a retry after its Retry-After must run
    // again: a 429 (the endpoint's own limit, a platform's) is forgotten like a 5xx.
    if (reply.statusCode >= 500 || reply.statusCode === 429) {
      await db.delete(idempotencyKeys).where(where);
    } else {
      const body = typeof payload === 'string' ? payload : payload == null ? null : String(payload);
      await db.update(idempotencyKeys).set({ statusCode: reply.statusCode, responseBody: body }).where(where);
    }
    return payload;
  };

  // Route hooks on POST routes only, so reads do not pay for them.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = withHook(route.preHandler, claimOrReplay, 'last');
    route.onSend = withHook(route.onSend, keepAnswer, 'last');
  });
}

/** Deletes answers past their 24 hours (a periodic job). */
export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  const cutoff = new Date(now().getTime() - IDEMPOTENCY_TTL_MS);
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, cutoff))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/** Forgets the answers kept for these API keys (the api-keys module calls it when it deletes keys). */
export async function forgetIdempotentAnswers(db: Queryable, apiKeyIds: readonly string[]): Promise<void> {
  if (apiKeyIds.length === 0) return;
  await db.delete(idempotencyKeys).where(inArray(idempotencyKeys.apiKeyId, [...apiKeyIds]));
}
