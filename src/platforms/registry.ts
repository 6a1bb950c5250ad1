/**
 * Every platform the service talks to and what it can do there: the platforms' own definitions,
 * in one list. Callers (settings, routes, the connect page, publishing, the inbox) ask it instead
 * of naming platforms. Adding a platform is adding its folder's entry here.
 */

import { blueskyPlatform } from './bluesky/index.ts';
import type { PlatformDefinition, PlatformSetting } from './definition.ts';
import { unsupported } from './errors.ts';
import { facebookPlatform } from './facebook/index.ts';
import { googleBusinessPlatform } from './google_business/index.ts';
import { instagramPlatform } from './instagram/index.ts';
import { linkedinPlatform } from './linkedin/index.ts';
import { PLATFORMS, type Platform } from './names.ts';
import { pinterestPlatform } from './pinterest/index.ts';
import { threadsPlatform } from './threads/index.ts';
import { tiktokPlatform } from './tiktok/index.ts';
import type { CommentsCapability, InsightsCapability, PlatformAdapter } from './types.ts';
import { xPlatform } from './x/index.ts';
import { youtubePlatform } from './youtube/index.ts';

export {
  type InsightMetrics,
  type MetricDescriptions,
  type PlatformDefinition,
  type ProcessingRules,
  pollWaitMs,
  type ReportFigures,
} from './definition.ts';
export { isPlatform, PLATFORMS, type Platform, settingsPrefix } from './names.ts';

const DEFINITIONS = {
  instagram: instagramPlatform,
  threads: threadsPlatform,
  tiktok: tiktokPlatform,
  facebook: facebookPlatform,
  linkedin: linkedinPlatform,
  youtube: youtubePlatform,
  x: xPlatform,
  google_business: googleBusinessPlatform,
  pinterest: pinterestPlatform,
  bluesky: blueskyPlatform,
} as const satisfies { readonly [P in Platform]: PlatformDefinition & { readonly platform: P } };

export function platformInfo(platform: Platform): PlatformDefinition {
  return DEFINITIONS[platform];
}

/** A text's length as `platform` counts it (its definition's `publishing.text.counting`). */
export function textLength(platform: Platform, text: string): number {
  return DEFINITIONS[platform].publishing.text.counting.length(text);
}

/** The platforms whose comments the service reads (and is notified of). */
export const COMMENT_PLATFORMS: readonly Platform[] = PLATFORMS.filter((p) => DEFINITIONS[p].comments !== null);

/** The platforms that offer insights. */
export const INSIGHT_PLATFORMS: readonly Platform[] = PLATFORMS.filter((p) => DEFINITIONS[p].insights !== null);

const AND = new Intl.ListFormat('en-GB', { type: 'conjunction' });
const OR = new Intl.ListFormat('en-GB', { type: 'disjunction' });

/** Platforms' labels as a sentence names them: "Instagram and Threads", "Instagram or Threads". */
export function platformLabels(platforms: readonly Platform[], joiner: 'and' | 'or'): string {
  return (joiner === 'and' ? AND : OR).format(platforms.map((p) => DEFINITIONS[p].label));
}

/** The adapter's comments, or `unsupported` where the platform offers none to the service. */
export function commentsOf(adapter: PlatformAdapter): CommentsCapability {
  if (adapter.comments !== undefined) return adapter.comments;
  throw unsupported(adapter.platform, 'comments through Switchboard');
}

/** The adapter's insights, or `unsupported` where the service offers none there. */
export function insightsOf(adapter: PlatformAdapter): InsightsCapability {
  if (adapter.insights !== undefined) return adapter.insights;
  throw unsupported(
    adapter.platform,
    `insights through Switchboard (offered for ${platformLabels(INSIGHT_PLATFORMS, 'and')})`,
  );
}

/** `THREADS_TESTER_TOKEN` as the settings name it: `threadsTesterToken`. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<Name>;

type VariableOf<Setting> = Setting extends PlatformSetting<infer Variable> ? Variable : never;
type Definitions = typeof DEFINITIONS;
/** The environment variables of the settings platforms declare. */
export type PlatformSettingVariable = {
  [P in Platform]: VariableOf<Definitions[P]['settings'][keyof Definitions[P]['settings']]>;
}[Platform];

/** The values of the settings platforms declare, as the service's settings hold them; unset: undefined. */
export type PlatformSettingValues = { readonly [V in PlatformSettingVariable as CamelCase<V>]: string | undefined };

/** A setting a platform declares: its own name for it (`key`), and the service's settings' name (`configName`). */
export interface DeclaredSetting {
  platform: Platform;
  key: string;
  configName: keyof PlatformSettingValues;
  setting: PlatformSetting;
}

function camelCase(variable: string): string {
  return variable.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Every setting a platform declares beside its client id and secret, read by the service's settings. */
export const PLATFORM_SETTINGS: readonly DeclaredSetting[] = PLATFORMS.flatMap((platform) =>
  Object.entries(DEFINITIONS[platform].settings).map(([key, setting]: [string, PlatformSetting]) => ({
    platform,
    key,
    // The type above names the same: the variable in camelCase.
    configName: camelCase(setting.variable) as keyof PlatformSettingValues,
    setting,
  })),
);
