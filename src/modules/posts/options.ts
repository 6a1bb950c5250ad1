/** A post's options in the API's terms (`platforms.<platform>`): what each target publishes. */
import { type Platform, type PostOptions, platformInfo } from '../../platforms/index.ts';
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

/** A medium of the library that a platform's options name by id, and the option's place. */
export interface OptionMediumRef {
  /** The API's name of its place: `platforms.x.thread[1].media_ids[0]`. */
  field: string;
  mediaId: string;
}

/**
 * The media of the library a platform's options name: every `media_ids` list within them (an X
 * thread's later posts), in order. Such media are checked, held and given to the adapter as the
 * post's own `media_ids` are.
 */
export function optionMediaRefs(platforms: PlatformsJson, platform: Platform): OptionMediumRef[] {
  const refs: OptionMediumRef[] = [];
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${at}[${index}]`);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [name, inner] of Object.entries(value)) {
      if (name === 'media_ids' && Array.isArray(inner)) {
        for (const [index, id] of inner.entries()) {
          if (typeof id === 'string') refs.push({ field: `${at}.${name}[${index}]`, mediaId: id });
        }
      } else walk(inner, `${at}.${name}`);
    }
  };
  walk(platformOptions(platforms, platform), `platforms.${platform}`);
  return refs;
}

/**
 * The values a post names for the options `platform` lists (its definition's `listedOptions`:
 * Pinterest's `board_id`), by option: those the account's own values on the platform must hold.
 */
export function listedOptionValues(platforms: PlatformsJson, platform: Platform): Map<string, string> {
  const options = platformOptions(platforms, platform);
  const named = new Map<string, string>();
  for (const option of Object.keys(platformInfo(platform).publishing.listedOptions ?? {})) {
    const value = options[option];
    if (typeof value === 'string') named.set(option, value);
  }
  return named;
}
