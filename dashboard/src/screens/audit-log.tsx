/**
 * The audit log (owner sessions only): every change, who made it (a key by name, or a client's
 * link), through what, and from where, newest first, filtered by profile, actor, object and days
 * of the user's calendar.
 * The filters live in the URL's query, so a reload or a shared link shows the same entries.
 * The User-Agent is text the caller chose: it is rendered as text like every other value.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { answer, api } from '../api.ts';
import { profileChoices, useProfiles } from '../choices.tsx';
import type { AuditEntry } from '../resources.ts';
import { PATHS, query } from '../session.ts';
import { Empty, ErrorNotice, Progress, SelectField, TextField, Time, useAction, useLoad } from '../ui.tsx';

const PAGE = 50;

const ACTORS: Record<AuditEntry['actor']['type'], string> = {
  api_key: 'API key',
  member: 'Member',
  approval_link: 'Approval link',
  connect_link: 'Connect link',
  reconnect_link: 'Reconnect link',
  operator: 'Operator',
};

const VIA: Record<AuditEntry['via'], string> = {
  api: 'API',
  dashboard: 'Dashboard',
  approval_page: 'Approval page',
  connect_page: 'Connect page',
  cli: 'Command line',
};

/** Where the dashboard shows an object, when it has a screen for its kind. */
function objectHref(id: string): string | null {
  if (id.startsWith('post_')) return PATHS.post(id);
  if (id.startsWith('we_')) return PATHS.webhook(id);
  if (id.startsWith('prf_')) return PATHS.profile(id);
  return null;
}

function Actor({ actor }: { actor: AuditEntry['actor'] }) {
  return (
    <>
      {ACTORS[actor.type]}
      {actor.name !== null ? <> “{actor.name}”</> : null}
      <br />
      <code class="small">{actor.id}</code>
    </>
  );
}

function ObjectId({ id }: { id: string | null }) {
  if (id === null) return <span class="muted">—</span>;
  const href = objectHref(id);
  return href ? (
    <a href={href}>
      <code>{id}</code>
    </a>
  ) : (
    <code>{id}</code>
  );
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The instant a day of the user's calendar starts (or, with `end`, its last millisecond), for
 * the API's time range; undefined for a day no calendar has (2021-02-31, typed into the address).
 */
function dayBound(day: string | undefined, end: boolean): string | undefined {
  const [, y, m, d] = DAY.exec(day ?? '') ?? [];
  if (y === undefined || m === undefined || d === undefined || Number(y) < 1970) return undefined;
  const at = end
    ? new Date(Number(y), Number(m) - 1, Number(d), 23, 59, 59, 999)
    : new Date(Number(y), Number(m) - 1, Number(d));
  const same = at.getFullYear() === Number(y) && at.getMonth() === Number(m) - 1 && at.getDate() === Number(d);
  return same ? at.toISOString() : undefined;
}

export function AuditLogScreen() {
  const location = useLocation();
  const q = location.query;
  const filters = {
    profile_id: q.profile || undefined,
    actor_id: q.actor || undefined,
    object_id: q.object || undefined,
    from: dayBound(q.from, false),
    to: dayBound(q.to, true),
  };
  const set = (changes: Record<string, string | undefined>) =>
    location.route(`${PATHS.auditLog}${query({ ...q, ...changes })}`, true);
  // The id and day fields apply when the form is sent, not at each key.
  const [draft, setDraft] = useState({
    actor: q.actor ?? '',
    object: q.object ?? '',
    from: q.from ?? '',
    to: q.to ?? '',
  });
  const profiles = useProfiles();
  const key = JSON.stringify(filters);
  const first = useLoad(
    async (signal) =>
      await answer(api.GET('/v1/audit-log', { params: { query: { ...filters, limit: PAGE } }, signal })),
    [key],
  );
  const [older, setOlder] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    setOlder([]);
    setCursor(undefined);
  }, [key]);
  const next = cursor === undefined ? (first.data?.next_cursor ?? null) : cursor;
  const loadOlder = useAction(async () => {
    if (next === null) return null;
    const page = await answer(
      api.GET('/v1/audit-log', { params: { query: { ...filters, limit: PAGE, cursor: next } } }),
    );
    setOlder([...older, ...page.data]);
    setCursor(page.next_cursor);
    return page;
  });
  const entries = [...(first.data?.data ?? []), ...older];
  const profileName = (id: string | null) =>
    id === null ? null : (profiles.data?.find((p) => p.id === id)?.name ?? id);

  return (
    <main id="main">
      <h1>Audit log</h1>
      <p class="muted">
        Every change made through the API, the dashboard and the links sent to clients, newest first. Entries are kept
        for the time the service is set to (a year by default).
      </p>
      <form
        class="inline filters"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          set({
            actor: draft.actor.trim() || undefined,
            object: draft.object.trim() || undefined,
            from: draft.from || undefined,
            to: draft.to || undefined,
          });
        }}
      >
        <SelectField
          label="Profile"
          none="Every profile"
          value={filters.profile_id ?? ''}
          choices={profileChoices(profiles.data)}
          onValue={(value) => set({ profile: value || undefined })}
        />
        <TextField
          label="Actor id"
          placeholder="key_… or a link's id"
          value={draft.actor}
          onValue={(actor) => setDraft({ ...draft, actor })}
        />
        <TextField
          label="Object id"
          placeholder="post_…, we_…, acc_…"
          value={draft.object}
          onValue={(object) => setDraft({ ...draft, object })}
        />
        <TextField label="From" type="date" value={draft.from} onValue={(from) => setDraft({ ...draft, from })} />
        <TextField label="To" type="date" value={draft.to} onValue={(to) => setDraft({ ...draft, to })} />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      <ErrorNotice error={first.error ?? profiles.error} />
      {first.loading && !first.data ? <Progress label="Loading the audit log…" /> : null}
      {first.data && entries.length === 0 ? <Empty>No changes match.</Empty> : null}
      {entries.length > 0 ? (
        <table>
          <caption class="visually-hidden">Changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Object</th>
              <th scope="col">Profile</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <Time iso={e.created_at} />
                </td>
                <td>
                  <Actor actor={e.actor} />
                </td>
                <td>
                  <code>{e.operation}</code>
                  <br />
                  <span class="small muted">{e.via === 'cli' ? VIA[e.via] : `${e.status} · ${VIA[e.via]}`}</span>
                </td>
                <td>
                  <ObjectId id={e.object_id} />
                </td>
                <td>{profileName(e.profile_id) ?? <span class="muted">—</span>}</td>
                <td class="small">
                  {e.ip ?? '—'}
                  <br />
                  <span class="muted">{e.user_agent ?? ''}</span>
                  <br />
                  <code class="muted">{e.request_id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {next !== null && first.data ? (
        <button type="button" class="secondary" disabled={loadOlder.busy} onClick={() => void loadOlder.run()}>
          {loadOlder.busy ? 'Loading…' : 'Load older changes'}
        </button>
      ) : null}
      <ErrorNotice error={loadOlder.error} />
    </main>
  );
}
