import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { AUTHENTICATED_ERRORS, errorResponses, ListOf, NoQuery } from '../../http/schemas.ts';
import type { Platform, PlatformSet } from '../../platforms/index.ts';
import { PlatformAppJson, renderPlatformApp } from './json.ts';
import { deleteOwnerApp, listOwnerApps, OWNER_APP_PLATFORMS, ownerAppPlatform, setOwnerApp } from './service.ts';

export interface PlatformAppDeps {
  db: Db;
  secretKey: Buffer;
  platforms: () => PlatformSet;
}

const tags = ['Platform apps'];
/** An owner's apps are its own settings, of no profile. */
const ownerLevel = { ownerLevel: true };

const PlatformParams = Type.Object(
  {
    platform: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[a-z][a-z0-9_]*$',
      description: `The platform's name, as GET /v1/platforms lists it; one whose \`owner_apps\` is true (${OWNER_APP_PLATFORMS.join(', ')}).`,
    }),
  },
  { additionalProperties: false },
);

/** Printable ASCII without spaces, as the platforms issue client ids and secrets. */
const Credential = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[\\x21-\\x7e]+$', description });

const WHAT_IT_DOES =
  "The owner's accounts on the platform then connect through this app: the connect page's sign-in asks for it, and the account's token is refreshed and revoked with it (its calls count against this app's plan). Each account keeps the app it was connected with: replacing the app with another client id, or deleting it, leaves the accounts connected before with a token only the old app can refresh, so the next thing done as each (its refresh, or any call) makes it `expired` at once (`account.expired`, the reason naming the app) until it is reconnected through a reconnect link, with the app set then. A new secret for the same client id is taken by those accounts at their next refresh.";

export function platformAppRoutes({ db, secretKey, platforms }: PlatformAppDeps): FastifyPluginAsyncTypebox {
  const fallback = (platform: Platform) => platforms().available.includes(platform);
  return async (app) => {
    app.put(
      '/v1/platform-apps/:platform',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: "Set the owner's own app on a platform",
          description: `Sets or replaces the owner's app on the platform (X's API is paid: an owner may bring its own X app, on its own plan and monthly cap, instead of this service's). ${WHAT_IT_DOES} Answers 201 when set, 200 when replaced; the secret is stored encrypted and never shown. A platform the service does not know: 404 \`platform_not_found\`; one taking no owner app: 422 \`unsupported_platform\`.`,
          params: PlatformParams,
          querystring: NoQuery,
          body: Type.Object(
            {
              client_id: Credential(200, "The app's client id (X: OAuth 2.0 Client ID, in the app's keys and tokens)."),
              client_secret: Credential(
                500,
                "The app's client secret (X: OAuth 2.0 Client Secret). Never shown again.",
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: PlatformAppJson,
            201: PlatformAppJson,
            ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const platform = ownerAppPlatform(request.params.platform);
        const { app: set, created } = await setOwnerApp(db, secretKey, request.scope.ownerId, platform, {
          clientId: request.body.client_id,
          clientSecret: request.body.client_secret,
        });
        return reply.code(created ? 201 : 200).send(renderPlatformApp(set, fallback(platform)));
      },
    );

    app.get(
      '/v1/platform-apps',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: "List the owner's own apps",
          description:
            'One per platform, by platform name, in one page (`next_cursor` is always null). Never the secret.',
          querystring: NoQuery,
          response: { 200: ListOf(PlatformAppJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const apps = await listOwnerApps(db, request.scope.ownerId);
        return { data: apps.map((a) => renderPlatformApp(a, fallback(a.platform))), next_cursor: null };
      },
    );

    app.delete(
      '/v1/platform-apps/:platform',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: "Delete the owner's own app on a platform",
          description: `New connections there use this service's app again (or cannot be made, where it has none). The accounts connected through the deleted app end at the next thing done as each (\`expired\`, \`account.expired\`) until reconnected. None set: 404 \`platform_app_not_found\`; an unknown platform 404 \`platform_not_found\`, one taking no owner app 422 \`unsupported_platform\`.`,
          params: PlatformParams,
          querystring: NoQuery,
          response: {
            204: Type.Null({ description: 'Deleted.' }),
            ...errorResponses(...AUTHENTICATED_ERRORS, 422),
          },
        },
      },
      async (request, reply) => {
        await deleteOwnerApp(db, request.scope.ownerId, ownerAppPlatform(request.params.platform));
        return reply.code(204).send(null);
      },
    );
  };
}
