import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  absentBodyAsEmpty,
  errorResponses,
  ListOf,
  ListQuery,
  NameText,
  ProfileHeader,
} from '../../http/schemas.ts';
import { getProfile, ProfileParams } from '../profiles/index.ts';
import { ApiKeyJson as ApiKey, CreatedApiKeyJson as CreatedApiKey, renderCreatedKey, renderKey } from './json.ts';
import { createKey, deleteKey, listProfileKeys } from './service.ts';

const tags = ['API keys'];
const ownerOnly = { ownerOnly: true };

export function apiKeyRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/profiles/:id/api-keys',
      {
        config: { ...ownerOnly, idempotencyKey: false },
        preValidation: absentBodyAsEmpty,
        schema: {
          tags,
          summary: 'Create a profile API key',
          description: 'A key locked to this profile. The response holds the key; it is never shown again.',
          headers: ProfileHeader,
          params: ProfileParams,
          body: Type.Object(
            { name: Type.Optional(NameText(200, 'A label, e.g. what the key is for.')) },
            { additionalProperties: false },
          ),
          response: { 201: CreatedApiKey, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
      },
      async (request, reply) => {
        const profile = await getProfile(db, request.scope, request.params.id);
        const created = await createKey(db, {
          ownerId: request.scope.ownerId,
          profileId: profile.id,
          name: request.body.name ?? null,
        });
        return reply.code(201).send(renderCreatedKey(created));
      },
    );

    app.get(
      '/v1/profiles/:id/api-keys',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'List profile API keys',
          description: 'Oldest first. Never includes the keys themselves.',
          headers: ProfileHeader,
          params: ProfileParams,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(ApiKey), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const profile = await getProfile(db, request.scope, request.params.id);
        const limit = request.query.limit ?? 50;
        const rows = await listProfileKeys(db, request.scope.ownerId, profile.id, {
          limit,
          after: decodeCursor(request.query.cursor, 'apiKey'),
        });
        return toPage(rows, limit, renderKey);
      },
    );

    app.delete(
      '/v1/profiles/:id/api-keys/:keyId',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'Delete a profile API key',
          description: 'Answers 204. The key stops working at once.',
          headers: ProfileHeader,
          params: Type.Object({
            id: ProfileParams.properties.id,
            keyId: Type.String({ minLength: 1, maxLength: 100 }),
          }),
          response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request, reply) => {
        const profile = await getProfile(db, request.scope, request.params.id);
        const deleted = await deleteKey(db, {
          ownerId: request.scope.ownerId,
          keyId: request.params.keyId,
          profileId: profile.id,
        });
        if (!deleted) {
          throw new ApiError(
            404,
            'api_key_not_found',
            `This profile has no API key ${JSON.stringify(request.params.keyId)}.`,
          );
        }
        return reply.code(204).send(null);
      },
    );
  };
}
