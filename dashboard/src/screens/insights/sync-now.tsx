import { useState } from 'preact/hooks';
import { answer, api, SwitchboardError } from '../../api.ts';
import { ErrorNotice, useAction } from '../../ui.tsx';

/** How long a refused sync asks to wait (`sync_rate_limited`'s `details.retry_after_seconds`), else null. */
function syncWaitSeconds(error: unknown): number | null {
  if (!(error instanceof SwitchboardError) || error.code !== 'sync_rate_limited') return null;
  const details = error.details;
  return typeof details === 'object' && details !== null && 'retry_after_seconds' in details
    ? Number(details.retry_after_seconds)
    : null;
}

/** Asks for a refresh of the account's figures; within 5 minutes of the last one, says how long to wait. */
export function SyncNow({ accountId, onQueued }: { accountId: string; onQueued: () => void }) {
  const [done, setDone] = useState(false);
  const sync = useAction(() => answer(api.POST('/v1/insights/sync', { body: { account_ids: [accountId] } })));
  const wait = syncWaitSeconds(sync.error);
  return (
    <div class="actions">
      <button
        type="button"
        class="secondary"
        disabled={sync.busy}
        onClick={async () => {
          setDone(false);
          if (await sync.run()) {
            setDone(true);
            onQueued();
          }
        }}
      >
        {sync.busy ? 'Asking…' : 'Sync now'}
      </button>
      <span role="status" class="small">
        {done ? 'A refresh is queued; the figures update when it is done.' : ''}
        {wait !== null
          ? `Figures can be synced once every 5 minutes: try again in ${Math.ceil(wait / 60)} min (${wait} s).`
          : ''}
      </span>
      {wait === null ? <ErrorNotice error={sync.error} /> : null}
    </div>
  );
}
