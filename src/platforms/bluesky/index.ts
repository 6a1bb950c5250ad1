/**
 * The Bluesky adapter (the AT Protocol: OAuth with PAR, PKCE and DPoP; records in the account's
 * repository at its PDS), made of its parts. Facts: docs/platforms.md, "Bluesky".
 */
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { blueskyApi } from './api.ts';
import { blueskyComments } from './comments.ts';
import { blueskyDefinition } from './definition.ts';
import { blueskyInsights } from './insights.ts';
import { blueskyProfile } from './profile.ts';
import { blueskyPublishing } from './publishing.ts';
import { BLUESKY_SCOPES } from './scopes.ts';
import { blueskySignIn } from './sign-in.ts';

const MINUTES = 60_000;

export function blueskyAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = { options, now, api: blueskyApi({ options, now }) };
  return reportingMissingScopes({
    platform: 'bluesky',
    scopes: BLUESKY_SCOPES,
    // Access tokens are short-lived ("OAuth": the sandbox's last an hour): refreshed in their last 20 minutes.
    refresh: { refreshBeforeExpiryMs: 20 * MINUTES, minTokenAgeMs: 0 },
    ...blueskySignIn(context),
    parseDeauthorization() {
      // An authorization server sends clients no notice of a user revoking them.
      throw unsupported('bluesky', 'notices of a user removing the app');
    },
    profile: (credentials) => blueskyProfile(context, credentials),
    insights: blueskyInsights(context),
    comments: blueskyComments(context),
    publishing: blueskyPublishing(context),
  });
}

export const blueskyPlatform = { ...blueskyDefinition, create: blueskyAdapter } satisfies PlatformDefinition;
