/** What Bluesky asks a user to grant, and what each action needs (docs/platforms.md, "Bluesky", "Scopes"). */
import type { ScopePolicy } from '../types.ts';

export const BLUESKY_SCOPE = {
  /** Every AT Protocol OAuth session holds it; without it the PDS gives no access ("OAuth"). */
  atproto: 'atproto',
  /** The transitional scope: the account's repository, blobs and the PDS's proxied calls, as an app password had them. */
  generic: 'transition:generic',
} as const;

const BOTH = [BLUESKY_SCOPE.atproto, BLUESKY_SCOPE.generic];

export const BLUESKY_SCOPES: ScopePolicy = {
  requested: BOTH,
  // Without atproto there is no session; without transition:generic no record can be written or read.
  required: BOTH,
  byAction: {
    read_profile: BOTH,
    // Threads and feeds the PDS proxies to the AppView; replies, deletions and threadgates are records.
    read_comments: BOTH,
    reply: BOTH,
    delete_reply: BOTH,
    hide: BOTH,
    // The profile and post views the PDS proxies to the AppView.
    read_insights: BOTH,
    publish: BOTH,
  },
};
