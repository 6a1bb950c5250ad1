import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  absentBodyAsEmpty,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  MultiLineText,
  ProfileHeader,
  SyncAnswer,
  SyncBody,
  TimeRangeQuery,
  timeBound,
} from '../../http/schemas.ts';
import { COMMENT_PLATFORMS, PLATFORMS, platformInfo, platformLabels } from '../../platforms/index.ts';
import { setHidden, setReplyStatus } from './actions.ts';
import { type CommentDeps, getComment, listComments } from './inbox.ts';
import { CommentJson, ReplyJson, renderComment, renderReply } from './json.ts';
import { deleteReply } from './reply-deletion.ts';
import { replyToComment } from './reply-workflow.ts';
import { syncComments } from './sync.ts';
import { REPLY_STATUSES } from './tables.ts';

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Comment id, `cmt_...`.' }),
});

const ReplyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The comment answered, `cmt_...`.' }),
  reply_id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "The reply, `crp_...` (the comment's `replies`).",
  }),
});

const tags = ['Comments'];
const errorsOf = (...extra: number[]) => errorResponses(...AUTHENTICATED_ERRORS, ...extra);

/** The longest reply any platform takes (a Facebook comment); each platform's own limit is the platform's. */
const MAX_REPLY_LENGTH = 8000;

/** The platforms whose comments the service reads, and those it does not, in their labels. */
const withComments = platformLabels(COMMENT_PLATFORMS, 'and');
const withoutComments = platformLabels(
  PLATFORMS.filter((p) => !COMMENT_PLATFORMS.includes(p)),
  'and',
);

/** Where the account's replies can be deleted (LinkedIn), and where not. */
const withReplyDeletion = platformLabels(
  COMMENT_PLATFORMS.filter((p) => platformInfo(p).comments?.deleteReply === true),
  'and',
);

/** Where comments are read and answered but cannot be hidden (LinkedIn). */
const withoutHiding = platformLabels(
  COMMENT_PLATFORMS.filter((p) => platformInfo(p).comments?.hide === false),
  'and',
);
const ACTION_ERRORS = `422 \`unsupported_platform\` (${withoutComments}: no comment API for ordinary apps; GET /v1/platforms says what each platform allows), 409 \`account_not_connected\` (the account is \`expired\` or \`disconnected\`, or the platform says its token expired or was revoked: the account is then marked so), 422 \`permission_missing\` (the permission the spec names is not granted: \`details.permission\`; no platform call is made), 429 \`platform_rate_limited\` with \`Retry-After\` (the platform limits the account now), 502 \`platform_error\` (the platform refused or failed: \`details.platform_code\` and \`details.platform_message\` are its own).`;

export function commentRoutes(deps: CommentDeps): FastifyPluginAsyncTypebox {
  const { db } = deps;
  return async (app) => {
    app.get(
      '/v1/comments',
      {
        schema: {
          tags,
          summary: 'List comments (the inbox)',
          description: `Comments by other people on the accounts the caller sees, newest \`commented_at\` first (the account's own replies are not listed; see \`replies\` and GET /v1/comments/{id}). An owner key sees every profile's, or one profile's with a Service-Profile header; a profile key sees its profile's accounts' comments, including those written before an account moved there. \`from\` and \`to\` bound \`commented_at\` (both included). ${withoutComments} accounts have none.`,
          headers: ProfileHeader,
          querystring: Type.Object(
            {
              ...ListQuery,
              account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
              post_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
              reply_status: Type.Optional(Type.Enum(REPLY_STATUSES)),
              hidden: Type.Optional(Type.Boolean()),
              platform: Type.Optional(Type.Enum(PLATFORMS)),
              ...TimeRangeQuery('Commented'),
            },
            { additionalProperties: false },
          ),
          response: { 200: ListOf(CommentJson), ...errorsOf() },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listComments(deps, request.scope, {
          accountId: request.query.account_id,
          postId: request.query.post_id,
          replyStatus: request.query.reply_status,
          hidden: request.query.hidden,
          platform: request.query.platform,
          from: timeBound(request.query.from),
          to: timeBound(request.query.to),
          limit,
          after: decodeCursor(request.query.cursor, 'timestamp|comment'),
        });
        return toPage(rows, limit, renderComment);
      },
    );

    app.post(
      '/v1/comments/sync',
      {
        preValidation: absentBodyAsEmpty,
        schema: {
          tags,
          summary: 'Read comments from the platforms now',
          description: `Queues a read of the recent posts of each account of \`account_ids\` (default: every connected ${withComments} account the caller sees) and answers 202 with the accounts queued; new comments then arrive as usual (\`comment.created\`). Comments also arrive without this, by the platforms' webhooks and a periodic read. At most once a minute per account: 429 \`sync_rate_limited\` with \`Retry-After\` (and \`details.account_ids\`) when any of them was synced less than a minute ago, and nothing is queued. 404 \`account_not_found\`, 422 \`unsupported_platform\` (${withoutComments}), 409 \`account_not_connected\`.`,
          headers: ProfileHeader,
          body: SyncBody,
          response: {
            202: SyncAnswer('The accounts whose comments are read now.'),
            ...errorsOf(409, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const accounts = await syncComments(deps, request.scope, request.body?.account_ids);
        reply.code(202);
        return { account_ids: accounts.map((a) => a.id) };
      },
    );

    app.get(
      '/v1/comments/:id',
      {
        schema: {
          tags,
          summary: 'Get a comment',
          description:
            "Any stored comment of an account the caller sees, the account's own replies included. 404 `comment_not_found`.",
          headers: ProfileHeader,
          params: Params,
          response: { 200: CommentJson, ...errorsOf() },
        },
      },
      async (request) => renderComment(await getComment(deps, request.scope, request.params.id)),
    );

    app.patch(
      '/v1/comments/:id',
      {
        schema: {
          tags,
          summary: "Set a comment's reply status",
          description:
            "Sets the inbox's `reply_status` (`unreplied`, `replied`, `dismissed`); nothing changes on the platform. Every transition is allowed (e.g. `dismissed` back to `unreplied`); a reply through POST /v1/comments/{id}/reply sets `replied` by itself. Answers the comment.",
          headers: ProfileHeader,
          params: Params,
          body: Type.Object({ reply_status: Type.Enum(REPLY_STATUSES) }, { additionalProperties: false }),
          response: { 200: CommentJson, ...errorsOf(413, 415) },
        },
      },
      async (request) =>
        renderComment(
          await setReplyStatus(
            { db, platforms: deps.platforms },
            request.scope,
            request.params.id,
            request.body.reply_status,
          ),
        ),
    );

    app.post(
      '/v1/comments/:id/reply',
      {
        schema: {
          tags,
          summary: 'Reply to a comment',
          description: `Replies as the account, on the platform, and answers 201 with the reply; the comment's \`reply_status\` becomes \`replied\`. The reply is \`sent\`, or, on Threads while Threads still processes it, \`sending\` (then published by the service as soon as Threads is done; see the comment's \`replies\`). Not for the account's own comments or, on Instagram, a hidden one (409 \`comment_not_repliable\`). ${ACTION_ERRORS} A retry with the same Idempotency-Key answers the first answer and sends nothing.`,
          headers: IdempotentPostHeaders,
          params: Params,
          body: Type.Object(
            {
              text: MultiLineText({
                minLength: 1,
                maxLength: MAX_REPLY_LENGTH,
                description: "The reply; each platform's own limit applies (Threads: 500 as Threads counts).",
              }),
            },
            { additionalProperties: false },
          ),
          response: { 201: ReplyJson, ...errorsOf(409, 413, 415, 422, 502) },
        },
      },
      async (request, reply) => {
        const sent = await replyToComment(deps, request.scope, request.params.id, request.body.text);
        reply.code(201);
        return renderReply(sent);
      },
    );

    app.delete(
      '/v1/comments/:id/replies/:reply_id',
      {
        schema: {
          tags,
          summary: 'Delete a reply sent through the API',
          description: `Deletes the account's reply (one of the comment's \`replies\`) on the platform, and answers 200 with it, \`status: "deleted"\` and \`deleted_at\`; it stays in the comment's \`replies\` so its history shows, and the account's own comment it became is gone (GET /v1/comments/{id} of it: 404). The comment's \`reply_status\` is unchanged. The reply is \`deleting\` before the platform is asked; a request that ends before the platform answered leaves it so, and a DELETE again asks again (a reply the platform no longer has counts as deleted). Deleting an already deleted reply answers it again, unchanged (no platform call). A reply still \`sending\` or \`failed\` (nothing on the platform): 409 \`reply_not_deletable\`. 404 \`reply_not_found\` for a reply not of this comment. Offered on ${withReplyDeletion}: elsewhere 422 \`unsupported_platform\` (GET /v1/platforms, \`comments.delete_reply\`). ${ACTION_ERRORS} When the platform refuses, the reply is \`sent\` again.`,
          headers: ProfileHeader,
          params: ReplyParams,
          response: { 200: ReplyJson, ...errorsOf(409, 422, 502) },
        },
      },
      async (request) =>
        renderReply(await deleteReply(deps, request.scope, request.params.id, request.params.reply_id)),
    );

    app.post(
      '/v1/comments/:id/hide',
      {
        schema: {
          tags,
          summary: 'Hide or unhide a comment',
          description: `\`{"hidden": true}\` hides the comment on the platform, \`false\` shows it again; answers the comment. Threads hides top-level replies only (409 \`comment_not_hideable\` for a nested one). ${withoutHiding} offers no hiding: 422 \`unsupported_platform\`. ${ACTION_ERRORS}`,
          headers: ProfileHeader,
          params: Params,
          body: Type.Object({ hidden: Type.Boolean() }, { additionalProperties: false }),
          response: { 200: CommentJson, ...errorsOf(409, 413, 415, 422, 502) },
        },
      },
      async (request) => renderComment(await setHidden(deps, request.scope, request.params.id, request.body.hidden)),
    );
  };
}
