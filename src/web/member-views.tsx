/**
 * What the members' hosted pages show: the form that asks for a sign-in link, and the button
 * behind an e-mailed link. A link's page only shows a button: mail scanners open links to look
 * at them, so only the person's POST uses it. Brand names and addresses are shown as text.
 */
import { PASSWORD_LENGTH } from '../modules/members/index.ts';
import { type Page, titledPage } from './page.tsx';

export interface LinkPageView {
  brand: string;
  email: string;
  /** Where the form posts: the link's own address. */
  action: string;
  csrf: string;
  /** Members may set a password (MEMBER_PASSWORDS): the form offers the field. */
  passwords: boolean;
  /** Why the form was refused. */
  error?: string;
}

/** The optional password field of a link's form. */
function PasswordField({ view, label }: { view: LinkPageView; label: string }) {
  if (!view.passwords) return null;
  return (
    <>
      <label for="password">{label}</label>
      {view.error && (
        <p class="error" role="alert" id="password-error">
          {view.error}
        </p>
      )}
      <input
        type="password"
        id="password"
        name="password"
        autocomplete="new-password"
        minlength={PASSWORD_LENGTH.min}
        maxlength={PASSWORD_LENGTH.max}
        aria-describedby={view.error ? 'password-error' : undefined}
      />
    </>
  );
}

/** The page of an invitation: who invites, as which address, and the button that accepts. */
export function invitationPage(view: LinkPageView, status = 200): Page {
  return titledPage(
    status,
    `Join ${view.brand}'s dashboard`,
    <>
      <p>
        You are invited as <strong>{view.email}</strong>. Accepting signs you in to the dashboard; later, you sign in
        with a link sent to this address.
      </p>
      <form method="post" action={view.action}>
        <input type="hidden" name="csrf" value={view.csrf} />
        <PasswordField
          view={view}
          label={`A password, to sign in without a link (optional, ${PASSWORD_LENGTH.min} characters at least)`}
        />
        <div class="buttons">
          <button type="submit">Accept and sign in</button>
        </div>
      </form>
      <p class="muted">The invitation works once. If you did not expect it, close this page.</p>
    </>,
  );
}

/** The page of a sign-in link: the address it signs in, and the button. */
export function signInLinkPage(view: LinkPageView, status = 200): Page {
  return titledPage(
    status,
    `Sign in to ${view.brand}'s dashboard`,
    <>
      <p>
        You are signing in as <strong>{view.email}</strong>.
      </p>
      <form method="post" action={view.action}>
        <input type="hidden" name="csrf" value={view.csrf} />
        <PasswordField
          view={view}
          label={`A new password (optional, ${PASSWORD_LENGTH.min} characters at least; empty keeps the one you have)`}
        />
        <div class="buttons">
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p class="muted">The link works once. If you did not ask to sign in, close this page.</p>
    </>,
  );
}

/** The form that asks for a sign-in link by e-mail. */
export function requestLinkPage(
  form: { csrf: string; passwords: boolean; email?: string; error?: string; passwordError?: string },
  status = 200,
): Page {
  return titledPage(
    status,
    'Sign in with your e-mail address',
    <>
      <p>Members of an agency sign in with a link sent to their address.</p>
      <form method="post" action="/members/sign-in">
        <input type="hidden" name="csrf" value={form.csrf} />
        <label for="email">E-mail address</label>
        {form.error && (
          <p class="error" role="alert" id="email-error">
            {form.error}
          </p>
        )}
        <input
          type="email"
          id="email"
          name="email"
          required
          maxlength={320}
          autocomplete="email"
          value={form.email ?? ''}
          aria-describedby={form.error ? 'email-error' : undefined}
        />
        <div class="buttons">
          <button type="submit">Send me a sign-in link</button>
        </div>
      </form>
      {form.passwords && (
        <form method="post" action="/members/sign-in/password">
          <h2>Or sign in with your password</h2>
          <input type="hidden" name="csrf" value={form.csrf} />
          {form.passwordError && (
            <p class="error" role="alert">
              {form.passwordError}
            </p>
          )}
          <label for="password-email">E-mail address</label>
          <input
            type="email"
            id="password-email"
            name="email"
            required
            maxlength={320}
            autocomplete="username"
            value={form.email ?? ''}
          />
          <label for="password">Password</label>
          <input
            type="password"
            id="password"
            name="password"
            required
            maxlength={PASSWORD_LENGTH.max}
            autocomplete="current-password"
          />
          <div class="buttons">
            <button type="submit">Sign in</button>
          </div>
        </form>
      )}
      <p class="muted">
        Signing in with an API key? <a href="/dashboard">Use the dashboard's sign-in</a>.
      </p>
    </>,
  );
}

/** What follows a request for a link: the same whether the address is a member's or not. */
export function linkSentPage(email: string, minutes: number): Page {
  return titledPage(
    200,
    'Check your e-mail',
    <>
      <p>
        If <strong>{email}</strong> is the address of a member, a sign-in link is on its way to it. It works once, for{' '}
        {minutes} minutes.
      </p>
      <p class="muted">Nothing arrived? Check the spam folder, or ask the agency that invited you.</p>
    </>,
  );
}
