/**
 * The owner's logo: PUT takes the image as the request's body (its own content-type parser, so
 * this plugin alone reads bodies as bytes), GET sends the stored PNG, DELETE removes it.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import { renderSettings, ConnectSettingsJson as Settings } from './json.ts';
import { deleteLogo, LOGO_TYPES, type LogoType, logoOf, MAX_LOGO_BYTES, setLogo } from './logo.ts';
import { getConnectSettings } from './service.ts';

const tags = ['Connect'];
/** The logo is the owner's, of no profile. */
const ownerLevel = { ownerLevel: true };

const Image = Type.Unsafe<Buffer>({ format: 'binary', description: 'The image file itself.' });

function isLogoType(type: string): type is LogoType {
  return (LOGO_TYPES as readonly string[]).includes(type);
}

export function logoRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Any type is read (up to one byte past the limit, which is then 413): the route says which it takes.
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES }, (_request, body, done) =>
      done(null, body),
    );

    app.put(
      '/v1/connect/settings/logo',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Set the logo of client reports',
          description: `The owner's logo, printed on its client reports (GET /v1/profiles/{id}/report.pdf) above its brand name. Send the image itself as the body with its type: ${LOGO_TYPES.map((t) => `\`${t}\``).join(', ')} (another: 415 \`unsupported_media_type\`; no body: 400 \`validation_failed\`), at most ${MAX_LOGO_BYTES / 1024 / 1024} MB (413 \`payload_too_large\`). It is decoded and kept as a PNG of at most 512 by 512 pixels, its orientation applied and its metadata dropped; bytes that are no PNG, JPEG or WebP image, whatever their type says (an SVG or a GIF sent as \`image/png\`, say): 422 \`invalid_image\`. Answers the settings.`,
          body: { content: Object.fromEntries(LOGO_TYPES.map((type) => [type, { schema: Image }])) },
          response: { 200: Settings, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415, 422) },
        },
      },
      async (request) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        if (
          request.body === undefined ||
          request.body === null ||
          (Buffer.isBuffer(request.body) && request.body.length === 0)
        ) {
          // No body at all: the one the route requires is missing, as for any route's.
          throw errors.validation([
            { field: 'body', message: `is required: the image itself, with Content-Type ${LOGO_TYPES.join(', ')}` },
          ]);
        }
        if (!isLogoType(type) || !Buffer.isBuffer(request.body)) {
          throw new ApiError(
            415,
            'unsupported_media_type',
            `Send the logo as the body, with Content-Type ${LOGO_TYPES.join(', ')}.`,
          );
        }
        await setLogo(db, request.scope, request.body);
        return renderSettings(await getConnectSettings(db, request.scope.ownerId));
      },
    );

    app.get(
      '/v1/connect/settings/logo',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Get the logo of client reports',
          description: 'The logo as stored: a PNG of at most 512 by 512 pixels. None set: 404 `logo_not_found`.',
          querystring: Type.Object(
            {
              v: Type.Optional(
                Type.String({
                  maxLength: 100,
                  description:
                    "Ignored: a page may name the logo's `updated_at` here, so that a browser shows a new logo instead of one it kept.",
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: {
              description: 'The PNG.',
              content: { 'image/png': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
            },
            ...errorResponses(...AUTHENTICATED_ERRORS),
          },
        },
      },
      async (request, reply) => {
        const png = await logoOf(db, request.scope.ownerId);
        if (png === null) throw new ApiError(404, 'logo_not_found', 'No logo is set (PUT /v1/connect/settings/logo).');
        return reply.type('image/png').header('cache-control', 'private, no-cache').send(png);
      },
    );

    app.delete(
      '/v1/connect/settings/logo',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Remove the logo of client reports',
          description:
            'Reports show the brand name alone again. Answers the settings; without a logo, nothing changes.',
          response: { 200: Settings, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        await deleteLogo(db, request.scope);
        return renderSettings(await getConnectSettings(db, request.scope.ownerId));
      },
    );
  };
}
