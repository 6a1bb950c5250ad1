/**
 * The members' hosted pages: accepting an invitation, asking for a sign-in link, and signing in
 * with one. They work without JavaScript. A link's address only shows a button (a mail scanner
 * that opens the link spends nothing); the person's POST uses the link, makes the dashboard
 * session, sets its cookie and goes to the dashboard. Every form carries a CSRF token
 * (form-guard.ts): another site cannot sign a browser in as someone else.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Value } from 'typebox/value';
import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import { SESSION_COOKIE } from '../http/auth.ts';
import { EmailText, NameText } from '../http/schemas.ts';
import { SESSION_ABSOLUTE_MS, sessionCookieOptions } from '../http/session-lifetime.ts';
import { brandNameOf } from '../modules/connect/index.ts';
import {
  MEMBER_LINK_PATHS,
  PASSWORD_LENGTH,
  peekLink,
  requestSignInLinks,
  signInWithLink,
  signInWithPassword,
  TOKEN_LIFETIME_MS,
} from '../modules/members/index.ts';
import { field } from './form.ts';
import { formGuard } from './form-guard.ts';
import { invitationPage, linkSentPage, requestLinkPage, signInLinkPage } from './member-views.tsx';
import { type Page, sendPage, sendProblemPage } from './page.tsx';

type Purpose = 'invitation' | 'sign_in';

const PASSWORD_TEXT = NameText(PASSWORD_LENGTH.max, 'A password');

/** A password a member sets, as a form sends it: the problem with it, or undefined. */
function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    return `A password has ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`;
  }
  // The API's rule for single-line text: no control characters, no unpaired surrogate.
  if (!Value.Check(PASSWORD_TEXT, password)) {
    return 'A password holds no control characters.';
  }
  return undefined;
}

export function memberPages(deps: {
  db: Db;
  secretKey: Buffer;
  config: Pick<Config, 'publicUrl' | 'memberPasswords'>;
}): FastifyPluginAsync {
  const passwords = deps.config.memberPasswords;
  const guard = formGuard({
    secretKey: deps.secretKey,
    config: deps.config,
    cookie: 'sb_member_form',
    path: '/members',
    purpose: 'member-form',
    maxAgeMs: TOKEN_LIFETIME_MS.invitation,
    hostOnly: true,
  });

  const deadLink = (reply: FastifyReply, purpose: Purpose) =>
    sendProblemPage(
      reply,
      404,
      'This link does not work',
      purpose === 'invitation'
        ? 'The invitation was used already, has expired, or was never valid. Ask whoever invited you to send it again.'
        : 'The sign-in link was used already, has expired, or was never valid. Ask for a new one.',
      purpose === 'invitation' ? undefined : '/members/sign-in',
    );

  const refused = (reply: FastifyReply, retry: string) =>
    sendProblemPage(
      reply,
      403,
      'Your request could not be confirmed',
      'It did not come from this page in this browser. Open the page again and use its button.',
      retry,
    );

  /** A link's page: who it is for and from, and its button (with the form's problem, when refused). */
  async function linkPage(
    link: { email: string; ownerId: string },
    purpose: Purpose,
    token: string,
    csrf: string,
    error?: string,
  ): Promise<Page> {
    const view = {
      brand: (await brandNameOf(deps.db, link.ownerId)) || 'Switchboard',
      email: link.email,
      action: `${MEMBER_LINK_PATHS[purpose]}/${token}`,
      csrf,
      passwords,
      ...(error !== undefined ? { error } : {}),
    };
    const status = error === undefined ? 200 : 422;
    return purpose === 'invitation' ? invitationPage(view, status) : signInLinkPage(view, status);
  }

  function linkRoutes(app: Parameters<FastifyPluginAsync>[0], purpose: Purpose): void {
    const path = MEMBER_LINK_PATHS[purpose];
    app.get<{ Params: { token: string } }>(`${path}/:token`, { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const link = await peekLink(deps.db, token, purpose);
      if (!link) return deadLink(reply, purpose);
      return sendPage(reply, await linkPage(link, purpose, token, guard.issue(request, reply, token)));
    });

    app.post<{ Params: { token: string } }>(`${path}/:token`, { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const form = (request.body ?? {}) as Record<string, unknown>;
      const csrf = field(form.csrf);
      if (!guard.check(request, token, csrf)) return refused(reply, `${path}/${token}`);
      const password = passwords ? (field(form.password) ?? '') : '';
      const problem = password === '' ? undefined : passwordProblem(password);
      if (problem !== undefined) {
        const link = await peekLink(deps.db, token, purpose);
        if (!link) return deadLink(reply, purpose);
        return sendPage(reply, await linkPage(link, purpose, token, csrf ?? '', problem));
      }
      const signedIn = await signInWithLink(
        deps.db,
        token,
        purpose,
        password === '' ? undefined : { password, ip: request.ip },
      );
      if (!signedIn) return deadLink(reply, purpose);
      if ('kind' in signedIn) {
        request.log.warn({ ip: request.ip }, 'member passwords set too often; refused until the window ends');
        return tooMany(reply, signedIn.retryAfterMs, 'Passwords were set');
      }
      request.log.info(
        { member_id: signedIn.memberId, owner_id: signedIn.ownerId, sessionId: signedIn.session.id },
        purpose === 'invitation' ? 'member accepted an invitation and signed in' : 'member signed in with a link',
      );
      return startSession(reply, signedIn.session.token);
    });
  }

  /** Sets the new session's cookie and goes to the dashboard. */
  function startSession(reply: FastifyReply, token: string) {
    reply.setCookie(SESSION_COOKIE, token, {
      ...sessionCookieOptions(deps.config),
      maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
    });
    return reply.header('cache-control', 'no-store').redirect('/dashboard', 303);
  }

  function tooMany(reply: FastifyReply, retryAfterMs: number, what: string, forAddress = false) {
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
    return sendProblemPage(
      reply,
      429,
      'Too many sign-in attempts',
      `${what} too often${forAddress ? ', from here or for this address' : ' from here'}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }

  return async (app) => {
    await app.register(formbody);

    app.get('/members/sign-in', { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, requestLinkPage({ csrf: guard.issue(request, reply, 'sign-in'), passwords })),
    );

    app.post('/members/sign-in', { schema: { hide: true } }, async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const sent = field(form.csrf);
      if (!guard.check(request, 'sign-in', sent)) return refused(reply, '/members/sign-in');
      const email = (field(form.email) ?? '').trim();
      if (!Value.Check(EmailText, email)) {
        return sendPage(
          reply,
          requestLinkPage(
            { csrf: sent ?? '', passwords, email, error: 'Write an e-mail address, such as name@example.com.' },
            422,
          ),
        );
      }
      const outcome = await requestSignInLinks(deps.db, { email, ip: request.ip });
      if (outcome.kind === 'limited') {
        request.log.warn({ ip: request.ip }, 'sign-in links asked for too often; refused until the window ends');
        return tooMany(reply, outcome.retryAfterMs, 'Links were asked for');
      }
      return sendPage(reply, linkSentPage(email, TOKEN_LIFETIME_MS.sign_in / 60_000));
    });

    if (passwords) {
      app.post('/members/sign-in/password', { schema: { hide: true } }, async (request, reply) => {
        const form = (request.body ?? {}) as Record<string, unknown>;
        const sent = field(form.csrf);
        if (!guard.check(request, 'sign-in', sent)) return refused(reply, '/members/sign-in');
        const email = (field(form.email) ?? '').trim();
        const password = field(form.password) ?? '';
        const again = (status: number, passwordError: string) =>
          sendPage(reply, requestLinkPage({ csrf: sent ?? '', passwords, email, passwordError }, status));
        if (!Value.Check(EmailText, email) || password === '' || password.length > PASSWORD_LENGTH.max) {
          return again(422, 'Write your e-mail address and your password.');
        }
        const outcome = await signInWithPassword(deps.db, { email, password, ip: request.ip });
        if ('session' in outcome) {
          request.log.info(
            { member_id: outcome.memberId, owner_id: outcome.ownerId, sessionId: outcome.session.id },
            'member signed in with a password',
          );
          return startSession(reply, outcome.session.token);
        }
        if (outcome.kind === 'limited') {
          request.log.warn({ ip: request.ip }, 'member passwords tried too often; refused until the window ends');
          return tooMany(reply, outcome.retryAfterMs, 'Passwords were tried', true);
        }
        request.log.info({ ip: request.ip }, 'member sign-in with a password refused');
        return again(
          401,
          'The address or the password is wrong. Ask for a sign-in link instead, and set a new password on its page.',
        );
      });
    }

    linkRoutes(app, 'invitation');
    linkRoutes(app, 'sign_in');
  };
}
