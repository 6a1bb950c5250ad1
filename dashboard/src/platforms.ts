/**
 * What the composer still knows of each platform beyond the catalogue (catalogue.ts): how
 * long a post's text may be there and how the platform counts it. The catalogue states the
 * same; the composer is to read it from there.
 */
import type { components } from '../../src/client/index.ts';
import { characters, threadsLength, utf16Units } from './text-length.ts';

export type Platform = components['schemas']['Account']['platform'];

interface PlatformFacts {
  text: { max: number; length: (text: string) => number; unit: string };
}

/** Each platform the API names (the compiler asks for a new one here), in the order screens offer them. */
const FACTS: Record<Platform, PlatformFacts> = {
  instagram: {
    // Instagram: "Maximum 2,200 characters".
    text: { max: 2200, length: characters, unit: 'characters' },
  },
  threads: {
    // Threads: "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
    text: { max: 500, length: threadsLength, unit: 'characters, an emoji as its UTF-8 bytes' },
  },
  tiktok: {
    // TikTok: the title has at most 2,200 UTF-16 code units.
    text: { max: 2200, length: utf16Units, unit: 'UTF-16 code units' },
  },
  facebook: {
    // Facebook: a page post's message has at most 63,206 characters.
    text: { max: 63206, length: characters, unit: 'characters' },
  },
};

/** How long `platform` says a post's text is, the most it takes, and in what unit. */
export function textRule(platform: Platform): PlatformFacts['text'] {
  return FACTS[platform].text;
}
