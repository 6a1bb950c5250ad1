/**
 * How long a text is by each counting rule a platform may name in the catalogue
 * (`publishing.text.counting` of GET /v1/platforms), so a program, or the dashboard, counts a
 * text as the platform will before it sends it. The service checks posts with these same
 * functions; which platform counts which way, and up to what, is the catalogue's word. Runs in
 * a browser as in Node.js.
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const utf8 = new TextEncoder();

function codePoints(text: string): number {
  return [...text].length;
}

/** What makes a grapheme an emoji for Threads: a pictograph, a flag's regional indicators, a keycap. */
const THREADS_EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/**
 * Threads' count: an emoji (a whole grapheme: skin tones, flags, joined families) as its
 * UTF-8 bytes, anything else as its characters (code points), so 😀 is 4, 👍🏽 is 8 and é is 1.
 */
function codePointsEmojiAsUtf8Bytes(text: string): number {
  let length = 0;
  for (const { segment } of graphemes.segment(text)) {
    length += THREADS_EMOJI.test(segment) ? utf8.encode(segment).length : codePoints(segment);
  }
  return length;
}

/*
 * X's weighted length ("Counting characters"): each character weighs 2 unless it is in the
 * ranges X counts as 1 (Latin and most European scripts, general punctuation), an emoji
 * (however many code points it joins) weighs 2, every URL weighs 23 whatever its length, and
 * the text is counted after Unicode NFC normalization.
 */
/** The code point ranges that weigh 1, as twitter-text's configuration (v3) lists them. */
const LIGHT_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
/** Every URL is wrapped by t.co and weighs its length: 23. */
const URL_WEIGHT = 23;
/** A URL as X finds one: a scheme, or a bare domain with a known top-level part. */
const URL_PATTERN =
  /\bhttps?:\/\/[^\s]+|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|net|org|io|co|me|dev|app|info|biz|edu|gov|[a-z]{2})\b(?:\/[^\s]*)?/giu;
/** A pictograph or a flag's letters; one below U+1100 (©, ®) only as an emoji, with U+FE0F after it. */
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const EMOJI = {
  test: (segment: string) =>
    PICTOGRAPH.test(segment) && ((segment.codePointAt(0) ?? 0) > 0x10ff || segment.includes('\uFE0F')),
};

function weightOf(codePoint: number): number {
  return LIGHT_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to) ? 1 : 2;
}

function plainWeight(text: string): number {
  let weight = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (EMOJI.test(segment)) {
      weight += 2;
      continue;
    }
    for (const char of segment) weight += weightOf(char.codePointAt(0) ?? 0);
  }
  return weight;
}

/** The text's weighted length, as X counts it against its limit of 280. */
function xWeighted(text: string): number {
  const normalized = text.normalize('NFC');
  let weight = 0;
  let last = 0;
  for (const match of normalized.matchAll(URL_PATTERN)) {
    weight += plainWeight(normalized.slice(last, match.index)) + URL_WEIGHT;
    last = match.index + match[0].length;
  }
  return weight + plainWeight(normalized.slice(last));
}

/** Each rule by the name the catalogue gives it. */
const RULES: Readonly<Record<string, (text: string) => number>> = {
  code_points: codePoints,
  // JavaScript's `length`: a character beyond U+FFFF (most emoji) counts 2.
  utf16_code_units: (text) => text.length,
  code_points_emoji_as_utf8_bytes: codePointsEmojiAsUtf8Bytes,
  // Every character as its UTF-8 bytes (YouTube's description): é counts 2, 😀 4.
  utf8_bytes: (text) => utf8.encode(text).length,
  x_weighted: xWeighted,
  // Extended grapheme clusters (Unicode UAX #29), what a reader sees as one character: 👍🏽 counts 1.
  graphemes: (text) => [...graphemes.segment(text)].length,
};

/** The counting rules this client knows, by the catalogue's names. */
export type TextCountingRule =
  | 'code_points'
  | 'utf16_code_units'
  | 'code_points_emoji_as_utf8_bytes'
  | 'utf8_bytes'
  | 'x_weighted'
  | 'graphemes';

/** The length of `text` by the rule the catalogue names. */
export function countText(text: string, rule: TextCountingRule): number {
  return (RULES[rule] ?? codePoints)(text);
}

/**
 * The length of `text` by the rule named `counting`, which a newer service may name without this
 * client knowing it: then `known` is false and the text is counted in code points instead.
 */
export function textLength(text: string, counting: string): { length: number; known: boolean } {
  const rule = Object.hasOwn(RULES, counting) ? RULES[counting] : undefined;
  return rule ? { length: rule(text), known: true } : { length: codePoints(text), known: false };
}
