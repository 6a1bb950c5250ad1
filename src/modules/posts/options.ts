/** A post's options in the API's terms (`platforms.<platform>`): what each target publishes. */
import type { Platform, PostOptions } from '../../platforms/index.ts';
import type { PostPlatformOptions as PlatformsJson } from './tables.ts';

/** The text a target on `platform` publishes: its platform's own, else the post's. */
export function targetText(text: string | null, platforms: PlatformsJson, platform: Platform): string | undefined {
  const own = platforms[platform]?.text;
  return own ?? text ?? undefined;
}

/** What the adapter of `platform` takes: that platform's options, without the text (targetText). */
export function platformOptions(platforms: PlatformsJson, platform: Platform): PostOptions {
  const { text: _text, ...options } = platforms[platform] ?? {};
  return options;
}
