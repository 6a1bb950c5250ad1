/** `/v1/members`: an owner's people. Owner keys and admins for the whole owner only. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import { AUTHENTICATED_ERRORS, EmailText, errorResponses, ListOf, ListQuery, NameText } from '../../http/schemas.ts';
import { grantsOf, MemberJson, RoleGrantJson, renderMember } from './json.ts';
import { getMember, inviteMember, listMembers, reinvite, removeMember, updateMember } from './service.ts';

const tags = ['Members'];
// The owner's people belong to no profile: an owner key, or a member with the admin role for the whole owner.
const config = { ownerLevel: true };
const access =
  'Owner keys, and members with the `admin` role for the whole owner; no Service-Profile header (403 `owner_key_required`).';
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'Member id, `mem_...`.' }) });
const Roles = (minItems: number) =>
  Type.Array(RoleGrantJson, {
    minItems,
    maxItems: 500,
    description:
      'At most one role for the whole owner (`profile_id` null) and one per profile; a member with a role for the whole owner and one on a profile has the higher of the two there.',
  });

export function memberRoutes(deps: {
  db: Db;
  secretKey: Buffer;
  config: Pick<Config, 'publicUrl'>;
}): FastifyPluginAsyncTypebox {
  const { db, secretKey } = deps;
  return async (app) => {
    app.post(
      '/v1/members',
      {
        config,
        schema: {
          tags,
          summary: 'Invite a member',
          description: `Makes a member with these roles and e-mails the address a single-use invitation link (7 days) through SMTP_URL. The person accepts on a hosted page and is signed in to the dashboard. Answers 201 with the member, \`invited\`. 409 \`member_exists\` when the owner has a member with that address (compared without case). ${access}`,
          body: Type.Object(
            {
              email: EmailText,
              name: Type.Optional(NameText(200, "The person's name, shown in lists and e-mails.")),
              roles: Roles(1),
            },
            { additionalProperties: false },
          ),
          response: { 201: MemberJson, ...errorResponses(...AUTHENTICATED_ERRORS, 409, 413, 415) },
        },
      },
      async (request, reply) => {
        const member = await inviteMember(db, secretKey, request.scope.ownerId, {
          email: request.body.email,
          name: request.body.name ?? null,
          roles: grantsOf(request.body.roles),
          linkBase: publicBaseUrl(deps.config, request),
        });
        request.log.info({ member_id: member.id }, 'member invited');
        return reply.code(201).send(renderMember(member));
      },
    );

    app.get(
      '/v1/members',
      {
        config,
        schema: {
          tags,
          summary: 'List members',
          description: `Oldest first, with their roles, status and last sign-in. ${access}`,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(MemberJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listMembers(db, request.scope.ownerId, {
          limit,
          after: decodeCursor(request.query.cursor, 'member'),
        });
        return toPage(rows, limit, renderMember);
      },
    );

    app.get(
      '/v1/members/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get a member',
          description: `404 \`member_not_found\`. ${access}`,
          params: Params,
          response: { 200: MemberJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => renderMember(await getMember(db, request.scope.ownerId, request.params.id)),
    );

    app.patch(
      '/v1/members/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Change a member',
          description: `Renames the member, or replaces all its roles (an empty list leaves it seeing nothing). Its open sessions take the new roles at their next request. ${access}`,
          params: Params,
          body: Type.Object(
            {
              name: Type.Optional(Type.Union([NameText(200, "The person's name."), Type.Null()])),
              roles: Type.Optional(Roles(0)),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: MemberJson, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
      },
      async (request) => {
        const { name, roles } = request.body;
        const member = await updateMember(db, request.scope.ownerId, request.params.id, {
          ...(name !== undefined ? { name } : {}),
          ...(roles !== undefined ? { roles: grantsOf(roles) } : {}),
        });
        return renderMember(member);
      },
    );

    app.delete(
      '/v1/members/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Remove a member',
          description: `Deletes the member with its roles and unused links. Its open dashboard sessions end at once: their next request gets 401 \`session_ended\`. Answers 204. ${access}`,
          params: Params,
          response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request, reply) => {
        await removeMember(db, request.scope.ownerId, request.params.id);
        request.log.info({ member_id: request.params.id }, 'member removed; its sessions ended');
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/members/:id/invitation',
      {
        config,
        schema: {
          tags,
          summary: 'Send an invitation again',
          description: `E-mails an invited member a new invitation link (7 days); the links sent before stop working. 409 \`member_already_active\` once the invitation was accepted. ${access}`,
          params: Params,
          response: { 200: MemberJson, ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
        },
      },
      async (request) =>
        renderMember(
          await reinvite(db, secretKey, request.scope.ownerId, request.params.id, publicBaseUrl(deps.config, request)),
        ),
    );
  };
}
