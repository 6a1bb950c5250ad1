import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import type { Db } from '../../db/connection.ts';
import { cachedAnswer, JSON_CONTENT_TYPE } from '../../http/cached-answer.ts';
import { decodeCursor } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  NameText,
  ProfileHeader,
} from '../../http/schemas.ts';
import { ExternalId, PostApprovalRequired, ProfileJson as Profile, ProfileParams, renderProfile } from './json.ts';
import {
  createProfile,
  getProfile,
  listProfiles,
  profilesPageKey,
  requestProfileDeletion,
  updateProfile,
} from './service.ts';

const tags = ['Profiles'];
const ownerOnly = { ownerOnly: true };

export function profileRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/profiles',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'List profiles',
          description: 'Oldest first; the default profile is first. With a Service-Profile header, only that profile.',
          headers: ProfileHeader,
          querystring: Type.Object(
            { ...ListQuery, external_id: Type.Optional(ExternalId) },
            { additionalProperties: false },
          ),
          response: { 200: ListOf(Profile), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request, reply) => {
        const query = {
          externalId: request.query.external_id,
          limit: request.query.limit ?? 50,
          after: decodeCursor(request.query.cursor, 'profile'),
        };
        const body = await cachedAnswer(reply, profilesPageKey(request.scope, query), () =>
          listProfiles(db, request.scope, query),
        );
        // Already JSON in the schema's shape: Fastify sends bytes as they are.
        return reply.type(JSON_CONTENT_TYPE).send(body as unknown as Static<ReturnType<typeof ListOf<typeof Profile>>>);
      },
    );

    app.post(
      '/v1/profiles',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'Create a profile',
          description:
            'Answers 201 with the new profile. When a profile with this `external_id` exists, answers 200 with it and changes nothing, so retrying is safe.',
          headers: IdempotentPostHeaders,
          body: Type.Object(
            {
              name: NameText(200, 'Name of the client.'),
              external_id: Type.Optional(ExternalId),
              post_approval_required: Type.Optional(PostApprovalRequired),
            },
            { additionalProperties: false },
          ),
          response: { 200: Profile, 201: Profile, ...errorResponses(...AUTHENTICATED_ERRORS, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { profile, created } = await createProfile(db, request.scope, {
          name: request.body.name,
          externalId: request.body.external_id,
          postApprovalRequired: request.body.post_approval_required,
        });
        return reply.code(created ? 201 : 200).send(renderProfile(profile));
      },
    );

    app.get(
      '/v1/profiles/:id',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'Get a profile',
          headers: ProfileHeader,
          params: ProfileParams,
          response: { 200: Profile, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => renderProfile(await getProfile(db, request.scope, request.params.id)),
    );

    app.patch(
      '/v1/profiles/:id',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'Update a profile',
          description: '`external_id: null` removes it. 409 `external_id_taken` when another profile has it.',
          headers: ProfileHeader,
          params: ProfileParams,
          body: Type.Object(
            {
              name: Type.Optional(NameText(200, 'Name of the client.')),
              external_id: Type.Optional(Type.Union([ExternalId, Type.Null()])),
              post_approval_required: Type.Optional(PostApprovalRequired),
            },
            { additionalProperties: false },
          ),
          response: { 200: Profile, ...errorResponses(...AUTHENTICATED_ERRORS, 409, 413, 415) },
        },
      },
      async (request) =>
        renderProfile(
          await updateProfile(db, request.scope, request.params.id, {
            name: request.body.name,
            externalId: request.body.external_id,
            postApprovalRequired: request.body.post_approval_required,
          }),
        ),
    );

    app.delete(
      '/v1/profiles/:id',
      {
        config: ownerOnly,
        schema: {
          tags,
          summary: 'Delete a profile',
          description:
            'Answers 202. The profile, its API keys and the webhook endpoints bound to it are gone for every caller at once; its data (posts, connect links, accounts, whose platform access is revoked where the platform allows, and its events) is deleted in the background, then `profile.deleted` is sent to endpoints not bound to a profile (docs/api-conventions.md, Deletion). The default profile cannot be deleted (409 `default_profile`).',
          headers: ProfileHeader,
          params: ProfileParams,
          response: {
            202: Type.Object({
              id: Type.String(),
              status: Type.Literal('deletion_pending', {
                description: 'The data is being deleted; `profile.deleted` reports the end.',
              }),
            }),
            ...errorResponses(...AUTHENTICATED_ERRORS, 409),
          },
        },
      },
      async (request, reply) => {
        const profile = await requestProfileDeletion(db, request.scope, request.params.id);
        return reply.code(202).send({ id: profile.id, status: 'deletion_pending' as const });
      },
    );
  };
}
