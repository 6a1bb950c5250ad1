/**
 * The Google Business Profile adapter (the Business Profile APIs with Google's OAuth: a Google
 * user's business locations, their local posts, reviews and figures), made of its parts.
 * Facts: docs/platforms.md, "Google Business Profile".
 */
import type { PlatformDefinition } from '../definition.ts';
import { googleLogin } from '../google/login.ts';
import { googleClient } from '../google/oauth.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { googleBusinessDefinition } from './definition.ts';
import { googleBusinessInsights } from './insights.ts';
import { googleBusinessLocations, googleBusinessProfile } from './locations.ts';
import { googleBusinessPublishing } from './publishing.ts';
import { googleBusinessReviews } from './reviews.ts';
import { GOOGLE_BUSINESS_SCOPES } from './scopes.ts';

const platform = 'google_business';

export function googleBusinessAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const google = googleClient(platform, { options, now });
  const context = { options, now, google };
  return reportingMissingScopes({
    // Each location is acted on with its Google login's token.
    ...googleLogin(platform, google, GOOGLE_BUSINESS_SCOPES, 'location'),
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
