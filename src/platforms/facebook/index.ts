/**
 * The Facebook Pages adapter, made of its parts: one login grants several pages, each with a
 * page token of its own, and every page the user picks becomes an account. Facts:
 * docs/platforms.md, "Facebook Pages".
 */
import type { PlatformDefinition } from '../definition.ts';
import { unsupported } from '../errors.ts';
import type { AdapterOptions } from '../http.ts';
import { graphContext } from '../meta/graph-client.ts';
import { graphVersionOf } from '../meta/settings.ts';
import { META_REFRESH } from '../meta/sign-in.ts';
import { reportingMissingScopes } from '../missing-scopes.ts';
import type { PlatformAdapter } from '../types.ts';
import { facebookComments } from './comments.ts';
import { facebookDefinition } from './definition.ts';
import { facebookPages, facebookProfile } from './pages.ts';
import { facebookPublishing } from './publishing.ts';
import { FACEBOOK_SCOPES } from './scopes.ts';
import { facebookSignIn } from './sign-in.ts';

export function facebookAdapter(options: AdapterOptions, now: () => Date): PlatformAdapter {
  const context = graphContext('facebook', 'graph.facebook.com', graphVersionOf(options), options, now);
  return reportingMissingScopes({
    platform: 'facebook',
    scopes: FACEBOOK_SCOPES,
    refresh: META_REFRESH,
    ...facebookSignIn(context),
    parseDeauthorization() {
      // Its notice names the Facebook user, while the accounts are that user's pages: a
      // removed app shows as access_revoked on the pages' next call instead.
      throw unsupported('facebook', 'deauthorize notices (pages are accounts, not users)');
    },
    profile: (credentials) => facebookProfile(context, credentials),
    pages: (credentials) => facebookPages(context, credentials),
    comments: facebookComments(context),
    publishing: facebookPublishing(context),
  });
}

export const facebookPlatform = { ...facebookDefinition, create: facebookAdapter } satisfies PlatformDefinition;
