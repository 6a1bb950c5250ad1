/**
 * Threads' measure of a post's text, from its posts docs
 * (https://developers.facebook.com/docs/threads/posts, "Limitations"): "Text posts are limited
 * to 500 characters. Emojis are counted as the number of UTF-8 bytes." The sandbox reads that
 * sentence itself, apart from the adapter, so an adapter that counts otherwise meets Threads'
 * refusal here.
 */
export const TEXT_LIMIT = 500;

/** What a reader sees as one character, an emoji with its skin tone, joiners or flag pair included. */
const perceived = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** An emoji holds a pictograph, a regional indicator (a flag is two) or a keycap mark. */
const EMOJI_PART = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/** Each emoji counts its UTF-8 bytes (😀 4, 👍🏽 8, 🇫🇷 8); every other character (code point) counts 1. */
export function textLength(text: string): number {
  return Array.from(perceived.segment(text)).reduce(
    (length, { segment }) =>
      length + (EMOJI_PART.test(segment) ? Buffer.byteLength(segment, 'utf8') : Array.from(segment).length),
    0,
  );
}
