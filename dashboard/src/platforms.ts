/**
 * What the screens know of each platform beyond the API's types: its label, how long a post's
 * text may be there and how the platform counts it, and which platforms have comments and
 * insights. The service's platform definitions hold the same facts; this file is the
 * dashboard's one copy of them, to be read from the service instead once it answers them.
 */
import type { components } from '../../src/client/index.ts';
import { characters, threadsLength, utf16Units } from './text-length.ts';

export type Platform = components['schemas']['Account']['platform'];

interface PlatformFacts {
  label: string;
  text: { max: number; length: (text: string) => number; unit: string };
  comments: boolean;
  insights: boolean;
}

/** Each platform the API names (the compiler asks for a new one here), in the order screens offer them. */
const FACTS: Record<Platform, PlatformFacts> = {
  instagram: {
    label: 'Instagram',
    // Instagram: "Maximum 2,200 characters".
    text: { max: 2200, length: characters, unit: 'characters' },
    comments: true,
    insights: true,
  },
  threads: {
    label: 'Threads',
    // Threads: "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
    text: { max: 500, length: threadsLength, unit: 'characters, an emoji as its UTF-8 bytes' },
    comments: true,
    insights: true,
  },
  tiktok: {
    label: 'TikTok',
    // TikTok: the title has at most 2,200 UTF-16 code units.
    text: { max: 2200, length: utf16Units, unit: 'UTF-16 code units' },
    comments: false,
    insights: false,
  },
  facebook: {
    label: 'Facebook Page',
    // Facebook: a page post's message has at most 63,206 characters.
    text: { max: 63206, length: characters, unit: 'characters' },
    comments: true,
    insights: false,
  },
};

export const PLATFORMS = Object.keys(FACTS) as Platform[];

export function platformLabel(platform: Platform): string {
  return FACTS[platform].label;
}

/** How long `platform` says a post's text is, the most it takes, and in what unit. */
export function textRule(platform: Platform): PlatformFacts['text'] {
  return FACTS[platform].text;
}

/** The platforms whose comments the service reads (the inbox's platform filter). */
export const COMMENT_PLATFORMS = PLATFORMS.filter((p) => FACTS[p].comments);

/** The platforms whose figures the service reads (the insights screen). */
export const INSIGHT_PLATFORMS = PLATFORMS.filter((p) => FACTS[p].insights);
