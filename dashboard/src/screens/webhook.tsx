/**
 * One webhook endpoint: edit it, disable or enable it (also after the service disabled it),
 * send a test event, rotate its secret, delete it; and its deliveries, newest first, with
 * every attempt and a Resend. Answers of the receiver are another server's text: shown as
 * text, the start first.
 */

import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { answer, api } from '../api.ts';
import { useProfiles } from '../choices.tsx';
import {
  type Delivery,
  type DeliveryAttempt,
  EVENT_TYPES,
  type EventType,
  type WebhookEndpoint,
} from '../resources.ts';
import { PATHS } from '../session.ts';
import { Badge, Confirm, Empty, ErrorNotice, Progress, Time, useAction, useConfirmed, useLoad } from '../ui.tsx';
import { type EndpointDraft, EndpointFields, EndpointState, ShownSecret } from './webhooks.tsx';

/** How much of a receiver's answer a delivery shows before "Show all". */
const ANSWER_START = 500;
/** Deliveries shown at a time. */
const PAGE = 20;

const DELIVERY_TONES = { succeeded: 'good', pending: 'warn', failed: 'bad', cancelled: 'neutral' } as const;

function Answer({ body }: { body: string }) {
  const [whole, setWhole] = useState(false);
  const long = body.length > ANSWER_START;
  return (
    <>
      <pre class="answer">{whole || !long ? body : `${body.slice(0, ANSWER_START)}…`}</pre>
      {long ? (
        <button type="button" class="secondary small" aria-expanded={whole} onClick={() => setWhole(!whole)}>
          {whole ? 'Show the start only' : `Show all ${body.length} characters`}
        </button>
      ) : null}
    </>
  );
}

function AttemptRow({ attempt }: { attempt: DeliveryAttempt }) {
  return (
    <tr>
      <td>
        <Time iso={attempt.attempted_at} />
      </td>
      <td>
        {attempt.status_code ?? <span class="muted">no answer</span>}
        {attempt.succeeded ? <Badge value="ok" tone="good" /> : <Badge value="failed" tone="bad" />}
      </td>
      <td>{attempt.duration_ms} ms</td>
      <td>
        {attempt.error ? <p class="small">{attempt.error}</p> : null}
        {attempt.response_body ? <Answer body={attempt.response_body} /> : <span class="muted">—</span>}
      </td>
    </tr>
  );
}

function DeliveryItem({
  endpointId,
  delivery,
  canResend,
  onResent,
}: {
  endpointId: string;
  delivery: Delivery;
  canResend: boolean;
  onResent: () => void;
}) {
  const resend = useAction(() =>
    answer(
      api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/resend', {
        params: { path: { id: endpointId, deliveryId: delivery.id } },
      }),
    ),
  );
  return (
    <li class="card delivery">
      <div class="actions">
        <strong>
          <code>{delivery.event_type}</code>
        </strong>
        <Badge value={delivery.status} tone={DELIVERY_TONES[delivery.status]} />
        <span class="muted small">
          <Time iso={delivery.created_at} /> · delivery <code>{delivery.id}</code> · event{' '}
          <code>{delivery.event_id}</code>
        </span>
        <button
          type="button"
          class="secondary small"
          disabled={!canResend || resend.busy}
          onClick={async () => {
            if (await resend.run()) onResent();
          }}
        >
          {resend.busy ? 'Resending…' : 'Resend'}
          <span class="visually-hidden"> delivery {delivery.id}</span>
        </button>
      </div>
      {delivery.next_attempt_at ? (
        <p class="small">
          Next attempt <Time iso={delivery.next_attempt_at} />
        </p>
      ) : null}
      <ErrorNotice error={resend.error} />
      {delivery.attempts.length === 0 ? (
        <p class="muted small">No attempt yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Attempts of delivery {delivery.id}</caption>
          <thead>
            <tr>
              <th scope="col">Attempted</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Duration</th>
              <th scope="col">Answer</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((a) => (
              <AttemptRow key={a.attempted_at} attempt={a} />
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

function Deliveries({
  endpoint,
  version,
  onChanged,
}: {
  endpoint: WebhookEndpoint;
  version: number;
  onChanged: () => void;
}) {
  const path = { id: endpoint.id };
  const first = useLoad(
    () => answer(api.GET('/v1/webhooks/{id}/deliveries', { params: { path, query: { limit: PAGE } } })),
    [endpoint.id, version],
  );
  const [more, setMore] = useState<Delivery[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const next = cursor === undefined ? (first.data?.next_cursor ?? null) : cursor;
  const loadMore = useAction(async () => {
    if (next === null) return null;
    const page = await answer(
      api.GET('/v1/webhooks/{id}/deliveries', { params: { path, query: { limit: PAGE, cursor: next } } }),
    );
    setMore([...more, ...page.data]);
    setCursor(page.next_cursor);
    return page;
  });
  const deliveries = [...(first.data?.data ?? []), ...more];
  const refresh = () => {
    setMore([]);
    setCursor(undefined);
    onChanged();
  };
  return (
    <section aria-labelledby="deliveries-title">
      <div class="actions">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="secondary small" onClick={refresh}>
          Refresh
        </button>
      </div>
      <p class="muted small">The last 30 days, newest first.</p>
      <ErrorNotice error={first.error} />
      {first.loading && !first.data ? <Progress label="Loading deliveries…" /> : null}
      {first.data && deliveries.length === 0 ? <Empty>No deliveries yet. Send a test event to make one.</Empty> : null}
      <ul class="plain">
        {deliveries.map((d) => (
          <DeliveryItem
            key={d.id}
            endpointId={endpoint.id}
            delivery={d}
            canResend={endpoint.active}
            onResent={refresh}
          />
        ))}
      </ul>
      {!endpoint.active && deliveries.length > 0 ? (
        <p class="muted small">Enable the endpoint to resend deliveries.</p>
      ) : null}
      {next !== null && first.data ? (
        <button type="button" class="secondary" disabled={loadMore.busy} onClick={() => void loadMore.run()}>
          {loadMore.busy ? 'Loading…' : 'Load older deliveries'}
        </button>
      ) : null}
      <ErrorNotice error={loadMore.error} />
    </section>
  );
}

function EditEndpoint({ endpoint, onSaved }: { endpoint: WebhookEndpoint; onSaved: () => void }) {
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

export function WebhookScreen() {
  const { params } = useRoute();
  const { route } = useLocation();
  const id = params.id ?? '';
  const path = { id };
  const endpoint = useLoad(() => answer(api.GET('/v1/webhooks/{id}', { params: { path } })), [id]);
  const [version, setVersion] = useState(0);
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState(false);
  const changed = () => {
    endpoint.reload();
    setVersion((v) => v + 1);
  };
  const setActive = useAction((active: boolean) =>
    answer(api.PATCH('/v1/webhooks/{id}', { params: { path }, body: { active } })),
  );
  const test = useAction(() => answer(api.POST('/v1/webhooks/{id}/test', { params: { path } })));
  const rotate = useConfirmed(
    (endpointId: string) =>
      answer(api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: endpointId } } })),
    (_endpointId, rotated) => {
      setSecret(rotated.secret);
      changed();
    },
  );
  const remove = useConfirmed(
    (endpointId: string) => answer(api.DELETE('/v1/webhooks/{id}', { params: { path: { id: endpointId } } })),
    () => route(PATHS.webhooks),
  );
  const e = endpoint.data;
  return (
    <main id="main">
      <p>
        <a href={PATHS.webhooks}>← Webhooks</a>
      </p>
      <h1>{e ? e.url : 'Webhook endpoint'}</h1>
      <ErrorNotice error={endpoint.error} />
      {endpoint.loading && !e ? <Progress label="Loading the endpoint…" /> : null}
      {e ? (
        <>
          <section class="card" aria-labelledby="state-title">
            <h2 id="state-title">State</h2>
            <EndpointState endpoint={e} />
            <p class="small muted">
              <code>{e.id}</code> · {e.consecutive_failures} failed attempts in a row (50 disable it)
            </p>
            <div class="actions">
              <button
                type="button"
                class={e.active ? 'secondary' : ''}
                disabled={setActive.busy}
                onClick={async () => {
                  if (await setActive.run(!e.active)) changed();
                }}
              >
                {e.active ? 'Disable' : 'Enable'}
              </button>
              <button
                type="button"
                class="secondary"
                disabled={!e.active || test.busy}
                onClick={async () => {
                  setTested(false);
                  if (await test.run()) {
                    setTested(true);
                    setVersion((v) => v + 1);
                  }
                }}
              >
                {test.busy ? 'Sending…' : 'Send test'}
              </button>
              <button type="button" class="secondary" onClick={() => rotate.ask(e.id)}>
                Rotate secret
              </button>
              <button type="button" class="danger" onClick={() => remove.ask(e.id)}>
                Delete endpoint
              </button>
            </div>
            <p role="status" class="small">
              {tested ? 'A webhook.test event is on its way; it shows in the deliveries below.' : ''}
            </p>
            <ErrorNotice error={setActive.error ?? test.error} />
            {secret ? <ShownSecret secret={secret} onDone={() => setSecret(null)} /> : null}
          </section>
          <EditEndpoint key={e.updated_at} endpoint={e} onSaved={changed} />
          <Deliveries endpoint={e} version={version} onChanged={changed} />
          <Confirm {...rotate.dialog} title="Rotate the signing secret?" confirmLabel="Rotate secret">
            <p>
              A new secret is made and shown once. For 24 hours each delivery is signed with both the new and the old
              one, so your receiver can switch without losing events.
            </p>
          </Confirm>
          <Confirm {...remove.dialog} title={`Delete the endpoint ${e.url}?`} confirmLabel="Delete endpoint">
            <p>It receives nothing more, and its delivery history goes with it.</p>
          </Confirm>
        </>
      ) : null}
    </main>
  );
}
