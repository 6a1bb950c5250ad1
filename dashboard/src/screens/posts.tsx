/**
 * Posts: a list, or a calendar by week or month, filtered by profile, account and status.
 * The view and the filters live in the URL's query, so a reload or a shared link shows the
 * same thing.
 */
import { useLocation } from 'preact-iso';
import { all, answer, api } from '../api.ts';
import { ProfileAccountFilters, useAccounts, useProfiles } from '../choices.tsx';
import { PostBadges, statusLabel } from '../post-status.tsx';
import { accountLabel, POST_STATUSES, type Post, type PostStatus } from '../resources.ts';
import { PATHS, query } from '../session.ts';
import { Empty, ErrorNotice, Progress, SelectField, Time, useLoad } from '../ui.tsx';

type View = 'list' | 'week' | 'month';

const DAY_MS = 24 * 3_600_000;
const dayKey = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });
const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const monthLabel = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const timeLabel = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** Midnight (the user's zone) of the Monday of `at`'s week. */
function weekStart(at: Date): Date {
  const day = new Date(at.getFullYear(), at.getMonth(), at.getDate());
  const sinceMonday = (day.getDay() + 6) % 7;
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() - sinceMonday);
}

/** The days a calendar shows: a week, or the whole weeks that hold a month. */
function calendarDays(view: 'week' | 'month', anchor: Date): Date[] {
  const first = view === 'week' ? weekStart(anchor) : weekStart(new Date(anchor.getFullYear(), anchor.getMonth(), 1));
  const end =
    view === 'week'
      ? new Date(first.getFullYear(), first.getMonth(), first.getDate() + 7)
      : (() => {
          const last = new Date(anchor.getFullYear(), anchor.getMonth() + 1, 0);
          const monday = weekStart(last);
          return new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 7);
        })();
  const days: Date[] = [];
  for (let d = first; d < end; d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1)) days.push(d);
  return days;
}

function shift(view: 'week' | 'month', anchor: Date, by: number): Date {
  return view === 'week'
    ? new Date(anchor.getTime() + by * 7 * DAY_MS)
    : new Date(anchor.getFullYear(), anchor.getMonth() + by, 1);
}

function excerpt(post: Post): string {
  const text = post.text ?? '';
  return text === '' ? `(${post.media_ids.length} media, no text)` : text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function Calendar({
  view,
  anchor,
  posts,
  onMove,
}: {
  view: 'week' | 'month';
  anchor: Date;
  posts: Post[];
  onMove: (by: number) => void;
}) {
  const days = calendarDays(view, anchor);
  const byDay = new Map<string, Post[]>();
  for (const p of posts) {
    const key = dayKey.format(new Date(p.scheduled_at));
    byDay.set(key, [...(byDay.get(key) ?? []), p]);
  }
  const title =
    view === 'month'
      ? monthLabel.format(anchor)
      : `${dayLabel.format(days[0] ?? anchor)} – ${dayLabel.format(days.at(-1) ?? anchor)}`;
  return (
    <section aria-labelledby="calendar-title">
      <div class="actions">
        <button type="button" class="secondary small" onClick={() => onMove(-1)}>
          ← Previous {view}
        </button>
        <h2 id="calendar-title">{title}</h2>
        <button type="button" class="secondary small" onClick={() => onMove(1)}>
          Next {view} →
        </button>
      </div>
      <ol class={`calendar ${view}`}>
        {days.map((day) => {
          const key = dayKey.format(day);
          const items = byDay.get(key) ?? [];
          const outside = view === 'month' && day.getMonth() !== anchor.getMonth();
          return (
            <li
              key={key}
              class={outside ? 'calendar-day outside' : 'calendar-day'}
              aria-label={`${dayLabel.format(day)}: ${items.length} posts`}
            >
              <p class="day small">{dayLabel.format(day)}</p>
              <ul class="plain">
                {items.map((p) => (
                  <li key={p.id} class="calendar-post">
                    <a href={PATHS.post(p.id)}>
                      <span class="small">{timeLabel.format(new Date(p.scheduled_at))}</span> {excerpt(p)}
                    </a>{' '}
                    <PostBadges post={p} />
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export function PostsScreen() {
  const location = useLocation();
  const q = location.query;
  const view: View = q.view === 'week' || q.view === 'month' ? q.view : 'list';
  const anchor = q.at && !Number.isNaN(Date.parse(q.at)) ? new Date(`${q.at}T00:00:00`) : new Date();
  const profile = q.profile ?? '';
  const account = q.account ?? '';
  const status = POST_STATUSES.includes(q.status as PostStatus) ? (q.status as PostStatus) : undefined;

  const set = (changes: Record<string, string | undefined>) => {
    const next = { ...q, ...changes };
    location.route(`${PATHS.posts}${query(next)}`, true);
  };

  const profiles = useProfiles();
  const accounts = useAccounts(profile);
  const days = view === 'list' ? null : calendarDays(view, anchor);
  const range = days
    ? { from: days[0]?.toISOString(), to: new Date((days.at(-1)?.getTime() ?? 0) + DAY_MS - 1).toISOString() }
    : {};
  const posts = useLoad(async () => {
    const filters = { status, account_id: account || undefined, ...range };
    const header = { 'service-profile': profile || undefined };
    // A calendar shows all of its days' posts; the list shows the newest 50.
    return days
      ? await all('/v1/posts', { query: filters, header })
      : (await answer(api.GET('/v1/posts', { params: { query: { ...filters, limit: 50 }, header } }))).data;
  }, [view, profile, account, status, range.from]);

  const accountName = (id: string) => {
    const a = accounts.data?.find((x) => x.id === id);
    return a ? accountLabel(a) : id;
  };

  return (
    <main id="main">
      <div class="actions">
        <h1>Posts</h1>
        <a class="button" href={PATHS.newPost}>
          New post
        </a>
      </div>
      <form class="inline filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <ProfileAccountFilters
          profiles={profiles.data}
          accounts={accounts.data}
          profile={profile}
          account={account}
          set={set}
        />
        <SelectField
          label="Status"
          none="Any status"
          value={status ?? ''}
          choices={POST_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          onValue={(value) => set({ status: value || undefined })}
        />
        <fieldset class="view">
          <legend>View</legend>
          {(['list', 'week', 'month'] as const).map((v) => (
            <label key={v} class="check">
              <input
                type="radio"
                name="view"
                checked={view === v}
                onChange={() => set({ view: v === 'list' ? undefined : v })}
              />
              {v === 'list' ? 'List' : v === 'week' ? 'Week' : 'Month'}
            </label>
          ))}
        </fieldset>
      </form>
      <ErrorNotice error={posts.error ?? accounts.error} />
      {posts.loading && !posts.data ? <Progress label="Loading posts…" /> : null}
      {posts.data && view !== 'list' ? (
        <Calendar
          view={view}
          anchor={anchor}
          posts={posts.data}
          onMove={(by) => set({ at: dayKey.format(shift(view, anchor, by)) })}
        />
      ) : null}
      {posts.data && view === 'list' ? (
        posts.data.length === 0 ? (
          <Empty>No posts match.</Empty>
        ) : (
          <table>
            <caption class="visually-hidden">Posts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Scheduled</th>
                <th scope="col">Text</th>
                <th scope="col">Status</th>
                <th scope="col">Accounts</th>
              </tr>
            </thead>
            <tbody>
              {posts.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Time iso={p.scheduled_at} />
                  </td>
                  <td>
                    <a href={PATHS.post(p.id)}>{excerpt(p)}</a>
                  </td>
                  <td>
                    <PostBadges post={p} />
                  </td>
                  <td>
                    <ul class="plain small">
                      {p.targets.map((t) => (
                        <li key={t.id}>
                          {accountName(t.account_id)}: {statusLabel(t.status)}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </main>
  );
}
