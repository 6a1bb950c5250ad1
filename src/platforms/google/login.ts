/**
 * What the adapter of a Google platform whose login grants pages (YouTube's channels, Business
 * Profile's locations) shares: Google's sign-in and refresh with the platform's scopes, each page
 * acted on with the login's own token, no revocation of one page (it would end the login's whole
 * grant), and no notice of a user removing the app.
 */
import { unsupported } from '../errors.ts';
import type { GrantedTokenSet, Platform, PlatformAdapter, ScopePolicy } from '../types.ts';
import type { GoogleClient } from './oauth.ts';

const MINUTES = 60_000;

type GoogleLogin = Pick<
  PlatformAdapter,
  | 'platform'
  | 'scopes'
  | 'refresh'
  | 'authorizeUrl'
  | 'parseCallback'
  | 'exchangeCode'
  | 'refreshToken'
  | 'revokeAccess'
  | 'parseDeauthorization'
>;

/** `page`: what the login's pages are, as a refusal names one ("channel", "location"). */
export function googleLogin(platform: Platform, google: GoogleClient, scopes: ScopePolicy, page: string): GoogleLogin {
  return {
    platform,
    scopes,
    // Access tokens live an hour (expires_in 3599): refreshed in their last 15 minutes, which
    // leaves the job room to retry; a call refused for a lapsed token refreshes at once.
    refresh: { refreshBeforeExpiryMs: 15 * MINUTES, minTokenAgeMs: 0 },
    authorizeUrl: ({ redirectUri, state, scopes: asked }) =>
      google.authorizeUrl({ redirectUri, state, scopes: asked ?? scopes.requested }),
    parseCallback: (query) => google.parseCallback(query),
    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      const granted = await google.exchangeCode(code, redirectUri);
      // The login itself is no account: its pages are, each named by its own id.
      return { ...granted, platformUserId: '' };
    },
    async refreshToken({ refreshToken, platformUserId }) {
      return { ...(await google.refresh(refreshToken ?? '')), platformUserId };
    },
    async revokeAccess() {
      // A page's account holds its Google login's token; revoking it ends Google's whole grant
      // to the app, every other page of that login (other accounts, perhaps of other profiles) with it.
      throw unsupported(
        platform,
        `revoking the app's access for one ${page} (only the Google login's whole grant can be revoked)`,
      );
    },
    parseDeauthorization() {
      // Google sends apps no notice of a user removing them (only RISC to registered receivers).
      throw unsupported(platform, 'notices of a user removing the app');
    },
  };
}
