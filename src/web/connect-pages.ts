/**
 * The hosted connect pages: the link's page with one button per platform, the trip to
 * the platform's permission page and back (our OAuth callback), and for a login that
 * grants several pages (Facebook) the choice of pages. Every outcome ends with the client
 * sent to the link's `redirect_url`.
 *
 * The OAuth `state` sent to the platform is random per trip; the browser that started the
 * trip keeps it in a cookie, and the callback accepts it only with that cookie, so a code
 * obtained by someone else cannot be slipped into a client's link (login CSRF).
 */
import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { now } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { AccountGrant } from '../modules/accounts/connect-accounts.ts';
import { type ConnectError, type Outcome, outcomeUrl } from '../modules/connect/redirect-url.ts';
import { publicBaseUrl } from '../modules/connect/routes.ts';
import {
  brandNameOf,
  type ConnectAttempt,
  type ConnectLink,
  completeLink,
  findAttempt,
  findLink,
  heldPages,
  holdPages,
  LINK_LIFETIME_MS,
  linkIsOver,
  linkPlatforms,
  type PendingPages,
  startAttempt,
  tokenOpens,
} from '../modules/connect/service.ts';
import { isPlatform, type Platform, PlatformError, type PlatformSet, platformInfo } from '../platforms/index.ts';
import { field, fields } from './form.ts';
import { escapeHtml, sendPage } from './html.ts';

export interface ConnectPageDeps {
  db: Db;
  secretKey: Buffer;
  config: Config;
  platforms: () => PlatformSet;
}

/** Link tokens and states are 32 random bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function cookieName(link: ConnectLink): string {
  return `sb_connect_${link.id}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Every redirect of the flow: never cached, and never telling the next place where it came from. */
function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply
    .code(303)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('location', location)
    .send();
}

function redirectTo(reply: FastifyReply, link: ConnectLink, outcome: Outcome): FastifyReply {
  return seeOther(reply, outcomeUrl(link.redirectUrl, link.state, outcome));
}

function fail(reply: FastifyReply, link: ConnectLink, error: ConnectError): FastifyReply {
  return redirectTo(reply, link, { status: 'error', error });
}

function problemPage(reply: FastifyReply, status: number, title: string, text: string, retryUrl?: string) {
  const retry = retryUrl ? `<p><a class="button" href="${escapeHtml(retryUrl)}">Try again</a></p>` : '';
  return sendPage(reply, {
    status,
    title,
    body: `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${retry}</main>`,
  });
}

function unknownLink(reply: FastifyReply) {
  return problemPage(
    reply,
    404,
    'This link does not work',
    'The link is incomplete or was never valid. Ask whoever sent it for a new one.',
  );
}

export function connectPages({ db, secretKey, config, platforms }: ConnectPageDeps): FastifyPluginAsync {
  const callbackUrl = (request: FastifyRequest, platform: Platform) =>
    `${publicBaseUrl(config, request)}/connect/callback/${platform}`;
  const linkPageUrl = (token: string) => `/connect/${token}`;

  /** The link a token in a path opens; undefined for a malformed token or one no link has. */
  async function linkOf(token: string): Promise<ConnectLink | undefined> {
    return TOKEN.test(token) ? await findLink(db, token) : undefined;
  }

  /** The trip this browser is on for `link`, from its cookie, or null. */
  function tripOf(request: FastifyRequest, link: ConnectLink): { state: string; token: string } | null {
    const value = request.cookies[cookieName(link)];
    const [state, token] = (value ?? '').split('.');
    if (!state || !token || !TOKEN.test(state) || !tokenOpens(link, token)) return null;
    return { state, token };
  }

  /** This browser's trip on `link` with the pages it left to choose from, or null. */
  async function pendingChoice(
    request: FastifyRequest,
    link: ConnectLink,
  ): Promise<{ attempt: ConnectAttempt; held: PendingPages } | null> {
    const trip = tripOf(request, link);
    const found = trip ? await findAttempt(db, trip.state) : undefined;
    if (!found || found.link.id !== link.id) return null;
    const held = heldPages(secretKey, found.attempt);
    return held ? { attempt: found.attempt, held } : null;
  }

  async function finish(
    reply: FastifyReply,
    log: FastifyBaseLogger,
    link: ConnectLink,
    platform: Platform,
    grants: AccountGrant[],
  ): Promise<FastifyReply> {
    const completion = await completeLink(db, secretKey, link.id, platform, grants);
    if (!completion.ok) {
      log.info({ link: link.id, platform, error: completion.error }, 'connect link refused the accounts');
      return fail(reply, link, completion.error);
    }
    log.info({ link: link.id, platform, accounts: completion.accountIds }, 'connect link used');
    reply.clearCookie(cookieName(link), { path: '/connect' });
    return redirectTo(reply, link, {
      status: 'connected',
      profileId: link.profileId,
      accountIds: completion.accountIds,
    });
  }

  function platformTrouble(
    reply: FastifyReply,
    log: FastifyBaseLogger,
    link: ConnectLink,
    platform: Platform,
    token: string,
    error: unknown,
  ) {
    if (!(error instanceof PlatformError)) throw error;
    log.warn(
      { link: link.id, platform, kind: error.kind, detail: error.detail, err: error.message },
      'platform call failed during a connection; the client may try again',
    );
    return problemPage(
      reply,
      502,
      `${platformInfo(platform).label} did not answer as expected`,
      'Nothing was connected. Please try again in a moment.',
      linkPageUrl(token),
    );
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
    await app.register(cookie);
    await app.register(formbody);

    app.get<{ Params: { token: string } }>('/connect/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const link = await linkOf(token);
      if (!link) return unknownLink(reply);
      if (linkIsOver(link)) return fail(reply, link, 'expired');
      const brand = await brandNameOf(db, link.ownerId);
      const offered = linkPlatforms(link, platforms().available);
      const buttons = offered
        .map(
          (p) =>
            `<li><a class="button" href="${escapeHtml(`${linkPageUrl(token)}/start/${p}`)}">Connect ${escapeHtml(platformInfo(p).label)}</a></li>`,
        )
        .join('\n');
      const minutes = Math.max(1, Math.ceil((link.expiresAt.getTime() - now().getTime()) / 60_000));
      return sendPage(reply, {
        status: 200,
        title: `Connect your account to ${brand}`,
        body: `<main>
<h1>Connect your account to ${escapeHtml(brand)}</h1>
<p>Choose where your account is. You sign in there and choose what to share; your password is never shared with ${escapeHtml(brand)}.</p>
<ul class="buttons">
${buttons}
</ul>
<p class="muted">This link works once and for ${minutes} more minutes at most.</p>
</main>`,
      });
    });

    app.get<{ Params: { token: string; platform: string } }>(
      '/connect/:token/start/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token, platform } = request.params;
        const link = await linkOf(token);
        if (!link) return unknownLink(reply);
        if (linkIsOver(link)) return fail(reply, link, 'expired');
        if (!isPlatform(platform) || !linkPlatforms(link, platforms().available).includes(platform)) {
          return problemPage(
            reply,
            404,
            'This platform is not offered here',
            'Go back and choose one of the buttons.',
            linkPageUrl(token),
          );
        }
        const state = await startAttempt(db, link, platform);
        if (state === null) {
          request.log.warn({ link: link.id }, 'connect link has had all its trips; refused another');
          return problemPage(reply, 429, 'Too many tries with this link', 'Ask whoever sent it for a new link.');
        }
        const secure = publicBaseUrl(config, request).startsWith('https:');
        reply.setCookie(cookieName(link), `${state}.${token}`, {
          path: '/connect',
          httpOnly: true,
          secure,
          // Lax: sent when the platform redirects the browser back (a top-level GET), not on cross-site POSTs.
          sameSite: 'lax',
          maxAge: LINK_LIFETIME_MS / 1000,
        });
        const target = platforms()
          .adapter(platform)
          .authorizeUrl({ redirectUri: callbackUrl(request, platform), state });
        return seeOther(reply, target);
      },
    );

    app.get<{ Params: { platform: string } }>(
      '/connect/callback/:platform',
      { schema: { hide: true } },
      async (request, reply) => {
        const { platform } = request.params;
        // Only platforms this service can use have trips to come back from.
        if (!isPlatform(platform) || !platforms().available.includes(platform)) return unknownLink(reply);
        const adapter = platforms().adapter(platform);
        const callback = adapter.parseCallback(request.query as Record<string, unknown>);
        const found = callback.state && TOKEN.test(callback.state) ? await findAttempt(db, callback.state) : undefined;
        const trip = found ? tripOf(request, found.link) : null;
        if (!found || !trip || !sameText(trip.state, callback.state ?? '') || found.attempt.platform !== platform) {
          request.log.warn({ platform }, 'connect callback without a matching trip from this browser; refused');
          return problemPage(
            reply,
            400,
            'This sign-in could not be confirmed',
            'It did not start from your connect link in this browser. Open your connect link again and choose a platform.',
          );
        }
        const { link, attempt } = found;
        if (linkIsOver(link)) return fail(reply, link, 'expired');
        if (callback.outcome === 'denied') return fail(reply, link, 'access_denied');

        let grants: AccountGrant[];
        try {
          const tokens = await adapter.exchangeCode(callback.code, callbackUrl(request, platform));
          const scopes = tokens.scopes;
          if (adapter.scopes.required.some((scope) => !scopes.includes(scope)))
            return fail(reply, link, 'permission_missing');
          const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
          if (adapter.grantsPages) {
            const pages = await adapter.pages(credentials);
            if (pages.length === 0) return fail(reply, link, 'permission_missing');
            await holdPages(db, secretKey, attempt.id, {
              scopes,
              pages: pages.map((p) => ({ id: p.id, name: p.name, accessToken: p.accessToken })),
            });
            return seeOther(reply, `${linkPageUrl(trip.token)}/pages`);
          }
          grants = [{ tokens: { ...tokens, scopes }, profile: await adapter.profile(credentials) }];
        } catch (error) {
          return platformTrouble(reply, request.log, link, platform, trip.token, error);
        }
        return await finish(reply, request.log, link, platform, grants);
      },
    );

    app.get<{ Params: { token: string } }>(
      '/connect/:token/pages',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const link = await linkOf(token);
        if (!link) return unknownLink(reply);
        if (linkIsOver(link)) return fail(reply, link, 'expired');
        const pending = await pendingChoice(request, link);
        if (!pending) return seeOther(reply, linkPageUrl(token));
        return choosePage(reply, link, token, pending.held.pages, await brandNameOf(db, link.ownerId));
      },
    );

    app.post<{ Params: { token: string } }>(
      '/connect/:token/pages',
      { schema: { hide: true } },
      async (request, reply) => {
        const { token } = request.params;
        const link = await linkOf(token);
        if (!link) return unknownLink(reply);
        if (linkIsOver(link)) return fail(reply, link, 'expired');
        const pending = await pendingChoice(request, link);
        if (!pending) return seeOther(reply, linkPageUrl(token));
        const { attempt, held } = pending;
        const form = (request.body ?? {}) as Record<string, unknown>;
        if (field(form.decision) === 'cancel') return fail(reply, link, 'access_denied');
        const chosen = new Set(fields(form.pages));
        const pages = held.pages.filter((p) => chosen.has(p.id));
        if (pages.length === 0) {
          return choosePage(
            reply,
            link,
            token,
            held.pages,
            await brandNameOf(db, link.ownerId),
            'Choose at least one page.',
          );
        }
        const platform = attempt.platform as Platform;
        const adapter = platforms().adapter(platform);
        let grants: AccountGrant[];
        try {
          grants = await Promise.all(
            pages.map(async (page) => ({
              tokens: { accessToken: page.accessToken, expiresAt: null, platformUserId: page.id, scopes: held.scopes },
              profile: await adapter.profile({ platformUserId: page.id, accessToken: page.accessToken }),
            })),
          );
        } catch (error) {
          return platformTrouble(reply, request.log, link, platform, token, error);
        }
        return await finish(reply, request.log, link, platform, grants);
      },
    );
  };
}
