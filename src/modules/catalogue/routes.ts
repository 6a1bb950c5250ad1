import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import { AUTHENTICATED_ERRORS, errorResponses, ListOf, NoQuery } from '../../http/schemas.ts';
import { isPlatform, PLATFORMS, type PlatformSet } from '../../platforms/index.ts';
import { platformsAvailableTo } from '../platform-apps/index.ts';
import { PlatformJson, renderPlatform } from './json.ts';

const tags = ['Platforms'];

const WHAT_IT_STATES =
  "What the catalogue states is what the API enforces: a post's text, media and options are checked against the same definition (400 `validation_failed` naming the field), the insights endpoints take the metrics listed (400 `unknown_metric` otherwise), and the comments endpoints do what `comments` says (422 `unsupported_platform` otherwise). Any key may read it, a profile key too.";

export function catalogueRoutes(deps: { db: Queryable; platforms: () => PlatformSet }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/platforms',
      {
        schema: {
          tags,
          summary: 'List the platforms',
          description: `Every platform the service knows, in one page (\`next_cursor\` is always null): what a post can be there, its text and media limits, its options, what the service does with its comments and insights, and whether this service can connect accounts there now. ${WHAT_IT_STATES}`,
          querystring: NoQuery,
          response: { 200: ListOf(PlatformJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const platforms = deps.platforms();
        const available = await platformsAvailableTo(deps.db, platforms, request.scope.ownerId);
        return { data: PLATFORMS.map((platform) => renderPlatform(platforms, available, platform)), next_cursor: null };
      },
    );

    app.get(
      '/v1/platforms/:platform',
      {
        schema: {
          tags,
          summary: 'Get a platform',
          description: `One platform of GET /v1/platforms. A name the service does not know: 404 \`platform_not_found\`; one that is not a name (not lower case letters, digits and \`_\`): 400 \`validation_failed\` on \`path.platform\`. ${WHAT_IT_STATES}`,
          params: Type.Object(
            {
              platform: Type.String({
                minLength: 1,
                maxLength: 100,
                pattern: '^[a-z][a-z0-9_]*$',
                description:
                  "The platform's name, as GET /v1/platforms lists it: lower-case letters, digits and `_` (`instagram`).",
              }),
            },
            { additionalProperties: false },
          ),
          querystring: NoQuery,
          response: { 200: PlatformJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const { platform } = request.params;
        if (!isPlatform(platform)) {
          throw new ApiError(
            404,
            'platform_not_found',
            `No platform ${JSON.stringify(platform)}; the platforms are ${PLATFORMS.join(', ')}.`,
            {
              platforms: [...PLATFORMS],
            },
          );
        }
        const platforms = deps.platforms();
        return renderPlatform(
          platforms,
          await platformsAvailableTo(deps.db, platforms, request.scope.ownerId),
          platform,
        );
      },
    );
  };
}
