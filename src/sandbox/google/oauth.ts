/**
 * Google's OAuth 2.0 for web server applications, for a Google platform of the sandbox: the
 * consent page (accounts.google.com/o/oauth2/v2/auth) and the token endpoint
 * (oauth2.googleapis.com/token), with Google's lifetimes: an access token of an hour
 * (`expires_in` 3599), a refresh token given only for `access_type=offline` that does not
 * expire on a date, and `invalid_grant` for a code or refresh token that is used, expired or revoked.
 */
import type { FastifyInstance } from 'fastify';
import { type FaultPreset, faultAnswer, type SandboxAnswer } from '../answers.ts';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf } from '../kit.ts';
import type { Store } from '../platform.ts';
import { takeFault } from '../store/faults.ts';
import { findLiveRefreshToken, issueToken, redeemCode } from '../store/grants.ts';
import { googleOAuthAnswer } from './answers.ts';

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

/** The consent page of `platform`, on accounts.google.com; `label` as the page shows it. */
export function googleConsentPage(app: FastifyInstance, store: Store, platform: string, label: string): void {
  registerAuthorizeDialog(app, '/o/oauth2/v2/auth', store, {
    platform,
    label: `${label} (sandbox): allow access`,
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    // The user grants the app; the channels it reaches are those the user owns.
    withPages: false,
    success: (uri, { code, state, scopes }) => withParams(uri, { state, code, scope: scopes.join(' ') }),
    cancel: (uri, state) => withParams(uri, { error: 'access_denied', state }),
  });
}

/**
 * The token endpoint of `platform`, on oauth2.googleapis.com. A code's exchange always gives a
 * refresh token: the consent page does not keep whether `access_type=offline` was asked (the
 * service always asks it).
 */
export function googleTokenRoutes(app: FastifyInstance, store: Store, platform: string): void {
  app.post('/token', async (request) => {
    const form = formOf(request);
    const clientId = formString(form, 'client_id');
    formString(form, 'client_secret');
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code') {
      const code = formString(form, 'code');
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
      const found = await findLiveRefreshToken(store, refreshToken, { platform, clientId });
      if (!found) throw invalidGrant('Token has been expired or revoked.');
      const fault = await takeFault(store, [found.account.id], ['refresh']);
      const answer = fault && faultAnswer(fault, oauthFault);
      if (answer) throw answer;
      const access = await issueToken(
        store,
        { platform, accountId: found.account.id, clientId, scopes: found.token.scopes, kind: 'long', prefix: 'ya29.' },
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
