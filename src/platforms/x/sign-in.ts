/**
 * Signing in with X: OAuth 2.0 Authorization Code Flow with PKCE, the service a confidential
 * client (Basic authentication at the token endpoint), `offline.access` for a refresh token.
 * Access tokens live two hours; each refresh answers a new refresh token and the one used
 * stops working, so the new one is what the account keeps.
 */
import { createHash, createHmac } from 'node:crypto';
import { invalidRequest } from '../errors.ts';
import { requiredText, str } from '../http.ts';
import { callbackOf, loginUrl, tokenExpiry } from '../sign-in.ts';
import { type GrantedTokenSet, type PlatformAdapter, PlatformError, type TokenSet } from '../types.ts';
import type { XContext } from './api.ts';
import { X_SCOPES } from './scopes.ts';

const platform = 'x';

/**
 * The PKCE code verifier of one trip, derived from its `state` under the app's secret: the
 * service keeps no verifier between the authorization page and the code's exchange, and only
 * the holder of the secret can derive it from a state seen in a redirect. 43 characters of
 * base64url, the shortest RFC 7636 allows.
 */
export function codeVerifier(clientSecret: string, state: string): string {
  return createHmac('sha256', clientSecret).update(`x-pkce:${state}`).digest('base64url');
}

function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** X's `scope` answer: the granted scopes, separated by spaces. */
function grantedScopes(value: unknown): string[] {
  return (str(value) ?? '').split(/\s+/).filter((s) => s !== '');
}

export function xSignIn({
  api,
  options,
  now,
}: XContext): Pick<
  PlatformAdapter,
  'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'
> {
  async function token(form: Record<string, string>): Promise<Omit<TokenSet, 'platformUserId'>> {
    const body = await api.oauth('/2/oauth2/token', form);
    const refreshToken = str(body.refresh_token);
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(now(), body.expires_in),
      // X states no lifetime for a refresh token: it ends when used, or when the user revokes the app.
      ...(refreshToken === null || refreshToken === '' ? {} : { refreshToken, refreshExpiresAt: null }),
      scopes: body.scope === undefined ? null : grantedScopes(body.scope),
    };
  }

  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(api.webUrl('/i/oauth2/authorize'), {
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: redirectUri,
        scope: (scopes ?? X_SCOPES.requested).join(' '),
        state,
        code_challenge: codeChallenge(codeVerifier(options.clientSecret, state)),
        code_challenge_method: 'S256',
      });
    },

    parseCallback(query) {
      // A user who cancels comes back with error=access_denied.
      return callbackOf(query);
    },

    async exchangeCode(code, redirectUri, state): Promise<GrantedTokenSet> {
      if (state === undefined) {
        throw invalidRequest(platform, "X's code exchange needs the trip's state (its PKCE verifier comes from it)");
      }
      const granted = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier(options.clientSecret, state),
      });
      const scopes = granted.scopes ?? [];
      // Without users.read (and tweet.read) the user's id cannot be read: the connect flow
      // answers permission_missing before the id is used.
      if (!X_SCOPES.required.every((scope) => scopes.includes(scope)))
        return { ...granted, scopes, platformUserId: '' };
      const me = await api.call('GET', '/users/me', granted.accessToken);
      const id = requiredText(platform, (me.data as Record<string, unknown> | undefined)?.id, 'data.id');
      return { ...granted, scopes, platformUserId: id };
    },

    async refreshToken({ refreshToken, platformUserId }) {
      if (refreshToken === undefined || refreshToken === '') {
        // Without offline.access X gives none: the account ends with its access token.
        throw new PlatformError('token_expired', 'x: the account holds no refresh token; reconnect it', { platform });
      }
      const fresh = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
      if (fresh.refreshToken === undefined) {
        // The one used no longer works: an answer without its successor leaves nothing to refresh with.
        throw new PlatformError('transient', 'x answered a refresh without a new refresh token', { platform });
      }
      return { ...fresh, platformUserId };
    },

    async revokeAccess({ accessToken }) {
      await api.oauth('/2/oauth2/revoke', { token: accessToken, token_type_hint: 'access_token' });
    },
  };
}
