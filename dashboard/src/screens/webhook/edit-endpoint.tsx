import { useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import { useProfiles } from '../../choices.tsx';
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from '../../resources.ts';
import { ErrorNotice, useAction } from '../../ui.tsx';
import { type EndpointDraft, EndpointFields } from '../webhooks.tsx';

/** An endpoint's URL, events and (owner sessions) profile, saved together. */
export function EditEndpoint({ endpoint, onSaved }: { endpoint: WebhookEndpoint; onSaved: () => void }) {
  const profiles = useProfiles().data ?? [];
  const [draft, setDraft] = useState<EndpointDraft>({
    url: endpoint.url,
    // An endpoint's events are all of these; the API answers them as plain strings.
    events: endpoint.events.filter((e): e is EventType => EVENT_TYPES.some((t) => t === e)),
    profileId: endpoint.profile_id ?? '',
  });
  const save = useAction(() =>
    answer(
      api.PATCH('/v1/webhooks/{id}', {
        params: { path: { id: endpoint.id } },
        body: {
          url: draft.url.trim(),
          events: draft.events,
          profile_id: draft.profileId === '' ? null : draft.profileId,
        },
      }),
    ),
  );
  const [saved, setSaved] = useState(false);
  return (
    <form
      class="card"
      aria-labelledby="edit-endpoint"
      onSubmit={async (event) => {
        event.preventDefault();
        setSaved(false);
        if (await save.run()) {
          setSaved(true);
          onSaved();
        }
      }}
    >
      <h2 id="edit-endpoint">Edit</h2>
      <EndpointFields draft={draft} setDraft={setDraft} error={save.error} profiles={profiles} />
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save changes'}
      </button>
      <p role="status" class="muted small">
        {saved ? 'Saved.' : ''}
      </p>
      <ErrorNotice error={save.error} />
    </form>
  );
}
