/**
 * An endpoint's deliveries, newest first, a page at a time: the event, the status, every
 * attempt's time, HTTP status, duration and the start of the receiver's answer (another
 * server's text: shown as text, all of it on request), and Resend while the endpoint is active.
 */
import { useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import type { Delivery, DeliveryAttempt, WebhookEndpoint } from '../../resources.ts';
import { Badge, Empty, ErrorNotice, Progress, Time, useAction, useLoad } from '../../ui.tsx';

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

export function Deliveries({
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
