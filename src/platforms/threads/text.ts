/**
 * How Threads measures a post's text, shared by the adapter (which refuses before calling)
 * and the sandbox (which refuses as Threads does). Threads' posts docs
 * (https://developers.facebook.com/docs/threads/posts, "Limitations"): "Text posts are
 * limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
 */
import type { TextCounting } from '../definition.ts';

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

/** Threads' count, named for the catalogue. */
export const THREADS_COUNTING: TextCounting = {
  rule: 'code_points_emoji_as_utf8_bytes',
  description: 'characters (code points), an emoji counting as its UTF-8 bytes: é counts 1, 😀 4, 👍🏽 8',
  length: threadsTextLength,
};
