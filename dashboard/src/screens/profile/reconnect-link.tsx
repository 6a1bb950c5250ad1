import { useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import { platformLabel } from '../../catalogue.ts';
import { type Account, accountLabel, type ReconnectLink, type RedirectOrigin } from '../../resources.ts';
import { useSession } from '../../session.ts';
import { ErrorNotice, problemAt, Revealed, TextField, Time, useAction } from '../../ui.tsx';
import { RedirectUrlField } from './redirect-url-field.tsx';

/**
 * A reconnect link for one account (`POST /v1/accounts/{id}/reconnect-links`): a connect link
 * for that account alone, shown once with its expiry.
 */
export function ReconnectLinkForm({
  account,
  origins,
  initialRedirectUrl,
  formRef,
  onClose,
}: {
  account: Account;
  origins: readonly RedirectOrigin[];
  initialRedirectUrl: string;
  formRef: { current: HTMLFormElement | null };
  onClose: () => void;
}) {
  const { isOwner } = useSession();
  const [redirectUrl, setRedirectUrl] = useState(initialRedirectUrl);
  const [state, setState] = useState('');
  const [link, setLink] = useState<ReconnectLink | null>(null);
  const create = useAction(() =>
    answer(
      api.POST('/v1/accounts/{id}/reconnect-links', {
        params: { path: { id: account.id } },
        body: { redirect_url: redirectUrl.trim(), ...(state !== '' ? { state } : {}) },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setLink(null);
    const created = await create.run();
    if (created) setLink(created);
  };
  return (
    <section aria-labelledby="reconnect-title" class="card">
      <h2 id="reconnect-title">Reconnect link for {accountLabel(account)}</h2>
      <p class="muted">
        A single-use link, valid 30 minutes, to a page where the account's owner signs in to{' '}
        {platformLabel(account.platform)} again. It reconnects this account and no other; the account stays in this
        profile.
      </p>
      <form ref={formRef} onSubmit={submit}>
        <RedirectUrlField
          origins={origins}
          isOwner={isOwner}
          error={problemAt(create.error, 'body.redirect_url')}
          value={redirectUrl}
          onValue={setRedirectUrl}
          example="reconnected"
        />
        <TextField
          label="State (optional)"
          hint="Sent back to the redirect URL unchanged."
          error={problemAt(create.error, 'body.state')}
          value={state}
          onValue={setState}
        />
        <div class="actions">
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create reconnect link'}
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      <ErrorNotice error={create.error} />
      {link ? (
        <Revealed label={`Reconnect link for ${accountLabel(account)}`} value={link.url}>
          <p>
            Single use; expires <Time iso={link.expires_at} />.
          </p>
        </Revealed>
      ) : null}
    </section>
  );
}
