/**
 * The TikTok adapter (Login Kit v2 and the Content Posting API, PULL_FROM_URL), made of its
 * parts. Facts: docs/platforms.md, "TikTok".
 */
import type { PlatformDefinition } from '../definition.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { tiktokContext } from './api.ts';
import { tiktokDefinition } from './definition.ts';
import { tiktokDeauthorizedUsers } from './notices.ts';
import { tiktokProfile } from './profile.ts';
import { tiktokPublishing } from './publishing.ts';
import { TIKTOK_SCOPES } from './scopes.ts';
import { tiktokSignIn } from './sign-in.ts';

const MINUTES = 60_000;

export function tiktokAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = tiktokContext({ options, now });
  return reportingMissingScopes({
    platform: 'tiktok',
    scopes: TIKTOK_SCOPES,
    // Access tokens live 2 hours ("Manage OAuth Access Tokens"): refreshing in the last 30
    // minutes leaves the job room to retry; a call refused for a lapsed token refreshes at once.
    refresh: { refreshBeforeExpiryMs: 30 * MINUTES, minTokenAgeMs: 0 },
    ...tiktokSignIn(context),
    parseDeauthorization: (notice) =>
      tiktokDeauthorizedUsers(notice, { clientKey: options.clientId, clientSecret: options.clientSecret }, now()),
    profile: (credentials) => tiktokProfile(context, credentials),
    publishing: tiktokPublishing(context),
  });
}

export const tiktokPlatform = { ...tiktokDefinition, create: tiktokAdapter } satisfies PlatformDefinition;
