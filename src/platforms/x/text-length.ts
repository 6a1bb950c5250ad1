/**
 * How X counts a post's text ("Counting characters"): each character weighs 2 unless it is in
 * the ranges X counts as 1 (Latin and most European scripts, general punctuation), an emoji
 * (however many code points it joins) weighs 2, every URL weighs 23 whatever its length, and
 * the text is counted after Unicode NFC normalization. The limit, 280, is of that weighted sum.
 */
import type { TextCounting } from '../definition.ts';

/** The code point ranges that weigh 1, as twitter-text's configuration (v3) lists them. */
const LIGHT_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
/** Every URL is wrapped by t.co and weighs its length: 23. */
export const URL_WEIGHT = 23;
/** A URL as X finds one: a scheme, or a bare domain with a known top-level part. */
const URL_PATTERN =
  /\bhttps?:\/\/[^\s]+|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|net|org|io|co|me|dev|app|info|biz|edu|gov|[a-z]{2})\b(?:\/[^\s]*)?/giu;
/** A pictograph or a flag's letters; one below U+1100 (©, ®) only as an emoji, with U+FE0F after it. */
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const EMOJI = {
  test: (segment: string) =>
    PICTOGRAPH.test(segment) && ((segment.codePointAt(0) ?? 0) > 0x10ff || segment.includes('\uFE0F')),
};
const SEGMENTER = new Intl.Segmenter('en', { granularity: 'grapheme' });

function weightOf(codePoint: number): number {
  return LIGHT_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to) ? 1 : 2;
}

function plainWeight(text: string): number {
  let weight = 0;
  for (const { segment } of SEGMENTER.segment(text)) {
    if (EMOJI.test(segment)) {
      weight += 2;
      continue;
    }
    for (const char of segment) weight += weightOf(char.codePointAt(0) ?? 0);
  }
  return weight;
}

/** The text's weighted length, as X counts it against its limit of 280. */
export function weightedLength(text: string): number {
  const normalized = text.normalize('NFC');
  let weight = 0;
  let last = 0;
  for (const match of normalized.matchAll(URL_PATTERN)) {
    weight += plainWeight(normalized.slice(last, match.index)) + URL_WEIGHT;
    last = match.index + match[0].length;
  }
  return weight + plainWeight(normalized.slice(last));
}

export const X_WEIGHTED: TextCounting = {
  rule: 'x_weighted',
  description:
    "X's weighted length: most Latin, Greek, Cyrillic and other European characters and general punctuation count 1, other characters (CJK among them) 2, an emoji 2, and every link 23 whatever its length",
  length: weightedLength,
};
