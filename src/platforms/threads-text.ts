/**
 * How Threads measures a post's text, for the adapter, which refuses before calling (the
 * sandbox reads Threads' rule on its own, src/sandbox/threads/text.ts). Threads' posts docs
 * (https://developers.facebook.com/docs/threads/posts, "Limitations"): "Text posts are
 * limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
 */
export const THREADS_MAX_TEXT = 500;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** What makes a grapheme an emoji: a pictograph, a flag's regional indicators, a keycap. */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/**
 * The length Threads counts: an emoji (a whole grapheme: skin tones, flags, joined
 * families) as its UTF-8 bytes, anything else as its characters (code points), so 😀 is
 * 4, 👍🏽 is 8 and é is 1.
 */
export function threadsTextLength(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    length += EMOJI.test(segment) ? Buffer.byteLength(segment, 'utf8') : [...segment].length;
  }
  return length;
}
