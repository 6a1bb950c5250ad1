/**
 * X's OAuth 2.0 Authorization Code Flow with PKCE: the permission page (x.com/i/oauth2/authorize,
 * which requires `code_challenge` and `code_challenge_method`), the token endpoint
 * (api.x.com/2/oauth2/token: a confidential client authenticates with Basic authentication, the
 * code exchange checks the code verifier against the challenge), the refresh (each answers a new
 * refresh token, the one used stops working) and revoking (api.x.com/2/oauth2/revoke).
 * Access tokens live two hours.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FaultPreset, SandboxAnswer } from '../answers.ts';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf } from '../kit.ts';
import type { Store } from '../platform.ts';
import { recordActivity } from '../store/activity.ts';
import { countAppUse, findApp, registerApp, type SandboxApp } from '../store/apps.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { claimToken, findToken, issueToken, redeemCode, revokeAppGrant } from '../store/grants.ts';
import { platform, SCOPE } from './access.ts';
import { rateLimited, xOAuthAnswer } from './answers.ts';

/** "the authorization code ... is only valid for 30 seconds": not confirmed in X's pages; the sandbox gives 10 minutes. */
const CODE_TTL_MS = 10 * 60_000;
/** "the access token ... will only stay valid for two hours". */
export const ACCESS_TOKEN_SECONDS = 2 * 3600;
/** X states no lifetime of a refresh token: the sandbox ends one unused for six months. */
const REFRESH_TOKEN_SECONDS = 180 * 86_400;

/** The PKCE challenges of the codes issued, by code (kept in this process: a code lives minutes). */
type Challenges = Map<string, { challenge: string; method: string }>;

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') {
    throw xOAuthAnswer(400, 'invalid_request', `Missing required parameter [${name}].`);
  }
  return value;
}

/** What X answers a code or refresh token already used, expired or revoked. */
const invalidToken = () => xOAuthAnswer(400, 'invalid_request', 'Value passed for the token was invalid.');

function oauthFault(preset: FaultPreset, now: Date): SandboxAnswer {
  switch (preset) {
    case 'token_expired':
    case 'access_revoked':
      return invalidToken();
    case 'permission_missing':
      return xOAuthAnswer(400, 'invalid_scope', 'The requested scope is invalid.');
    case 'rate_limited':
      return rateLimited(now, 900);
    case 'transient':
      return xOAuthAnswer(503, 'temporarily_unavailable', 'The service is temporarily unavailable.');
    case 'invalid_request':
      return xOAuthAnswer(400, 'invalid_request', 'The request is invalid.');
  }
}

/**
 * The app every sandbox knows without registering it: the one the service uses when no X
 * credentials are set. Others are registered through the control API (`POST /apps`), as an
 * app is created in X's developer portal before X knows its client id.
 */
const DEFAULT_APP = { clientId: 'switchboard-sandbox', clientSecret: 'switchboard-sandbox-secret' };

/** The registered app `clientId` (the default one registered at its first use). */
async function knownApp(store: Store, clientId: string): Promise<SandboxApp | undefined> {
  const found = await findApp(store, platform, clientId);
  if (found !== undefined || clientId !== DEFAULT_APP.clientId) return found;
  await registerApp(store, platform, DEFAULT_APP.clientId, DEFAULT_APP.clientSecret);
  return await findApp(store, platform, clientId);
}

/** RFC 6749 2.3.1: the id and secret are form-encoded before Basic; a malformed one is no credential. */
function formDecoded(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return '';
  }
}

/**
 * The client a confidential client's `Authorization: Basic` names, its secret present (else X's
 * 401 `unauthorized_client`) and matching the app's (else 401 `invalid_client`, RFC 6749 5.2's
 * answer to a failed client authentication: an unknown client id or a wrong secret).
 */
async function basicClient(store: Store, request: FastifyRequest): Promise<string> {
  const auth = request.headers.authorization ?? '';
  const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = colon > 0 ? formDecoded(decoded.slice(0, colon)) : '';
  const secret = colon > 0 ? formDecoded(decoded.slice(colon + 1)) : '';
  if (clientId === '' || secret === '') {
    throw xOAuthAnswer(401, 'unauthorized_client', 'Missing valid authorization header');
  }
  const app = await knownApp(store, clientId);
  if (app === undefined || app.clientSecret !== secret) {
    throw xOAuthAnswer(401, 'invalid_client', 'Client authentication failed.');
  }
  return clientId;
}

/** RFC 7636: S256 is BASE64URL(SHA256(verifier)); plain is the verifier itself. */
function verifierMatches(verifier: string, { challenge, method }: { challenge: string; method: string }): boolean {
  const derived = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return derived === challenge;
}

export function permissionPage(app: FastifyInstance, store: Store, challenges: Challenges): void {
  registerAuthorizeDialog(app, '/i/oauth2/authorize', store, {
    platform,
    label: 'X (sandbox): authorize app',
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    withPages: false,
    carried: ['code_challenge', 'code_challenge_method'],
    success: (uri, { code, state, carried }) => {
      challenges.set(code, {
        challenge: carried.code_challenge ?? '',
        method: carried.code_challenge_method ?? 'plain',
      });
      return withParams(uri, { state, code });
    },
    cancel: (uri, state) => withParams(uri, { error: 'access_denied', state }),
    // X's page for a client id it does not know.
    unknownClient: async (clientId) =>
      (await knownApp(store, clientId)) === undefined
        ? "Something went wrong. You weren't able to give access to the App. Go back and try logging in again."
        : null,
    granted: (clientId) => countAppUse(store, platform, clientId, 'authorize'),
  });
}

async function tokenAnswer(store: Store, grant: { accountId: string; clientId: string; scopes: string[] }) {
  const common = { platform, accountId: grant.accountId, clientId: grant.clientId, scopes: grant.scopes };
  const access = await issueToken(store, { ...common, kind: 'long', prefix: 'xat-' }, ACCESS_TOKEN_SECONDS * 1000);
  // Only a grant with offline.access has a refresh token.
  const refresh = grant.scopes.includes(SCOPE.offlineAccess)
    ? await issueToken(store, { ...common, kind: 'refresh', prefix: 'xrt-' }, REFRESH_TOKEN_SECONDS * 1000)
    : null;
  return {
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    access_token: access.token,
    scope: grant.scopes.join(' '),
    ...(refresh === null ? {} : { refresh_token: refresh.token }),
  };
}

export function tokenRoutes(app: FastifyInstance, store: Store, challenges: Challenges): void {
  app.post('/2/oauth2/token', async (request) => {
    const clientId = await basicClient(store, request);
    const form = formOf(request);
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code' || grantType === 'refresh_token') {
      await countAppUse(store, platform, clientId, grantType);
    }
    if (grantType === 'authorization_code') {
      const code = formString(form, 'code');
      const verifier = formString(form, 'code_verifier');
      const challenge = challenges.get(code);
      const grant = await redeemCode(store, {
        platform,
        code,
        clientId,
        redirectUri: formString(form, 'redirect_uri'),
      });
      challenges.delete(code);
      if (!grant || challenge === undefined || !verifierMatches(verifier, challenge)) throw invalidToken();
      return tokenAnswer(store, grant);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = formString(form, 'refresh_token');
      const found = await findToken(store, refreshToken);
      if (found && found.token.platform === platform && found.token.clientId === clientId) {
        // A refused refresh leaves the refresh token working.
        await answerWaitingFault(store, [found.account.id], ['refresh'], (preset) => oauthFault(preset, store.now()));
      }
      // The refresh token is used up: a second use of it is refused.
      const old = await claimToken(store, { token: refreshToken, platform, kind: 'refresh', clientId });
      if (!old) throw invalidToken();
      return tokenAnswer(store, old);
    }
    throw xOAuthAnswer(400, 'invalid_request', 'Value passed for the grant type was invalid.');
  });

  app.post('/2/oauth2/revoke', async (request) => {
    const clientId = await basicClient(store, request);
    await countAppUse(store, platform, clientId, 'revoke');
    const token = formString(formOf(request), 'token');
    // Revoking a token disconnects the app from the user: every token of that grant ends.
    const revoked = await revokeAppGrant(store, { token, platform, clientId });
    if (revoked !== null && revoked.ended > 0) {
      await recordActivity(store, {
        accountId: revoked.accountId,
        action: 'revoke',
        targetId: revoked.accountId,
        detail: { client_id: clientId, tokens: revoked.ended },
      });
    }
    return { revoked: true };
  });
}
