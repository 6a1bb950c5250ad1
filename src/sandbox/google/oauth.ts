/**
 * Google's OAuth 2.0 for web server applications, for every Google platform of the sandbox (one
 * consent page and one token endpoint, as Google has): the consent page
 * (accounts.google.com/o/oauth2/v2/auth), where the scopes asked choose the platform, and the
 * token endpoint (oauth2.googleapis.com/token), where the code or refresh token does, with Google's lifetimes: an access token of an hour
 * (`expires_in` 3599), a refresh token given only for `access_type=offline` that does not
 * expire on a date, and `invalid_grant` for a code or refresh token that is used, expired or revoked.
 */
import type { FastifyInstance } from 'fastify';
import type { FaultPreset, SandboxAnswer } from '../answers.ts';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf, installAnswers } from '../kit.ts';
import type { Store } from '../platform.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { findCode, findLiveRefreshToken, findToken, issueToken, redeemCode } from '../store/grants.ts';
import { google, googleOAuthAnswer } from './answers.ts';

/**
 * The Google platforms the sandbox imitates, as the consent page tells them apart: a request
 * asking Business Profile's scope is for Business Profile, any other for YouTube. (Google has one
 * user for both; the sandbox keeps a user per platform.)
 */
const BUSINESS_MANAGE = 'https://www.googleapis.com/auth/business.manage';
const GOOGLE_PLATFORMS = new Set(['youtube', 'google_business']);

function platformAsked(scopes: readonly string[]): { platform: string; label: string } {
  return scopes.includes(BUSINESS_MANAGE)
    ? { platform: 'google_business', label: 'Google Business Profile (sandbox): allow access' }
    : { platform: 'youtube', label: 'YouTube (sandbox): allow access' };
}

/** An access token's life: "expires_in": 3599 in Google's answers. */
const ACCESS_TOKEN_SECONDS = 3599;
/** How long a code may wait for its exchange: Google's pages give no figure (docs/platforms.md, Open questions). */
const CODE_TTL_MS = 10 * 60_000;

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') {
    throw googleOAuthAnswer(400, 'invalid_request', `Missing required parameter: ${name}`);
  }
  return value;
}

const invalidGrant = (description: string) => googleOAuthAnswer(400, 'invalid_grant', description);

function oauthFault(preset: FaultPreset): SandboxAnswer {
  switch (preset) {
    case 'token_expired':
    case 'access_revoked':
      return invalidGrant('Token has been expired or revoked.');
    case 'permission_missing':
      return googleOAuthAnswer(400, 'invalid_scope', 'Some requested scopes were invalid.');
    case 'rate_limited':
      return googleOAuthAnswer(429, 'rate_limit_exceeded', 'Rate limit exceeded.');
    case 'transient':
      return googleOAuthAnswer(503, 'temporarily_unavailable', 'The service is temporarily unavailable.');
    case 'invalid_request':
      return googleOAuthAnswer(400, 'invalid_request', 'The request is invalid.');
  }
}

/** The consent page, on accounts.google.com, of the platform the scopes asked choose. */
function googleConsentPage(app: FastifyInstance, store: Store): void {
  registerAuthorizeDialog(app, '/o/oauth2/v2/auth', store, {
    ...platformAsked([]),
    forScopes: platformAsked,
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    // The user grants the app; the channels or locations it reaches are those the user has.
    withPages: false,
    success: (uri, { code, state, scopes }) => withParams(uri, { state, code, scope: scopes.join(' ') }),
    cancel: (uri, state) => withParams(uri, { error: 'access_denied', state }),
  });
}

/** The Google platform a code or token was issued for; null for another platform's or an unknown one. */
const googlePlatform = (issuedFor: string | undefined) =>
  issuedFor !== undefined && GOOGLE_PLATFORMS.has(issuedFor) ? issuedFor : null;

/**
 * The token endpoint, on oauth2.googleapis.com, for the platform the code or refresh token was
 * issued for. A code's exchange always gives a refresh token: the consent page does not keep
 * whether `access_type=offline` was asked (the service always asks it).
 */
function googleTokenRoutes(app: FastifyInstance, store: Store): void {
  app.post('/token', async (request) => {
    const form = formOf(request);
    const clientId = formString(form, 'client_id');
    formString(form, 'client_secret');
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code') {
      const code = formString(form, 'code');
      const platform = googlePlatform((await findCode(store, code))?.platform);
      if (platform === null) throw invalidGrant('Bad Request');
      const grant = await redeemCode(store, {
        platform,
        code,
        clientId,
        redirectUri: formString(form, 'redirect_uri'),
      });
      // A used, expired or unknown code, or another app's or redirect's.
      if (!grant) throw invalidGrant('Bad Request');
      const common = { platform, accountId: grant.accountId, clientId, scopes: grant.scopes };
      const access = await issueToken(store, { ...common, kind: 'long', prefix: 'ya29.' }, ACCESS_TOKEN_SECONDS * 1000);
      // A refresh token ends when the user revokes it, or after six months unused: no date to give.
      const refresh = await issueToken(store, { ...common, kind: 'refresh', prefix: '1//' }, null);
      return {
        access_token: access.token,
        expires_in: ACCESS_TOKEN_SECONDS,
        refresh_token: refresh.token,
        scope: grant.scopes.join(' '),
        token_type: 'Bearer',
      };
    }
    if (grantType === 'refresh_token') {
      const refreshToken = formString(form, 'refresh_token');
      const platform = googlePlatform((await findToken(store, refreshToken))?.token.platform);
      const found = platform === null ? null : await findLiveRefreshToken(store, refreshToken, { platform, clientId });
      if (!found) throw invalidGrant('Token has been expired or revoked.');
      await answerWaitingFault(store, [found.account.id], ['refresh'], oauthFault);
      const access = await issueToken(
        store,
        {
          platform: found.token.platform,
          accountId: found.account.id,
          clientId,
          scopes: found.token.scopes,
          kind: 'long',
          prefix: 'ya29.',
        },
        ACCESS_TOKEN_SECONDS * 1000,
      );
      // No refresh_token in a refresh's answer: the one held stays.
      return {
        access_token: access.token,
        expires_in: ACCESS_TOKEN_SECONDS,
        scope: found.token.scopes.join(' '),
        token_type: 'Bearer',
      };
    }
    throw googleOAuthAnswer(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  });
}

/**
 * Google's OAuth hosts, which every Google platform of the sandbox declares alike (the sandbox
 * serves a host once): the consent page and the token endpoint.
 */
export function googleOAuthHosts(store: Store): Record<string, (host: FastifyInstance) => void> {
  return {
    'accounts.google.com': (app) => {
      installAnswers(app, google);
      googleConsentPage(app, store);
    },
    'oauth2.googleapis.com': (app) => {
      installAnswers(app, google);
      googleTokenRoutes(app, store);
    },
  };
}
