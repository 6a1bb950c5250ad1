/**
 * Profiles: the owner's clients, default first; create, rename, delete. A profile key's
 * session has one profile and may not manage profiles, so it goes straight to its own.
 */

import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { answer, api } from '../api.ts';
import { useProfiles } from '../choices.tsx';
import type { Profile } from '../resources.ts';
import { PATHS, useSession } from '../session.ts';
import { Confirm, ErrorNotice, LoadedTable, problemAt, TextField, useAction, useConfirmed } from '../ui.tsx';

function CreateProfile({ onCreated }: { onCreated: (p: Profile) => void }) {
  const [name, setName] = useState('');
  const [externalId, setExternalId] = useState('');
  const create = useAction(() =>
    answer(
      api.POST('/v1/profiles', {
        body: { name, ...(externalId.trim() ? { external_id: externalId.trim() } : {}) },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const profile = await create.run();
    if (profile) {
      setName('');
      setExternalId('');
      onCreated(profile);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="create-profile">
      <h2 id="create-profile">Create a profile</h2>
      <TextField
        label="Name"
        error={problemAt(create.error, 'body.name')}
        required
        maxLength={200}
        value={name}
        onValue={setName}
      />
      <TextField
        label="External id (optional)"
        hint="Your own identifier for this client. Creating a profile with an external id that exists answers that profile."
        error={problemAt(create.error, 'body.external_id')}
        maxLength={255}
        value={externalId}
        onValue={setExternalId}
      />
      <button type="submit" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create profile'}
      </button>
      <ErrorNotice error={create.error} />
    </form>
  );
}

function ProfileRow({
  profile,
  manages,
  onChanged,
}: {
  profile: Profile;
  /** May rename and delete it (the owner's session). */
  manages: boolean;
  onChanged: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(profile.name);
  const rename = useAction(() =>
    answer(api.PATCH('/v1/profiles/{id}', { params: { path: { id: profile.id } }, body: { name } })),
  );
  const remove = useConfirmed(
    (p: Profile) => answer(api.DELETE('/v1/profiles/{id}', { params: { path: { id: p.id } } })),
    onChanged,
  );
  const submitRename = async (event: Event) => {
    event.preventDefault();
    if (await rename.run()) {
      setRenaming(false);
      onChanged();
    }
  };
  return (
    <tr>
      <td>
        {renaming ? (
          <form class="inline" onSubmit={submitRename}>
            <TextField
              label={`New name for ${profile.name}`}
              error={problemAt(rename.error, 'body.name')}
              required
              maxLength={200}
              value={name}
              onValue={setName}
            />
            <button type="submit" disabled={rename.busy}>
              Save
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setRenaming(false);
                setName(profile.name);
                rename.clear();
              }}
            >
              Cancel
            </button>
            <ErrorNotice error={rename.error} />
          </form>
        ) : (
          <a href={PATHS.profile(profile.id)}>{profile.name}</a>
        )}
        {profile.is_default ? <span class="badge neutral">default</span> : null}
      </td>
      <td>{profile.external_id ? <code>{profile.external_id}</code> : <span class="muted">—</span>}</td>
      <td class="actions">
        <a class="button secondary small" href={PATHS.profile(profile.id)}>
          Profile menu<span class="visually-hidden"> of {profile.name}</span>
        </a>
        {renaming || !manages ? null : (
          <button type="button" class="secondary small" onClick={() => setRenaming(true)}>
            Rename<span class="visually-hidden"> {profile.name}</span>
          </button>
        )}
        {!manages ? null : profile.is_default ? (
          <span class="muted small">The default profile cannot be deleted: new data without a profile goes there.</span>
        ) : (
          <button type="button" class="danger small" onClick={() => remove.ask(profile)}>
            Delete<span class="visually-hidden"> {profile.name}</span>
          </button>
        )}
        <Confirm
          {...remove.dialog}
          title={`Delete the profile “${profile.name}”?`}
          confirmLabel={`Delete ${profile.name}`}
        >
          <p>
            Its API keys stop working at once. Its accounts, posts, comments, insights, media and webhook endpoints are
            deleted in the background. This cannot be undone.
          </p>
        </Confirm>
      </td>
    </tr>
  );
}

export function ProfilesScreen() {
  const { isOwner, readsProfiles, session } = useSession();
  const { route } = useLocation();
  const profiles = useProfiles();
  useEffect(() => {
    if (!isOwner && session.profile_id) route(PATHS.profile(session.profile_id), true);
  }, [isOwner, session.profile_id, route]);
  if (!readsProfiles || (!isOwner && session.profile_id)) return null;
  return (
    <main id="main">
      <h1>Profiles</h1>
      <p class="muted">Each profile keeps one client's accounts, posts, comments and insights apart.</p>
      <LoadedTable
        loaded={profiles}
        loadingLabel="Loading profiles…"
        empty="No profiles."
        caption="Profiles, the default first"
        columns={['Name', 'External id', 'Actions']}
        rows={(items) =>
          items.map((p) => (
            <ProfileRow key={`${p.id}:${p.updated_at}`} profile={p} manages={isOwner} onChanged={profiles.reload} />
          ))
        }
      />
      {isOwner ? <CreateProfile onCreated={() => profiles.reload()} /> : null}
    </main>
  );
}
