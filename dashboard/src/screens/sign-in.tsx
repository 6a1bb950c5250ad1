/**
 * Sign-in: the key is sent once, in an Authorization header, to exchange it for a session
 * cookie; it is then dropped from the form and never stored by the page.
 */
import { useState } from 'preact/hooks';
import { answer, api } from '../api.ts';
import type { Session } from '../resources.ts';
import { ErrorNotice, Field, useAction } from '../ui.tsx';

export function SignIn({ reason, onSignedIn }: { reason: string | null; onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const signIn = useAction(async (value: string) =>
    answer(api.POST('/v1/session', { headers: { Authorization: `Bearer ${value}` }, body: {} })),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = key.trim();
    setKey('');
    const session = await signIn.run(value);
    if (session) onSignedIn(session);
  };
  return (
    <main class="sign-in" id="main">
      <h1>Switchboard dashboard</h1>
      {reason ? (
        <p class="notice" role="status">
          {reason}
        </p>
      ) : null}
      <form onSubmit={submit}>
        <Field
          label="API key"
          hint="An owner key (sb_owner_…) sees every profile; a profile key (sb_profile_…) sees its own profile only. The key is exchanged for a session and not kept by this page."
        >
          {({ id, describedBy }) => (
            <input
              id={id}
              name="key"
              type="password"
              autocomplete="off"
              spellcheck={false}
              required
              aria-describedby={describedBy}
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={signIn.busy}>
          {signIn.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ErrorNotice error={signIn.error} />
      <p>
        A member of an agency? <a href="/members/sign-in">Sign in with your e-mail address</a>.
      </p>
    </main>
  );
}
