/**
 * The typed client counts a text by the rule the catalogue names, as each platform documents
 * its count, so a program checks a text before it sends it.
 */
import { describe, expect, it } from 'vitest';
import { textLength } from '../../src/client/index.ts';

describe('textLength', () => {
  it("counts X's weighted length: a link is 23 whatever its length, CJK characters and emoji 2", () => {
    // "Read this: " is 11 characters, the link 23 ("Counting characters": every URL counts 23).
    expect(textLength('Read this: https://example.com/a/very/long/path/indeed', 'x_weighted')).toEqual({
      length: 34,
      known: true,
    });
    // Two CJK characters weigh 2 each; an emoji with its skin tone is one emoji, 2.
    expect(textLength('日本👍🏽', 'x_weighted').length).toBe(6);
  });

  it("counts Threads' emoji as their UTF-8 bytes and YouTube's description in UTF-8 bytes", () => {
    // "é" 1, "😀" its 4 bytes (Threads: "Emojis are counted as the number of UTF-8 bytes").
    expect(textLength('é😀', 'code_points_emoji_as_utf8_bytes').length).toBe(5);
    // "é" 2 bytes, "😀" 4.
    expect(textLength('é😀', 'utf8_bytes').length).toBe(6);
    expect(textLength('é😀', 'utf16_code_units').length).toBe(3);
    expect(textLength('é😀', 'code_points').length).toBe(2);
  });

  it('counts a rule it does not know in code points and says it did not know it', () => {
    expect(textLength('é😀', 'graphemes_of_tomorrow')).toEqual({ length: 2, known: false });
  });
});
