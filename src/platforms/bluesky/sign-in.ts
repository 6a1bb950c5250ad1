/**
 * Signing in with Bluesky: AT Protocol OAuth ("OAuth" spec). The handle the client types is
 * resolved to its DID, PDS and authorization server (identity.ts); the request is pushed there
 * (PAR) with PKCE and a DPoP proof, and the browser goes to the server's page with the pushed
 * request's URI. The service is a public client: its client_id is the URL of the client metadata
 * document it serves. The trip's code verifier and DPoP key are derived from its state under the
 * app's secret, so nothing is kept between the page and the callback; the callback's `iss` names
 * the server, and the token's `sub` must resolve back to that same server.
 */
import { invalidRequest } from '../errors.ts';
import { type PlatformResponse, record, requiredText, str } from '../http.ts';
import { callbackOf, loginUrl, tokenExpiry } from '../sign-in.ts';
import { type GrantedTokenSet, type PlatformAdapter, PlatformError, type TokenSet } from '../types.ts';
import { type BlueskyContext, platform } from './api.ts';
import { codeChallenge, type DpopKey, tripCodeVerifier, tripDpopKey } from './dpop.ts';
import {
  accountOfHandle,
  authorizationServer,
  authorizationServerOf,
  identityOf,
  isDid,
  normalHandle,
} from './identity.ts';
import { BLUESKY_SCOPES } from './scopes.ts';
import { openSession, sealSession } from './session.ts';

/** The client metadata document's path at the service's address: its URL is the client's id. */
export const CLIENT_METADATA_PATH = '/oauth/bluesky/client-metadata.json';

function oauthError(response: PlatformResponse, what: string): PlatformError {
  const body = record(response.body);
  const code = str(body.error) ?? undefined;
  const message = `bluesky ${what} answered HTTP ${response.status}${code ? ` ${code}` : ''}: ${str(body.error_description) ?? ''}`;
  const detail = { platform, status: response.status, ...(code ? { code } : {}) } as const;
  if (response.status === 429) return new PlatformError('rate_limited', message, { ...detail, retryAfterSeconds: 60 });
  if (response.status >= 500) return new PlatformError('transient', message, detail);
  // A refresh token used, expired or revoked; a code used or expired.
  if (code === 'invalid_grant') return new PlatformError('token_expired', message, detail);
  return new PlatformError('invalid_request', message, detail);
}

export function blueskySignIn({
  api,
  options,
  now,
}: BlueskyContext): Pick<
  PlatformAdapter,
  | 'authorizeUrl'
  | 'pushAuthorization'
  | 'parseCallback'
  | 'exchangeCode'
  | 'refreshToken'
  | 'revokeAccess'
  | 'clientMetadata'
> {
  /** The client's id: the URL of its metadata document (BLUESKY_CLIENT_ID), or in the sandbox the service's own. */
  function clientId(): string {
    if (/^https?:\/\//.test(options.clientId)) return options.clientId;
    if (options.serviceUrl === undefined) {
      throw invalidRequest(platform, "the service's own URL is unknown, so its client metadata URL is too");
    }
    return `${options.serviceUrl.replace(/\/+$/, '')}${CLIENT_METADATA_PATH}`;
  }

  /** A token request (the code's exchange, a refresh), proved with the session's key. */
  async function token(
    tokenEndpoint: string,
    key: DpopKey,
    form: Record<string, string>,
  ): Promise<{ body: Record<string, unknown>; sub: string }> {
    const response = await api.dpop(key, {
      method: 'POST',
      url: tokenEndpoint,
      form: { ...form, client_id: clientId() },
    });
    if (response.status !== 200) throw oauthError(response, 'token endpoint');
    const body = record(response.body);
    if (str(body.token_type)?.toLowerCase() !== 'dpop') {
      throw new PlatformError('transient', 'bluesky answered a token that is not DPoP-bound', { platform });
    }
    const sub = requiredText(platform, body.sub, 'sub');
    if (!isDid(sub))
      throw new PlatformError('transient', `bluesky answered a sub that is no DID: ${sub}`, { platform });
    return { body, sub };
  }

  /** The token answer as the service keeps it; the sub's PDS must be served by `issuer` ("OAuth": the client verifies it). */
  async function tokenSet(body: Record<string, unknown>, sub: string, issuer: string, key: DpopKey) {
    const identity = await identityOf(api, sub);
    if ((await authorizationServerOf(api, identity.pds)) !== issuer) {
      throw invalidRequest(platform, `the account ${sub} is not served by the authorization server ${issuer}`);
    }
    const refreshToken = str(body.refresh_token);
    return {
      accessToken: sealSession({
        accessToken: requiredText(platform, body.access_token, 'access_token'),
        key,
        pds: identity.pds,
        issuer,
      }),
      expiresAt: tokenExpiry(now(), body.expires_in),
      // The spec bounds a public client's session; the server states no end of each refresh token.
      ...(refreshToken === null || refreshToken === '' ? {} : { refreshToken, refreshExpiresAt: null }),
      platformUserId: sub,
      scopes: (str(body.scope) ?? '').split(' ').filter((s) => s !== ''),
    };
  }

  return {
    authorizeUrl() {
      throw invalidRequest(platform, 'a sign-in starts from the handle (pushAuthorization)');
    },

    async pushAuthorization({ redirectUri, state, scopes, loginHint }) {
      const handle = normalHandle(loginHint ?? '');
      if (handle === null) throw invalidRequest(platform, 'enter a Bluesky handle, such as alice.bsky.social');
      const identity = await accountOfHandle(api, handle);
      const server = await authorizationServer(api, await authorizationServerOf(api, identity.pds));
      const response = await api.dpop(tripDpopKey(options.clientSecret, state), {
        method: 'POST',
        url: server.parEndpoint,
        form: {
          client_id: clientId(),
          response_type: 'code',
          redirect_uri: redirectUri,
          scope: (scopes ?? BLUESKY_SCOPES.requested).join(' '),
          state,
          code_challenge: codeChallenge(tripCodeVerifier(options.clientSecret, state)),
          code_challenge_method: 'S256',
          login_hint: handle,
        },
      });
      if (response.status !== 201 && response.status !== 200)
        throw oauthError(response, 'pushed authorization request');
      const requestUri = requiredText(platform, record(response.body).request_uri, 'request_uri');
      return loginUrl(api.webUrl(server.authorizationEndpoint), { client_id: clientId(), request_uri: requestUri });
    },

    parseCallback(query) {
      const callback = callbackOf(query);
      const issuer = str(query.iss);
      return callback.outcome === 'code' && issuer !== null ? { ...callback, issuer } : callback;
    },

    async exchangeCode(code, redirectUri, state, issuer): Promise<GrantedTokenSet> {
      if (state === undefined || issuer === undefined) {
        throw invalidRequest(platform, "Bluesky's code exchange needs the trip's state and the callback's iss");
      }
      const server = await authorizationServer(api, issuer);
      const key = tripDpopKey(options.clientSecret, state);
      const { body, sub } = await token(server.tokenEndpoint, key, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: tripCodeVerifier(options.clientSecret, state),
      });
      return await tokenSet(body, sub, server.issuer, key);
    },

    async refreshToken({ accessToken, refreshToken, platformUserId }): Promise<TokenSet> {
      if (refreshToken === undefined || refreshToken === '') {
        throw new PlatformError('token_expired', 'bluesky: the account holds no refresh token; reconnect it', {
          platform,
        });
      }
      const session = openSession(accessToken);
      const server = await authorizationServer(api, session.issuer);
      const { body, sub } = await token(server.tokenEndpoint, session.key, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
      if (sub !== platformUserId) {
        throw new PlatformError('token_expired', `bluesky refreshed the session of another account (${sub})`, {
          platform,
        });
      }
      const fresh = await tokenSet(body, sub, server.issuer, session.key);
      if (fresh.refreshToken === undefined) {
        // Refresh tokens rotate: the one used no longer works, so an answer without its successor leaves nothing.
        throw new PlatformError('transient', 'bluesky answered a refresh without a new refresh token', { platform });
      }
      return { ...fresh, scopes: fresh.scopes.length === 0 ? null : fresh.scopes };
    },

    async revokeAccess({ accessToken }) {
      const session = openSession(accessToken);
      const server = await authorizationServer(api, session.issuer);
      if (server.revocationEndpoint === null)
        throw invalidRequest(platform, 'the authorization server states no revocation endpoint');
      const response = await api.dpop(session.key, {
        method: 'POST',
        url: server.revocationEndpoint,
        form: { token: session.accessToken, client_id: clientId() },
      });
      if (response.status !== 200) throw oauthError(response, 'revocation endpoint');
    },

    clientMetadata(redirectUri) {
      const id = clientId();
      return {
        client_id: id,
        client_name: 'Switchboard',
        client_uri: new URL(id).origin,
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [redirectUri],
        scope: BLUESKY_SCOPES.requested.join(' '),
        token_endpoint_auth_method: 'none',
        dpop_bound_access_tokens: true,
      };
    },
  };
}
