/**
 * The YouTube adapter (the YouTube Data API v3 with Google's OAuth: a Google user's channels),
 * made of its parts. Facts: docs/platforms.md, "YouTube".
 */
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import { googleClient } from '../google/oauth.ts';
import type { AdapterOptions } from '../http.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { GrantedTokenSet, PlatformAdapter } from '../types.ts';
import { youtubeChannels, youtubeProfile } from './channels.ts';
import { youtubeComments } from './comments.ts';
import { youtubeDefinition } from './definition.ts';
import { youtubeInsights } from './insights.ts';
import { youtubePublishing } from './publishing.ts';
import { metered } from './quota.ts';
import { YOUTUBE_SCOPES } from './scopes.ts';

const platform = 'youtube';
const MINUTES = 60_000;

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
    platform,
    scopes: YOUTUBE_SCOPES,
    // Access tokens live an hour (expires_in 3599): refreshed in their last 15 minutes, which
    // leaves the job room to retry; a call refused for a lapsed token refreshes at once.
    refresh: { refreshBeforeExpiryMs: 15 * MINUTES, minTokenAgeMs: 0 },
    authorizeUrl: ({ redirectUri, state, scopes }) =>
      google.authorizeUrl({ redirectUri, state, scopes: scopes ?? YOUTUBE_SCOPES.requested }),
    parseCallback: (query) => google.parseCallback(query),
    async exchangeCode(code, redirectUri): Promise<GrantedTokenSet> {
      const granted = await google.exchangeCode(code, redirectUri);
      // The login itself is no account and the YouTube scopes read no id of it: its channels
      // are the accounts (pages), each named by its channel id.
      return { ...granted, platformUserId: '' };
    },
    async refreshToken({ refreshToken, platformUserId }) {
      return { ...(await google.refresh(refreshToken ?? '')), platformUserId };
    },
    async revokeAccess() {
      // A channel's account holds its Google login's token; revoking it ends Google's whole grant
      // to the app, every other channel of that login (other accounts, perhaps of other profiles) with it.
      throw unsupported(
        platform,
        "revoking the app's access for one channel (only the Google login's whole grant can be revoked)",
      );
    },
    parseDeauthorization() {
      // Google sends apps no notice of a user removing them (only RISC to registered receivers).
      throw unsupported(platform, 'notices of a user removing the app');
    },
    profile: (credentials) => youtubeProfile(context, credentials),
    pages: (credentials) => youtubeChannels(context, credentials),
    publishing: youtubePublishing(context),
    comments: youtubeComments(context),
    insights: youtubeInsights(context),
  });
}

export const youtubePlatform = { ...youtubeDefinition, create: youtubeAdapter } satisfies PlatformDefinition;
