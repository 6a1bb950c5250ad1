/**
 * TikTok's Login Kit: the permission page (www.tiktok.com), and the token endpoints
 * (open.tiktokapis.com): the code exchange, the rotating refresh token, revoking a grant.
 * OAuth answers are flat, errors `{error, error_description, log_id}` with HTTP 400.
 */
import type { FastifyInstance } from 'fastify';
import type { FaultPreset, SandboxAnswer } from '../answers.ts';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf } from '../kit.ts';
import type { Store } from '../platform.ts';
import { recordActivity } from '../store/activity.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { claimToken, findToken, issueToken, redeemCode, revokeAppGrant } from '../store/grants.ts';
import { platform } from './access.ts';
import { tiktokOAuthAnswer } from './envelope.ts';

const CODE_TTL_MS = 10 * 60_000;
// "Token lifetimes": access token 2 hours, refresh token 180 days (Manage OAuth Access Tokens).
const ACCESS_TOKEN_SECONDS = 2 * 3600;
const REFRESH_TOKEN_SECONDS = 180 * 86_400;

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') {
    throw tiktokOAuthAnswer(400, 'invalid_request', `The request parameter ${name} is missing.`);
  }
  return value;
}

function invalidGrant(what: string): SandboxAnswer {
  return tiktokOAuthAnswer(400, 'invalid_grant', `${what} is expired, already used, revoked, or not issued to you.`);
}

/** A preset fault as the token endpoint words it (its flat OAuth errors). */
function oauthFault(preset: FaultPreset): SandboxAnswer {
  switch (preset) {
    case 'token_expired':
    case 'access_revoked':
      return invalidGrant('The refresh token');
    case 'permission_missing':
      return tiktokOAuthAnswer(400, 'invalid_scope', 'The requested scope is invalid.');
    case 'rate_limited':
      return tiktokOAuthAnswer(429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    case 'transient':
      return tiktokOAuthAnswer(503, 'temporarily_unavailable', 'The server is temporarily unavailable.');
    case 'invalid_request':
      return tiktokOAuthAnswer(400, 'invalid_request', 'The request parameters are invalid.');
  }
}

/**
 * Refuses the refresh when the control API set a `refresh` fault on the token's user; checked
 * before the refresh token is used, so a refused refresh leaves it working.
 */
async function refreshFault(store: Store, refreshToken: string, clientKey: string): Promise<void> {
  const found = await findToken(store, refreshToken);
  if (!found || found.token.platform !== platform || found.token.clientId !== clientKey) return;
  await answerWaitingFault(store, [found.account.id], ['refresh'], oauthFault);
}

/** The access and refresh tokens of one grant, in the token endpoint's shape. */
async function tokenAnswer(
  store: Store,
  grant: { accountId: string; clientId: string; scopes: string[] },
  refreshTtlMs: number,
) {
  const common = { platform, accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes };
  const access = await issueToken(store, { ...common, kind: 'long', prefix: 'act.' }, ACCESS_TOKEN_SECONDS * 1000);
  const refresh = await issueToken(store, { ...common, kind: 'refresh', prefix: 'rft.' }, refreshTtlMs);
  return {
    open_id: grant.accountId,
    scope: grant.scopes.join(','),
    access_token: access.token,
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh.token,
    refresh_expires_in: Math.round(refreshTtlMs / 1000),
    token_type: 'Bearer',
  };
}

/**
 * Revoking one token disconnects the app: every token of that user for that client ends.
 * Recorded in the activity log when there was something to end.
 */
async function revokeGrant(store: Store, token: string, clientId: string): Promise<void> {
  const revoked = await revokeAppGrant(store, { token, platform, clientId });
  if (revoked === null || revoked.ended === 0) return;
  await recordActivity(store, {
    accountId: revoked.accountId,
    action: 'revoke',
    targetId: revoked.accountId,
    detail: { client_key: clientId, tokens: revoked.ended },
  });
}

/** www.tiktok.com: the permission page. */
export function permissionPage(app: FastifyInstance, store: Store): void {
  registerAuthorizeDialog(app, '/v2/auth/authorize/', store, {
    platform,
    label: 'TikTok (sandbox): allow access',
    clientParam: 'client_key',
    codeTtlMs: CODE_TTL_MS,
    withPages: false,
    success: (uri, { code, state, scopes }) => withParams(uri, { code, scopes: scopes.join(','), state }),
    cancel: (uri, state) =>
      withParams(uri, {
        error: 'access_denied',
        error_description: 'The user denied the authorization request.',
        state,
      }),
  });
}

/** open.tiktokapis.com: the code exchange and refresh, and revoking. */
export function tokenRoutes(app: FastifyInstance, store: Store): void {
  app.post('/v2/oauth/token/', async (request) => {
    const form = formOf(request);
    const clientKey = formString(form, 'client_key');
    formString(form, 'client_secret');
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code') {
      const grant = await redeemCode(store, {
        platform,
        code: formString(form, 'code'),
        clientId: clientKey,
        redirectUri: formString(form, 'redirect_uri'),
      });
      if (!grant) throw invalidGrant('The authorization code');
      return tokenAnswer(store, grant, REFRESH_TOKEN_SECONDS * 1000);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = formString(form, 'refresh_token');
      await refreshFault(store, refreshToken, clientKey);
      const old = await claimToken(store, {
        token: refreshToken,
        platform,
        kind: 'refresh',
        clientId: clientKey,
      });
      if (!old) throw invalidGrant('The refresh token');
      // A refresh token lives 180 days from the grant, and refresh_expires_in is "the remaining
      // lifetime": its successor keeps that end.
      const left = (old.expiresAt?.getTime() ?? 0) - store.now().getTime();
      return tokenAnswer(store, old, left);
    }
    throw tiktokOAuthAnswer(400, 'invalid_request', 'grant_type must be authorization_code or refresh_token.');
  });

  app.post('/v2/oauth/revoke/', async (request) => {
    const form = formOf(request);
    const clientKey = formString(form, 'client_key');
    formString(form, 'client_secret');
    await revokeGrant(store, formString(form, 'token'), clientKey);
    // As RFC 7009: an unknown or already revoked token is no error.
    return {};
  });
}
