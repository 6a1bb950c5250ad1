/**
 * Serving media files to platforms at their signed URLs (signed-urls.ts): no API key, the
 * signature is the permission. `Range` is honoured, as platforms fetch video in pieces; a bad
 * or expired signature, an unknown medium or variant is 404 and changes nothing.
 */

import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import rangeParser from 'range-parser';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import { type Borrower, LENT_BUFFER_MAX_BYTES, lentBuffer } from './file-buffers.ts';
import { ACCEPTED_TYPES, type AcceptedMimeType } from './ingest.ts';
import { findMediaForServing, storageKey } from './service.ts';
import { FILE_ROUTE_PREFIX, isValidSignature } from './signed-urls.ts';
import type { ByteRange } from './storage.ts';
import { mediaStorage } from './stores.ts';

const FILE_NAME = /^(original|jpeg)\.([a-z0-9]{1,5})$/;

const notFound = () => new ApiError(404, 'media_file_not_found', 'No media file at this URL, or the link has expired.');

/** The file a request names, when the medium has it: its storage key, type and size. */
function servedFile(
  row: { id: string; mimeType: string; sizeBytes: number; jpegSizeBytes: number | null },
  name: string,
): { key: string; contentType: string; size: number } | undefined {
  const [, variant, extension] = FILE_NAME.exec(name) ?? [];
  if (variant === 'original' && extension === ACCEPTED_TYPES[row.mimeType as AcceptedMimeType]?.extension) {
    return { key: storageKey(row.id, 'original'), contentType: row.mimeType, size: row.sizeBytes };
  }
  if (variant === 'jpeg' && extension === 'jpg' && row.jpegSizeBytes !== null) {
    return { key: storageKey(row.id, 'jpeg'), contentType: 'image/jpeg', size: row.jpegSizeBytes };
  }
  return undefined;
}

export function mediaFileRoutes(deps: {
  db: Db;
  secretKey: Buffer;
  config: Pick<Config, 'dataDir' | 's3'>;
}): FastifyPluginAsyncTypebox {
  const storage = mediaStorage(deps.config);
  const { readInto } = storage;

  /** The `size` bytes of a file (or `range` of them) for `response`: from a lent buffer where the store can fill one, else streamed. */
  async function fileBytes(
    file: { key: string; size: number },
    range: ByteRange | undefined,
    response: Borrower,
  ): Promise<Buffer | Readable> {
    const start = range?.start ?? 0;
    const length = range === undefined ? file.size : range.end - range.start + 1;
    if (readInto === undefined || length > LENT_BUFFER_MAX_BYTES) return await storage.read(file.key, range);
    return await lentBuffer(length, response, async (into) => {
      const read = await readInto(file.key, into, start);
      // Content-Length is sent as the medium's row says: a shorter file is a fault, not a short answer.
      if (read !== length) throw new Error(`media file ${file.key} ends before the ${file.size} bytes its row says`);
    });
  }

  return async (app) => {
    app.get(
      `${FILE_ROUTE_PREFIX}/:id/:name`,
      {
        schema: {
          hide: true,
          params: Type.Object({
            id: Type.String({ minLength: 1, maxLength: 100 }),
            name: Type.String({ minLength: 1, maxLength: 100 }),
          }),
          querystring: Type.Object({
            expires: Type.Optional(Type.String({ maxLength: 20 })),
            signature: Type.Optional(Type.String({ maxLength: 100 })),
          }),
        },
      },
      async (request, reply) => {
        const { id, name } = request.params;
        const { expires, signature } = request.query;
        if (!isValidSignature(deps.secretKey, `${id}/${name}`, expires, signature)) throw notFound();
        const row = await findMediaForServing(deps.db, id);
        const file = row && servedFile(row, name);
        if (!file) throw notFound();

        reply
          .header('content-type', file.contentType)
          .header('accept-ranges', 'bytes')
          // The URL is a credential of its own: no shared cache should keep the file for others.
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff');
        const ranges =
          request.headers.range === undefined
            ? undefined
            : rangeParser(file.size, request.headers.range, { combine: true });
        if (ranges === -1) {
          reply.header('content-range', `bytes */${file.size}`);
          throw new ApiError(
            416,
            'range_not_satisfiable',
            `The file has ${file.size} bytes; the range asked for is outside them.`,
          );
        }
        // One range is served as asked; a malformed Range (-2), or several ranges, get the whole file.
        const only = Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
        if (only) {
          return reply
            .code(206)
            .header('content-range', `bytes ${only.start}-${only.end}/${file.size}`)
            .header('content-length', only.end - only.start + 1)
            .send(await fileBytes(file, only, reply.raw));
        }
        return reply.header('content-length', file.size).send(await fileBytes(file, undefined, reply.raw));
      },
    );
  };
}
