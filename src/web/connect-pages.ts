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
import { AUTHENTICATED_ERRORS, errorResponses } from '../http/schemas.ts';
import {
  type AccountName,
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
import { PLATFORMS, type Platform, type PlatformSet, platformInfo } from '../platforms/index.ts';
import { field, fields } from './form.ts';
import { escapeHtml, type PageOptions, sendPage, sendProblemPage } from './html.ts';

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

interface LinkPageContent {
  brand: string;
  platforms: readonly Platform[];
  minutesLeft: number;
  /** A reconnect link: the account it reconnects. */
  reconnects?: AccountName | null;
}

/**
 * How a page names an account: `@handle (Name)`, either one alone, or its id on the platform.
 * Written by whoever owns the account: the caller escapes it.
 */
function accountLabel(account: AccountName): string {
  const handle = account.username ? `@${account.username}` : null;
  if (handle && account.displayName) return `${handle} (${account.displayName})`;
  return handle ?? account.displayName ?? account.platformUserId;
}

/** The page a reconnect link opens: the account it reconnects, and one button, for its platform. */
function reconnectPageOf(page: LinkPageContent, account: AccountName, href: string): PageOptions {
  const info = platformInfo(account.platform);
  const brand = escapeHtml(page.brand);
  const how = info.grantsPages
    ? `Sign in to ${escapeHtml(info.label)} with a login that manages that page, and share it: a login that does not share it is not accepted.`
    : `Sign in to ${escapeHtml(info.label)} as that account and choose what to share: another account is not accepted.`;
  return {
    status: 200,
    title: `Reconnect your account to ${page.brand}`,
    body: `<main>
<h1>Reconnect your account to ${brand}</h1>
<p>This link reconnects <strong>${escapeHtml(accountLabel(account))}</strong> on ${escapeHtml(info.label)}.</p>
<p>${how} Your password is never shared with ${brand}.</p>
<ul class="buttons">
<li><a class="button" href="${escapeHtml(href)}">Reconnect ${escapeHtml(info.label)}</a></li>
</ul>
<p class="muted">This link works once and for ${page.minutesLeft} more minutes at most.</p>
</main>`,
  };
}

/** The page a connect link opens: one button per platform offered, each leading to `hrefOf(platform)`. */
function linkPageOf(page: LinkPageContent, hrefOf: (platform: Platform) => string): PageOptions {
  if (page.reconnects) return reconnectPageOf(page, page.reconnects, hrefOf(page.reconnects.platform));
  const buttons = page.platforms
    .map(
      (p) =>
        `<li><a class="button" href="${escapeHtml(hrefOf(p))}">Connect ${escapeHtml(platformInfo(p).label)}</a></li>`,
    )
    .join('\n');
  return {
    status: 200,
    title: `Connect your account to ${page.brand}`,
    body: `<main>
<h1>Connect your account to ${escapeHtml(page.brand)}</h1>
<p>Choose where your account is. You sign in there and choose what to share; your password is never shared with ${escapeHtml(page.brand)}.</p>
<ul class="buttons">
${buttons}
</ul>
<p class="muted">This link works once and for ${page.minutesLeft} more minutes at most.</p>
</main>`,
  };
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
        return sendPage(reply, { ...linkPageOf(page, () => '#'), frameAncestors: "'self'" });
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
      case 'wrong_account':
        return wrongAccountPage(reply, end);
    }
  }

  /**
   * A reconnect link's login was of another account: nothing changed, and the link still works.
   * The client tries again, or goes back to the owner's app with `error=account_mismatch`.
   */
  function wrongAccountPage(reply: FastifyReply, end: TripEnd & { kind: 'wrong_account' }) {
    const label = escapeHtml(platformInfo(end.expected.platform).label);
    const expected = `<strong>${escapeHtml(accountLabel(end.expected))}</strong>`;
    const what = end.signedInAs
      ? `<p>You signed in to ${label} as <strong>${escapeHtml(accountLabel(end.signedInAs))}</strong>, but this link reconnects ${expected}. Nothing was changed.</p>
<p>To reconnect it, try again and sign in as that account. If ${label} signs you in by itself, sign out there first.</p>`
      : `<p>Your ${label} login did not share ${expected}, which this link reconnects. Nothing was changed.</p>
<p>To reconnect it, try again and share that page when ${label} asks which ones to share.</p>`;
    const title = 'This is not the account to reconnect';
    return sendPage(reply, {
      status: 409,
      title,
      body: `<main>
<h1>${escapeHtml(title)}</h1>
${what}
<ul class="buttons">
<li><a class="button" href="${escapeHtml(linkPageUrl(end.token))}">Try again</a></li>
<li><a class="button secondary" href="${escapeHtml(end.redirectUrl)}">Back to ${escapeHtml(end.brand)}</a></li>
</ul>
</main>`,
    });
  }

  function choosePage(
    reply: FastifyReply,
    link: ConnectLink,
    token: string,
    pages: { id: string; name: string }[],
    brand: string,
    error?: string,
  ) {
    const options = pages
      .map(
        (page) =>
          `<label><input type="checkbox" name="pages" value="${escapeHtml(page.id)}" checked> ${escapeHtml(page.name)}</label>`,
      )
      .join('\n');
    return sendPage(reply, {
      status: error ? 422 : 200,
      title: 'Choose your pages',
      formTargets: [new URL(link.redirectUrl).origin],
      body: `<main>
<h1>Choose the pages to connect to ${escapeHtml(brand)}</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(`${linkPageUrl(token)}/pages`)}">
<fieldset><legend>Your pages</legend>
${options}
</fieldset>
<button type="submit" name="decision" value="connect">Connect selected pages</button>
<p></p>
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
</form></main>`,
    });
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
        linkPageOf(page, (p) => `${linkPageUrl(token)}/start/${p}`),
      );
    });

    app.get<{ Params: { token: string; platform: string } }>(
      '/connect/:token/start/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token, platform } = request.params;
        const lookup = await lookUpLink(db, token);
        if (lookup.kind !== 'open') return closedLink(reply, lookup);
        const trip = await startTrip(flow, lookup.link, token, platform, callbackUrl(request, platform), request.log);
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
