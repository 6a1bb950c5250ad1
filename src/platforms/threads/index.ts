/** The Threads adapter, made of its parts. Facts: docs/platforms.md, "Threads". */
import type { PlatformDefinition } from '../definition.ts';
import type { AdapterOptions } from '../http.ts';
import { metaDeauthorizedUsers } from '../meta/deauthorization.ts';
import { graphContext } from '../meta/graph-client.ts';
import { graphVersionOf, noticeSecretsOf } from '../meta/settings.ts';
import { META_REFRESH } from '../meta/sign-in.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { threadsComments } from './comments.ts';
import { threadsDefinition } from './definition.ts';
import { threadsInsights } from './insights.ts';
import { threadsProfile } from './profile.ts';
import { threadsPublishing } from './publishing.ts';
import { THREADS_SCOPES } from './scopes.ts';
import { threadsSignIn } from './sign-in.ts';

export function threadsAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = graphContext('threads', 'graph.threads.net', graphVersionOf(options), options, now);
  return reportingMissingScopes({
    platform: 'threads',
    scopes: THREADS_SCOPES,
    refresh: META_REFRESH,
    ...threadsSignIn(context),
    parseDeauthorization: (notice) => metaDeauthorizedUsers('threads', notice, noticeSecretsOf(options)),
    profile: (credentials) => threadsProfile(context, credentials),
    comments: threadsComments(context),
    insights: threadsInsights(context),
    publishing: threadsPublishing(context),
  });
}

export const threadsPlatform = { ...threadsDefinition, create: threadsAdapter } satisfies PlatformDefinition;
