/**
 * Webhook endpoints: the list (marking those the service disabled, with when and why) and
 * adding one, whose secret is shown this once. Each endpoint opens its own screen
 * (webhook.tsx). A profile key's session sees and adds its profile's endpoints only.
 */
import { useState } from 'preact/hooks';
import { all, answer, api } from '../api.ts';
import { profileChoices, useProfiles } from '../choices.tsx';
import {
  EVENT_TYPES,
  type EventType,
  type Profile,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../resources.ts';
import { PATHS, useSession } from '../session.ts';
import {
  Badge,
  ErrorNotice,
  LoadedTable,
  problemAt,
  Revealed,
  SelectField,
  TextField,
  Time,
  useAction,
  useLoad,
} from '../ui.tsx';

export interface EndpointDraft {
  url: string;
  events: EventType[];
  /** '' for every profile. */
  profileId: string;
}

/** The fields of an endpoint, for adding and for editing. */
export function EndpointFields({
  draft,
  setDraft,
  error,
  profiles,
}: {
  draft: EndpointDraft;
  setDraft: (d: EndpointDraft) => void;
  error: unknown;
  profiles: Profile[];
}) {
  const { isOwner } = useSession();
  const toggle = (event: string, on: boolean) =>
    setDraft({
      ...draft,
      events: on
        ? EVENT_TYPES.filter((e) => e === event || draft.events.includes(e))
        : draft.events.filter((e) => e !== event),
    });
  const eventsError = problemAt(error, 'body.events');
  return (
    <>
      <TextField
        label="URL"
        hint="https on port 443, on a public host. Each delivery is a signed POST to it."
        error={problemAt(error, 'body.url')}
        type="url"
        required
        placeholder="https://hooks.example.com/switchboard"
        value={draft.url}
        onValue={(url) => setDraft({ ...draft, url })}
      />
      <fieldset aria-invalid={eventsError !== undefined}>
        <legend>Events</legend>
        {EVENT_TYPES.map((event) => (
          <label key={event} class="check">
            <input
              type="checkbox"
              checked={draft.events.includes(event)}
              onChange={(e) => toggle(event, e.currentTarget.checked)}
            />
            <code>{event}</code>
          </label>
        ))}
        {eventsError ? <p class="field-error">{eventsError}</p> : null}
      </fieldset>
      {isOwner ? (
        <SelectField
          label="Profile"
          hint="Only that profile's events, or every profile's."
          error={problemAt(error, 'body.profile_id')}
          none="Every profile"
          value={draft.profileId}
          choices={profileChoices(profiles)}
          onValue={(profileId) => setDraft({ ...draft, profileId })}
        />
      ) : null}
    </>
  );
}

/** The secret of a new or rotated endpoint, shown once. */
export function ShownSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Revealed label="Signing secret" value={secret}>
      <p class="notice warn">
        This secret will not be shown again. Give it to your receiver now: it checks the Service-Signature header of
        each delivery with it, or the webhook-signature header with a Standard Webhooks library.
      </p>
      <button type="button" class="secondary small" onClick={onDone}>
        I have copied it
      </button>
    </Revealed>
  );
}

/** An endpoint's state in words: active, disabled by the owner, or disabled by the service with when and why. */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.active) return <Badge value="active" tone="good" />;
  if (endpoint.disabled_at === null) return <Badge value="disabled" tone="neutral" />;
  return (
    <>
      <Badge value="disabled by the service" tone="bad" />
      <p class="small">
        <Time iso={endpoint.disabled_at} />
      </p>
      {endpoint.disabled_reason ? <p class="small muted">{endpoint.disabled_reason}</p> : null}
    </>
  );
}

function AddEndpoint({ onAdded }: { onAdded: () => void }) {
  const profiles = useProfiles().data ?? [];
  const [draft, setDraft] = useState<EndpointDraft>({ url: '', events: [], profileId: '' });
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  const add = useAction(() =>
    answer(
      api.POST('/v1/webhooks', {
        body: {
          url: draft.url.trim(),
          events: draft.events,
          ...(draft.profileId !== '' ? { profile_id: draft.profileId } : {}),
        },
      }),
    ),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const endpoint = await add.run();
    if (endpoint) {
      setCreated(endpoint);
      setDraft({ url: '', events: [], profileId: '' });
      onAdded();
    }
  };
  return (
    <section class="card" aria-labelledby="add-endpoint">
      <h2 id="add-endpoint">Add endpoint</h2>
      <form onSubmit={submit}>
        <EndpointFields draft={draft} setDraft={setDraft} error={add.error} profiles={profiles} />
        <button type="submit" disabled={add.busy}>
          {add.busy ? 'Adding…' : 'Add endpoint'}
        </button>
      </form>
      <ErrorNotice error={add.error} />
      {created ? (
        <>
          <p>
            Added <a href={PATHS.webhook(created.id)}>{created.url}</a>.
          </p>
          <ShownSecret secret={created.secret} onDone={() => setCreated(null)} />
        </>
      ) : null}
    </section>
  );
}

export function WebhooksScreen() {
  const endpoints = useLoad(() => all('/v1/webhooks', {}), []);
  const profiles = useProfiles().data ?? [];
  const profileName = (id: string | null) =>
    id === null ? 'Every profile' : (profiles.find((p) => p.id === id)?.name ?? id);
  return (
    <main id="main">
      <h1>Webhooks</h1>
      <p class="muted">Endpoints receive a signed POST for each event they subscribe to.</p>
      <LoadedTable
        loaded={endpoints}
        loadingLabel="Loading endpoints…"
        empty="No endpoints yet."
        caption="Webhook endpoints"
        columns={['URL', 'Events', 'Profile', 'State']}
        rows={(items) =>
          items.map((e) => (
            <tr key={e.id}>
              <td>
                <a href={PATHS.webhook(e.id)}>{e.url}</a>
              </td>
              <td>
                <ul class="plain small">
                  {e.events.map((event) => (
                    <li key={event}>
                      <code>{event}</code>
                    </li>
                  ))}
                </ul>
              </td>
              <td>{profileName(e.profile_id)}</td>
              <td>
                <EndpointState endpoint={e} />
              </td>
            </tr>
          ))
        }
      />
      <AddEndpoint onAdded={endpoints.reload} />
    </main>
  );
}
