/**
 * A served page read as a browser reads it: parsed by parse5, which follows the HTML standard's
 * parsing algorithm, so a test sees the elements, attributes and text a browser would build
 * from the bytes, whatever the renderer's way of escaping them.
 */
import { type DefaultTreeAdapterTypes, parse } from 'parse5';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

/** One node of the page, in document order: an element with its attributes, a text, or a comment. */
export type PageNode = { element: string; attributes: Record<string, string> } | { text: string } | { comment: string };

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function childrenOf(node: Node): Node[] {
  // A <template>'s children live in its content.
  if (isElement(node) && node.tagName === 'template')
    return (node as DefaultTreeAdapterTypes.Template).content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const child of childrenOf(node)) yield* walk(child);
}

function textContent(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterTypes.TextNode).value;
  return childrenOf(node).map(textContent).join('');
}

/** Every element, text and comment of the page, in document order. */
export function pageNodes(html: string): PageNode[] {
  const nodes: PageNode[] = [];
  for (const node of walk(parse(html))) {
    if (isElement(node)) {
      nodes.push({ element: node.tagName, attributes: Object.fromEntries(node.attrs.map((a) => [a.name, a.value])) });
    } else if (node.nodeName === '#text') {
      nodes.push({ text: (node as DefaultTreeAdapterTypes.TextNode).value });
    } else if (node.nodeName === '#comment') {
      nodes.push({ comment: (node as DefaultTreeAdapterTypes.CommentNode).data });
    }
  }
  return nodes;
}

/** The names of the page's elements, in document order. */
export function tagsOf(html: string): string[] {
  return [...walk(parse(html))].filter(isElement).map((element) => element.tagName);
}

/** Each `tag` element of the page: its attributes and its text, as a browser reads them. */
export function elementsOf(html: string, tag: string): { attributes: Record<string, string>; text: string }[] {
  return [...walk(parse(html))]
    .filter((n): n is Element => isElement(n) && n.tagName === tag)
    .map((element) => ({
      attributes: Object.fromEntries(element.attrs.map((a) => [a.name, a.value])),
      text: textContent(element),
    }));
}

/** The text of each `tag` element of the page, as a browser shows it (its `textContent`). */
export function textsOf(html: string, tag: string): string[] {
  return elementsOf(html, tag).map((element) => element.text);
}
