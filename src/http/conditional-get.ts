import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

/**
 * Whether `ifNoneMatch` names `etag`, by the weak comparison RFC 9110 (13.1.2) sets for GET:
 * `*` names any, and `W/"x"` names `"x"`.
 */
export function namesTag(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * A route's onSend hook for answers that change seldom (insights: at each 6-hourly refresh).
 * A 200 carries an `ETag`, the digest of its bytes, and `Cache-Control: private, no-cache`
 * (the answer is the caller's own; ask again before using it). A GET whose `If-None-Match`
 * names the answer's tag gets 304 without the body. The tag is taken from what would be sent
 * (by the route, when it kept it with the bytes), so it can never call a changed answer
 * unchanged.
 */
export async function conditionalGet(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
    // Never a tag on anything else, even one a route set before it failed.
    reply.removeHeader('etag');
    return payload;
  }
  // A route that keeps its rendered answers sets the tag it computed with them, the same digest.
  const set = reply.getHeader('etag');
  const etag = typeof set === 'string' ? set : `"${hash('sha1', payload, 'base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch === undefined || !namesTag(ifNoneMatch, etag)) return payload;
  reply.code(304).removeHeader('content-type');
  // No body and no Content-Length on a 304 (RFC 9110, 8.6): null sends nothing. A HEAD keeps the
  // payload, which Fastify only measures, so its Content-Length is the 200's, as allowed.
  return request.method === 'HEAD' ? payload : null;
}

/** The request header, for the route's schema (and so the OpenAPI document). */
export const IfNoneMatchHeader = {
  'if-none-match': Type.Optional(
    Type.String({
      maxLength: 8192,
      description:
        'The `ETag` of an earlier answer (or several, comma-separated): 304 without a body if the answer is still the same.',
    }),
  ),
};

/** The 304 answer, for the route's schema. */
export const NotModified = Type.Null({
  description: 'Not modified: the answer is the one whose `ETag` was sent in `If-None-Match` (no body).',
});
