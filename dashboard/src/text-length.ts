/**
 * How long each platform says a post's text is, and how long it may be, so the composer
 * can count as the platform will (from each platform's documentation, as docs/platforms.md
 * quotes it).
 */
import type { Platform } from './types.ts';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const utf8 = new TextEncoder();

/**
 * Threads: "Text posts are limited to 500 characters. Emojis are counted as the number of
 * UTF-8 bytes." An emoji is a whole grapheme (skin tones, flags, joined families); anything
 * else counts as its code points.
 */
function threadsLength(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    length += EMOJI.test(segment) ? utf8.encode(segment).length : [...segment].length;
  }
  return length;
}

export const TEXT_RULES: Record<Platform, { max: number; length: (text: string) => number; unit: string }> = {
  // Instagram: "Maximum 2,200 characters".
  instagram: { max: 2200, length: (t) => [...t].length, unit: 'characters' },
  threads: { max: 500, length: threadsLength, unit: 'characters, an emoji as its UTF-8 bytes' },
  // TikTok: the title has at most 2,200 UTF-16 code units.
  tiktok: { max: 2200, length: (t) => t.length, unit: 'UTF-16 code units' },
  // Facebook: a page post's message has at most 63,206 characters.
  facebook: { max: 63206, length: (t) => [...t].length, unit: 'characters' },
};
