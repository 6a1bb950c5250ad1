/**
 * Connect settings (owner sessions): the brand name the hosted page shows, the origins a
 * connect link may send clients back to, the owner's own apps on the platforms that take one
 * (X's API is paid: an owner may bring its own X app), and the hosted page as a client sees it.
 */
import { useState } from 'preact/hooks';
import { all, answer, api } from '../api.ts';
import { type Platform, platformLabel, platforms } from '../catalogue.ts';
import type { PlatformApp, RedirectOrigin } from '../resources.ts';
import {
  Confirm,
  ErrorNotice,
  LoadedTable,
  Progress,
  problemAt,
  SelectField,
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

/** The logo client reports print above the brand name: chosen here, sent as the file itself. */
function Logo() {
  const settings = useLoad(() => answer(api.GET('/v1/connect/settings')), []);
  const [file, setFile] = useState<File | null>(null);
  const upload = useAction(async () => {
    if (file === null) return null;
    return await answer(
      api.PUT('/v1/connect/settings/logo', {
        // The body is the image itself, with its own type.
        body: file as never,
        bodySerializer: (body: unknown) => body as Blob,
        headers: { 'content-type': file.type },
      }),
    );
  });
  const remove = useAction(() => answer(api.DELETE('/v1/connect/settings/logo')));
  const logo = settings.data?.logo ?? null;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await upload.run()) {
      setFile(null);
      (event.target as HTMLFormElement).reset();
      settings.reload();
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="logo-title">
      <h2 id="logo-title">Logo</h2>
      <p class="muted small">
        Printed on client reports (PDF) above the brand name. PNG, JPEG or WebP, at most 2 MB; it is kept at most 512 by
        512 pixels.
      </p>
      <ErrorNotice error={settings.error} />
      {logo ? (
        <p>
          <img
            class="logo-preview"
            src={`/v1/connect/settings/logo?v=${encodeURIComponent(logo.updated_at)}`}
            alt="The current logo"
            width={logo.width}
            height={logo.height}
          />
          <br />
          <span class="small muted">
            {logo.width} × {logo.height} pixels, set <Time iso={logo.updated_at} />
          </span>
        </p>
      ) : (
        <p class="muted">No logo: reports show the brand name alone.</p>
      )}
      <label>
        Logo file
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp"
          onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
        />
      </label>
      <p>
        <button type="submit" disabled={upload.busy || file === null}>
          {upload.busy ? 'Uploading…' : 'Upload logo'}
        </button>{' '}
        {logo ? (
          <button
            type="button"
            class="secondary"
            disabled={remove.busy}
            onClick={async () => {
              if (await remove.run()) settings.reload();
            }}
          >
            Remove logo
          </button>
        ) : null}
      </p>
      <ErrorNotice error={upload.error ?? remove.error} />
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
      <LoadedTable
        loaded={origins}
        loadingLabel="Loading the redirect origins…"
        empty="No origin registered: connect links cannot be created until one is."
        caption="Registered redirect origins"
        columns={['Origin', 'Added', 'Actions']}
        rows={(items) =>
          items.map((o) => (
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
          ))
        }
      />
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

/** The platforms an owner may bring its own app to, from the catalogue (`owner_apps`). */
function ownerAppPlatforms() {
  return platforms().filter((p) => p.owner_apps);
}

function PlatformApps() {
  const offered = ownerAppPlatforms();
  const apps = useLoad(() => answer(api.GET('/v1/platform-apps')), []);
  const [form, setForm] = useState<{ platform: Platform | ''; clientId: string; clientSecret: string }>({
    platform: offered[0]?.platform ?? '',
    clientId: '',
    clientSecret: '',
  });
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction(() =>
    answer(
      api.PUT('/v1/platform-apps/{platform}', {
        params: { path: { platform: form.platform } },
        body: { client_id: form.clientId.trim(), client_secret: form.clientSecret },
      }),
    ),
  );
  const remove = useConfirmed(
    (app: PlatformApp) =>
      answer(api.DELETE('/v1/platform-apps/{platform}', { params: { path: { platform: app.platform } } })),
    () => apps.reload(),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    const done = await save.run();
    if (done) {
      // The secret is not kept in the page once sent: it is never shown again.
      setForm({ ...form, clientId: '', clientSecret: '' });
      setSaved(`${platformLabel(done.platform)} app saved. Its secret is not shown again.`);
      apps.reload();
    }
  };
  if (offered.length === 0) return null;
  return (
    <section class="card" aria-labelledby="apps-title">
      <h2 id="apps-title">Your own platform apps</h2>
      <p class="muted">
        X's API is paid: set your own X app here (its client id and secret, from X's developer portal) and your accounts
        there connect, refresh and post through it, on your plan and its monthly cap, instead of this service's app.
        Register this service's callback URL in the app. Accounts connected through an app you then replace with another
        client id, or remove, expire the next time they are used and must be reconnected.
      </p>
      <LoadedTable
        loaded={{ ...apps, data: apps.data?.data }}
        loadingLabel="Loading your platform apps…"
        empty="No app of your own: your accounts use this service's apps."
        caption="Your platform apps"
        columns={['Platform', 'Client id', 'Without it', 'Changed', 'Actions']}
        rows={(items) =>
          items.map((app) => (
            <tr key={app.platform}>
              <td>{platformLabel(app.platform)}</td>
              <td>
                <code>{app.client_id}</code>
              </td>
              <td>{app.deployment_fallback ? "This service's app" : 'Cannot connect'}</td>
              <td>
                <Time iso={app.updated_at} />
              </td>
              <td>
                <button type="button" class="danger small" onClick={() => remove.ask(app)}>
                  Remove<span class="visually-hidden"> the {platformLabel(app.platform)} app</span>
                </button>
              </td>
            </tr>
          ))
        }
      />
      <form onSubmit={submit} aria-label="Set a platform app">
        <SelectField
          label="Platform"
          required
          value={form.platform}
          onValue={(platform) => setForm({ ...form, platform: platform as Platform })}
          choices={offered.map((p) => ({ value: p.platform, label: p.label }))}
        />
        <TextField
          label="Client id"
          hint="The app's OAuth 2.0 Client ID. Setting an app where one is set replaces it."
          error={problemAt(save.error, 'body.client_id')}
          required
          maxLength={200}
          value={form.clientId}
          onValue={(clientId) => setForm({ ...form, clientId })}
        />
        <TextField
          label="Client secret"
          type="password"
          hint="The app's OAuth 2.0 Client Secret: stored encrypted, never shown again."
          error={problemAt(save.error, 'body.client_secret')}
          required
          maxLength={500}
          value={form.clientSecret}
          onValue={(clientSecret) => setForm({ ...form, clientSecret })}
        />
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save app'}
        </button>
      </form>
      <p role="status" class="muted small">
        {saved ?? ''}
      </p>
      <ErrorNotice error={save.error} />
      <Confirm
        {...remove.dialog}
        title={`Remove your ${remove.item ? platformLabel(remove.item.platform) : ''} app?`}
        confirmLabel="Remove app"
      >
        <p>
          New connections use this service's app again, where it has one. Accounts connected through your app expire at
          the next time they are used and must be reconnected.
        </p>
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
      <Logo />
      <RedirectOrigins />
      <PlatformApps />
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
