/**
 * Signing in with Pinterest: OAuth 2.0's authorization code flow (www.pinterest.com/oauth/, the
 * token endpoint with the app's id and secret as Basic authentication). Access tokens live 30
 * days; the continuous refresh token 60 days, and each refresh answers a new one of 60 days with
 * the new access token ("Generate OAuth access token"), so an account refreshed in time never
 * ends. The user's id is read from its account (`GET /v5/user_account`).
 */
import { unsupported } from '../errors.ts';
import { requiredText } from '../http.ts';
import { callbackOf, loginUrl, splitScopes, tokensOf } from '../sign-in.ts';
import { type GrantedTokenSet, type PlatformAdapter, PlatformError, type TokenSet } from '../types.ts';
import type { PinterestContext } from './api.ts';
import { PINTEREST_SCOPES } from './scopes.ts';

const platform = 'pinterest';

export function pinterestSignIn({
  api,
  options,
  now,
}: PinterestContext): Pick<
  PlatformAdapter,
  'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'
> {
  async function token(form: Record<string, string>): Promise<Omit<TokenSet, 'platformUserId'>> {
    // "scope": the granted scopes, separated by commas.
    return tokensOf(platform, await api.oauth(form), now(), splitScopes);
  }

  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(api.webUrl('/oauth/'), {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: (scopes ?? PINTEREST_SCOPES.requested).join(','),
        state,
      });
    },

    parseCallback(query) {
      // A user who declines comes back without a code (error=access_denied).
      return callbackOf(query);
    },

    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      // continuous_refresh: an app made before September 25, 2025 gets the continuous refresh
      // token only when it asks; a newer app gets it anyway.
      const granted = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        continuous_refresh: 'true',
      });
      const scopes = granted.scopes ?? [];
      // Without user_accounts:read the user's id cannot be read: the connect flow answers
      // permission_missing before the id is used.
      if (!PINTEREST_SCOPES.required.every((scope) => scopes.includes(scope))) {
        return { ...granted, scopes, platformUserId: '' };
      }
      const account = await api.call('GET', '/user_account', granted.accessToken);
      return { ...granted, scopes, platformUserId: requiredText(platform, account.id, 'id') };
    },

    async refreshToken({ refreshToken, platformUserId }) {
      if (refreshToken === undefined || refreshToken === '') {
        throw new PlatformError('token_expired', 'pinterest: the account holds no refresh token; reconnect it', {
          platform,
        });
      }
      const fresh = await token({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        continuous_refresh: 'true',
      });
      // An answer without a new refresh token (a legacy one) leaves the one held, and its end.
      return fresh.refreshToken === undefined
        ? { ...fresh, refreshToken, platformUserId }
        : { ...fresh, platformUserId };
    },

    async revokeAccess() {
      // POST /v5/oauth/token/revoke: "Only tokens issued for system users are currently supported".
      throw unsupported(platform, "revoking the app's access (Pinterest revokes only system users' tokens)");
    },
  };
}
