/**
 * Connect settings (owner sessions): the brand name the hosted page shows, the origins a
 * connect link may send clients back to, and the hosted page as a client sees it.
 */
import { useState } from 'preact/hooks';
import { all, answer, api } from '../api.ts';
import type { RedirectOrigin } from '../resources.ts';
import {
  Confirm,
  Empty,
  ErrorNotice,
  Progress,
  problemAt,
  TextField,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../ui.tsx';

function BrandName({ onSaved }: { onSaved: () => void }) {
  const settings = useLoad(() => answer(api.GET('/v1/connect/settings')), []);
  const [brand, setBrand] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const value = brand ?? settings.data?.brand_name ?? '';
  const save = useAction(() => answer(api.PATCH('/v1/connect/settings', { body: { brand_name: value } })));
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    if (await save.run()) {
      setSaved(true);
      settings.reload();
      onSaved();
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="brand-title">
      <h2 id="brand-title">Brand name</h2>
      {settings.loading && !settings.data ? <Progress label="Loading the settings…" /> : null}
      <ErrorNotice error={settings.error} />
      <TextField
        label="Brand name"
        hint="Shown on the connect page: “Connect your account to …”. Without one, the owner's name is shown."
        error={problemAt(save.error, 'body.brand_name')}
        required
        maxLength={100}
        value={value}
        onValue={(text) => {
          setBrand(text);
          setSaved(false);
        }}
      />
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save brand name'}
      </button>
      <p role="status" class="muted small">
        {saved ? 'Saved.' : ''}
      </p>
      <ErrorNotice error={save.error} />
    </form>
  );
}

function RedirectOrigins() {
  const origins = useLoad(() => all('/v1/connect/redirect-origins', {}), []);
  const [origin, setOrigin] = useState('');
  const add = useAction(() => answer(api.POST('/v1/connect/redirect-origins', { body: { origin: origin.trim() } })));
  const remove = useConfirmed(
    (o: RedirectOrigin) => answer(api.DELETE('/v1/connect/redirect-origins/{id}', { params: { path: { id: o.id } } })),
    () => origins.reload(),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await add.run()) {
      setOrigin('');
      origins.reload();
    }
  };
  return (
    <section class="card" aria-labelledby="origins-title">
      <h2 id="origins-title">Redirect origins</h2>
      <p class="muted">A connect link may send clients back only to a URL under one of these origins.</p>
      <ErrorNotice error={origins.error} />
      {origins.data ? (
        origins.data.length === 0 ? (
          <Empty>No origin registered: connect links cannot be created until one is.</Empty>
        ) : (
          <table>
            <caption class="visually-hidden">Registered redirect origins</caption>
            <thead>
              <tr>
                <th scope="col">Origin</th>
                <th scope="col">Added</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {origins.data.map((o) => (
                <tr key={o.id}>
                  <td>
                    <code>{o.origin}</code>
                  </td>
                  <td>
                    <Time iso={o.created_at} />
                  </td>
                  <td>
                    <button type="button" class="danger small" onClick={() => remove.ask(o)}>
                      Remove<span class="visually-hidden"> {o.origin}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <form class="inline" onSubmit={submit}>
        <TextField
          label="Origin to add"
          hint="A scheme and host with an optional port: https://app.example.com, or http://localhost:3000."
          error={problemAt(add.error, 'body.origin')}
          required
          value={origin}
          onValue={setOrigin}
        />
        <button type="submit" disabled={add.busy}>
          {add.busy ? 'Adding…' : 'Add origin'}
        </button>
      </form>
      <ErrorNotice error={add.error} />
      <Confirm {...remove.dialog} title={`Remove ${remove.item?.origin ?? ''}?`} confirmLabel="Remove origin">
        <p>New connect links can no longer send clients there. Links made already keep their redirect URL.</p>
      </Confirm>
    </section>
  );
}

export function ConnectSettingsScreen() {
  // The preview is reloaded (a new URL) whenever the brand name is saved.
  const [version, setVersion] = useState(0);
  return (
    <main id="main">
      <h1>Connect settings</h1>
      <BrandName onSaved={() => setVersion((v) => v + 1)} />
      <RedirectOrigins />
      <section class="card" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        <p class="muted">The page a connect link opens, as your client sees it. Its buttons do nothing here.</p>
        <iframe
          key={version}
          class="preview"
          title="Preview of the hosted connect page"
          sandbox=""
          src="/v1/connect/preview"
        />
      </section>
    </main>
  );
}
