import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
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
import { ReportScheduleJson, ReportSendJson, renderReportSchedule, renderReportSend } from './json.ts';
import { DEFAULT_LINK_DAYS, MAX_LINK_DAYS } from './links.ts';
import {
  DEFAULT_SEND_HOUR,
  deleteReportSchedule,
  getReportSchedule,
  putReportSchedule,
  SEND_ATTEMPTS,
} from './schedules.ts';
import { listReportSends, SENDS_PER_HOUR, sendReportNow } from './sends.ts';
import { REPORT_SEND_STATUSES, SCHEDULE_FREQUENCIES } from './tables.ts';

const tags = ['Reports'];

/** The most addresses one report e-mail goes to. */
const MOST_RECIPIENTS = 20;

/**
 * One address: a mailbox's local part and a domain (WHATWG's rule for an e-mail input), so a
 * text holding a comma, a name or a second address is refused rather than read as a list.
 */
const Address = Type.String({
  maxLength: 254,
  pattern:
    "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$",
  description: 'An e-mail address, `name@example.com`.',
});

const Recipients = Type.Array(Address, {
  minItems: 1,
  maxItems: MOST_RECIPIENTS,
  description: `The client's addresses, 1 to ${MOST_RECIPIENTS}; one e-mail goes to them all (each sees the others). An address given twice, in any case, is sent once.`,
});

const LinkDays = Type.Integer({
  minimum: 1,
  maximum: MAX_LINK_DAYS,
  description: `How long the report link in the e-mail works, in days. Default ${DEFAULT_LINK_DAYS}.`,
});

export function scheduleReportRoutes(deps: { db: Db; config: Config; secretKey: Buffer }): FastifyPluginAsyncTypebox {
  const { db, config } = deps;
  return async (app) => {
    app.get(
      '/v1/profiles/:id/report-schedule',
      {
        schema: {
          tags,
          summary: "A profile's report schedule",
          description:
            "When the profile's report is e-mailed to the client, and to whom. 404 `report_schedule_not_found`.",
          headers: ProfileHeader,
          params: ProfileParams,
          response: { 200: ReportScheduleJson, ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => renderReportSchedule(await getReportSchedule(db, request.scope, request.params.id)),
    );

    app.put(
      '/v1/profiles/:id/report-schedule',
      {
        schema: {
          tags,
          summary: "Set a profile's report schedule",
          description: `Makes or replaces (whole) the profile's one schedule. \`monthly\` sends the last full calendar month on \`day\` (1 to 28) of each month; \`weekly\` sends the last full week, Monday to Sunday, on weekday \`day\` (1 Monday to 7 Sunday); at \`hour\` (UTC, default ${DEFAULT_SEND_HOUR}). Each e-mail goes to \`recipients\` through the service's mail server (SMTP_URL) with the report's PDF attached and a report link of its own, and ends in a \`report.sent\` event; a failed try is tried again (${SEND_ATTEMPTS} tries in all, over about 2.5 hours) before the send is \`failed\` (\`report.failed\`). Sends: GET /v1/profiles/{id}/report-sends.`,
          headers: ProfileHeader,
          params: ProfileParams,
          body: Type.Object(
            {
              frequency: Type.Enum(SCHEDULE_FREQUENCIES),
              day: Type.Integer({
                minimum: 1,
                maximum: 28,
                description: 'Monthly: the day of the month, 1 to 28. Weekly: the weekday, 1 (Monday) to 7 (Sunday).',
              }),
              hour: Type.Optional(
                Type.Integer({ minimum: 0, maximum: 23, description: `UTC. Default ${DEFAULT_SEND_HOUR}.` }),
              ),
              recipients: Recipients,
              link_expires_in_days: Type.Optional(LinkDays),
              active: Type.Optional(Type.Boolean({ description: 'False pauses the schedule. Default true.' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: ReportScheduleJson, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
      },
      async (request) => {
        const { body } = request;
        const schedule = await putReportSchedule(
          db,
          request.scope,
          request.params.id,
          {
            frequency: body.frequency,
            day: body.day,
            hour: body.hour,
            recipients: body.recipients,
            linkExpiresInDays: body.link_expires_in_days,
            active: body.active,
          },
          publicBaseUrl(config, request),
        );
        return renderReportSchedule(schedule);
      },
    );

    app.delete(
      '/v1/profiles/:id/report-schedule',
      {
        schema: {
          tags,
          summary: "Remove a profile's report schedule",
          description: 'Nothing more is sent by it; e-mails already being sent go on. 404 `report_schedule_not_found`.',
          headers: ProfileHeader,
          params: ProfileParams,
          response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request, reply) => {
        await deleteReportSchedule(db, request.scope, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/profiles/:id/report-sends',
      {
        schema: {
          tags,
          summary: "List a profile's report e-mails",
          description:
            "Newest first: each report e-mailed, by the schedule or asked for, with its status, tries and the mail server's last error.",
          headers: ProfileHeader,
          params: ProfileParams,
          querystring: Type.Object(
            {
              ...ListQuery,
              status: Type.Optional(Type.Enum(REPORT_SEND_STATUSES, { description: 'Only sends in this status.' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: ListOf(ReportSendJson), ...errorResponses(...AUTHENTICATED_ERRORS) },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const rows = await listReportSends(db, request.scope, request.params.id, {
          limit,
          before: decodeCursor(request.query.cursor, 'reportSend'),
          status: request.query.status,
        });
        return toPage(rows, limit, renderReportSend);
      },
    );

    app.post(
      '/v1/profiles/:id/report-sends',
      {
        preValidation: absentBodyAsEmpty,
        schema: {
          tags,
          summary: "E-mail a profile's report now",
          description: `E-mails the report over \`from\`..\`to\` (as GET /v1/profiles/{id}/report takes them: last calendar month by default) now, as a schedule would: to \`recipients\`, else the schedule's (400 \`validation_failed\` when there is neither), with the PDF and a new report link. Answers 202 with the send (\`sending\`); GET /v1/profiles/{id}/report-sends shows how it went, and \`report.sent\` or \`report.failed\` tells. Send a failed one again this way. Takes an Idempotency-Key. A profile may ask for ${SENDS_PER_HOUR} an hour: 429 \`rate_limited\` with \`Retry-After\` past that.`,
          headers: ProfileHeader,
          params: ProfileParams,
          body: Type.Object(
            {
              from: Type.Optional(DayQuery('First day, YYYY-MM-DD (UTC).')),
              to: Type.Optional(DayQuery('Last day, YYYY-MM-DD (UTC), included.')),
              recipients: Type.Optional(Recipients),
              link_expires_in_days: Type.Optional(LinkDays),
            },
            { additionalProperties: false },
          ),
          response: { 202: ReportSendJson, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const send = await sendReportNow(
          deps,
          request.scope,
          request.params.id,
          { from: body.from, to: body.to, recipients: body.recipients, linkExpiresInDays: body.link_expires_in_days },
          publicBaseUrl(config, request),
        );
        reply.code(202);
        return renderReportSend(send);
      },
    );
  };
}
