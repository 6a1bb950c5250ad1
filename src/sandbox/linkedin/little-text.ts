/**
 * Reading a post's `commentary` as LinkedIn's Little Text Format: `\x` is the character x; a
 * hashtag is `#word` (the hashtag element) or `{hashtag|#|word}` (the hashtag template, its sign
 * `#` or `＃`); a mention is `@[Name](urn:li:organization:123)`. Any other reserved character
 * (`| { } @ [ ] ( ) < > # \ * _ ~`) left unescaped is markup LinkedIn cannot read: what it shows
 * stops there (the text is cut short, and the API still answers 201).
 */
const RESERVED = new Set([...'|{}@[]()<>#\\*_~']);
const HASHTAG_TEMPLATE = /^\{hashtag\|([#＃])\|([^}|\\]+)\}/;
const HASHTAG = /^#[\p{L}\p{N}]+/u;
const MENTION = /^@\[([^\]\n]+)\]\(urn:li:(?:person|organization):[A-Za-z0-9_-]+\)/;

/** The text LinkedIn shows for `commentary`, and whether it was cut short at an unescaped reserved character. */
export function shownText(commentary: string): { text: string; cut: boolean } {
  let text = '';
  let rest = commentary;
  while (rest !== '') {
    if (rest.startsWith('\\') && rest.length > 1) {
      const escaped = String.fromCodePoint(rest.codePointAt(1) as number);
      text += escaped;
      rest = rest.slice(1 + escaped.length);
      continue;
    }
    const template = HASHTAG_TEMPLATE.exec(rest);
    if (template !== null) {
      text += `${template[1]}${template[2]}`;
      rest = rest.slice(template[0].length);
      continue;
    }
    const hashtag = HASHTAG.exec(rest);
    if (hashtag !== null) {
      text += hashtag[0];
      rest = rest.slice(hashtag[0].length);
      continue;
    }
    const mention = MENTION.exec(rest);
    if (mention !== null) {
      text += `@${mention[1]}`;
      rest = rest.slice(mention[0].length);
      continue;
    }
    const char = String.fromCodePoint(rest.codePointAt(0) as number);
    if (RESERVED.has(char)) return { text, cut: true };
    text += char;
    rest = rest.slice(char.length);
  }
  return { text, cut: false };
}
