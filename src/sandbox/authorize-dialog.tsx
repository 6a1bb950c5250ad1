/**
 * What the sandbox's permission page shows (authorize-page.ts serves it): the app asking, a
 * username field, one ticked checkbox per permission asked for, for Facebook one per page, and
 * Allow / Cancel. Everything the app sent (its id, the redirect, the state, the scopes) is
 * shown as text or carried in hidden fields, as the platforms' own pages do.
 */
import type { Page } from '../web/page.tsx';

/** A Facebook user's pages offered, by their place in the user's list (each sandbox user has three). */
const FACEBOOK_PAGES = 3;

const DIALOG_CSS = `
body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1c1e21}
fieldset{border:1px solid #ccd0d5;border-radius:6px;margin:1rem 0}label{display:block;margin:.4rem 0}
input[type=text]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem}.error{color:#b00020}.note{color:#606770;font-size:.9rem}
`;

function dialogPage(status: number, title: string, body: Page['body']): Page {
  // The decision redirects to whatever app asked: any http(s) place is a form target.
  return { status, title, body, css: DIALOG_CSS, formTargets: ['http:', 'https:'] };
}

export interface PermissionDialog {
  /** The page's heading: "Instagram (sandbox): allow access". */
  label: string;
  /** The query parameter naming the app: `client_id`, or TikTok's `client_key`. */
  clientParam: 'client_id' | 'client_key';
  clientId: string;
  /** The redirect URI as the app sent it. */
  redirectRaw: string;
  state: string | null;
  scopes: readonly string[];
  /** Further parameters of the app's request, carried to the decision (X's PKCE challenge). */
  carried?: Readonly<Record<string, string>>;
  /** Facebook: the user also picks which of its pages to grant. */
  withPages: boolean;
  /** Where the form posts. */
  action: string;
  /** Why the last decision was refused. */
  error?: string;
  /** The user the browser is signed in as, whom the page continues as; null or absent: it asks who. */
  signedIn?: string | null;
}

function Hidden({ name, value }: { name: string; value: string | null }) {
  return value === null ? null : <input type="hidden" name={name} value={value} />;
}

/** The permission page: what the app asks for, and the form to allow or cancel. */
export function permissionPage(dialog: PermissionDialog, status = 200): Page {
  return dialogPage(
    status,
    dialog.label,
    <main>
      <h1>{dialog.label}</h1>
      <p>
        An app (<code>{dialog.clientId}</code>) asks to use your account.
      </p>
      <p class="note">
        This is the Switchboard sandbox: any username works; a new one becomes a new user with a few posts.
      </p>
      {dialog.error && (
        <p class="error" role="alert">
          {dialog.error}
        </p>
      )}
      <form method="post" action={dialog.action}>
        <Hidden name={dialog.clientParam} value={dialog.clientId} />
        <Hidden name="redirect_uri" value={dialog.redirectRaw} />
        <Hidden name="state" value={dialog.state} />
        <Hidden name="scope" value={dialog.scopes.join(',')} />
        <Hidden name="response_type" value="code" />
        {Object.entries(dialog.carried ?? {}).map(([name, value]) => (
          <Hidden name={name} value={value} />
        ))}
        {dialog.signedIn ? (
          <p>
            Signed in as <strong>{dialog.signedIn}</strong>.
            <Hidden name="username" value={dialog.signedIn} />
          </p>
        ) : (
          <>
            <label for="username">Username</label>
            <input
              type="text"
              id="username"
              name="username"
              autocomplete="username"
              required
              pattern="[A-Za-z0-9._]{1,30}"
              autofocus
            />
          </>
        )}
        <fieldset>
          <legend>Permissions</legend>
          {dialog.scopes.map((scope) => (
            <label>
              <input type="checkbox" name="granted" value={scope} checked /> {scope}
            </label>
          ))}
        </fieldset>
        {dialog.withPages && (
          <fieldset>
            <legend>Pages to grant</legend>
            {Array.from({ length: FACEBOOK_PAGES }, (_, i) => (
              <label>
                <input type="checkbox" name="pages" value={String(i + 1)} checked /> Page {i + 1}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" name="decision" value="allow">
          Allow
        </button>{' '}
        <button type="submit" name="decision" value="cancel" formnovalidate>
          Cancel
        </button>
      </form>
    </main>,
  );
}

/** The page for a request the dialog cannot show (the real platforms answer with an error page too). */
export function dialogErrorPage(problem: string): Page {
  return dialogPage(
    400,
    'Error',
    <>
      <h1>Error</h1>
      <p>{problem}</p>
    </>,
  );
}
