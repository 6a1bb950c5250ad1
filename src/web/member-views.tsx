/**
 * What the members' hosted pages show: the form that asks for a sign-in link, and the button
 * behind an e-mailed link. A link's page only shows a button: mail scanners open links to look
 * at them, so only the person's POST uses it. Brand names and addresses are shown as text.
 */
import { type Page, titledPage } from './page.tsx';

export interface LinkPageView {
  brand: string;
  email: string;
  /** Where the form posts: the link's own address. */
  action: string;
  csrf: string;
}

/** The page of an invitation: who invites, as which address, and the button that accepts. */
export function invitationPage(view: LinkPageView): Page {
  return titledPage(
    200,
    `Join ${view.brand}'s dashboard`,
    <>
      <p>
        You are invited as <strong>{view.email}</strong>. Accepting signs you in to the dashboard; later, you sign in
        with a link sent to this address.
      </p>
      <form method="post" action={view.action}>
        <input type="hidden" name="csrf" value={view.csrf} />
        <div class="buttons">
          <button type="submit">Accept and sign in</button>
        </div>
      </form>
      <p class="muted">The invitation works once. If you did not expect it, close this page.</p>
    </>,
  );
}

/** The page of a sign-in link: the address it signs in, and the button. */
export function signInLinkPage(view: LinkPageView): Page {
  return titledPage(
    200,
    `Sign in to ${view.brand}'s dashboard`,
    <>
      <p>
        You are signing in as <strong>{view.email}</strong>.
      </p>
      <form method="post" action={view.action}>
        <input type="hidden" name="csrf" value={view.csrf} />
        <div class="buttons">
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p class="muted">The link works once. If you did not ask to sign in, close this page.</p>
    </>,
  );
}

/** The form that asks for a sign-in link by e-mail. */
export function requestLinkPage(form: { csrf: string; email?: string; error?: string }, status = 200): Page {
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
