/**
 * The entryway's OAuth authorization server, as the AT Protocol's OAuth profile describes it:
 * its metadata (RFC 8414); pushed authorization requests only (RFC 9126), each with PKCE S256 and
 * a DPoP proof, from a client identified by the URL of its metadata document, which the server
 * fetches (its redirect URIs, `dpop_bound_access_tokens`, `token_endpoint_auth_method: none`);
 * the permission page for a pushed request's URI; the callback carrying `iss` (RFC 9207); the
 * token endpoint (the code's PKCE verifier and its DPoP key checked; access tokens of an hour
 * bound to that key; refresh tokens rotating on each use, a public client's lasting two weeks);
 * revocation (RFC 7009).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { request as httpRequest } from 'undici';
import { registerAuthorizeDialog, withParams } from '../authorize-page.ts';
import { formOf } from '../kit.ts';
import type { Store } from '../platform.ts';
import { answerWaitingFault } from '../store/faults.ts';
import { claimToken, findToken, issueToken, redeemCode, revokeAppGrant } from '../store/grants.ts';
import { HOST, ISSUER, oauthAnswer, platform } from './access.ts';
import type { DpopServer } from './dpop.ts';

const PAR_TTL_MS = 299_000;
const CODE_TTL_MS = 5 * 60_000;
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 14 * 86_400;

interface Pushed {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  challenge: string;
  jkt: string;
  loginHint: string | null;
  expiresAt: number;
}

/** What a pushed request and its code carry between the server's endpoints (in this process: they live minutes). */
export interface OAuthState {
  pushed: Map<string, Pushed>;
  codes: Map<string, { challenge: string; jkt: string }>;
}

/**
 * A sandbox token belongs to a client and the DPoP key it is bound to: both kept in the token's
 * client, `<client_id> <jkt>`, so a restart keeps the binding.
 */
const bound = (clientId: string, jkt: string) => `${clientId} ${jkt}`;
export function boundKey(clientField: string): string {
  return clientField.slice(clientField.lastIndexOf(' ') + 1);
}

function formString(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (typeof value !== 'string' || value === '') throw oauthAnswer(400, 'invalid_request', `Missing ${name}`);
  return value;
}

/** The client's metadata document, fetched from its id (the sandbox takes http as well as https). */
async function clientMetadata(clientId: string): Promise<Record<string, unknown>> {
  const invalid = (why: string) => oauthAnswer(400, 'invalid_client', `Invalid client metadata: ${why}`);
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw invalid('client_id must be the URL of its metadata document');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('client_id must be an http(s) URL');
  try {
    const response = await httpRequest(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
    const doc = JSON.parse(text) as Record<string, unknown>;
    if (doc.client_id !== clientId) throw new Error('the document names another client_id');
    return doc;
  } catch (error) {
    if (error instanceof Error && error.name === 'SandboxAnswer') throw error;
    throw invalid(`could not be read from ${clientId} (${(error as Error).message})`);
  }
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function oauthRefusal(error: 'use_dpop_nonce' | 'invalid_dpop_proof', description: string, nonce: string) {
  return oauthAnswer(400, error, description, { 'dpop-nonce': nonce });
}

/** The protocol URL of a request to the entryway. */
const entrywayUrl = (path: string) => `https://${HOST.entryway}${path}`;

export function oauthRoutes(app: FastifyInstance, store: Store, dpop: DpopServer, state: OAuthState): void {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('dpop-nonce', dpop.nonce());
  });

  app.get('/.well-known/oauth-authorization-server', async () => ({
    issuer: ISSUER,
    pushed_authorization_request_endpoint: `${ISSUER}/oauth/par`,
    require_pushed_authorization_requests: true,
    authorization_endpoint: `${ISSUER}/oauth/authorize`,
    token_endpoint: `${ISSUER}/oauth/token`,
    revocation_endpoint: `${ISSUER}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    dpop_signing_alg_values_supported: ['ES256'],
    scopes_supported: ['atproto', 'transition:generic', 'transition:chat.bsky', 'transition:email'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  }));

  app.post('/oauth/par', async (request, reply) => {
    const jkt = await dpop.check(request, entrywayUrl('/oauth/par'), oauthRefusal);
    const form = formOf(request);
    const clientId = formString(form, 'client_id');
    const metadata = await clientMetadata(clientId);
    const redirectUri = formString(form, 'redirect_uri');
    if (!Array.isArray(metadata.redirect_uris) || !metadata.redirect_uris.includes(redirectUri)) {
      throw oauthAnswer(400, 'invalid_request', 'Invalid redirect_uri');
    }
    if (metadata.dpop_bound_access_tokens !== true || metadata.token_endpoint_auth_method !== 'none') {
      throw oauthAnswer(400, 'invalid_client', 'The sandbox takes public clients with DPoP-bound tokens');
    }
    if (formString(form, 'response_type') !== 'code') throw oauthAnswer(400, 'unsupported_response_type', 'code only');
    if (formString(form, 'code_challenge_method') !== 'S256') throw oauthAnswer(400, 'invalid_request', 'S256 only');
    const scope = formString(form, 'scope');
    if (!scope.split(' ').includes('atproto')) throw oauthAnswer(400, 'invalid_scope', 'The atproto scope is required');
    const requestUri = `urn:ietf:params:oauth:request_uri:req-${randomBytes(16).toString('hex')}`;
    state.pushed.set(requestUri, {
      clientId,
      redirectUri,
      scope,
      state: formString(form, 'state'),
      challenge: formString(form, 'code_challenge'),
      jkt,
      loginHint: typeof form.login_hint === 'string' ? form.login_hint : null,
      expiresAt: store.now().getTime() + PAR_TTL_MS,
    });
    return reply.code(201).send({ request_uri: requestUri, expires_in: PAR_TTL_MS / 1000 });
  });

  // The authorization endpoint takes only a pushed request's URI: it shows that request's dialog.
  app.get('/oauth/authorize', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const requestUri = typeof query.request_uri === 'string' ? query.request_uri : '';
    const pushed = state.pushed.get(requestUri);
    if (pushed === undefined || pushed.expiresAt < store.now().getTime() || pushed.clientId !== query.client_id) {
      return reply.code(400).type('text/plain').send('This authorization request is unknown or has expired.');
    }
    return reply
      .code(303)
      .header(
        'location',
        withParams(new URL(`${request.url.split('?')[0]}/dialog`, 'http://sandbox.invalid'), {
          client_id: pushed.clientId,
          redirect_uri: pushed.redirectUri,
          scope: pushed.scope,
          state: pushed.state,
          request_uri: requestUri,
        }).replace('http://sandbox.invalid', ''),
      )
      .send();
  });

  registerAuthorizeDialog(app, '/oauth/authorize/dialog', store, {
    platform,
    label: 'Bluesky (sandbox): authorize app',
    clientParam: 'client_id',
    codeTtlMs: CODE_TTL_MS,
    withPages: false,
    carried: ['request_uri'],
    success: (uri, { code, state: tripState, carried }) => {
      const pushed = state.pushed.get(carried.request_uri ?? '');
      state.pushed.delete(carried.request_uri ?? '');
      // A code for a request the server no longer holds (or a form changed since) carries nothing to check: refused at the token endpoint.
      if (pushed !== undefined && pushed.redirectUri === uri.toString() && pushed.state === tripState) {
        state.codes.set(code, { challenge: pushed.challenge, jkt: pushed.jkt });
      }
      return withParams(uri, { code, state: tripState, iss: ISSUER });
    },
    cancel: (uri, tripState) =>
      withParams(uri, { error: 'access_denied', error_description: 'Access denied', state: tripState, iss: ISSUER }),
  });

  async function tokenAnswer(grant: { accountId: string; clientId: string; scopes: string[] }, jkt: string) {
    const common = { platform, accountId: grant.accountId, clientId: bound(grant.clientId, jkt), scopes: grant.scopes };
    const access = await issueToken(
      store,
      { ...common, kind: 'long', prefix: 'bsky-at-' },
      ACCESS_TOKEN_SECONDS * 1000,
    );
    const refresh = await issueToken(
      store,
      { ...common, kind: 'refresh', prefix: 'bsky-rt-' },
      REFRESH_TOKEN_SECONDS * 1000,
    );
    return {
      access_token: access.token,
      token_type: 'DPoP',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refresh.token,
      scope: grant.scopes.join(' '),
      sub: grant.accountId,
    };
  }

  app.post('/oauth/token', async (request: FastifyRequest) => {
    const jkt = await dpop.check(request, entrywayUrl('/oauth/token'), oauthRefusal);
    const form = formOf(request);
    const clientId = formString(form, 'client_id');
    const grantType = formString(form, 'grant_type');
    if (grantType === 'authorization_code') {
      const code = formString(form, 'code');
      const bindings = state.codes.get(code);
      state.codes.delete(code);
      const grant = await redeemCode(store, {
        platform,
        code,
        clientId,
        redirectUri: formString(form, 'redirect_uri'),
      });
      if (grant === null || bindings === undefined) throw oauthAnswer(400, 'invalid_grant', 'Invalid code');
      if (s256(formString(form, 'code_verifier')) !== bindings.challenge) {
        throw oauthAnswer(400, 'invalid_grant', 'Invalid code_verifier');
      }
      if (bindings.jkt !== jkt) throw oauthAnswer(400, 'invalid_dpop_proof', 'DPoP key mismatch');
      return await tokenAnswer({ ...grant, clientId }, jkt);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = formString(form, 'refresh_token');
      const found = await findToken(store, refreshToken);
      if (found !== null && found.token.platform === platform) {
        await answerWaitingFault(store, [found.account.id], ['refresh'], (preset) =>
          preset === 'transient'
            ? oauthAnswer(503, 'temporarily_unavailable', 'Try again later')
            : oauthAnswer(400, 'invalid_grant', 'Invalid refresh token'),
        );
      }
      // Bound to the client and the key it was issued with; used once.
      const old = await claimToken(store, {
        token: refreshToken,
        platform,
        kind: 'refresh',
        clientId: bound(clientId, jkt),
      });
      if (!old) throw oauthAnswer(400, 'invalid_grant', 'Invalid refresh token');
      return await tokenAnswer({ accountId: old.accountId, clientId, scopes: old.scopes }, jkt);
    }
    throw oauthAnswer(400, 'unsupported_grant_type', 'Unsupported grant_type');
  });

  app.post('/oauth/revoke', async (request) => {
    const jkt = await dpop.check(request, entrywayUrl('/oauth/revoke'), oauthRefusal);
    const form = formOf(request);
    // Revoking a token ends the session it belongs to: every token of that grant.
    await revokeAppGrant(store, {
      token: formString(form, 'token'),
      platform,
      clientId: bound(formString(form, 'client_id'), jkt),
    });
    return {};
  });
}
