/**
 * The X adapter (the X API v2 with the owner's own app: OAuth 2.0 with PKCE, posts), made of
 * its parts. Facts: docs/platforms.md, "X".
 */
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { xContext } from './api.ts';
import { xComments } from './comments.ts';
import { xDefinition } from './definition.ts';
import { xInsights } from './insights.ts';
import { xProfile } from './profile.ts';
import { xPublishing } from './publishing.ts';
import { X_SCOPES } from './scopes.ts';
import { xSignIn } from './sign-in.ts';

const MINUTES = 60_000;

export function xAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = xContext({ options, now });
  return reportingMissingScopes({
    platform: 'x',
    scopes: X_SCOPES,
    // Access tokens live two hours ("OAuth 2.0 Authorization Code Flow with PKCE"): refreshed
    // in their last half hour, which leaves the worker's periodic refresh several chances.
    refresh: { refreshBeforeExpiryMs: 30 * MINUTES, minTokenAgeMs: 0 },
    ...xSignIn(context),
    parseDeauthorization() {
      // X sends apps no notice of a user removing them.
      throw unsupported('x', 'notices of a user removing the app');
    },
    profile: (credentials) => xProfile(context, credentials),
    insights: xInsights(context),
    comments: xComments(context),
    publishing: xPublishing(context),
  });
}

export const xPlatform = { ...xDefinition, create: xAdapter } satisfies PlatformDefinition;
