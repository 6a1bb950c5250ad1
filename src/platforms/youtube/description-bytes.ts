/** How YouTube counts a video's description: "a maximum length of 5000 bytes", the text's UTF-8 bytes. */
import { countText } from '../../client/text-length.ts';
import type { TextCounting } from '../definition.ts';

export const UTF8_BYTES: TextCounting = {
  rule: 'utf8_bytes',
  description: 'UTF-8 bytes: é counts 2, 😀 counts 4',
  length: (text) => countText(text, 'utf8_bytes'),
};
