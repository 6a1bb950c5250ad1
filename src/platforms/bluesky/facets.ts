/**
 * A post's rich text ("Rich Text Facets", app.bsky.richtext.facet): the links, mentions and
 * hashtags of its text, each with its byte range in the text's UTF-8 (byteStart inclusive,
 * byteEnd exclusive), a mention naming the DID its handle resolves to. A mention whose handle
 * does not resolve stays plain text, as Bluesky's own app leaves it.
 */
import { normalHandle } from './identity.ts';

const utf8 = new TextEncoder();

/** A link with its scheme, a mention (`@handle`), a hashtag (`#tag`, not all digits), each after a space or the start. */
const LINK = /(^|\s|\()(https?:\/\/[^\s]+?)(?=[.,;:!?)"']*(?:\s|$))/gu;
const MENTION = /(^|\s|\()@([a-zA-Z0-9.-]+)(?=\b)/gu;
const HASHTAG = /(^|\s)[#＃]([^\s#＃]*[^\d\s\p{P}#＃][^\s#＃]*)/gu;

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: Record<string, unknown>[];
}

function byteRange(text: string, start: number, length: number): Facet['index'] {
  const byteStart = utf8.encode(text.slice(0, start)).length;
  return { byteStart, byteEnd: byteStart + utf8.encode(text.slice(start, start + length)).length };
}

/** The handles the text mentions, as they will be resolved. */
export function mentionedHandles(text: string): string[] {
  return [...text.matchAll(MENTION)].flatMap((m) => {
    const handle = normalHandle(m[2] ?? '');
    return handle === null ? [] : [handle];
  });
}

/** The facets of `text`; `dids` the DIDs of the mentioned handles that resolved. */
export function facetsOf(text: string, dids: ReadonlyMap<string, string>): Facet[] {
  const facets: Facet[] = [];
  for (const m of text.matchAll(LINK)) {
    const uri = m[2] as string;
    const start = (m.index ?? 0) + (m[1] ?? '').length;
    facets.push({
      index: byteRange(text, start, uri.length),
      features: [{ $type: 'app.bsky.richtext.facet#link', uri }],
    });
  }
  for (const m of text.matchAll(MENTION)) {
    const did = dids.get(normalHandle(m[2] ?? '') ?? '');
    if (did === undefined) continue;
    const start = (m.index ?? 0) + (m[1] ?? '').length;
    facets.push({
      index: byteRange(text, start, (m[2] as string).length + 1),
      features: [{ $type: 'app.bsky.richtext.facet#mention', did }],
    });
  }
  for (const m of text.matchAll(HASHTAG)) {
    const tag = (m[2] ?? '').replace(/\p{P}+$/gu, '');
    // "a tag is at most 64 graphemes"; a bare # or one too long is plain text.
    if (tag === '' || [...tag].length > 64) continue;
    const start = (m.index ?? 0) + (m[1] ?? '').length;
    facets.push({
      index: byteRange(text, start, tag.length + 1),
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag }],
    });
  }
  return facets.sort((a, b) => a.index.byteStart - b.index.byteStart);
}
