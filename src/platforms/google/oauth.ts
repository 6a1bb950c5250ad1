/**
 * Google's OAuth 2.0 for web server applications, shared by every Google platform: the consent
 * page (accounts.google.com/o/oauth2/v2/auth), the token endpoint (oauth2.googleapis.com: the code
 * exchange and the refresh), and the calls to Google's JSON
 * APIs with a user's token, their failures classified. Facts: docs/platforms.md, "YouTube".
 */
import { invalidRequest } from '../errors.ts';
import {
  type AdapterContext,
  callPlatform,
  expectObject,
  type PlatformRequest,
  type PlatformResponse,
  requiredText,
  str,
} from '../http.ts';
import { callbackOf, loginUrl, tokenExpiry } from '../sign-in.ts';
import type { AuthorizeCallback, Platform, TokenSet } from '../types.ts';
import { googleError } from './errors.ts';

/** What the token endpoint gives, without the account it acts for. */
export type GoogleTokens = Omit<TokenSet, 'platformUserId'>;

export interface GoogleClient {
  /** The consent page's URL, asking for offline access (a refresh token) and showing consent every time. */
  authorizeUrl(request: { redirectUri: string; state: string; scopes: readonly string[] }): string;
  /** The code or the refusal Google sent back to the redirect URI. */
  parseCallback(query: Record<string, unknown>): AuthorizeCallback;
  exchangeCode(code: string, redirectUri: string): Promise<GoogleTokens & { scopes: string[] }>;
  refresh(refreshToken: string): Promise<GoogleTokens>;
  /** A call to a Google JSON API with the user's token: its answer, a JSON object. */
  api(
    method: PlatformRequest['method'],
    url: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json'>,
  ): Promise<Record<string, unknown>>;
  /** A call whose answer has no body (204 No Content). */
  apiEmpty(
    method: PlatformRequest['method'],
    url: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json'>,
  ): Promise<void>;
  /** The URL of a path on a Google host (real or the sandbox's). */
  url(host: string, path: string): string;
}

/** Google's `scope` answer: the granted scopes, separated by spaces. */
function grantedScopes(value: unknown): string[] {
  return (str(value) ?? '').split(/\s+/).filter((s) => s !== '');
}

export function googleClient(platform: Platform, { options, now }: AdapterContext): GoogleClient {
  async function answer(call: PlatformRequest): Promise<PlatformResponse> {
    const response = await callPlatform(platform, call, options);
    if (response.status >= 400) throw googleError(platform, response, now());
    return response;
  }
  const url = (host: string, path: string) => `${options.hostUrl(host)}${path}`;

  async function token(form: Record<string, string>): Promise<GoogleTokens> {
    const body = expectObject(
      platform,
      await answer({
        method: 'POST',
        url: url('oauth2.googleapis.com', '/token'),
        form: { ...form, client_id: options.clientId, client_secret: options.clientSecret },
      }),
    );
    const at = now();
    const refreshToken = str(body.refresh_token);
    return {
      accessToken: requiredText(platform, body.access_token, 'access_token'),
      expiresAt: tokenExpiry(at, body.expires_in),
      ...(refreshToken === null || refreshToken === ''
        ? {}
        : // Present only for time-based access (the user granted access for a while): the grant's end.
          { refreshToken, refreshExpiresAt: tokenExpiry(at, body.refresh_token_expires_in) }),
      scopes: body.scope === undefined ? null : grantedScopes(body.scope),
    };
  }

  return {
    url,
    authorizeUrl({ redirectUri, state, scopes }) {
      return loginUrl(url('accounts.google.com', '/o/oauth2/v2/auth'), {
        client_id: options.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: scopes.join(' '),
        // A refresh token, to act while the user is away; consent shown each time, so that a
        // reconnection gets a refresh token again (Google gives one only at a consent).
        access_type: 'offline',
        prompt: 'consent',
        // Scopes the user granted this app before are not added to the grant unasked.
        include_granted_scopes: 'false',
        state,
      });
    },

    parseCallback(query) {
      // A user who declines comes back with error=access_denied.
      return callbackOf(query);
    },

    async exchangeCode(code, redirectUri) {
      const granted = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
      // The answer names the scopes granted (the user may untick some); without it, none are known to be.
      return { ...granted, scopes: granted.scopes ?? [] };
    },

    async refresh(refreshToken) {
      if (refreshToken === '') return Promise.reject(invalidRequest(platform, 'a refresh needs the refresh token'));
      // The answer has a new access token of an hour and no refresh token: the one held stays.
      const fresh = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
      return { refreshToken, ...fresh };
    },

    async api(method, target, token, extra = {}) {
      return expectObject(platform, await answer({ method, url: target, bearer: token, ...extra }));
    },

    async apiEmpty(method, target, token, extra = {}) {
      await answer({ method, url: target, bearer: token, ...extra });
    },
  };
}
