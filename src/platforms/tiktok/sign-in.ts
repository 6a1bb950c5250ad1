/** Signing in with TikTok's Login Kit: the login page, the token endpoint (code and refresh alike), revoking. */
import { invalidRequest } from '../errors.ts';
import { requiredText } from '../http.ts';
import { callbackOf, loginUrl, splitScopes, tokenExpiry } from '../sign-in.ts';
import { type GrantedTokenSet, type PlatformAdapter, PlatformError } from '../types.ts';
import type { TikTokContext } from './api.ts';
import { TIKTOK_SCOPES } from './scopes.ts';

const platform = 'tiktok';

/** A field the answer must carry, possibly empty; missing, the answer is a platform fault. */
function requiredField(value: unknown, field: string): unknown {
  if (value === undefined || value === null) {
    throw new PlatformError('transient', `tiktok answered without ${field}`, { platform });
  }
  return value;
}

export function tiktokSignIn({
  api,
  options,
  now,
}: TikTokContext): Pick<
  PlatformAdapter,
  'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'
> {
  /** The token endpoint: a code exchange or a refresh, both answering a whole grant with its scopes. */
  async function grant(form: Record<string, string>): Promise<GrantedTokenSet> {
    const body = await api.send({
      method: 'POST',
      url: api.url('/v2/oauth/token/'),
      form: { client_key: options.clientId, client_secret: options.clientSecret, ...form },
    });
    const at = now();
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(at, body.expires_in),
      refreshToken: requiredText(platform, body.refresh_token, 'refresh_token'),
      refreshExpiresAt: tokenExpiry(at, body.refresh_expires_in),
      platformUserId: requiredText(platform, body.open_id, 'open_id'),
      // What the user granted; an empty list is an answer too.
      scopes: splitScopes(requiredField(body.scope, 'scope')),
    };
  }

  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(`${options.hostUrl('www.tiktok.com')}/v2/auth/authorize/`, {
        client_key: options.clientId,
        scope: (scopes ?? TIKTOK_SCOPES.requested).join(','),
        redirect_uri: redirectUri,
        state,
        response_type: 'code',
      });
    },

    parseCallback(query) {
      return callbackOf(query);
    },

    exchangeCode(code, redirectUri) {
      return grant({ code, grant_type: 'authorization_code', redirect_uri: redirectUri });
    },

    refreshToken({ refreshToken }) {
      if (refreshToken === undefined || refreshToken === '') {
        return Promise.reject(invalidRequest(platform, 'a refresh needs the refresh token'));
      }
      // The answer carries a new refresh token; the one sent stops working.
      return grant({ grant_type: 'refresh_token', refresh_token: refreshToken });
    },

    async revokeAccess({ accessToken }) {
      // "Revoke a User Access Token" (https://developers.tiktok.com/docs/en/oauth-revoke-a-user-access-token):
      // form client_key, client_secret, token; an empty answer ({}) confirms it, and the user's
      // every token for the app ends with it.
      await api.answer({
        method: 'POST',
        url: api.url('/v2/oauth/revoke/'),
        form: { client_key: options.clientId, client_secret: options.clientSecret, token: accessToken },
      });
    },
  };
}
