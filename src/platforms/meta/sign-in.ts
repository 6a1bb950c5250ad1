/**
 * Meta's OAuth steps the platforms share: Instagram and Threads exchange a code by the same
 * form and make it a long-lived token (60 days) the same way, which refreshes the same way.
 */
import { DAY_MS } from '../../days.ts';
import { requiredText } from '../http.ts';
import { tokenExpiry } from '../sign-in.ts';
import type { RefreshPolicy, TokenSet } from '../types.ts';
import type { GraphContext } from './graph-client.ts';

const HOURS = 3_600_000;

/**
 * When the service refreshes a Meta token: 7 days before it expires. Instagram's and Threads'
 * long-lived tokens (60 days) refresh only once at least 24 hours old; Facebook's user tokens are
 * held to the same.
 */
export const META_REFRESH: RefreshPolicy = { refreshBeforeExpiryMs: 7 * DAY_MS, minTokenAgeMs: 24 * HOURS };

/** The code exchange: a form POST of the app's credentials, the code and the redirect URI to `url`. */
export function exchangeCodeByForm(
  { graph, options }: GraphContext,
  url: string,
  code: string,
  redirectUri: string,
): Promise<Record<string, unknown>> {
  return graph.call({
    method: 'POST',
    url,
    form: {
      client_id: options.clientId,
      client_secret: options.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      code,
    },
  });
}

/** The long-lived token a short-lived one is exchanged for (`GET /access_token`, no version; `grantType`: the platform's). */
export async function longLivedToken(
  { graph, options, now }: GraphContext,
  grantType: 'ig_exchange_token' | 'th_exchange_token',
  shortToken: string,
): Promise<{ accessToken: string; expiresAt: Date | null }> {
  const body = await graph.call({
    method: 'GET',
    url: graph.url('/access_token', true),
    query: { grant_type: grantType, client_secret: options.clientSecret, access_token: shortToken },
  });
  return {
    accessToken: requiredText(graph.platform, body.access_token, 'access_token'),
    expiresAt: tokenExpiry(now(), body.expires_in),
  };
}

/** A long-lived token refreshed (`GET /refresh_access_token`, no version; `grantType`: the platform's). */
export async function refreshLongLived(
  { graph, now }: GraphContext,
  grantType: 'ig_refresh_token' | 'th_refresh_token',
  { accessToken, platformUserId }: { accessToken: string; platformUserId: string },
): Promise<TokenSet> {
  const body = await graph.call({
    method: 'GET',
    url: graph.url('/refresh_access_token', true),
    query: { grant_type: grantType, access_token: accessToken },
  });
  return {
    accessToken: requiredText(graph.platform, body.access_token, 'access_token'),
    expiresAt: tokenExpiry(now(), body.expires_in),
    platformUserId,
    // The refresh answer does not name the scopes; the grant's stay as they were.
    scopes: null,
  };
}
