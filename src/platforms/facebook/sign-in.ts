/**
 * Signing in with Facebook Login: the login page, the code exchange for a long-lived user
 * token, the scopes granted, and the exchange that also refreshes a token.
 */
import { unsupported } from '../errors.ts';
import { list, record, requiredText, str } from '../http.ts';
import type { GraphContext } from '../meta/graph-client.ts';
import { callbackOf, loginUrl, tokenExpiry } from '../sign-in.ts';
import type { GrantedTokenSet, PlatformAdapter } from '../types.ts';
import { FACEBOOK_SCOPES } from './scopes.ts';

const platform = 'facebook';

export function facebookSignIn(
  context: GraphContext,
): Pick<PlatformAdapter, 'authorizeUrl' | 'parseCallback' | 'exchangeCode' | 'refreshToken' | 'revokeAccess'> {
  const { graph, options, now } = context;

  /** A long-lived token for a short-lived one, or a fresh one for a long-lived user or page token. */
  async function exchangeToken(token: string): Promise<{ accessToken: string; expiresAt: Date | null }> {
    const body = await graph.call({
      method: 'GET',
      url: graph.url('/oauth/access_token'),
      query: {
        grant_type: 'fb_exchange_token',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        fb_exchange_token: token,
      },
    });
    // Page tokens come back without `expires_in`: they do not expire.
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(now(), body.expires_in),
    };
  }

  async function permissions(accessToken: string): Promise<string[]> {
    const body = await graph.get('/me/permissions', accessToken);
    return list(body.data)
      .map(record)
      .filter((p) => p.status === 'granted')
      .map((p) => str(p.permission))
      .filter((p): p is string => p !== null);
  }

  return {
    authorizeUrl({ redirectUri, state, scopes }) {
      // The login dialog is versioned as the Graph calls are.
      return loginUrl(`${options.hostUrl('www.facebook.com')}/${graph.version}/dialog/oauth`, {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        state,
        scope: (scopes ?? FACEBOOK_SCOPES.requested).join(','),
        response_type: 'code',
      });
    },

    parseCallback(query) {
      // Facebook appends `#_=_` to the redirect.
      return callbackOf(query, /#_=_$/);
    },

    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      const short = await graph.call({
        method: 'GET',
        url: graph.url('/oauth/access_token'),
        query: { client_id: options.clientId, redirect_uri: redirectUri, client_secret: options.clientSecret, code },
      });
      const long = await exchangeToken(requiredText(platform, short.access_token, 'access_token'));
      const me = await graph.get('/me', long.accessToken, { fields: 'id,name' });
      return {
        accessToken: long.accessToken,
        expiresAt: long.expiresAt,
        platformUserId: requiredText(platform, me.id, 'id'),
        scopes: await permissions(long.accessToken),
      };
    },

    async refreshToken({ accessToken, platformUserId }) {
      // The exchange answer does not name the scopes; the grant's stay as they were.
      return { ...(await exchangeToken(accessToken)), platformUserId, scopes: null };
    },

    async revokeAccess() {
      // Graph revokes a login with DELETE /{user-id}/permissions, made with the user's token
      // or the app's (https://developers.facebook.com/docs/graph-api/reference/user/permissions/).
      // The service keeps page tokens only, and revoking the user's login would also end the
      // access to every other page that login granted, which may be other accounts.
      throw unsupported(platform, "revoking the app's access with a page token (only the user's login can be revoked)");
    },
  };
}
