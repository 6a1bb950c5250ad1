/**
 * What a report link opens: the hosted, read-only page of a profile's report, its PDF, and the
 * owner's logo the page shows. No form, no script; every opening of the page is counted on the
 * link (its PDF and logo, fetched from the page, are not).
 */
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Db } from '../db/connection.ts';
import { ApiError } from '../http/errors.ts';
import { type LinkedReport, linkedLogo, linkedReport, reportPdf } from '../modules/reports/index.ts';
import type { PlatformSet } from '../platforms/index.ts';
import { sendPage, sendProblemPage } from './page.tsx';
import { reportPage } from './report-views.tsx';

const CLOSED = {
  unknown: {
    status: 404,
    title: 'This link does not work',
    text: 'The link is incomplete or was never valid. Ask whoever sent it for a new one.',
  },
  expired: { status: 410, title: 'This link has expired', text: 'Ask whoever sent it for a new one.' },
  revoked: {
    status: 410,
    title: 'This link was withdrawn',
    text: 'Whoever sent it withdrew the link. Ask them for a new one.',
  },
} as const;

function closed(reply: FastifyReply, linked: Exclude<LinkedReport, { kind: 'open' }>) {
  const page = CLOSED[linked.kind === 'unknown' ? 'unknown' : linked.state];
  return sendProblemPage(reply, page.status, page.title, page.text);
}

/**
 * Requests a minute one address may make of the report links' pages: a client reads a page, its
 * logo and its PDF; each PDF is made anew, so a loop on a link it holds must not take the service.
 */
export const REPORT_PAGE_REQUESTS_PER_MINUTE = 60;

export function reportPages(deps: {
  db: Db;
  platforms: () => PlatformSet;
  /** Where the counts are kept, shared by every process (the API's own store). */
  limitStore: Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace'>;
}): FastifyPluginAsync {
  return async (app) => {
    await app.register(rateLimit, {
      global: false,
      max: REPORT_PAGE_REQUESTS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => `report-page:${request.ip}`,
      skipOnError: true,
      ...deps.limitStore,
      enableDraftSpec: true,
      errorResponseBuilder: (_request, context) =>
        new ApiError(
          429,
          'rate_limited',
          `Too many requests for report pages from this address: at most ${context.max} a minute. Retry after ${Math.ceil(context.ttl / 1000)} s.`,
        ),
    });
    app.addHook('onRequest', app.rateLimit());

    app.get<{ Params: { token: string } }>('/reports/:token', { schema: { hide: true } }, async (request, reply) => {
      // A HEAD (a link checker, a mail scanner) is not an opening: only what a person's browser GETs.
      const linked = await linkedReport(deps, request.params.token, request.method === 'GET');
      if (linked.kind !== 'open') return closed(reply, linked);
      const base = `/reports/${request.params.token}`;
      return sendPage(
        reply,
        reportPage({
          report: linked.report,
          brandName: linked.brand.name,
          logoUrl: linked.hasLogo ? `${base}/logo` : null,
          pdfUrl: `${base}/report.pdf`,
        }),
      );
    });

    app.get<{ Params: { token: string } }>(
      '/reports/:token/report.pdf',
      { schema: { hide: true } },
      async (request, reply) => {
        const linked = await linkedReport(deps, request.params.token, false);
        if (linked.kind !== 'open') return closed(reply, linked);
        const { report } = linked;
        const name = `report-${report.from}-${report.to}.pdf`;
        return reply
          .type('application/pdf')
          .header('cache-control', 'no-store')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(await reportPdf(report, linked.brand));
      },
    );

    app.get<{ Params: { token: string } }>(
      '/reports/:token/logo',
      { schema: { hide: true } },
      async (request, reply) => {
        const logo = await linkedLogo(deps, request.params.token);
        if (logo.kind !== 'open') return closed(reply, logo);
        if (logo.logoPng === null) return closed(reply, { kind: 'unknown' });
        return reply.type('image/png').header('cache-control', 'no-store').send(logo.logoPng);
      },
    );
  };
}
