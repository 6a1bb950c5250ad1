/**
 * How long a text is by a platform's counting rule, named as the catalogue names it
 * (`publishing.text.counting`), so the composer counts as the platform will. Which platform
 * counts which way, and up to what, is the catalogue's word; this table knows how each rule
 * counts. A rule it does not know is counted in code points, and the composer says that the
 * platform's own count decides.
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const utf8 = new TextEncoder();

function codePoints(text: string): number {
  return [...text].length;
}

/**
 * An emoji counts as its UTF-8 bytes. An emoji is a whole grapheme (skin tones, flags, joined
 * families); anything else counts as its code points.
 */
function codePointsEmojiAsUtf8Bytes(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    length += EMOJI.test(segment) ? utf8.encode(segment).length : codePoints(segment);
  }
  return length;
}

const RULES: Readonly<Record<string, (text: string) => number>> = {
  code_points: codePoints,
  // JavaScript's `length`: a character beyond U+FFFF (most emoji) counts 2.
  utf16_code_units: (text) => text.length,
  code_points_emoji_as_utf8_bytes: codePointsEmojiAsUtf8Bytes,
  // Every character as its UTF-8 bytes (YouTube's description): é counts 2, 😀 4.
  utf8_bytes: (text) => utf8.encode(text).length,
};

/** The length of `text` by the rule named `counting`; `known` false: counted in code points instead. */
export function textLength(text: string, counting: string): { length: number; known: boolean } {
  const rule = Object.hasOwn(RULES, counting) ? RULES[counting] : undefined;
  return rule ? { length: rule(text), known: true } : { length: codePoints(text), known: false };
}
