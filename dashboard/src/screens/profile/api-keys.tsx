/**
 * A profile's API keys (owner sessions): make one, shown once with a copy button; list them by
 * their first characters; revoke one after a confirmation.
 */
import { useState } from 'preact/hooks';
import { all, answer, api } from '../../api.ts';
import type { ApiKey, CreatedApiKey } from '../../resources.ts';
import {
  Confirm,
  ErrorNotice,
  LoadedTable,
  problemAt,
  Revealed,
  TextField,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../../ui.tsx';

export function ApiKeys({ profileId }: { profileId: string }) {
  const keys = useLoad(() => all('/v1/profiles/{id}/api-keys', { path: { id: profileId } }), [profileId]);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useAction(() =>
    answer(
      api.POST('/v1/profiles/{id}/api-keys', {
        params: { path: { id: profileId } },
        body: name.trim() ? { name: name.trim() } : {},
      }),
    ),
  );
  const revoke = useConfirmed(
    (key: ApiKey) =>
      answer(api.DELETE('/v1/profiles/{id}/api-keys/{keyId}', { params: { path: { id: profileId, keyId: key.id } } })),
    () => keys.reload(),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = await create.run();
    if (key) {
      setCreated(key);
      setName('');
      keys.reload();
    }
  };
  return (
    <section aria-labelledby="keys-title" class="card">
      <h2 id="keys-title">API keys</h2>
      <p class="muted">A profile key sees and changes this profile only.</p>
      <form class="inline" onSubmit={submit}>
        <TextField
          label="Key name (optional)"
          error={problemAt(create.error, 'body.name')}
          maxLength={200}
          value={name}
          onValue={setName}
        />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create API key'}
        </button>
      </form>
      <ErrorNotice error={create.error} />
      {created ? (
        <Revealed label={`New key${created.name ? ` “${created.name}”` : ''}`} value={created.key}>
          <p class="notice warn">
            This key will not be shown again. Copy it now and keep it somewhere safe; only its first characters are kept
            here.
          </p>
          <button type="button" class="secondary small" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </Revealed>
      ) : null}
      <LoadedTable
        loaded={keys}
        loadingLabel="Loading the profile keys…"
        empty="No profile keys yet."
        caption="Profile API keys"
        columns={['Name', 'Starts with', 'Created', 'Actions']}
        rows={(items) =>
          items.map((k) => (
            <tr key={k.id}>
              <td>{k.name ?? <span class="muted">unnamed</span>}</td>
              <td>
                <code>{k.key_start}…</code>
              </td>
              <td>
                <Time iso={k.created_at} />
              </td>
              <td>
                <button type="button" class="danger small" onClick={() => revoke.ask(k)}>
                  Revoke<span class="visually-hidden"> key {k.key_start}</span>
                </button>
              </td>
            </tr>
          ))
        }
      />
      <Confirm {...revoke.dialog} title={`Revoke the key ${revoke.item?.key_start ?? ''}…?`} confirmLabel="Revoke key">
        <p>Programs using it are refused at once, and dashboard sessions signed in with it end.</p>
      </Confirm>
    </section>
  );
}
