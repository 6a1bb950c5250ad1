/**
 * One webhook endpoint: edit it, disable or enable it (also after the service disabled it),
 * send a test event, rotate its secret, delete it; and its deliveries (deliveries.tsx).
 */
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { answer, api } from '../../api.ts';
import { PATHS } from '../../session.ts';
import { Confirm, ErrorNotice, Progress, useAction, useConfirmed, useLoad } from '../../ui.tsx';
import { EndpointState, ShownSecret } from '../webhooks.tsx';
import { Deliveries } from './deliveries.tsx';
import { EditEndpoint } from './edit-endpoint.tsx';

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
