import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { JSON_CONTENT_TYPE } from '../../http/cached-answer.ts';
import { conditionalGet, IfNoneMatchHeader, NotModified } from '../../http/conditional-get.ts';
import { ApiError } from '../../http/errors.ts';
import {
  AUTHENTICATED_ERRORS,
  absentBodyAsEmpty,
  errorResponses,
  ProfileHeader,
  SyncAnswer,
  SyncBody,
} from '../../http/schemas.ts';
import { INSIGHT_PLATFORMS, PLATFORMS, platformInfo, platformLabels } from '../../platforms/index.ts';
import { AccountInsightsJson, PostInsightsJson } from './json.ts';
import { accountInsightsAnswer, type InsightRouteDeps, postInsightsOf, syncInsights } from './service.ts';

const tags = ['Insights'];
const errorsOf = (...extra: number[]) => errorResponses(...AUTHENTICATED_ERRORS, ...extra);

const Params = (what: string) => Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: what }) });

const Metrics = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 1000,
    description:
      "Comma-separated metric names (default: all of the platform's). A name not in the platform's table: 400 `unknown_metric` listing the valid ones.",
  }),
);

const offered = (joiner: 'and' | 'or') => platformLabels(INSIGHT_PLATFORMS, joiner);
const notOffered = platformLabels(
  PLATFORMS.filter((p) => !INSIGHT_PLATFORMS.includes(p)),
  'and',
);

const metricList = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');
const METRIC_TABLE = `${INSIGHT_PLATFORMS.map((p) => `${platformInfo(p).label} accounts: ${metricList(platformInfo(p).insights?.account ?? [])}.`).join(' ')} ${INSIGHT_PLATFORMS.map((p) => `${platformInfo(p).label} posts: ${metricList(platformInfo(p).insights?.post ?? [])}.`).join(' ')} What each counts on each platform: GET /v1/platforms.`;

const CONDITIONAL =
  'The answer carries an `ETag`: sent back in `If-None-Match`, it gets 304 without a body while the answer is the same (figures change at each refresh, every 6 hours).';

/** Both reads take the profile header and a conditional request's tag. */
const Headers = Type.Object({ ...ProfileHeader.properties, ...IfNoneMatchHeader });

/** A day's text; what the pattern lets through the service checks (February 30 is no day). */
export const Day = (description: string) => Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description });

/**
 * The route's schema refusal, as the range error the spec names when only `from` or `to` is
 * wrong (not a YYYY-MM-DD text); any other refusal as the schema's usual 400.
 */
export function rangeError(error: Error & { validation?: { instancePath?: string }[] }): Error {
  const problems = error.validation ?? [];
  const dates = problems.filter((p) => p.instancePath === '/from' || p.instancePath === '/to');
  if (problems.length === 0 || dates.length < problems.length) return error;
  const fields = [...new Set(dates.map((p) => p.instancePath?.slice(1)))].join(' and ');
  return new ApiError(400, 'invalid_range', `${fields} must be a date, YYYY-MM-DD (a real UTC day).`);
}

export function insightRoutes(deps: InsightRouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/accounts/:id/insights',
      {
        schema: {
          tags,
          summary: "An account's daily figures",
          description: `Daily figures of an account on ${offered('or')} over \`from\`..\`to\` (UTC days, both included; default the 30 days ending today; at most 365), one value per day, null where the platform reported no data (never 0 for that). \`total\` sums the days (null when all are null), except a rate (LinkedIn's \`engagement\`, a fraction per day), whose total is null, and \`followers_count\`, whose total is the last value known in the range: the platforms give only the current count, so the service keeps one reading a day from the day it first read the account (earlier days are null). Figures are read on connection (history up to 365 days back, as far as the platform keeps it), then every 6 hours (the last 3 days again, for late data), or now with POST /v1/insights/sync. Without the insights permission: 200 with \`missing_permission\` and every value null. ${METRIC_TABLE} Errors: 400 \`invalid_range\` (a malformed or impossible date, \`from\` after \`to\`, more than 365 days), 400 \`unknown_metric\`, 404 \`account_not_found\`, 422 \`insights_not_supported\` (${notOffered}). ${CONDITIONAL}`,
          headers: Headers,
          params: Params('Account id, `acc_...`.'),
          querystring: Type.Object(
            {
              from: Type.Optional(Day('First day, YYYY-MM-DD (UTC). Default: 29 days before `to`.')),
              to: Type.Optional(Day('Last day, YYYY-MM-DD (UTC), included. Default: today.')),
              metrics: Metrics,
            },
            { additionalProperties: false },
          ),
          response: { 200: AccountInsightsJson, 304: NotModified, ...errorsOf(422) },
        },
        attachValidation: true,
        onSend: conditionalGet,
      },
      async (request, reply) => {
        if (request.validationError) throw rangeError(request.validationError);
        const answer = await accountInsightsAnswer(deps, deps.answers, request.scope, request.params.id, request.query);
        // Already JSON in the schema's shape (json.ts, accountInsightsText): Fastify sends bytes
        // as they are, unserialized; conditionalGet takes the tag computed with them.
        return reply
          .header('etag', answer.etag)
          .type(JSON_CONTENT_TYPE)
          .send(answer.body as unknown as Static<typeof AccountInsightsJson>);
      },
    );

    app.get(
      '/v1/posts/:id/insights',
      {
        schema: {
          tags,
          summary: "A post's figures",
          description: `Lifetime figures of a published post on ${offered('or')}, made through the API or seen on the platform (\`source: "platform"\`), read with its account's refresh (posts of the last 30 days each time; older ones once). A post made for several ${offered('and')} accounts has figures per account: name one with \`account_id\` (without it: 400 \`account_id_required\`, \`details.account_ids\` listing them). Without the insights permission: 200 with \`missing_permission\` and every value null. ${METRIC_TABLE} Errors: 400 \`unknown_metric\`, 404 \`post_not_found\`, 404 \`account_not_found\` (the post was not made for that account), 409 \`post_not_published\` (nothing on the platform yet), 422 \`insights_not_supported\` (${notOffered}). ${CONDITIONAL}`,
          headers: Headers,
          params: Params('Post id, `post_...`.'),
          querystring: Type.Object(
            {
              account_id: Type.Optional(
                Type.String({ minLength: 1, maxLength: 100, description: "Which of the post's accounts." }),
              ),
              metrics: Metrics,
            },
            { additionalProperties: false },
          ),
          response: { 200: PostInsightsJson, 304: NotModified, ...errorsOf(409, 422) },
        },
        onSend: conditionalGet,
      },
      async (request) => await postInsightsOf(deps, request.scope, request.params.id, request.query),
    );

    app.post(
      '/v1/insights/sync',
      {
        preValidation: absentBodyAsEmpty,
        schema: {
          tags,
          summary: 'Read the latest figures now',
          description: `Queues a refresh (the last 3 days and the recent posts) of each account of \`account_ids\` (default: every connected ${offered('and')} account the caller sees) and answers 202 with the accounts queued; \`synced_at\` shows when it is done. At most once per 5 minutes per owner, or per profile for a call limited to one (a profile key or a Service-Profile header): 429 \`sync_rate_limited\` with \`Retry-After\`. 404 \`account_not_found\`, 422 \`insights_not_supported\` (${notOffered}), 409 \`account_not_connected\`; nothing is queued then, and the 5 minutes are not taken.`,
          headers: ProfileHeader,
          body: SyncBody,
          response: {
            202: SyncAnswer('The accounts whose figures are read now.'),
            ...errorsOf(409, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const accounts = await syncInsights(deps, request.scope, request.body?.account_ids);
        reply.code(202);
        return { account_ids: accounts.map((a) => a.id) };
      },
    );
  };
}
