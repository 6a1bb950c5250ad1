/**
 * Signing in with LinkedIn (Authorization Code Flow, 3-legged OAuth): the authorization page,
 * the token endpoint (the code exchange and the programmatic refresh), and the member's id.
 */
import { invalidRequest, unsupported } from '../errors.ts';
import { requiredText, str } from '../http.ts';
import { callbackOf, loginUrl, tokensOf } from '../sign-in.ts';
import type { GrantedTokenSet, PlatformAdapter, TokenSet } from '../types.ts';
import type { LinkedInContext } from './api.ts';
import { LINKEDIN_SCOPE, LINKEDIN_SCOPES } from './scopes.ts';

const platform = 'linkedin';

/** LinkedIn's `scope` answer: the granted permissions, separated by commas (or spaces). */
function grantedScopes(value: unknown): string[] {
  return (str(value) ?? '').split(/[\s,]+/).filter((s) => s !== '');
}

export function linkedinSignIn({
  api,
  options,
  now,
}: LinkedInContext): Pick<
  PlatformAdapter,
  'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'
> {
  /** The token endpoint's answer: an access token, and for apps LinkedIn allows programmatic refresh, a refresh token. */
  async function token(form: Record<string, string>): Promise<Omit<TokenSet, 'platformUserId'>> {
    const body = await api.oauth('/oauth/v2/accessToken', {
      ...form,
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    return tokensOf(platform, body, now(), grantedScopes);
  }

  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(api.wwwUrl('/oauth/v2/authorization'), {
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: redirectUri,
        state,
        // "URL-encoded, space-delimited list of member permissions".
        scope: (scopes ?? LINKEDIN_SCOPES.requested).join(' '),
      });
    },

    parseCallback(query) {
      // A member who cancels comes back with error=user_cancelled_login or user_cancelled_authorize.
      return callbackOf(query);
    },

    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      const granted = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
      // The answer names the granted permissions; without it, none are known to be granted.
      const scopes = granted.scopes ?? [];
      // Without r_basicprofile the member's id cannot be read: the login lacks a permission the
      // service requires, which the connect flow answers (permission_missing) before the id is used.
      if (!scopes.includes(LINKEDIN_SCOPE.basicProfile)) return { ...granted, scopes, platformUserId: '' };
      // The member's id: the login's own, beside the organizations they administer.
      const me = await api.restObject('GET', '/me', granted.accessToken);
      return { ...granted, scopes, platformUserId: requiredText(platform, me.id, 'id') };
    },

    async refreshToken({ refreshToken, platformUserId }) {
      if (refreshToken === undefined || refreshToken === '') {
        return Promise.reject(invalidRequest(platform, 'a refresh needs the refresh token'));
      }
      // "Refresh Tokens with OAuth 2.0": a new access token of 60 days; the refresh token keeps
      // its end, a year after the member's consent, whatever the refreshes.
      const fresh = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
      return { refreshToken, ...fresh, platformUserId };
    },

    async revokeAccess() {
      // Every account of a login holds the member's token, which reaches the member's own profile
      // and every organization they administer (other accounts, perhaps of other profiles):
      // ending it for one would end them all.
      throw unsupported(
        platform,
        "revoking the app's access for one LinkedIn account (only the member's whole grant can be revoked)",
      );
    },
  };
}
