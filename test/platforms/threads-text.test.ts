import { describe, expect, it } from 'vitest';
import { threadsTextLength } from '../../src/platforms/threads/text.ts';

describe('threads text length: characters, an emoji as its UTF-8 bytes (Threads posts docs)', () => {
  it.each([
    ['plain ASCII', 'Hello', 5],
    ['an accented letter is one character', 'café', 4],
    ['a CJK character is one character', '日本', 2],
    ['😀 is 4 bytes', '😀', 4],
    ['👍🏽 (skin tone) is 8 bytes', '👍🏽', 8],
    ['🇩🇪 (a flag, two regional indicators) is 8 bytes', '🇩🇪', 8],
    ['1️⃣ (a keycap) is 7 bytes', '1️⃣', 7],
    ['❤️ is 6 bytes', '❤️', 6],
    ['text around an emoji', 'hi 😀!', 8],
  ])('%s', (_name, text, length) => {
    expect(threadsTextLength(text)).toBe(length);
  });
});
