/** The common ways platforms count a text's length (a platform's own rule lives in its folder). */
import { countText } from '../client/text-length.ts';
import type { TextCounting } from './definition.ts';

/** Characters as Unicode counts them: 😀 and é are 1 each, 👍🏽 (a thumb and a skin tone) 2. */
export const CODE_POINTS: TextCounting = {
  rule: 'code_points',
  description: 'Unicode code points (characters): 😀 counts 1, 👍🏽 (a thumb and a skin tone) 2',
  length: (text) => countText(text, 'code_points'),
};

/** JavaScript's `length`: a character beyond U+FFFF (most emoji) counts 2. */
export const UTF16_CODE_UNITS: TextCounting = {
  rule: 'utf16_code_units',
  description: 'UTF-16 code units: a character beyond U+FFFF, as most emoji are, counts 2 (😀 is 2)',
  length: (text) => countText(text, 'utf16_code_units'),
};
