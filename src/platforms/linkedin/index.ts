/**
 * The LinkedIn adapter (the Community Management API: the member's own profile and the
 * organization pages they administer, their posts, the organizations' comments), made of its parts. Facts: docs/platforms.md, "LinkedIn".
 */

import { DAY_MS } from '../../days.ts';
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { linkedinContext } from './api.ts';
import { linkedinComments } from './comments.ts';
import { linkedinDefinition } from './definition.ts';
import { linkedinInsights } from './insights.ts';
import { linkedinPages, linkedinProfile } from './pages.ts';
import { linkedinPublishing } from './publishing.ts';
import { LINKEDIN_SCOPES } from './scopes.ts';
import { linkedinSignIn } from './sign-in.ts';

export function linkedinAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = linkedinContext({ options, now });
  return reportingMissingScopes({
    platform: 'linkedin',
    scopes: LINKEDIN_SCOPES,
    // Access tokens live 60 days ("Refresh Tokens with OAuth 2.0"): refreshed a week before
    // their end, which leaves days to retry a refresh LinkedIn refuses for a while.
    refresh: { refreshBeforeExpiryMs: 7 * DAY_MS, minTokenAgeMs: 0 },
    ...linkedinSignIn(context),
    parseDeauthorization() {
      // LinkedIn sends apps no notice of a member removing them.
      throw unsupported('linkedin', 'notices of a member removing the app');
    },
    profile: (credentials) => linkedinProfile(context, credentials),
    pages: (credentials, granted) => linkedinPages(context, credentials, granted),
    insights: linkedinInsights(context),
    publishing: linkedinPublishing(context),
    comments: linkedinComments(context),
  });
}

export const linkedinPlatform = { ...linkedinDefinition, create: linkedinAdapter } satisfies PlatformDefinition;
