/**
 * The Google Business Profile adapter (the Business Profile APIs with Google's OAuth: a Google
 * user's business locations and their local posts), made of its parts.
 * Facts: docs/platforms.md, "Google Business Profile".
 */
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import { googleClient } from '../google/oauth.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { GrantedTokenSet, PlatformAdapter } from '../types.ts';
import { googleBusinessDefinition } from './definition.ts';
import { googleBusinessInsights } from './insights.ts';
import { googleBusinessLocations, googleBusinessProfile } from './locations.ts';
import { googleBusinessPublishing } from './publishing.ts';
import { googleBusinessReviews } from './reviews.ts';
import { GOOGLE_BUSINESS_SCOPES } from './scopes.ts';

const platform = 'google_business';
const MINUTES = 60_000;

export function googleBusinessAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const google = googleClient(platform, { options, now });
  const context = { options, now, google };
  return reportingMissingScopes({
    platform,
    scopes: GOOGLE_BUSINESS_SCOPES,
    // Access tokens live an hour (expires_in 3599), as for every Google API: refreshed in their
    // last 15 minutes; a call refused for a lapsed token refreshes at once.
    refresh: { refreshBeforeExpiryMs: 15 * MINUTES, minTokenAgeMs: 0 },
    authorizeUrl: ({ redirectUri, state, scopes }) =>
      google.authorizeUrl({ redirectUri, state, scopes: scopes ?? GOOGLE_BUSINESS_SCOPES.requested }),
    parseCallback: (query) => google.parseCallback(query),
    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      const granted = await google.exchangeCode(code, redirectUri);
      // The login itself is no account: its locations are the accounts (pages), each named by its v4 name.
      return { ...granted, platformUserId: '' };
    },
    async refreshToken({ refreshToken, platformUserId }) {
      return { ...(await google.refresh(refreshToken ?? '')), platformUserId };
    },
    async revokeAccess() {
      // A location's account holds its Google login's token; revoking it ends Google's whole
      // grant to the app, every other location of that login (other accounts) with it.
      throw unsupported(
        platform,
        "revoking the app's access for one location (only the Google login's whole grant can be revoked)",
      );
    },
    parseDeauthorization() {
      // Google sends apps no notice of a user removing them (only RISC to registered receivers).
      throw unsupported(platform, 'notices of a user removing the app');
    },
    profile: (credentials) => googleBusinessProfile(context, credentials),
    pages: (credentials) => googleBusinessLocations(context, credentials),
    publishing: googleBusinessPublishing(context),
    insights: googleBusinessInsights(context),
    comments: googleBusinessReviews(context),
  });
}

export const googleBusinessPlatform = {
  ...googleBusinessDefinition,
  create: googleBusinessAdapter,
} satisfies PlatformDefinition;
