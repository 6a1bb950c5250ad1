/**
 * The ways platforms count a post's text (from each platform's documentation, as
 * docs/platforms.md quotes it), so the composer counts as the platform will. Which platform
 * counts which way, and up to what, is in platforms.ts.
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const utf8 = new TextEncoder();

/** Unicode code points. */
export function characters(text: string): number {
  return [...text].length;
}

/** UTF-16 code units, as JavaScript's `length`. */
export function utf16Units(text: string): number {
  return text.length;
}

/**
 * Threads: an emoji counts as its UTF-8 bytes. An emoji is a whole grapheme (skin tones, flags,
 * joined families); anything else counts as its code points.
 */
export function threadsLength(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    length += EMOJI.test(segment) ? utf8.encode(segment).length : [...segment].length;
  }
  return length;
}
