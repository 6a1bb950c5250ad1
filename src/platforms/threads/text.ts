/**
 * How Threads measures a post's text, shared by the adapter (which refuses before calling)
 * and the sandbox (which refuses as Threads does). Threads' posts docs
 * (https://developers.facebook.com/docs/threads/posts, "Limitations"): "Text posts are
 * limited to 500 characters. Emojis are counted as the number of UTF-8 bytes."
 */
import { countText } from '../../client/text-length.ts';
import type { TextCounting } from '../definition.ts';

export const THREADS_MAX_TEXT = 500;

/**
 * The length Threads counts: an emoji (a whole grapheme) as its UTF-8 bytes, anything else as
 * its characters (code points), so 😀 is 4, 👍🏽 is 8 and é is 1.
 */
export function threadsTextLength(text: string): number {
  return countText(text, 'code_points_emoji_as_utf8_bytes');
}

/** Threads' count, named for the catalogue. */
export const THREADS_COUNTING: TextCounting = {
  rule: 'code_points_emoji_as_utf8_bytes',
  description: 'characters (code points), an emoji counting as its UTF-8 bytes: é counts 1, 😀 4, 👍🏽 8',
  length: threadsTextLength,
};
