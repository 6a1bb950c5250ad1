/**
 * Answers kept as the bytes they are sent as. A read the read cache keeps (read-cache.ts) is
 * otherwise serialized again at every request, and the serializing grows with the page: a page
 * of 100 profiles cost the server about 66 µs a request more than a page of one (bench/README.md,
 * Authentication).
 */
import type { FastifyReply } from 'fastify';
import { cachedRead } from './read-cache.ts';

/** The content type Fastify gives an answer it serializes as JSON. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * `content` (a text as UTF-8) in a buffer of its own: Buffer.from puts small texts in a shared
 * 8 KiB block, which a kept answer would then hold whole.
 */
export function ownedBytes(content: string | Uint8Array): Buffer {
  const text = typeof content === 'string';
  const bytes = Buffer.allocUnsafeSlow(text ? Buffer.byteLength(content) : content.byteLength);
  if (text) bytes.write(content);
  else bytes.set(content);
  return bytes;
}

/**
 * The bytes of the route's 200 answer of `load()`'s value, as the route's serializer writes them,
 * kept by the read cache under the route and `key`: `key` must name all else the value depends
 * on (the caller's scope, the query), as a read cache key does. Send them with JSON_CONTENT_TYPE.
 */
export async function cachedAnswer(reply: FastifyReply, key: string, load: () => Promise<unknown>): Promise<Buffer> {
  return await cachedRead(`answer\u0000${reply.request.routeOptions.url}\u0000${key}`, async () => {
    const made = reply.serialize(await load());
    return ownedBytes(made instanceof ArrayBuffer ? new Uint8Array(made) : made);
  });
}
