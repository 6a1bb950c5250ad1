/**
 * LinkedIn's Authorization Code Flow: the permission page and the token endpoint
 * (www.linkedin.com/oauth/v2), with the documented lifetimes: an access token of 60 days, a
 * programmatic refresh token of 365 days whose end a refresh does not move.
 */
import type { FastifyInstance } from 'fastify';
import type { FaultPreset, SandboxAnswer } from '../answers.ts';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf } from '../kit.ts';
import type { Store } from '../platform.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { findLiveRefreshToken, issueToken, redeemCode } from '../store/grants.ts';
import { platform } from './access.ts';
import { linkedinOAuthAnswer } from './answers.ts';

/** "The authorization code must be exchanged for an access token within 30 minutes". */
const CODE_TTL_MS = 30 * 60_000;
/** "By default, access tokens are valid for 60 days and programmatic refresh tokens are valid for a year." */
export const ACCESS_TOKEN_SECONDS = 60 * 86_400;
export const REFRESH_TOKEN_SECONDS = 365 * 86_400;

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') {
    throw linkedinOAuthAnswer(400, 'invalid_request', `A required parameter "${name}" is missing`);
  }
  return value;
}

const invalidGrant = (what: string) =>
  linkedinOAuthAnswer(400, 'invalid_grant', `The provided ${what} is expired, revoked or invalid`);

function oauthFault(preset: FaultPreset): SandboxAnswer {
  switch (preset) {
    case 'token_expired':
    case 'access_revoked':
      return invalidGrant('refresh token');
    case 'permission_missing':
      return linkedinOAuthAnswer(400, 'invalid_scope', 'The requested permission scope is not valid');
    case 'rate_limited':
      return linkedinOAuthAnswer(429, 'too_many_requests', 'Too many requests');
    case 'transient':
      return linkedinOAuthAnswer(503, 'temporarily_unavailable', 'The service is temporarily unavailable');
    case 'invalid_request':
      return linkedinOAuthAnswer(400, 'invalid_request', 'The request is invalid');
  }
}

export function permissionPage(app: FastifyInstance, store: Store): void {
  registerAuthorizeDialog(app, '/oauth/v2/authorization', store, {
    platform,
    label: 'LinkedIn (sandbox): allow access',
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    // The member grants the app; the organizations it reaches are those the member administers.
    withPages: false,
    success: (uri, { code, state }) => withParams(uri, { code, state }),
    cancel: (uri, state) =>
      withParams(uri, {
        error: 'user_cancelled_authorize',
        error_description: 'The user cancelled the authorization',
        state,
      }),
  });
}

async function accessToken(store: Store, grant: { accountId: string; clientId: string; scopes: string[] }) {
  const common = { platform, accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes };
  return issueToken(store, { ...common, kind: 'long', prefix: 'AQV' }, ACCESS_TOKEN_SECONDS * 1000);
}

export function tokenRoutes(app: FastifyInstance, store: Store): void {
  app.post('/oauth/v2/accessToken', async (request) => {
    const form = formOf(request);
    const clientId = formString(form, 'client_id');
    formString(form, 'client_secret');
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code') {
      const grant = await redeemCode(store, {
        platform,
        code: formString(form, 'code'),
        clientId,
        redirectUri: formString(form, 'redirect_uri'),
      });
      if (!grant) throw invalidGrant('authorization code');
      const access = await accessToken(store, grant);
      const common = { platform, accountId: grant.accountId, clientId, scopes: grant.scopes };
      const refresh = await issueToken(
        store,
        { ...common, kind: 'refresh', prefix: 'AQX' },
        REFRESH_TOKEN_SECONDS * 1000,
      );
      return {
        access_token: access.token,
        expires_in: ACCESS_TOKEN_SECONDS,
        refresh_token: refresh.token,
        refresh_token_expires_in: REFRESH_TOKEN_SECONDS,
        scope: grant.scopes.join(','),
      };
    }
    if (grantType === 'refresh_token') {
      const refreshToken = formString(form, 'refresh_token');
      const found = await findLiveRefreshToken(store, refreshToken, { platform, clientId });
      if (!found) throw invalidGrant('refresh token');
      await answerWaitingFault(store, [found.account.id], ['refresh'], oauthFault);
      const access = await accessToken(store, found.token);
      // The refresh token is the same, its time to live counted from the member's consent.
      const now = store.now();
      const left = Math.round(((found.token.expiresAt?.getTime() ?? now.getTime()) - now.getTime()) / 1000);
      return {
        access_token: access.token,
        expires_in: Math.min(ACCESS_TOKEN_SECONDS, left),
        refresh_token: refreshToken,
        refresh_token_expires_in: left,
        scope: found.token.scopes.join(','),
      };
    }
    throw linkedinOAuthAnswer(
      400,
      'unsupported_grant_type',
      'The grant_type must be authorization_code or refresh_token',
    );
  });
}
