/**
 * A connect link: a single-use link to the hosted page where the client connects accounts to
 * this profile, with the redirect URL, an optional state and the platforms offered.
 */
import { useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import { type Platform, platforms } from '../../catalogue.ts';
import type { ConnectLink, RedirectOrigin } from '../../resources.ts';
import { PATHS, useSession } from '../../session.ts';
import { ErrorNotice, problemAt, Revealed, TextField, Time, useAction } from '../../ui.tsx';
import { RedirectUrlField } from './redirect-url-field.tsx';

/** What the connect link form holds; the profile screen keeps it, to offer its redirect URL to a reconnect link. */
export interface LinkForm {
  redirectUrl: string;
  state: string;
  platforms: Platform[];
}

export function ConnectLinks({
  profileId,
  form,
  setForm,
  origins,
  ownApps,
}: {
  profileId: string;
  form: LinkForm;
  setForm: (f: LinkForm) => void;
  /** The owner's redirect origins (none for a profile key's session, which may not read them). */
  origins: readonly RedirectOrigin[];
  /** The platforms the owner set its own app for (none for a profile key's session). */
  ownApps: readonly string[];
}) {
  const { isOwner } = useSession();
  const [link, setLink] = useState<ConnectLink | null>(null);
  const create = useAction(() =>
    answer(
      api.POST('/v1/profiles/{id}/connect-links', {
        params: { path: { id: profileId } },
        body: {
          redirect_url: form.redirectUrl.trim(),
          ...(form.state !== '' ? { state: form.state } : {}),
          ...(form.platforms.length > 0 ? { platforms: form.platforms } : {}),
        },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    setLink(null);
    const created = await create.run();
    if (created) setLink(created);
  };
  const togglePlatform = (platform: Platform, on: boolean) =>
    setForm({
      ...form,
      platforms: on
        ? platforms()
            .map((p) => p.platform)
            .filter((p) => p === platform || form.platforms.includes(p))
        : form.platforms.filter((p) => p !== platform),
    });
  return (
    <section aria-labelledby="links-title" class="card">
      <h2 id="links-title">Connect link</h2>
      <p class="muted">
        A single-use link to the hosted page where your client connects their accounts to this profile, without an
        account of their own. It lasts 30 minutes.
      </p>
      <form onSubmit={submit}>
        <RedirectUrlField
          origins={origins}
          isOwner={isOwner}
          error={problemAt(create.error, 'body.redirect_url')}
          value={form.redirectUrl}
          onValue={(value) => setForm({ ...form, redirectUrl: value })}
          example="connected"
        />
        <TextField
          label="State (optional)"
          hint="Sent back to the redirect URL unchanged."
          error={problemAt(create.error, 'body.state')}
          value={form.state}
          onValue={(value) => setForm({ ...form, state: value })}
        />
        <fieldset>
          <legend>Platforms offered (none ticked: all)</legend>
          {platforms().map(({ platform, label, availability, api_access, owner_apps }) => {
            // A link cannot offer a platform the service has no credentials for (422
            // platform_not_available), unless the owner brought its own app there.
            const unavailable = availability === 'not_configured' && !ownApps.includes(platform);
            return (
              <label key={platform} class="check">
                <input
                  type="checkbox"
                  checked={form.platforms.includes(platform)}
                  disabled={unavailable}
                  onChange={(e) => togglePlatform(platform, e.currentTarget.checked)}
                />
                {label}
                {unavailable ? (
                  <span class="muted small"> — not configured on this service (no client id and secret)</span>
                ) : null}
                {api_access === null ? null : <span class="muted small"> — {api_access}</span>}
                {owner_apps && isOwner ? (
                  <span class="muted small">
                    {' '}
                    Set your own {label} app in <a href={PATHS.connectSettings}>Connect settings</a>.
                  </span>
                ) : null}
              </label>
            );
          })}
        </fieldset>
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create connect link'}
        </button>
      </form>
      <ErrorNotice error={create.error} />
      {link ? (
        <Revealed label="Connect link" value={link.url}>
          <p>
            Single use; expires <Time iso={link.expires_at} />.
          </p>
        </Revealed>
      ) : null}
    </section>
  );
}
