/**
 * Report links: a read-only page of this period's report for the client, without an account
 * (the owner's brand and logo, the PDF to download). Made here, shown once, listed with how often
 * each was opened, and revoked after a confirmation.
 */
import { useState } from 'preact/hooks';
import { all, answer, api } from '../../api.ts';
import type { NewReportLink, ReportLink } from '../../resources.ts';
import { mayOpen, useSession } from '../../session.ts';
import {
  Badge,
  Confirm,
  ErrorNotice,
  LinkShownOnce,
  LoadedTable,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../../ui.tsx';

const TONES = { open: 'good', expired: 'neutral', revoked: 'warn' } as const;

export function ReportLinks({ profileId, from, to }: { profileId: string; from: string; to: string }) {
  const state = useSession();
  const mayMake = mayOpen(state, 'editor', false);
  const links = useLoad(() => all('/v1/profiles/{id}/report-links', { path: { id: profileId } }), [profileId]);
  const [created, setCreated] = useState<NewReportLink | null>(null);
  const create = useAction(() =>
    answer(api.POST('/v1/profiles/{id}/report-links', { params: { path: { id: profileId } }, body: { from, to } })),
  );
  const revoke = useConfirmed(
    (link: ReportLink) =>
      answer(
        api.DELETE('/v1/profiles/{id}/report-links/{link_id}', {
          params: { path: { id: profileId, link_id: link.id } },
        }),
      ),
    () => links.reload(),
  );
  return (
    <section class="card" aria-labelledby="report-links">
      <h2 id="report-links">Report links</h2>
      <p class="muted small">
        A page of this report for the client, without an account: branded, read-only, with the PDF to download. It works
        for 30 days, until revoked.
      </p>
      {mayMake ? (
        <div class="actions">
          <button
            type="button"
            disabled={create.busy}
            onClick={async () => {
              setCreated(null);
              const link = await create.run();
              if (link) {
                setCreated(link);
                links.reload();
              }
            }}
          >
            {create.busy ? 'Creating…' : `Create a link to ${from} – ${to}`}
          </button>
        </div>
      ) : null}
      <ErrorNotice error={create.error} />
      {created ? (
        <LinkShownOnce label="Report link" url={created.url} onCopied={() => setCreated(null)}>
          <p>
            Send it to the client. It works until <Time iso={created.expires_at} />.
          </p>
        </LinkShownOnce>
      ) : null}
      <LoadedTable
        loaded={links}
        loadingLabel="Loading the report links…"
        empty="No report link yet."
        caption="The profile's report links, newest first"
        columns={['Period', 'Status', 'Opened', 'Actions']}
        rows={(items) =>
          items.map((l) => (
            <tr key={l.id}>
              <td>
                {l.from} – {l.to}
                <p class="small muted">
                  made <Time iso={l.created_at} />, until <Time iso={l.expires_at} />
                </p>
              </td>
              <td>
                <Badge value={l.status} tone={TONES[l.status]} />
              </td>
              <td>
                {l.opens === 0 ? (
                  'never'
                ) : (
                  <>
                    {l.opens} {l.opens === 1 ? 'time' : 'times'}, last <Time iso={l.last_opened_at} />
                  </>
                )}
              </td>
              <td>
                {mayMake && l.status === 'open' ? (
                  <button type="button" class="secondary small" onClick={() => revoke.ask(l)}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))
        }
      />
      <Confirm {...revoke.dialog} title="Revoke this report link?" confirmLabel="Revoke">
        <p>The client's link will open nothing from now on.</p>
      </Confirm>
    </section>
  );
}
