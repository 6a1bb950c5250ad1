/**
 * Every platform the service talks to and what it can do there: the adapters' own definitions,
 * in one list. Callers (settings, routes, the connect page, publishing, the inbox) ask it instead
 * of naming platforms.
 */
import type { PlatformDefinition } from './definition.ts';
import { unsupported } from './errors.ts';
import { facebookPlatform } from './facebook/index.ts';
import { instagramPlatform } from './instagram/index.ts';
import { PLATFORMS, type Platform } from './names.ts';
import { threadsPlatform } from './threads/index.ts';
import { tiktokPlatform } from './tiktok/index.ts';
import type { CommentsCapability, InsightsCapability, PlatformAdapter } from './types.ts';

export type { InsightMetrics, PlatformDefinition } from './definition.ts';
export { isPlatform, PLATFORMS, type Platform, settingsPrefix } from './names.ts';

const DEFINITIONS: { readonly [P in Platform]: PlatformDefinition & { readonly platform: P } } = {
  instagram: instagramPlatform,
  threads: threadsPlatform,
  tiktok: tiktokPlatform,
  facebook: facebookPlatform,
};

export function platformInfo(platform: Platform): PlatformDefinition {
  return DEFINITIONS[platform];
}

/** The platforms whose comments the service reads (and is notified of). */
export const COMMENT_PLATFORMS: readonly Platform[] = PLATFORMS.filter((p) => DEFINITIONS[p].comments !== null);

/** The platforms that offer insights. */
export const INSIGHT_PLATFORMS: readonly Platform[] = PLATFORMS.filter((p) => DEFINITIONS[p].insights !== null);

/** The adapter's comments, or `unsupported` where the platform offers none to the service. */
export function commentsOf(adapter: PlatformAdapter): CommentsCapability {
  if (adapter.comments !== undefined) return adapter.comments;
  throw unsupported(adapter.platform, 'comments through Switchboard');
}

/** The adapter's insights, or `unsupported` where the service offers none there. */
export function insightsOf(adapter: PlatformAdapter): InsightsCapability {
  if (adapter.insights !== undefined) return adapter.insights;
  throw unsupported(adapter.platform, 'insights through Switchboard (offered for Instagram and Threads)');
}
