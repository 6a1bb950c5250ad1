/**
 * The YouTube adapter (the YouTube Data API v3 with Google's OAuth: a Google user's channels),
 * made of its parts. Facts: docs/platforms.md, "YouTube".
 */
import type { PlatformDefinition } from '../definition.ts';
import { googleLogin } from '../google/login.ts';
import { googleClient } from '../google/oauth.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { youtubeChannels, youtubeProfile } from './channels.ts';
import { youtubeComments } from './comments.ts';
import { youtubeDefinition } from './definition.ts';
import { youtubeInsights } from './insights.ts';
import { youtubePublishing } from './publishing.ts';
import { metered } from './quota.ts';
import { YOUTUBE_SCOPES } from './scopes.ts';

const platform = 'youtube';

export function youtubeAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const google = googleClient(platform, { options, now });
  // Every Data API call is counted in the project's units; background reads stop at the reserve.
  const context = {
    options,
    now,
    google: metered({ options, now }, google, 'asked'),
    reads: metered({ options, now }, google, 'background'),
  };
  return reportingMissingScopes({
    // Each channel is acted on with its Google login's token.
    ...googleLogin(platform, google, YOUTUBE_SCOPES, 'channel'),
    profile: (credentials) => youtubeProfile(context, credentials),
    pages: (credentials) => youtubeChannels(context, credentials),
    publishing: youtubePublishing(context),
    comments: youtubeComments(context),
    insights: youtubeInsights(context),
  });
}

export const youtubePlatform = { ...youtubeDefinition, create: youtubeAdapter } satisfies PlatformDefinition;
