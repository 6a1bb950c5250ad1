/**
 * Pinterest's OAuth 2.0: the permission page (www.pinterest.com/oauth/) and the token endpoint
 * (api.pinterest.com/v5/oauth/token, the app's id and secret as Basic authentication). An access
 * token lives 30 days; the continuous refresh token 60 days, and each refresh answers a new one
 * of 60 days, the one used no longer working ("Generate OAuth access token").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxAnswer } from '../answers.ts';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf } from '../kit.ts';
import type { Store } from '../platform.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { claimToken, findToken, issueToken, redeemCode } from '../store/grants.ts';
import { platform } from './access.ts';
import { pinterest, pinterestAnswer } from './answers.ts';

/** Pinterest states no code lifetime: the sandbox gives 10 minutes. */
const CODE_TTL_MS = 10 * 60_000;
export const ACCESS_TOKEN_SECONDS = 30 * 86_400;
export const REFRESH_TOKEN_SECONDS = 60 * 86_400;

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') throw pinterestAnswer(400, `Missing request parameter: ${name}`);
  return value;
}

/** The app `Authorization: Basic` names; without one the token endpoint refuses the call. */
function basicClient(request: FastifyRequest): string {
  const auth = request.headers.authorization ?? '';
  const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) throw pinterestAnswer(401, 'Authentication failed.');
  return decoded.slice(0, colon);
}

const invalidGrant = (what: string): SandboxAnswer => pinterestAnswer(400, `Invalid ${what}.`);

export function permissionPage(app: FastifyInstance, store: Store): void {
  registerAuthorizeDialog(app, '/oauth/', store, {
    platform,
    label: 'Pinterest (sandbox): give access',
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    withPages: false,
    success: (uri, { code, state }) => withParams(uri, { code, state }),
    cancel: (uri, state) => withParams(uri, { error: 'access_denied', state }),
  });
}

async function tokenAnswer(
  store: Store,
  grant: { accountId: string; clientId: string; scopes: string[] },
  responseType: 'authorization_code' | 'refresh_token',
) {
  const common = { platform, accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes };
  const access = await issueToken(store, { ...common, kind: 'long', prefix: 'pina_' }, ACCESS_TOKEN_SECONDS * 1000);
  const refresh = await issueToken(
    store,
    { ...common, kind: 'refresh', prefix: 'pinr_' },
    REFRESH_TOKEN_SECONDS * 1000,
  );
  const expiresAt = Math.floor(store.now().getTime() / 1000) + REFRESH_TOKEN_SECONDS;
  return {
    access_token: access.token,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    scope: grant.scopes.join(','),
    refresh_token: refresh.token,
    refresh_token_expires_in: REFRESH_TOKEN_SECONDS,
    refresh_token_expires_at: expiresAt,
    response_type: responseType,
  };
}

export function tokenRoutes(app: FastifyInstance, store: Store): void {
  app.post('/v5/oauth/token', async (request) => {
    const clientId = basicClient(request);
    const form = formOf(request);
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code') {
      const grant = await redeemCode(store, {
        platform,
        code: formString(form, 'code'),
        clientId,
        redirectUri: formString(form, 'redirect_uri'),
      });
      if (!grant) throw invalidGrant('authorization code');
      return tokenAnswer(store, grant, 'authorization_code');
    }
    if (grantType === 'refresh_token') {
      const refreshToken = formString(form, 'refresh_token');
      const found = await findToken(store, refreshToken);
      if (found && found.token.platform === platform && found.token.clientId === clientId) {
        // A refused refresh leaves the refresh token working.
        await answerWaitingFault(store, [found.account.id], ['refresh'], (preset) => pinterest.preset(preset));
      }
      // The continuous refresh token is replaced by the one answered: a second use is refused.
      const old = await claimToken(store, { token: refreshToken, platform, kind: 'refresh', clientId });
      if (!old) throw invalidGrant('refresh token');
      return tokenAnswer(store, old, 'refresh_token');
    }
    throw pinterestAnswer(400, `Unsupported grant_type: ${grantType}`);
  });
}
