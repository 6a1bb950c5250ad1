/**
 * The Pinterest adapter (the API v5: OAuth 2.0, the user's account, pins on its boards), made of
 * its parts. Facts: docs/platforms.md, "Pinterest".
 */

import { DAY_MS } from '../../days.ts';
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { pinterestContext } from './api.ts';
import { pinterestDefinition } from './definition.ts';
import { pinterestInsights } from './insights.ts';
import { pinterestProfile } from './profile.ts';
import { pinterestPublishing } from './publishing.ts';
import { PINTEREST_SCOPES } from './scopes.ts';
import { pinterestSignIn } from './sign-in.ts';

export function pinterestAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = pinterestContext({ options, now });
  return reportingMissingScopes({
    platform: 'pinterest',
    scopes: PINTEREST_SCOPES,
    // Access tokens live 30 days: refreshed in their last 5 days, which leaves the worker's
    // periodic refresh many chances; each refresh also renews the refresh token's 60 days.
    refresh: { refreshBeforeExpiryMs: 5 * DAY_MS, minTokenAgeMs: 0 },
    ...pinterestSignIn(context),
    parseDeauthorization() {
      // Pinterest sends apps no notice of a user removing them.
      throw unsupported('pinterest', 'notices of a user removing the app');
    },
    profile: (credentials) => pinterestProfile(context, credentials),
    insights: pinterestInsights(context),
    publishing: pinterestPublishing(context),
  });
}

export const pinterestPlatform = { ...pinterestDefinition, create: pinterestAdapter } satisfies PlatformDefinition;
