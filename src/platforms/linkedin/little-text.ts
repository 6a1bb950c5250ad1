/**
 * LinkedIn's Little Text Format, in which a post's `commentary` is written: its reserved
 * characters `| { } @ [ ] ( ) < > # \ * _ ~` must be escaped with a backslash, or LinkedIn
 * reads them as markup (and cuts the text short). A mention written in the format's own
 * syntax, `@[Name](urn:li:organization:123)`, is kept as the text gives it, and a hashtag
 * (`#word`) becomes the format's hashtag, `{hashtag|\#|word}`.
 */

const RESERVED = /[|{}@[\]()<>#\\*_~]/g;
const MENTION = /^@\[[^\]\n]+\]\(urn:li:(?:person|organization):[A-Za-z0-9_-]+\)/;
const HASHTAG = /^#([\p{L}\p{N}]+)/u;

/** The text as `commentary`: reserved characters escaped, mentions and hashtags kept as such. */
export function littleText(text: string): string {
  let out = '';
  let rest = text;
  while (rest !== '') {
    const mention = MENTION.exec(rest);
    if (mention !== null) {
      out += mention[0];
      rest = rest.slice(mention[0].length);
      continue;
    }
    // A hashtag starts a word: `a#b` is text.
    const hashtag = /[\p{L}\p{N}_]$/u.test(out) ? null : HASHTAG.exec(rest);
    if (hashtag !== null) {
      out += `{hashtag|\\#|${hashtag[1]}}`;
      rest = rest.slice(hashtag[0].length);
      continue;
    }
    const [char] = rest;
    out += (char as string).replace(RESERVED, (c) => `\\${c}`);
    rest = rest.slice((char as string).length);
  }
  return out;
}
