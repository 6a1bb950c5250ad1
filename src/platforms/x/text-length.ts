/** How X counts a post's text ("Counting characters"); the limit, 280, is of that weighted sum. */
import { countText } from '../../client/text-length.ts';
import type { TextCounting } from '../definition.ts';

export const X_WEIGHTED: TextCounting = {
  rule: 'x_weighted',
  description:
    "X's weighted length: most Latin, Greek, Cyrillic and other European characters and general punctuation count 1, other characters (CJK among them) 2, an emoji 2, and every link 23 whatever its length",
  length: (text) => countText(text, 'x_weighted'),
};
