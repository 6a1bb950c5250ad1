import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { now } from '../../../clock.ts';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/connection.ts';
import { errors } from '../../../http/errors.ts';
import { decodeCursor, toPage } from '../../../http/pagination.ts';
import { publicBaseUrl } from '../../../http/public-url.ts';
import { callerMayOn } from '../../../http/route-roles.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  ListOf,
  ListQuery,
  MultiLineText,
  Nullable,
  ProfileHeader,
} from '../../../http/schemas.ts';
import { ApprovalLinkJson, NewApprovalLinkJson, PostJson, renderApprovalLink, renderPost } from '../json.ts';
import { getPost } from '../service.ts';
import type { PostApprovalLink } from '../tables.ts';
import {
  createApprovalLink,
  decideInApi,
  linkState,
  listApprovalLinks,
  MAX_APPROVAL_COMMENT_LENGTH,
  revokeApprovalLink,
} from './links.ts';

const PostParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Post id, `post_...`.' }),
});
const LinkParams = Type.Object({
  id: PostParams.properties.id,
  link_id: Type.String({ minLength: 1, maxLength: 100, description: 'Approval link id, `apl_...`.' }),
});

const tags = ['Post approval'];
const errorsOf = (...extra: number[]) => errorResponses(...AUTHENTICATED_ERRORS, ...extra);
const render = (link: PostApprovalLink) => renderApprovalLink(link, linkState(link, now()));

/** Where a token opens the hosted approval page. */
export const approvalPagePath = (token: string) => `/approve/${token}`;

export function approvalLinkRoutes({
  db,
  config,
}: {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/posts/:id/approval-links',
      {
        // The answer holds the link's token, which the service keeps only hashed: a stored
        // replay would keep it in clear. A second link is harmless (single use; revocable).
        config: { idempotencyKey: false },
        schema: {
          tags,
          summary: 'Create an approval link',
          description:
            "A single-use link, valid 7 days, to a hosted page with the owner's brand where the client sees the post as it will appear on each account and chooses Approve or Request changes (with a comment), without an account. For a post that needs approval (`approval` not null) and is not approved yet: a draft, or `awaiting_approval`. 409 `approval_not_required`, 409 `post_not_awaiting_approval` (approved already, or published or cancelled). The client's decision is recorded on the post (`approval`) and sent as `post.approved` or `post.changes_requested`.",
          headers: ProfileHeader,
          params: PostParams,
          response: { 201: NewApprovalLinkJson, ...errorsOf(409) },
        },
      },
      async (request, reply) => {
        const { link, token } = await createApprovalLink(db, request.scope, request.params.id);
        reply.code(201);
        return { ...render(link), url: `${publicBaseUrl(config, request)}${approvalPagePath(token)}` };
      },
    );

    app.post(
      '/v1/posts/:id/approval',
      {
        schema: {
          tags,
          summary: "Decide on a post's approval",
          description: `The client's decision, made in the dashboard by a member with the \`client\` role (or by any caller whose role reaches it, recorded under its name): \`approved\` schedules the post's waiting targets, due at \`scheduled_at\` or at once when that has passed; \`changes_requested\` (with a \`comment\`) leaves it waiting. Recorded on the post (\`approval.decided_by\`) and sent as \`post.approved\` or \`post.changes_requested\`. With \`version\` (the post's \`updated_at\` the decider saw), 409 \`post_changed\` when the post changed since. 409 \`approval_not_required\`, 409 \`post_not_awaiting_approval\` as for approval links.`,
          headers: ProfileHeader,
          params: PostParams,
          body: Type.Object(
            {
              decision: Type.Union([Type.Literal('approved'), Type.Literal('changes_requested')]),
              comment: Type.Optional(
                Nullable(
                  MultiLineText({
                    minLength: 1,
                    maxLength: MAX_APPROVAL_COMMENT_LENGTH,
                    description: 'What the client thinks; needed to request changes.',
                  }),
                  'No comment.',
                ),
              ),
              version: Type.Optional(
                Type.String({ format: 'date-time', description: "The post's `updated_at` the decider saw." }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: PostJson, ...errorsOf(409, 413, 415) },
        },
      },
      async (request) => {
        const { decision, comment = null, version } = request.body;
        if (decision === 'changes_requested' && (comment === null || comment.trim() === '')) {
          throw errors.validation([
            { field: 'body.comment', message: 'says what to change: it is needed to request changes' },
          ]);
        }
        const { caller } = request.scope;
        // A member acting for the whole owner is judged by its role on the post's own profile.
        await decideInApi(
          db,
          request.scope,
          request.params.id,
          { decision, comment, version },
          caller.id,
          (profileId) => callerMayOn(caller, 'POST /v1/posts/{id}/approval', profileId),
        );
        request.log.info(
          { post_id: request.params.id, decision, decided_by: caller.id },
          'decided on a post through the API',
        );
        const { post, targets } = await getPost(db, request.scope, request.params.id);
        return renderPost(post, targets);
      },
    );

    app.get(
      '/v1/posts/:id/approval-links',
      {
        schema: {
          tags,
          summary: "List a post's approval links",
          description:
            'Newest first, with what the client decided through each. The links themselves (their tokens) are never shown again.',
          headers: ProfileHeader,
          params: PostParams,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(ApprovalLinkJson), ...errorsOf() },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listApprovalLinks(db, request.scope, request.params.id, {
          limit,
          before: decodeCursor(request.query.cursor, 'approvalLink'),
        });
        return toPage(rows, limit, render);
      },
    );

    app.delete(
      '/v1/posts/:id/approval-links/:link_id',
      {
        schema: {
          tags,
          summary: 'Revoke an approval link',
          description:
            'The link opens nothing from then on; answers the link (`revoked`). Revoking twice changes nothing. 409 `approval_link_used` when the client has decided through it; 404 `approval_link_not_found`.',
          headers: ProfileHeader,
          params: LinkParams,
          response: { 200: ApprovalLinkJson, ...errorsOf(409) },
        },
      },
      async (request) => render(await revokeApprovalLink(db, request.scope, request.params.id, request.params.link_id)),
    );
  };
}
