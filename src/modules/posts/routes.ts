import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  IdempotentPostHeaders,
  ListOf,
  ListQuery,
  MultiLineText,
  ProfileHeader,
  TimeRangeQuery,
  timeBound,
} from '../../http/schemas.ts';
import { PLATFORMS, platformInfo } from '../../platforms/index.ts';
import { MAX_TEXT_LENGTH, PlatformsJson, PostJson as Post, renderPost } from './json.ts';
import {
  cancelPost,
  createPost,
  getPost,
  listPosts,
  type PostDeps,
  type PostWithTargets,
  retryPost,
  updatePost,
} from './service.ts';
import { POST_STATUSES } from './tables.ts';

const Params = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Post id, `post_...`.' }),
});

const tags = ['Posts'];
const errorsOf = (...extra: number[]) => errorResponses(...AUTHENTICATED_ERRORS, ...extra);
const render = ({ post, targets }: PostWithTargets) => renderPost(post, targets);

/** At most this many accounts in one post. */
export const MAX_POST_ACCOUNTS = 50;
/**
 * At most this many media in one post: the largest carousel a platform states a limit for
 * (today Threads' 20); a platform that states none (Facebook) is held to it too.
 */
export const MAX_POST_MEDIA = Math.max(
  ...PLATFORMS.flatMap((p) => platformInfo(p).publishing.carousel?.maxItems ?? []),
);

const Fields = {
  account_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    minItems: 1,
    maxItems: MAX_POST_ACCOUNTS,
    uniqueItems: true,
    description: `The accounts to publish on (1 to ${MAX_POST_ACCOUNTS}), all of one profile; the post gets one target per account, in this order.`,
  }),
  text: MultiLineText({
    maxLength: MAX_TEXT_LENGTH,
    description:
      "The text (caption) of every target without a `platforms.<platform>.text`; each platform's own limit is checked.",
  }),
  media_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: MAX_POST_MEDIA,
    uniqueItems: true,
    description:
      'Media of the same profile (POST /v1/media), in order; several make a carousel where the platform has one.',
  }),
  scheduled_at: Type.String({
    format: 'date-time',
    description:
      'When to publish (ISO 8601 with a time zone). Absent: now. More than a minute in the past: 400 `validation_failed`.',
  }),
  draft: Type.Boolean({
    description:
      'true: stored with every check passed, but not scheduled (status `draft`) until a PATCH sets it false.',
  }),
  platforms: PlatformsJson,
  approval: Type.Object(
    {
      required: Type.Boolean({
        description:
          "true: the post is not published before the client approves it through an approval link (POST /v1/posts/{id}/approval-links); it waits as `awaiting_approval`. Absent: as the profile's `post_approval_required` says.",
      }),
    },
    { additionalProperties: false },
  ),
};

const CHECKS = `Every check runs before anything is stored, and every problem is listed in \`details\` (\`{code, field, message, account_id?, media_id?}\`); the answer takes the gravest problem's code: 404 \`account_not_found\` (an account the key does not see), 404 \`media_not_found\`, 400 \`mixed_profiles\` (accounts of two profiles), 400 \`media_profile_mismatch\` (media of another profile than the accounts'), 422 \`account_not_connected\`, 422 \`permission_missing\` (the platform's publishing permission, named), 400 \`validation_failed\` (a platform's rules, as GET /v1/platforms states them: the kinds of post it takes, its text's longest length as it counts it, its carousel's items, its video lengths and its options; TikTok also needs a \`privacy_level\`; options for a platform none of the accounts is on; a value of an option whose values are the account's own, \`publishing.listed_options\` (Pinterest's \`board_id\`), that is not among that account's as the platform lists them now (GET /v1/accounts/{id}/options/{option}), its detail naming the account). Where the platform does not list them at that moment (unreachable, rate limited), the value is taken unchecked rather than the post refused; where it says the account's access ended, the account is \`expired\` and the post refused with \`account_not_connected\`.`;

export function postRoutes(deps: PostDeps): FastifyPluginAsyncTypebox {
  const { db } = deps;
  return async (app) => {
    app.post(
      '/v1/posts',
      {
        schema: {
          tags,
          summary: 'Create a post',
          description: `Publishes \`text\` and \`media_ids\` on each account of \`account_ids\` at \`scheduled_at\` (now when absent), or stores a draft. The post belongs to its accounts' profile. Answers 201 with the post and its targets (\`scheduled\`, \`draft\`, or \`awaiting_approval\` when the post needs the client's approval: \`approval\`). ${CHECKS} A retry with the same Idempotency-Key answers the first answer and creates nothing.`,
          headers: IdempotentPostHeaders,
          body: Type.Object(
            {
              account_ids: Fields.account_ids,
              text: Type.Optional(Fields.text),
              media_ids: Type.Optional(Fields.media_ids),
              scheduled_at: Type.Optional(Fields.scheduled_at),
              draft: Type.Optional(Fields.draft),
              platforms: Type.Optional(Fields.platforms),
              approval: Type.Optional(Fields.approval),
            },
            { additionalProperties: false },
          ),
          response: { 201: Post, ...errorsOf(409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return render(await createPost({ ...deps, log: request.log }, request.scope, request.body));
      },
    );

    app.get(
      '/v1/posts',
      {
        schema: {
          tags,
          summary: 'List posts',
          description:
            "Newest first (by creation), with their targets. An owner key sees every profile's posts, or one profile's with a Service-Profile header; a profile key sees its profile's. `from` and `to` bound `scheduled_at` (both included).",
          headers: ProfileHeader,
          querystring: Type.Object(
            {
              ...ListQuery,
              status: Type.Optional(Type.Enum(POST_STATUSES)),
              account_id: Type.Optional(
                Type.String({ minLength: 1, maxLength: 100, description: 'Only posts with a target on this account.' }),
              ),
              ...TimeRangeQuery('Scheduled'),
            },
            { additionalProperties: false },
          ),
          response: { 200: ListOf(Post), ...errorsOf() },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listPosts(db, request.scope, {
          status: request.query.status,
          accountId: request.query.account_id,
          from: timeBound(request.query.from),
          to: timeBound(request.query.to),
          limit,
          before: decodeCursor(request.query.cursor, 'post'),
        });
        return toPage(rows, limit, render);
      },
    );

    app.get(
      '/v1/posts/:id',
      {
        schema: {
          tags,
          summary: 'Get a post',
          description: 'The post with its targets. 404 `post_not_found` for a post the caller does not see.',
          headers: ProfileHeader,
          params: Params,
          response: { 200: Post, ...errorsOf() },
        },
      },
      async (request) => render(await getPost(db, request.scope, request.params.id)),
    );

    app.patch(
      '/v1/posts/:id',
      {
        schema: {
          tags,
          summary: 'Change a post',
          description: `Only while none of its targets has started publishing (all \`draft\`, \`awaiting_approval\` or \`scheduled\`); else 409 \`post_not_editable\`, except that a post whose started targets are all YouTube videos uploaded ahead of its time (a post needing no approval) can still be moved by a PATCH of \`scheduled_at\` alone, at least 10 minutes ahead (else 400 \`validation_failed\`): its targets then stay, and YouTube is given the new time. A change of \`account_ids\`, \`text\`, \`media_ids\`, \`scheduled_at\` or \`platforms\` of a post that needs approval makes it need the client's approval again (\`approval.status\` \`pending\`), even after an approval. Any of the creation fields; \`text: null\` removes the text. The post as it would be afterwards goes through every check of a new post, with the same errors (see POST /v1/posts). \`draft: false\` schedules a draft (at its \`scheduled_at\`, or now when that has passed); \`draft: true\` takes a scheduled post back. Targets are made anew (new target ids).`,
          headers: ProfileHeader,
          params: Params,
          body: Type.Object(
            {
              account_ids: Type.Optional(Fields.account_ids),
              text: Type.Optional(Type.Union([Fields.text, Type.Null()])),
              media_ids: Type.Optional(Fields.media_ids),
              scheduled_at: Type.Optional(Fields.scheduled_at),
              draft: Type.Optional(Fields.draft),
              platforms: Type.Optional(Fields.platforms),
              approval: Type.Optional(Fields.approval),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          response: { 200: Post, ...errorsOf(409, 413, 415, 422) },
        },
      },
      async (request) =>
        render(await updatePost({ ...deps, log: request.log }, request.scope, request.params.id, request.body)),
    );

    app.delete(
      '/v1/posts/:id',
      {
        schema: {
          tags,
          summary: 'Cancel a post',
          description:
            'Cancels every target that has not finished (`draft`, `scheduled`, `publishing`) and answers 200 with the post. Published targets stay on the platform. A target the platform is completing at that very moment may still end `published` (what is on the platform wins). A TikTok target whose video TikTok has received is not cancelled: TikTok publishes it by itself. A YouTube video uploaded ahead of its time (private, YouTube to make it public at the post time) is removed from YouTube (videos.delete) by a job right after, so it never goes public; the target is `cancelled` at once, its `waiting_reason` saying what is left. 409 `post_not_cancellable` when nothing is left to cancel.',
          headers: ProfileHeader,
          params: Params,
          response: { 200: Post, ...errorsOf(409) },
        },
      },
      async (request) => render(await cancelPost(db, request.scope, request.params.id)),
    );

    app.post(
      '/v1/posts/:id/retry',
      {
        schema: {
          tags,
          summary: 'Retry the failed targets of a post',
          description:
            "Queues every `failed` target again, now (each becomes `scheduled`; `attempts` grows when it starts). 409 `post_not_retryable` when none failed. Their accounts must still be connected (422 `account_not_connected`), hold the publishing permission (422 `permission_missing`) and be in the post's profile (404 `account_not_found`), and the post's media must still exist (404 `media_not_found`). A target whose earlier try made a container asks it first: a post the platform published after all is taken, not published again.",
          headers: IdempotentPostHeaders,
          params: Params,
          response: { 200: Post, ...errorsOf(409, 413, 415, 422) },
        },
      },
      async (request) => render(await retryPost(deps, request.scope, request.params.id)),
    );
  };
}
