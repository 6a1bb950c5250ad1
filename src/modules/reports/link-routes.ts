import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { now } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import { publicBaseUrl } from '../../http/public-url.ts';
import {
  AUTHENTICATED_ERRORS,
  absentBodyAsEmpty,
  errorResponses,
  ListOf,
  ListQuery,
  ProfileHeader,
} from '../../http/schemas.ts';
import { DayQuery } from '../insights/index.ts';
import { ProfileParams } from '../profiles/index.ts';
import { NewReportLinkJson, ReportLinkJson, renderReportLink } from './json.ts';
import {
  createReportLink,
  DEFAULT_LINK_DAYS,
  linkState,
  listReportLinks,
  MAX_LINK_DAYS,
  reportPagePath,
  revokeReportLink,
} from './links.ts';
import type { ReportLink } from './tables.ts';

const tags = ['Reports'];

const render = (link: ReportLink) => renderReportLink(link, linkState(link, now()));

export function reportLinkRoutes(deps: { db: Db; config: Config }): FastifyPluginAsyncTypebox {
  const { db, config } = deps;
  return async (app) => {
    app.post(
      '/v1/profiles/:id/report-links',
      {
        // The answer holds the link's token, which the service keeps only hashed: a stored
        // replay would keep it in clear. A second link is harmless (read-only, revocable).
        config: { idempotencyKey: false },
        preValidation: absentBodyAsEmpty,
        schema: {
          tags,
          summary: 'Create a report link',
          description: `A link to a hosted, read-only page of the profile's report (GET /v1/profiles/{id}/report, with the owner's brand name and logo, and the PDF to download), which a client opens without an account. Its period is fixed now: \`from\` and \`to\` as the report takes them (last calendar month by default; 400 \`invalid_range\` for an impossible day or period, 400 \`validation_failed\` for a text that is no YYYY-MM-DD). It works for \`expires_in_days\` (1 to ${MAX_LINK_DAYS}, default ${DEFAULT_LINK_DAYS}) until revoked; each opening is counted (\`opens\`, \`last_opened_at\`). Answers 201 with \`url\`, shown this once.`,
          headers: ProfileHeader,
          params: ProfileParams,
          body: Type.Object(
            {
              from: Type.Optional(DayQuery('First day, YYYY-MM-DD (UTC).')),
              to: Type.Optional(DayQuery('Last day, YYYY-MM-DD (UTC), included.')),
              expires_in_days: Type.Optional(
                Type.Integer({ minimum: 1, maximum: MAX_LINK_DAYS, description: `Default ${DEFAULT_LINK_DAYS}.` }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 201: NewReportLinkJson, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
        // No attachValidation (as the reads have): a change's hooks (the audit log's read of
        // the path) must never run on a request its schema refused.
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const { link, token } = await createReportLink(db, request.scope, request.params.id, {
          from: body.from,
          to: body.to,
          expiresInDays: body.expires_in_days,
        });
        reply.code(201);
        return { ...render(link), url: `${publicBaseUrl(config, request)}${reportPagePath(token)}` };
      },
    );

    app.get(
      '/v1/profiles/:id/report-links',
      {
        schema: {
          tags,
          summary: "List a profile's report links",
          description:
            'Newest first, with how often each was opened. The links themselves (their tokens) are never shown again.',
          headers: ProfileHeader,
          params: ProfileParams,
          querystring: Type.Object(ListQuery, { additionalProperties: false }),
          response: { 200: ListOf(ReportLinkJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listReportLinks(db, request.scope, request.params.id, {
          limit,
          before: decodeCursor(request.query.cursor, 'reportLink'),
        });
        return toPage(rows, limit, render);
      },
    );

    app.delete(
      '/v1/profiles/:id/report-links/:link_id',
      {
        schema: {
          tags,
          summary: 'Revoke a report link',
          description:
            'The link opens nothing from then on; answers the link (`revoked`). Revoking twice changes nothing. 404 `report_link_not_found`.',
          headers: ProfileHeader,
          params: Type.Object({
            ...ProfileParams.properties,
            link_id: Type.String({ minLength: 1, maxLength: 100, description: 'Report link id, `rpl_...`.' }),
          }),
          response: { 200: ReportLinkJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => render(await revokeReportLink(db, request.scope, request.params.id, request.params.link_id)),
    );
  };
}
