/** What the platforms' OAuth sign-ins share: the login URL, the redirect's answer, token lifetimes and scope lists. */
import { num, requiredText, str } from './http.ts';
import type { AuthorizeCallback, Platform, TokenSet } from './types.ts';

/** The login page's URL: `base` with `params` as its query, in the order given. */
export function loginUrl(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  url.search = new URLSearchParams(params).toString();
  return url.toString();
}

/**
 * What the platform sent back to the redirect URI: its code (without `fragment`, the suffix
 * some platforms append, which a browser drops and a copied URL may keep), or the refusal.
 */
export function callbackOf(query: Record<string, unknown>, fragment?: RegExp): AuthorizeCallback {
  const state = str(query.state);
  const code = str(query.code);
  if (code !== null && code !== '') {
    return { outcome: 'code', code: fragment === undefined ? code : code.replace(fragment, ''), state };
  }
  // A redirect without a code: the user cancelled (or the platform refused).
  return {
    outcome: 'denied',
    error: str(query.error) ?? 'access_denied',
    description: str(query.error_description) ?? str(query.error_reason),
    state,
  };
}

/** Expiry from an `expires_in` in seconds; null when absent or 0 (a token that does not expire). */
export function tokenExpiry(now: Date, expiresIn: unknown): Date | null {
  const seconds = num(expiresIn);
  return seconds === null || seconds <= 0 ? null : new Date(now.getTime() + seconds * 1000);
}

/** A comma-separated scope list (`"a,b, c"`), as Instagram and TikTok send the granted scopes. */
export function splitScopes(value: unknown): string[] {
  return (str(value) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A token endpoint's answer read at `at` (OAuth 2.0's `access_token`, `expires_in`, and where the
 * platform gives one, `refresh_token` with its `refresh_token_expires_in`), its granted scopes as
 * `scopesOf` reads the answer's `scope` (null when it names none).
 */
export function tokensOf(
  platform: Platform,
  body: Record<string, unknown>,
  at: Date,
  scopesOf: (value: unknown) => string[],
): Omit<TokenSet, 'platformUserId'> {
  const refreshToken = str(body.refresh_token);
  return {
    accessToken: requiredText(platform, body.access_token, 'access_token'),
    expiresAt: tokenExpiry(at, body.expires_in),
    ...(refreshToken === null || refreshToken === ''
      ? {}
      : { refreshToken, refreshExpiresAt: tokenExpiry(at, body.refresh_token_expires_in) }),
    scopes: body.scope === undefined ? null : scopesOf(body.scope),
  };
}
