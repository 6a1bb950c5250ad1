/**
 * The shell of every hosted page: one HTML document with its stylesheet inline (no
 * third-party or even first-party assets to load), sent with headers that allow nothing
 * else: no scripts, no framing, no referrer (a link's token is in its URL), and images and
 * videos only from the origins a page names (the approval page's media).
 *
 * A page is Preact elements, rendered to HTML here by preact-render-to-string, which escapes
 * every text and attribute value it writes. So whatever a page shows (a brand name, a post's
 * text, a platform user's name) reaches the browser as text, and no page writes markup by hand.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

export const BASE_CSS = `
:root{color-scheme:light;--ink:#1d2330;--muted:#5b6475;--line:#d5d9e0;--accent:#2446c7;--error:#a3182b}
*{box-sizing:border-box}
body{margin:0;font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#f6f7f9}
main{max-width:30rem;margin:0 auto;padding:2rem 1.25rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem;overflow-wrap:anywhere}
p{margin:0 0 1rem}.muted{color:var(--muted);font-size:.95rem}
.error{color:var(--error);font-weight:600}
.buttons{list-style:none;margin:1.5rem 0;padding:0;display:grid;gap:.75rem}
.button,button{display:block;width:100%;min-height:3rem;padding:.75rem 1rem;border:1px solid var(--accent);border-radius:.5rem;
background:var(--accent);color:#fff;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #f0a400;outline-offset:2px}
fieldset{border:1px solid var(--line);border-radius:.5rem;margin:0 0 1rem;padding:.5rem 1rem;background:#fff}
legend{font-weight:600;padding:0 .25rem}
label{display:flex;gap:.75rem;align-items:center;min-height:2.75rem;overflow-wrap:anywhere}
input[type=checkbox]{width:1.25rem;height:1.25rem;flex:none}
.card{border:1px solid var(--line);border-radius:.5rem;margin:0 0 1rem;padding:1rem;background:#fff}
.card h2{font-size:1.05rem;margin:0 0 .5rem;overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.media{display:grid;gap:.5rem;margin:0 0 1rem}.media img,.media video{display:block;max-width:100%;border-radius:.5rem;background:#e9ebef}
dl{margin:0;font-size:.95rem}dt{color:var(--muted)}dd{margin:0 0 .25rem;overflow-wrap:anywhere}
textarea{display:block;width:100%;min-height:6rem;padding:.5rem;border:1px solid var(--muted);border-radius:.5rem;font:inherit}
input[type=email],input[type=password]{display:block;width:100%;min-height:2.75rem;padding:.5rem;border:1px solid var(--muted);border-radius:.5rem;font:inherit}
form .buttons{margin:1rem 0}
`;

/** CSP source of each stylesheet, computed once: the stylesheets are constants. */
const styleHashes = new Map<string, string>();

function styleHash(css: string): string {
  let source = styleHashes.get(css);
  if (source === undefined) {
    source = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    styleHashes.set(css, source);
  }
  return source;
}

export interface Page {
  status: number;
  title: string;
  /** What the page's body holds: elements, and values as text. */
  body: ComponentChildren;
  /**
   * Origins a form on the page may lead to, besides this one. Browsers apply
   * `form-action` to the redirect after a submission too, so a form whose answer
   * redirects elsewhere names that place here.
   */
  formTargets?: readonly string[];
  /** A stylesheet to use instead of the hosted pages' own (the sandbox's platform look). */
  css?: string;
  /** Who may frame the page: nobody (the default), or this origin's own pages (`'self'`). */
  frameAncestors?: "'self'";
  /** Origins the page's images and videos come from (none by default). */
  mediaSources?: readonly string[];
}

function Document({ title, css, children }: { title: string; css: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{title}</title>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the stylesheet is a constant of this code, never a value, and its CSP hash is of these very bytes (an escaped text would change them). */}
        <style dangerouslySetInnerHTML={{ __html: css }} />
      </head>
      <body>{children}</body>
    </html>
  );
}

/** The page's HTML document, as a browser receives it. */
export function renderPage(page: Page): string {
  const document = renderToString(
    <Document title={page.title} css={page.css ?? BASE_CSS}>
      {page.body}
    </Document>,
  );
  return `<!doctype html>\n${document}`;
}

export function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  const hash = styleHash(page.css ?? BASE_CSS);
  const formAction = ["'self'", ...(page.formTargets ?? [])].join(' ');
  const sources = [...new Set(page.mediaSources ?? [])].join(' ');
  const media = sources === '' ? '' : ` img-src ${sources}; media-src ${sources};`;
  return reply
    .code(page.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src ${hash};${media} form-action ${formAction}; frame-ancestors ${page.frameAncestors ?? "'none'"}; base-uri 'none'`,
    )
    .header('x-frame-options', page.frameAncestors ? 'SAMEORIGIN' : 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(renderPage(page));
}

/** A page whose heading is its title, above `children`. */
export function titledPage(status: number, title: string, children: ComponentChildren): Page {
  return {
    status,
    title,
    body: (
      <main>
        <h1>{title}</h1>
        {children}
      </main>
    ),
  };
}

/** A page that says, in words, why nothing more happens here, with a way back when there is one. */
export function problemPage(status: number, title: string, text: string, retryUrl?: string): Page {
  return titledPage(
    status,
    title,
    <>
      <p>{text}</p>
      {retryUrl && (
        <p>
          <a class="button" href={retryUrl}>
            Try again
          </a>
        </p>
      )}
    </>,
  );
}

export function sendProblemPage(
  reply: FastifyReply,
  status: number,
  title: string,
  text: string,
  retryUrl?: string,
): FastifyReply {
  return sendPage(reply, problemPage(status, title, text, retryUrl));
}
