/**
 * X's weighted length of a text ("Counting characters"): NFC first; a URL counts 23; an emoji
 * 2; a character in U+0000-U+10FF, U+2000-U+200D, U+2010-U+201F or U+2032-U+2037 counts 1, any
 * other 2.
 */
const ONE = [
  [0x0, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
const LINK = /https?:\/\/\S+/gu;
/** A pictograph or a flag's letters; one below U+1100 (©, ®) only as an emoji, with U+FE0F after it. */
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const EMOJI = {
  test: (segment: string) =>
    PICTOGRAPH.test(segment) && ((segment.codePointAt(0) ?? 0) > 0x10ff || segment.includes('\uFE0F')),
};
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function weighted(text: string): number {
  const links = text.normalize('NFC').split(LINK);
  let total = (links.length - 1) * 23;
  for (const part of links) {
    for (const { segment } of graphemes.segment(part)) {
      if (EMOJI.test(segment)) total += 2;
      else
        for (const c of segment)
          total += ONE.some(([a = 0, b = 0]) => (c.codePointAt(0) ?? 0) >= a && (c.codePointAt(0) ?? 0) <= b) ? 1 : 2;
    }
  }
  return total;
}
