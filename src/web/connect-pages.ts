/**
 * The hosted connect pages: the link's page with one button per platform, the trip to the
 * platform's permission page and back (our OAuth callback), and for a login that grants
 * several pages (Facebook) the choice of pages. This file renders pages, keeps the trip's
 * cookie and sends redirects; the rules are the connect module's (modules/connect/flow.ts).
 * Every outcome ends with the client sent to the link's `redirect_url`, but a reconnect link's
 * login of the wrong account: its page says so first, and offers both to try again and to go back.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { requestOrigin } from '../http/request-origin.ts';
import { AUTHENTICATED_ERRORS, errorResponses } from '../http/schemas.ts';
import {
  type ConnectLink,
  choosePages,
  finishTrip,
  LINK_LIFETIME_MS,
  type LinkLookup,
  linkPage,
  lookUpLink,
  pendingPages,
  previewPage,
  startTrip,
  type TripEnd,
  tripCookieName,
} from '../modules/connect/index.ts';
import { isPlatform, PLATFORMS, type Platform, type PlatformSet, platformInfo } from '../platforms/index.ts';
import { choosePagesPage, connectLinkPage, wrongAccountPage } from './connect-views.tsx';
import { field, fields } from './form.ts';
import { sendPage, sendProblemPage } from './page.tsx';

export interface ConnectPageDeps {
  db: Db;
  secretKey: Buffer;
  config: Config;
  platforms: () => PlatformSet;
}

const COOKIE_PATH = '/connect';

/** Every redirect of the flow: never cached, and never telling the next place where it came from. */
function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply
    .code(303)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('location', location)
    .send();
}

function unknownLink(reply: FastifyReply) {
  return sendProblemPage(
    reply,
    404,
    'This link does not work',
    'The link is incomplete or was never valid. Ask whoever sent it for a new one.',
  );
}

const linkPageUrl = (token: string) => `/connect/${token}`;

/** The answer for a token that opens no usable link, or null when it opens one. */
function closedLink(reply: FastifyReply, lookup: LinkLookup): FastifyReply | null {
  if (lookup.kind === 'unknown') return unknownLink(reply);
  if (lookup.kind === 'over') return seeOther(reply, lookup.redirectUrl);
  return null;
}

/**
 * `GET /v1/connect/preview`: the page a new connect link opens, as the owner's clients see it
 * now (brand name, platforms), for the dashboard to show in a frame. Its buttons lead nowhere.
 */
export function connectPreviewRoutes({
  db,
  platforms,
}: Pick<ConnectPageDeps, 'db' | 'platforms'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/connect/preview',
      {
        config: { ownerLevel: true },
        schema: {
          tags: ['Connect links'],
          summary: 'Preview the hosted connect page',
          description:
            "The HTML page a new connect link opens, with the owner's brand name and the platforms offered, as a client sees it. Its buttons lead nowhere. The page may be framed by this service's own pages (the dashboard) and by no other site.",
          querystring: Type.Object(
            {
              platforms: Type.Optional(
                Type.String({
                  pattern: `^(${PLATFORMS.join('|')})(,(${PLATFORMS.join('|')}))*$`,
                  description:
                    "Comma-separated platforms to offer, as a link's `platforms`; all available ones without it.",
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.String({ description: 'The page (text/html).' }),
            ...errorResponses(...AUTHENTICATED_ERRORS),
          },
        },
      },
      async (request, reply) => {
        const chosen = request.query.platforms ? (request.query.platforms.split(',') as Platform[]) : null;
        const page = await previewPage({ db, platforms }, request.scope.ownerId, chosen);
        return sendPage(reply, { ...connectLinkPage(page, () => '#'), frameAncestors: "'self'" });
      },
    );
  };
}

export function connectPages({ db, secretKey, config, platforms }: ConnectPageDeps): FastifyPluginAsync {
  const flow = { db, secretKey, platforms };
  const callbackUrl = (request: FastifyRequest, platform: string) =>
    `${publicBaseUrl(config, request)}/connect/callback/${platform}`;

  function endTrip(reply: FastifyReply, end: TripEnd): FastifyReply {
    switch (end.kind) {
      case 'done':
        if (end.outcome.status === 'connected') reply.clearCookie(tripCookieName(end.link), { path: COOKIE_PATH });
        return seeOther(reply, end.redirectUrl);
      case 'choose_pages':
        return seeOther(reply, `${linkPageUrl(end.token)}/pages`);
      case 'platform_failed':
        return sendProblemPage(
          reply,
          502,
          `${platformInfo(end.platform).label} did not answer as expected`,
          'Nothing was connected. Please try again in a moment.',
          linkPageUrl(end.token),
        );
      case 'app_changed':
        return sendProblemPage(
          reply,
          409,
          `The ${platformInfo(end.platform).label} app changed while you signed in`,
          'Nothing was connected. Please sign in again: the new app will ask for your permission.',
          linkPageUrl(end.token),
        );
      case 'wrong_account':
        return sendPage(reply, wrongAccountPage(end, linkPageUrl(end.token)));
    }
  }

  function choosePage(
    reply: FastifyReply,
    link: ConnectLink,
    token: string,
    pages: { id: string; name: string }[],
    brand: string,
    error?: string,
  ) {
    const action = `${linkPageUrl(token)}/pages`;
    return sendPage(reply, choosePagesPage({ brand, pages, action, redirectUrl: link.redirectUrl, error }));
  }

  return async (app) => {
    await app.register(formbody);
    const cookieOf = (request: FastifyRequest) => (name: string) => request.cookies[name];

    app.get<{ Params: { token: string } }>('/connect/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const lookup = await lookUpLink(db, token);
      if (lookup.kind !== 'open') return closedLink(reply, lookup);
      const page = await linkPage(flow, lookup);
      return sendPage(
        reply,
        connectLinkPage(page, (p) => `${linkPageUrl(token)}/start/${p}`),
      );
    });

    app.get<{ Params: { token: string; platform: string } }>(
      '/connect/:token/start/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token, platform } = request.params;
        const lookup = await lookUpLink(db, token);
        if (lookup.kind !== 'open') return closedLink(reply, lookup);
        const hint = field((request.query as Record<string, unknown>).login_hint)?.trim();
        if (isPlatform(platform) && platformInfo(platform).signInHint !== undefined && !hint) {
          // Where the platform needs to know who signs in first, the link's page asks it.
          return seeOther(reply, linkPageUrl(token));
        }
        const trip = await startTrip(
          flow,
          lookup.link,
          token,
          platform,
          callbackUrl(request, platform),
          request.log,
          hint || undefined,
        );
        if (trip.kind === 'not_started') {
          return sendProblemPage(
            reply,
            400,
            `${platformInfo(trip.platform).label} could not start the sign-in`,
            `Check what you entered and try again. (${trip.message})`,
            linkPageUrl(token),
          );
        }
        if (trip.kind === 'not_offered') {
          return sendProblemPage(
            reply,
            404,
            'This platform is not offered here',
            'Go back and choose one of the buttons.',
            linkPageUrl(token),
          );
        }
        if (trip.kind === 'too_many_trips') {
          return sendProblemPage(reply, 429, 'Too many tries with this link', 'Ask whoever sent it for a new link.');
        }
        reply.setCookie(trip.cookie.name, trip.cookie.value, {
          path: COOKIE_PATH,
          httpOnly: true,
          secure: publicBaseUrl(config, request).startsWith('https:'),
          // Lax: sent when the platform redirects the browser back (a top-level GET), not on cross-site POSTs.
          sameSite: 'lax',
          maxAge: LINK_LIFETIME_MS / 1000,
        });
        return seeOther(reply, trip.authorizeUrl);
      },
    );

    // Where a platform knows the service by a document it serves (AT Protocol's client metadata): that document.
    app.get<{ Params: { platform: string } }>(
      '/oauth/:platform/client-metadata.json',
      { schema: { hide: true } },
      async (request, reply) => {
        const { platform } = request.params;
        const { available } = platforms();
        const adapter =
          isPlatform(platform) && available.includes(platform) ? platforms().adapter(platform) : undefined;
        if (adapter?.clientMetadata === undefined) return unknownLink(reply);
        return reply
          .header('cache-control', 'public, max-age=300')
          .send(adapter.clientMetadata(callbackUrl(request, platform)));
      },
    );

    app.get<{ Params: { platform: string } }>(
      '/connect/callback/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const { platform } = request.params;
        const end = await finishTrip(
          flow,
          platform,
          request.query as Record<string, unknown>,
          cookieOf(request),
          callbackUrl(request, platform),
          request.log,
          { origin: requestOrigin(request), operation: 'GET /connect/callback/{platform}' },
        );
        if (end.kind === 'unknown') return unknownLink(reply);
        if (end.kind === 'unconfirmed') {
          return sendProblemPage(
            reply,
            400,
            'This sign-in could not be confirmed',
            'It did not start from your connect link in this browser. Open your connect link again and choose a platform.',
          );
        }
        return endTrip(reply, end);
      },
    );

    app.get<{ Params: { token: string } }>(
      '/connect/:token/pages',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const lookup = await lookUpLink(db, token);
        if (lookup.kind !== 'open') return closedLink(reply, lookup);
        const pending = await pendingPages(flow, lookup.link, cookieOf(request));
        if (!pending) return seeOther(reply, linkPageUrl(token));
        const { brand } = await linkPage(flow, lookup);
        return choosePage(reply, lookup.link, token, pending.held.pages, brand);
      },
    );

    app.post<{ Params: { token: string } }>(
      '/connect/:token/pages',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const lookup = await lookUpLink(db, token);
        if (lookup.kind !== 'open') return closedLink(reply, lookup);
        const pending = await pendingPages(flow, lookup.link, cookieOf(request));
        if (!pending) return seeOther(reply, linkPageUrl(token));
        const form = (request.body ?? {}) as Record<string, unknown>;
        const end = await choosePages(
          flow,
          lookup.link,
          token,
          pending,
          { cancel: field(form.decision) === 'cancel', pageIds: fields(form.pages) },
          request.log,
          { origin: requestOrigin(request), operation: 'POST /connect/{token}/pages' },
        );
        if (end.kind === 'none_chosen') {
          const { brand } = await linkPage(flow, lookup);
          return choosePage(reply, lookup.link, token, pending.held.pages, brand, 'Choose at least one page.');
        }
        return endTrip(reply, end);
      },
    );
  };
}
