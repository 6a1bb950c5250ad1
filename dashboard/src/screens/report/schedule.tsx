/**
 * The report e-mailed to the client: the profile's schedule (monthly or weekly, the day, the
 * hour, the addresses), set, paused or removed here, and the e-mails sent, a failed one said so
 * with the mail server's answer and sent again with a click.
 */
import { useEffect, useState } from 'preact/hooks';
import { all, answer, api, SwitchboardError } from '../../api.ts';
import type { ReportSchedule } from '../../resources.ts';
import { mayOpen, useSession } from '../../session.ts';
import {
  Badge,
  Confirm,
  ErrorNotice,
  LoadedTable,
  Progress,
  problemAt,
  problemsOf,
  SelectField,
  TextField,
  Time,
  useAction,
  useConfirmed,
  useLoad,
} from '../../ui.tsx';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const TONES = { sending: 'neutral', sent: 'good', failed: 'bad' } as const;

/** The addresses as typed: one a line, or separated by commas or spaces. */
function addressesOf(text: string): string[] {
  return text.split(/[\s,;]+/).filter((a) => a !== '');
}

function whenText(s: Pick<ReportSchedule, 'frequency' | 'day' | 'hour'>): string {
  const at = `${String(s.hour).padStart(2, '0')}:00 UTC`;
  return s.frequency === 'monthly'
    ? `Monthly, on day ${s.day} at ${at}: last month's report`
    : `Weekly, on ${WEEKDAYS[s.day - 1]} at ${at}: last week's report (Monday to Sunday)`;
}

export function ReportSchedulePanel({ profileId, from, to }: { profileId: string; from: string; to: string }) {
  const state = useSession();
  const mayChange = mayOpen(state, 'editor', false);
  const schedule = useLoad(async () => {
    try {
      return await answer(api.GET('/v1/profiles/{id}/report-schedule', { params: { path: { id: profileId } } }));
    } catch (error) {
      if (error instanceof SwitchboardError && error.code === 'report_schedule_not_found') return null;
      throw error;
    }
  }, [profileId]);
  const sends = useLoad(() => all('/v1/profiles/{id}/report-sends', { path: { id: profileId } }), [profileId]);

  const [frequency, setFrequency] = useState<'monthly' | 'weekly'>('monthly');
  const [day, setDay] = useState('1');
  const [hour, setHour] = useState('8');
  const [recipients, setRecipients] = useState('');
  const [active, setActive] = useState(true);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const s = schedule.data;
    if (!s) return;
    setFrequency(s.frequency);
    setDay(String(s.day));
    setHour(String(s.hour));
    setRecipients(s.recipients.join('\n'));
    setActive(s.active);
  }, [schedule.data]);

  const save = useAction(() =>
    answer(
      api.PUT('/v1/profiles/{id}/report-schedule', {
        params: { path: { id: profileId } },
        body: {
          frequency,
          day: Number(day),
          hour: Number(hour),
          recipients: addressesOf(recipients),
          active,
          ...(schedule.data ? { link_expires_in_days: schedule.data.link_expires_in_days } : {}),
        },
      }),
    ),
  );
  const remove = useConfirmed(
    () => answer(api.DELETE('/v1/profiles/{id}/report-schedule', { params: { path: { id: profileId } } })),
    () => {
      setRecipients('');
      schedule.reload();
    },
  );
  // A send again is the same period to the same addresses; a send now, the period shown to the schedule's.
  const send = useAction((body: { from: string; to: string; recipients?: string[] }) =>
    answer(api.POST('/v1/profiles/{id}/report-sends', { params: { path: { id: profileId } }, body })),
  );
  const sendThen = async (body: { from: string; to: string; recipients?: string[] }) => {
    if (await send.run(body)) sends.reload();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    if (await save.run()) {
      setSaved(true);
      schedule.reload();
    }
  };
  const dayChoices =
    frequency === 'monthly'
      ? Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))
      : WEEKDAYS.map((label, i) => ({ value: String(i + 1), label }));
  // A failed e-mail stops being news once the same period has gone since (sent again).
  const failed = (sends.data ?? []).filter(
    (f) =>
      f.status === 'failed' &&
      !sends.data?.some(
        (s) => s.status === 'sent' && s.from === f.from && s.to === f.to && s.created_at > f.created_at,
      ),
  );

  return (
    <section class="card" aria-labelledby="report-schedule">
      <h2 id="report-schedule">E-mailed to the client</h2>
      <ErrorNotice error={schedule.error} />
      {schedule.loading && schedule.data === undefined ? <Progress label="Loading the schedule…" /> : null}
      {schedule.data === null ? <p class="muted small">No schedule: the report is not e-mailed.</p> : null}
      {schedule.data ? (
        <p>
          {whenText(schedule.data)}, to {schedule.data.recipients.join(', ')}.{' '}
          {schedule.data.next_send_at ? (
            <>
              Next: <Time iso={schedule.data.next_send_at} />.
            </>
          ) : (
            <Badge value="paused" tone="warn" />
          )}
        </p>
      ) : null}
      {failed.length > 0 ? (
        <p class="notice error" role="alert">
          {failed.length === 1 ? 'An e-mail' : `${failed.length} e-mails`} could not be sent: see below.
        </p>
      ) : null}
      {mayChange && schedule.data !== undefined ? (
        <form onSubmit={submit}>
          <SelectField
            label="How often"
            value={frequency}
            choices={[
              { value: 'monthly', label: "Monthly: last month's report" },
              { value: 'weekly', label: "Weekly: last week's report" },
            ]}
            onValue={(value) => {
              setFrequency(value as 'monthly' | 'weekly');
              setDay('1');
            }}
          />
          <SelectField
            label={frequency === 'monthly' ? 'Day of the month' : 'Day of the week'}
            error={problemAt(save.error, 'body.day')}
            value={day}
            choices={dayChoices}
            onValue={setDay}
          />
          <SelectField
            label="Hour (UTC)"
            value={hour}
            choices={Array.from({ length: 24 }, (_, h) => ({
              value: String(h),
              label: `${String(h).padStart(2, '0')}:00`,
            }))}
            onValue={setHour}
          />
          <TextField
            label="The client's addresses"
            hint="One e-mail to them all, with the PDF and a report link; separate them by commas or spaces."
            error={
              problemsOf(save.error).find((p) => p.field?.startsWith('body.recipients'))?.message === undefined
                ? undefined
                : 'Each address must be one e-mail address (name@example.com), and there may be 1 to 20.'
            }
            required
            value={recipients}
            onValue={setRecipients}
          />
          <label class="check">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} /> Send on
            schedule (untick to pause)
          </label>
          <div class="actions">
            <button type="submit" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save the schedule'}
            </button>
            {schedule.data ? (
              <button type="button" class="secondary" disabled={send.busy} onClick={() => sendThen({ from, to })}>
                {send.busy ? 'Sending…' : `E-mail ${from} – ${to} now`}
              </button>
            ) : null}
            {schedule.data ? (
              <button type="button" class="secondary" onClick={() => remove.ask(undefined)}>
                Remove the schedule
              </button>
            ) : null}
          </div>
          <ErrorNotice error={save.error} />
          {saved ? (
            <p class="notice" role="status">
              Schedule saved.
            </p>
          ) : null}
        </form>
      ) : null}

      <h3>E-mails sent</h3>
      <ErrorNotice error={send.error} />
      <LoadedTable
        loaded={sends}
        loadingLabel="Loading the e-mails…"
        empty="No report e-mailed yet."
        caption="The report e-mails of this profile, newest first"
        columns={['Period', 'To', 'Status', 'Actions']}
        rows={(items) =>
          items.map((s) => (
            <tr key={s.id}>
              <td>
                {s.from} – {s.to}
                <p class="small muted">
                  {s.schedule_id ? 'scheduled' : 'sent by hand'}, <Time iso={s.created_at} />
                </p>
              </td>
              <td>{s.recipients.join(', ')}</td>
              <td>
                <Badge value={s.status} tone={TONES[s.status]} />
                {s.status === 'sent' ? (
                  <p class="small muted">
                    <Time iso={s.sent_at} />
                  </p>
                ) : null}
                {s.refused.length > 0 ? (
                  <p class="small">
                    Refused by the mail server: {s.refused.map((r) => `${r.address} (${r.reason})`).join(', ')}
                  </p>
                ) : null}
                {s.last_error && s.status !== 'sent' ? (
                  <p class="small">
                    {s.status === 'failed' ? 'Gave up' : `Try ${s.attempts} failed`}: {s.last_error}
                    {s.next_attempt_at ? (
                      <>
                        {' '}
                        (next try <Time iso={s.next_attempt_at} />)
                      </>
                    ) : null}
                  </p>
                ) : null}
              </td>
              <td>
                {mayChange && s.status === 'failed' ? (
                  <button
                    type="button"
                    class="secondary small"
                    disabled={send.busy}
                    onClick={() => sendThen({ from: s.from, to: s.to, recipients: s.recipients })}
                  >
                    Send again
                  </button>
                ) : null}
              </td>
            </tr>
          ))
        }
      />
      <Confirm {...remove.dialog} title="Remove the report schedule?" confirmLabel="Remove">
        <p>The report will no longer be e-mailed to the client.</p>
      </Confirm>
    </section>
  );
}
