import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  ProfileHeader,
} from '../../http/schemas.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import { createOutboundAgent } from '../../outbound/http-client.ts';
import { importFromUrl } from './import-url.ts';
import { type IngestedFile, ingest, largestLimit, type SizeLimits } from './ingest.ts';
import { MediaJson, renderMedia } from './json.ts';
import { createMedia, deleteMedia, getMedia, listMedia } from './service.ts';
import type { MediaStorage } from './storage.ts';
import { mediaStorage } from './stores.ts';

const tags = ['Media'];

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'Media id, `media_...`.' }),
});

const ImportBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'An https URL (port 443, a host with public addresses only) the service fetches the file from. Redirects are not followed.',
    }),
  },
  { additionalProperties: false },
);

const UploadParts = Type.Object({
  file: Type.String({ format: 'binary', description: 'The file, in a part named `file`.' }),
});

export interface MediaRouteDeps {
  db: Db;
  config: Pick<
    Config,
    'dataDir' | 's3' | 'mediaMaxImageBytes' | 'mediaMaxVideoBytes' | 'mediaMaxDocumentBytes' | 'webhookAllowPrivateUrls'
  >;
  resolver: Resolver;
}

/** A file part that broke off or a body that is not multipart as it claims: the client's fault. */
function unreadableUpload(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  // Errors of the file system (a full disk) carry a syscall; those are ours.
  if (error instanceof Error && !('syscall' in error)) {
    return new ApiError(400, 'invalid_multipart', `The multipart body could not be read: ${error.message}.`);
  }
  return error;
}

async function uploadedFile(request: FastifyRequest, storage: MediaStorage, limits: SizeLimits): Promise<IngestedFile> {
  try {
    const part = await request.file();
    if (!part) {
      throw errors.validation([{ field: 'body.file', message: 'is required: send the file in a part named "file"' }]);
    }
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw errors.validation([
        { field: `body.${part.fieldname}`, message: 'is not a part this endpoint takes; send the file as "file"' },
      ]);
    }
    return await ingest(part.file, storage, limits);
  } catch (error) {
    throw unreadableUpload(error);
  }
}

/**
 * The URL of a JSON body, which its schema has checked. A request with no body and no
 * Content-Type matches neither of the route's body schemas (each is for its type), so nothing
 * checked it: it is refused here as every route refuses a missing body.
 */
function importedUrl(body: unknown): string {
  if (body === undefined || body === null) {
    throw errors.validation([
      { field: 'body', message: 'is required: the file as multipart/form-data (a part named "file"), or JSON {"url"}' },
    ]);
  }
  return (body as { url: string }).url;
}

export function mediaRoutes(deps: MediaRouteDeps): FastifyPluginAsyncTypebox {
  const { db, config } = deps;
  const storage = mediaStorage(config);
  const limits: SizeLimits = config;
  return async (app) => {
    const agent = createOutboundAgent({ allowPrivate: config.webhookAllowPrivateUrls, resolve: deps.resolver });
    app.addHook('onClose', async () => await agent.close());
    // Only these routes take multipart bodies. The part is read as a stream by the route; the
    // size limits are checked there, by the type the bytes show (one more byte lets that check
    // speak first).
    await app.register(multipart, {
      limits: {
        files: 1,
        fields: 10,
        fieldSize: 1024,
        parts: 11,
        fileSize: largestLimit(config).limit + 1,
      },
    });

    app.post(
      '/v1/media',
      {
        schema: {
          tags,
          summary: 'Upload or import a medium',
          description: [
            'Send the file as `multipart/form-data` in a part named `file`, or JSON `{"url"}` to have the service fetch it.',
            'The type is read from the bytes: JPEG, PNG, WebP and GIF images, MP4 and MOV videos, PDF documents; anything else is 415 `unsupported_media_type`.',
            'Larger than the limit for its type (MEDIA_MAX_IMAGE_BYTES, MEDIA_MAX_VIDEO_BYTES, MEDIA_MAX_DOCUMENT_BYTES): 413 `media_too_large`.',
            'A file whose size or length cannot be read: 422 `media_unreadable`. A URL that is not allowed: 422 `invalid_media_url`; one that cannot be fetched: 422 `media_fetch_failed`.',
            'The medium belongs to the profile of the key or the Service-Profile header, else to the default profile. Answers 201 with the record.',
            'With an Idempotency-Key, a retried upload gets the first answer again (the key covers the path and profile; the bytes of an upload are not compared).',
          ].join(' '),
          headers: IdempotentPostHeaders,
          body: {
            content: {
              'multipart/form-data': { schema: UploadParts },
              'application/json': { schema: ImportBody },
            },
          },
          response: { 201: MediaJson, ...errorResponses(...AUTHENTICATED_ERRORS, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const file = request.isMultipart()
          ? await uploadedFile(request, storage, limits).catch((error: unknown) => {
              // The rest of a refused upload is not read: the connection cannot carry another request.
              reply.header('connection', 'close');
              throw error;
            })
          : await importFromUrl(
              {
                agent,
                urlPolicy: { allowPrivate: config.webhookAllowPrivateUrls, resolve: deps.resolver },
                storage,
                limits,
              },
              importedUrl(request.body),
            );
        const row = await createMedia(db, storage, request.scope, file);
        return reply.code(201).send(renderMedia(row));
      },
    );

    app.get(
      '/v1/media',
      {
        schema: {
          tags,
          summary: 'List media',
          description: "Newest first. With a profile key or a Service-Profile header, only that profile's media.",
          headers: ProfileHeader,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(MediaJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listMedia(db, request.scope, { limit, after: decodeCursor(request.query.cursor, 'media') });
        return toPage(rows, limit, renderMedia);
      },
    );

    app.get(
      '/v1/media/:id',
      {
        schema: {
          tags,
          summary: 'Get a medium',
          headers: ProfileHeader,
          params: Params,
          response: { 200: MediaJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => renderMedia(await getMedia(db, request.scope, request.params.id)),
    );

    app.delete(
      '/v1/media/:id',
      {
        schema: {
          tags,
          summary: 'Delete a medium',
          description:
            'Answers 204; the file and its URLs stop working at once. While a post waiting to be published uses it: 409 `media_in_use`.',
          headers: ProfileHeader,
          params: Params,
          response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
        },
      },
      async (request, reply) => {
        await deleteMedia(db, storage, request.scope, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
