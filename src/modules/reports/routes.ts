import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses, ProfileHeader } from '../../http/schemas.ts';
import { reportBrandOf } from '../connect/index.ts';
import { DayQuery, type InsightReadDeps, rangeError } from '../insights/index.ts';
import { ProfileParams } from '../profiles/index.ts';
import { reportCsv } from './csv.ts';
import { ProfileReportJson, renderProfileReport } from './json.ts';
import { reportPdf } from './pdf.ts';
import { profileReport } from './service.ts';
import { reportFileName } from './words.ts';

const tags = ['Reports'];

const Period = Type.Object(
  {
    from: Type.Optional(
      DayQuery(
        'First day, YYYY-MM-DD (UTC). Default: 29 days before `to`; with no `to` either, the first day of last month.',
      ),
    ),
    to: Type.Optional(
      DayQuery(
        'Last day, YYYY-MM-DD (UTC), included. Default: today; with no `from` either, the last day of last month.',
      ),
    ),
  },
  { additionalProperties: false },
);

const WHAT_IT_IS =
  "Made from the stored daily figures (GET /v1/accounts/{id}/insights) and posts alone: nothing is asked of a platform to answer. The period is `from`..`to` (UTC days, both included; at most 365); with neither, last calendar month. Each figure is beside the previous period of the same length. Headline figures per account: `followers` (the last count known in the period, and the first), `views`, `engagement` (the platform's interactions) and `posts_published`; which metrics make each on each platform is `insights.report` of GET /v1/platforms, and a figure a platform does not give is listed in the account's `not_offered`. Null is no data, never 0. Errors: 400 `invalid_range`, 404 `profile_not_found`.";

export function reportRoutes(deps: InsightReadDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/profiles/:id/report',
      {
        schema: {
          tags,
          summary: "A profile's report",
          description: `A profile's period at a glance, across every account of the profile: each account's headline figures and the profile's sums, each with its change against the previous period; every day of the period for charts; and the period's 5 best posts by engagement, with their permalink and figures. ${WHAT_IT_IS}`,
          headers: ProfileHeader,
          params: ProfileParams,
          querystring: Period,
          response: { 200: ProfileReportJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
        attachValidation: true,
      },
      async (request) => {
        if (request.validationError) throw rangeError(request.validationError);
        return renderProfileReport(await profileReport(deps, request.scope, request.params.id, request.query));
      },
    );

    app.get(
      '/v1/profiles/:id/report.csv',
      {
        schema: {
          tags,
          summary: "A profile's report as CSV",
          description: `The days of GET /v1/profiles/{id}/report as CSV (RFC 4180, a header row), one row per account and day: \`date\`, \`account_id\`, \`platform\`, \`username\`, \`display_name\`, \`followers\`, \`views\`, \`engagement\`, \`posts_published\`. No data is an empty cell, never 0; a name that a spreadsheet would take for a formula starts with \`'\`. ${WHAT_IT_IS}`,
          headers: ProfileHeader,
          params: ProfileParams,
          querystring: Period,
          response: {
            200: {
              description: 'The CSV, sent as an attachment (`report-<profile id>-<from>-<to>.csv`).',
              content: { 'text/csv': { schema: Type.String() } },
            },
            ...errorResponses(...AUTHENTICATED_ERRORS),
          },
        },
        attachValidation: true,
      },
      async (request, reply) => {
        if (request.validationError) throw rangeError(request.validationError);
        const report = await profileReport(deps, request.scope, request.params.id, request.query);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${reportFileName(report, 'csv')}"`)
          .send(reportCsv(report));
      },
    );

    app.get(
      '/v1/profiles/:id/report.pdf',
      {
        schema: {
          tags,
          summary: "A profile's report as PDF",
          description: `GET /v1/profiles/{id}/report as the PDF a client receives: the owner's logo (PUT /v1/connect/settings/logo) and brand name (connect settings, else the owner's name), the profile's figures beside the previous period, a chart per figure drawn as vectors with a line per account, each account's figures and the best posts; A4, text in DejaVu Sans. ${WHAT_IT_IS}`,
          headers: ProfileHeader,
          params: ProfileParams,
          querystring: Period,
          response: {
            200: {
              description: 'The PDF, sent as an attachment (`report-<profile id>-<from>-<to>.pdf`).',
              content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
            },
            ...errorResponses(...AUTHENTICATED_ERRORS),
          },
        },
        attachValidation: true,
      },
      async (request, reply) => {
        if (request.validationError) throw rangeError(request.validationError);
        const report = await profileReport(deps, request.scope, request.params.id, request.query);
        const pdf = await reportPdf(report, await reportBrandOf(deps.db, request.scope.ownerId));
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${reportFileName(report, 'pdf')}"`)
          .send(pdf);
      },
    );
  };
}
