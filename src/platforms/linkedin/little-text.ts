/**
 * LinkedIn's Little Text Format, in which a post's `commentary` is written: its reserved
 * characters `| { } @ [ ] ( ) < > # \ * _ ~` must be escaped with a backslash, even where they
 * begin no element, or LinkedIn reads them as markup (and cuts the text short). A mention in the
 * format's own syntax, `@[Name](urn:li:organization:123)`, and a hashtag (`#word`, the format's
 * hashtag element) are kept as the text gives them.
 */

const RESERVED = /[|{}@[\]()<>#\\*_~]/;
const MENTION = /^@\[[^\]\n]+\]\(urn:li:(?:person|organization):[A-Za-z0-9_-]+\)/;
const HASHTAG = /^#[\p{L}\p{N}]+/u;
/** What continues a word: a `#` after one is no hashtag (`C#`, `a#b`). */
const WORD_END = /[\p{L}\p{N}_]$/u;

/** The text as `commentary`: reserved characters escaped, mentions and hashtags kept as such. */
export function littleText(text: string): string {
  let out = '';
  let rest = text;
  while (rest !== '') {
    const element = MENTION.exec(rest) ?? (WORD_END.test(out) ? null : HASHTAG.exec(rest));
    if (element !== null) {
      out += element[0];
      rest = rest.slice(element[0].length);
      continue;
    }
    const char = String.fromCodePoint(rest.codePointAt(0) as number);
    out += RESERVED.test(char) ? `\\${char}` : char;
    rest = rest.slice(char.length);
  }
  return out;
}
