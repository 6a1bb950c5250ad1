/**
 * The permission page's form as a client fills it in (authorize-page.ts renders it): for
 * tests and benches that walk the sandbox's consent as a browser would, without one.
 */

/** The page's text back from its HTML escaping (authorize-page.ts escapes these five). */
function decodeEntities(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

export interface PermissionChoice {
  username: string;
  /** The permissions ticked (default: every one the page asks for). */
  granted?: readonly string[];
  /** The Facebook pages chosen (default 1, 2 and 3). */
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
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (action === undefined) return null;
  const body = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    body.append(match[1] as string, decodeEntities(match[2] as string));
  }
  const requested = [...html.matchAll(/name="granted" value="([^"]+)"/g)].map((m) => decodeEntities(m[1] as string));
  for (const scope of choice.granted ?? requested) body.append('granted', scope);
  for (const page of choice.pages ?? [1, 2, 3]) body.append('pages', String(page));
  body.set('username', choice.username);
  body.set('decision', choice.cancel ? 'cancel' : 'allow');
  return { action: new URL(decodeEntities(action), pageUrl), body };
}
