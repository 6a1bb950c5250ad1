/** The Instagram adapter, made of its parts. Facts: docs/platforms.md, "Instagram". */
import type { PlatformDefinition } from '../definition.ts';
import type { AdapterOptions } from '../http.ts';
import { metaDeauthorizedUsers } from '../meta/deauthorization.ts';
import { graphContext } from '../meta/graph-client.ts';
import { graphVersionOf, noticeSecretsOf } from '../meta/settings.ts';
import { META_REFRESH } from '../meta/sign-in.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { instagramComments } from './comments.ts';
import { instagramDefinition } from './definition.ts';
import { instagramInsights } from './insights.ts';
import { instagramProfile } from './profile.ts';
import { instagramPublishing } from './publishing.ts';
import { INSTAGRAM_SCOPES } from './scopes.ts';
import { instagramSignIn } from './sign-in.ts';

export function instagramAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = graphContext('instagram', 'graph.instagram.com', graphVersionOf(options), options, now);
  return reportingMissingScopes({
    platform: 'instagram',
    scopes: INSTAGRAM_SCOPES,
    refresh: META_REFRESH,
    ...instagramSignIn(context),
    parseDeauthorization: (notice) => metaDeauthorizedUsers('instagram', notice, noticeSecretsOf(options)),
    profile: (credentials) => instagramProfile(context, credentials),
    comments: instagramComments(context),
    insights: instagramInsights(context),
    publishing: instagramPublishing(context),
  });
}

export const instagramPlatform = { ...instagramDefinition, create: instagramAdapter } satisfies PlatformDefinition;
