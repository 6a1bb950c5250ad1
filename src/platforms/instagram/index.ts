/** The Instagram adapter, made of its parts. Facts: docs/platforms.md, "Instagram". */
import type { PlatformDefinition } from '../definition.ts';
import type { AdapterOptions } from '../http.ts';
import { metaDeauthorizedUsers } from '../meta/deauthorization.ts';
import { GraphClient } from '../meta/graph-client.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { instagramComments } from './comments.ts';
import { instagramDefinition } from './definition.ts';
import { instagramInsights } from './insights.ts';
import { instagramProfile } from './profile.ts';
import { instagramPublishing } from './publishing.ts';
import { INSTAGRAM_SCOPES } from './scopes.ts';
import { instagramSignIn } from './sign-in.ts';

const VERSION = 'v25.0';
const HOURS = 3_600_000;
const DAYS = 24 * HOURS;

export function instagramAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const graph = new GraphClient('instagram', options.hostUrl('graph.instagram.com'), VERSION, options, now);
  const context = { graph, options, now };
  return reportingMissingScopes({
    platform: 'instagram',
    scopes: INSTAGRAM_SCOPES,
    refresh: { refreshBeforeExpiryMs: 7 * DAYS, minTokenAgeMs: 24 * HOURS },
    ...instagramSignIn(context),
    parseDeauthorization: (notice) => metaDeauthorizedUsers('instagram', notice, options.clientSecret),
    profile: (credentials) => instagramProfile(context, credentials),
    comments: instagramComments(context),
    insights: instagramInsights(context),
    publishing: instagramPublishing(context),
  });
}

export const instagramPlatform: PlatformDefinition & { platform: 'instagram' } = {
  ...instagramDefinition,
  create: instagramAdapter,
};
