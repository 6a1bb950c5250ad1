import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  ListOf,
  ListQuery,
  NameText,
  ProfileHeader,
} from '../../http/schemas.ts';
import { PLATFORMS, type PlatformSet } from '../../platforms/index.ts';
import { AccountParams } from '../accounts/index.ts';
import { platformsAvailableTo } from '../platform-apps/index.ts';
import { ProfileParams } from '../profiles/index.ts';
import {
  ConnectLinkJson as ConnectLink,
  ReconnectLinkJson as ReconnectLink,
  RedirectOriginJson as RedirectOrigin,
  renderLink,
  renderOrigin,
  renderReconnectLink,
  renderSettings,
  ConnectSettingsJson as Settings,
} from './json.ts';
import {
  addRedirectOrigin,
  createConnectLink,
  createReconnectLink,
  deleteRedirectOrigin,
  getConnectSettings,
  listRedirectOrigins,
  MAX_REDIRECT_ORIGINS,
  updateConnectSettings,
} from './service.ts';

export interface ConnectDeps {
  db: Db;
  config: Config;
  platforms: () => PlatformSet;
}

const tags = ['Connect'];
/** The redirect origins and the connect page's settings are the owner's, of no profile. */
const ownerLevel = { ownerLevel: true };

/** What a connect link and a reconnect link both take. */
const LinkBody = {
  redirect_url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'Where the client is sent afterwards (https, or http for localhost; no fragment).',
  }),
  state: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'Returned unchanged as the `state` query parameter of the redirect.',
    }),
  ),
};

export function connectRoutes({ db, config, platforms }: ConnectDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/connect/redirect-origins',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Register a redirect origin',
          description: `Connect links may send clients back only to URLs under a registered origin, compared as a whole (scheme, host and port). \`origin\` is a scheme and host with an optional port and nothing after them; https, or http for localhost only. Answers 201, or 200 with the existing entry when the origin is registered already. At most ${MAX_REDIRECT_ORIGINS} per owner (422 \`redirect_origin_limit_reached\`).`,
          body: Type.Object(
            {
              origin: Type.String({
                minLength: 1,
                maxLength: 300,
                description: 'For example `https://app.example.com` or `http://localhost:3000`.',
              }),
            },
            { additionalProperties: false },
          ),
          response: {
            200: RedirectOrigin,
            201: RedirectOrigin,
            ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const { origin, created } = await addRedirectOrigin(db, request.scope, request.body.origin);
        return reply.code(created ? 201 : 200).send(renderOrigin(origin));
      },
    );

    app.get(
      '/v1/connect/redirect-origins',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'List redirect origins',
          description: 'Oldest first.',
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(RedirectOrigin), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listRedirectOrigins(db, request.scope, {
          limit,
          after: decodeCursor(request.query.cursor, 'redirectOrigin'),
        });
        return toPage(rows, limit, renderOrigin);
      },
    );

    app.delete(
      '/v1/connect/redirect-origins/:id',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Delete a redirect origin',
          description:
            'New links can no longer name it. Links created before keep their redirect until they expire (30 minutes at most).',
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
          response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request, reply) => {
        await deleteRedirectOrigin(db, request.scope, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/connect/settings',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Get the connect page settings',
          response: { 200: Settings, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => renderSettings(await getConnectSettings(db, request.scope.ownerId)),
    );

    app.patch(
      '/v1/connect/settings',
      {
        config: ownerLevel,
        schema: {
          tags,
          summary: 'Change the connect page settings',
          description: "`brand_name: null` shows the owner's name again. The page shows the name as text, escaped.",
          body: Type.Object(
            {
              brand_name: Type.Optional(
                Type.Union([NameText(100, 'The name on the connect page, up to 100 characters.'), Type.Null()]),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: Settings, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
      },
      async (request) =>
        renderSettings(await updateConnectSettings(db, request.scope, { brandName: request.body.brand_name })),
    );

    app.post(
      '/v1/profiles/:id/connect-links',
      {
        // The answer holds the link's token, which the service keeps only hashed: a stored
        // replay would keep it in clear. A second link is harmless (single use, 30 minutes).
        config: { idempotencyKey: false },
        schema: {
          tags,
          summary: 'Create a connect link',
          description:
            'A single-use link, valid 30 minutes, to a hosted page where the client connects platform accounts to this profile; then the client is sent to `redirect_url` with `status=connected`, `profile_id`, `account_ids` (comma-separated) and `state`, or with `status=error`, `error` (`access_denied`, `permission_missing`, `account_in_other_profile`, `plan_account_limit`, `expired`) and `state`. Those parameters can be altered by whoever holds the URL: confirm with GET /v1/accounts or the `account.connected` event. `redirect_url` must be under a registered origin (422 `redirect_origin_not_registered`). A profile key may create links for its own profile. To reconnect one account (and only it), use POST /v1/accounts/{id}/reconnect-links.',
          headers: ProfileHeader,
          params: ProfileParams,
          body: Type.Object(
            {
              ...LinkBody,
              platforms: Type.Optional(
                Type.Array(Type.Union(PLATFORMS.map((p) => Type.Literal(p))), {
                  minItems: 1,
                  uniqueItems: true,
                  description:
                    'The platform buttons the page shows; default: every platform available. A platform this service has no credentials for is 422 `platform_not_available`.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 201: ConnectLink, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { link, token } = await createConnectLink(
          db,
          request.scope,
          request.params.id,
          { redirectUrl: request.body.redirect_url, state: request.body.state, platforms: request.body.platforms },
          await platformsAvailableTo(db, platforms(), request.scope.ownerId),
        );
        return reply.code(201).send(renderLink(link, `${publicBaseUrl(config, request)}/connect/${token}`));
      },
    );

    app.post(
      '/v1/accounts/:id/reconnect-links',
      {
        // As for connect links: the answer holds the token, which a stored replay would keep in clear.
        config: { idempotencyKey: false },
        schema: {
          tags,
          summary: 'Create a reconnect link',
          description:
            "A single-use link, valid 30 minutes, to a hosted page where the person who can sign in as this account reconnects it (an expired one, say): the page offers only the account's platform and names the account. The account keeps its id and profile, takes the new tokens and becomes `connected`; `account.connected` is sent with `reconnected: true`. Then the client is sent to `redirect_url` as from a connect link (`status=connected`, `profile_id`, `account_ids` holding this account's id, `state`). A login of another platform account (on Facebook, one that does not grant this page) is refused with `error=account_mismatch`, changing nothing: the page says so, and the client may try again or go back to `redirect_url` with it. The link is `expired` once used, after 30 minutes, or when the account has left its profile (moved, or deleted with the profile). `redirect_url` must be under a registered origin (422 `redirect_origin_not_registered`); a platform without credentials is 422 `platform_not_available`. Any status may be reconnected; a disconnected account takes a free slot of the plan's account limit (`error=plan_account_limit` otherwise), a connected or expired one holds its slot. A profile key may create links for its own profile's accounts; an account the caller does not see is 404 `account_not_found`.",
          headers: ProfileHeader,
          params: AccountParams,
          body: Type.Object(LinkBody, { additionalProperties: false }),
          response: { 201: ReconnectLink, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { link, token } = await createReconnectLink(
          db,
          request.scope,
          request.params.id,
          { redirectUrl: request.body.redirect_url, state: request.body.state },
          await platformsAvailableTo(db, platforms(), request.scope.ownerId),
        );
        return reply.code(201).send(renderReconnectLink(link, `${publicBaseUrl(config, request)}/connect/${token}`));
      },
    );
  };
}
