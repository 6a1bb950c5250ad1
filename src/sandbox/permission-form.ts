/**
 * The permission page's form as a client fills it in (authorize-dialog.tsx renders it): for
 * tests and benches that walk the sandbox's consent as a browser would, without one. It reads
 * the form's fields from the page's markup as a browser submits them: the form's action
 * resolved against the page's address, every hidden field, and the checkboxes ticked.
 */

/** One attribute: its name, then its value in double quotes, single quotes, unquoted, or none. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** A start tag of `name`, its attributes in group 1 (a quoted value may hold `>`). */
function startTag(name: string): RegExp {
  return new RegExp(`<${name}((?:\\s+[^\\s"'>/=]+(?:\\s*=\\s*(?:"[^"]*"|'[^']*'|[^\\s"'=<>\`]+))?)*)\\s*/?>`, 'gi');
}

/** Text back from the character references a renderer writes (`&quot;`, `&amp;`, `&lt;`, `&#39;`, ...). */
function decodeReferences(text: string): string {
  const named: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };
  return text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(quot|amp|lt|gt|apos));/gi, (whole, dec, hex, name) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec));
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    return named[String(name).toLowerCase()] ?? whole;
  });
}

/** Each start tag of `name` in `html`, as its attributes (names in lower case, values as text). */
function elements(html: string, name: string): Map<string, string>[] {
  return [...html.matchAll(startTag(name))].map((tag) => {
    const attributes = new Map<string, string>();
    for (const [, attribute, double, single, bare] of (tag[1] ?? '').matchAll(ATTRIBUTE)) {
      const key = (attribute as string).toLowerCase();
      // A browser keeps the first of an attribute written twice.
      if (!attributes.has(key)) attributes.set(key, decodeReferences(double ?? single ?? bare ?? ''));
    }
    return attributes;
  });
}

export interface PermissionChoice {
  username: string;
  /** The permissions ticked (default: those the page ticks, every one it asks for). */
  granted?: readonly string[];
  /** The Facebook pages chosen, by their place (default: those the page ticks, 1, 2 and 3). */
  pages?: readonly number[];
  /** Cancel instead of Allow. */
  cancel?: boolean;
}

/**
 * The form the page at `pageUrl` posts for `choice`: its hidden fields, the permissions and
 * pages ticked, the user and the decision; and where it posts. Null when the page has no form.
 */
export function permissionForm(
  html: string,
  pageUrl: string | URL,
  choice: PermissionChoice,
): { action: URL; body: URLSearchParams } | null {
  const formStart = startTag('form').exec(html);
  if (formStart === null) return null;
  const formEnd = html.indexOf('</form>', formStart.index);
  const form = html.slice(formStart.index, formEnd === -1 ? undefined : formEnd);
  const [formAttributes] = elements(form, 'form');
  const inputs = elements(form, 'input');
  const typeOf = (input: Map<string, string>) => input.get('type')?.toLowerCase() ?? 'text';
  const body = new URLSearchParams();
  for (const input of inputs) {
    const name = input.get('name');
    if (typeOf(input) === 'hidden' && name !== undefined) body.append(name, input.get('value') ?? '');
  }
  const ticked = (name: string) =>
    inputs
      .filter((i) => typeOf(i) === 'checkbox' && i.get('name') === name && i.has('checked'))
      .map((i) => i.get('value') ?? 'on');
  for (const scope of choice.granted ?? ticked('granted')) body.append('granted', scope);
  for (const page of choice.pages ?? ticked('pages')) body.append('pages', String(page));
  body.set('username', choice.username);
  body.set('decision', choice.cancel ? 'cancel' : 'allow');
  // A form without an action posts to the page's own address.
  return { action: new URL(formAttributes?.get('action') ?? '', pageUrl), body };
}
