/**
 * An account's figures: one chart per metric over 7, 30, 90 or 365 days or a range of its own
 * (in the page's address), Sync now, and its recent published posts leading to their figures.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { answer, api } from '../../api.ts';
import { type Account, accountLabel } from '../../resources.ts';
import { PATHS, query } from '../../session.ts';
import { Empty, ErrorNotice, Progress, TextField, Time, useLoad } from '../../ui.tsx';
import { Chart } from './chart.tsx';
import { MissingPermission } from './missing-permission.tsx';
import { SyncNow } from './sync-now.tsx';

const RANGES = [7, 30, 90, 365] as const;
const DAY_MS = 24 * 3_600_000;

function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function RecentPosts({ account }: { account: Account }) {
  const posts = useLoad(
    () =>
      answer(
        api.GET('/v1/posts', {
          params: {
            query: { account_id: account.id, status: 'published', limit: 10 },
            header: { 'service-profile': account.profile_id },
          },
        }),
      ),
    [account.id],
  );
  return (
    <section class="card" aria-labelledby="recent-posts">
      <h2 id="recent-posts">Recent posts</h2>
      <ErrorNotice error={posts.error} />
      {posts.data && posts.data.data.length === 0 ? <Empty>No published post yet.</Empty> : null}
      <ul>
        {(posts.data?.data ?? []).map((p) => (
          <li key={p.id}>
            <a href={PATHS.postInsights(p.id)}>{p.text ? p.text.slice(0, 80) : p.id}</a> — <Time iso={p.scheduled_at} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AccountInsightsScreen() {
  const { params } = useRoute();
  const location = useLocation();
  const id = params.id ?? '';
  const q = location.query;
  const today = new Date();
  const days = RANGES.includes(Number(q.days) as (typeof RANGES)[number]) ? Number(q.days) : 30;
  const custom = q.from !== undefined && q.to !== undefined;
  const from = custom ? q.from : isoDay(new Date(today.getTime() - (days - 1) * DAY_MS));
  const to = custom ? q.to : isoDay(today);
  const [draft, setDraft] = useState({ from: from ?? '', to: to ?? '' });
  // The date boxes show the range on screen, whichever way it was chosen.
  useEffect(() => setDraft({ from: from ?? '', to: to ?? '' }), [from, to]);
  const account = useLoad(() => answer(api.GET('/v1/accounts/{id}', { params: { path: { id } } })), [id]);
  const insights = useLoad(
    () =>
      answer(
        api.GET('/v1/accounts/{id}/insights', {
          params: { path: { id }, query: { from: from || undefined, to: to || undefined } },
        }),
      ),
    [id, from, to],
  );
  const set = (changes: Record<string, string | undefined>) =>
    location.route(`${PATHS.accountInsights(id)}${query(changes)}`, true);
  const data = insights.data;
  return (
    <main id="main">
      <p>
        <a href={PATHS.insights}>← Insights</a>
      </p>
      <h1>Insights{account.data ? `: ${accountLabel(account.data)}` : ''}</h1>
      <ErrorNotice error={account.error} />
      <form
        class="inline filters"
        aria-label="Range"
        onSubmit={(e) => {
          e.preventDefault();
          set({ from: draft.from, to: draft.to });
        }}
      >
        <fieldset>
          <legend>Days</legend>
          {RANGES.map((r) => (
            <label key={r} class="check">
              <input
                type="radio"
                name="range"
                checked={!custom && days === r}
                onChange={() => set({ days: String(r) })}
              />
              {r} days
            </label>
          ))}
        </fieldset>
        <TextField label="From" type="date" value={draft.from} onValue={(from) => setDraft({ ...draft, from })} />
        <TextField label="To" type="date" value={draft.to} onValue={(to) => setDraft({ ...draft, to })} />
        <button type="submit" class="secondary">
          Show range
        </button>
      </form>
      <SyncNow accountId={id} onQueued={insights.reload} />
      {data?.synced_at ? (
        <p class="small muted">
          Last read <Time iso={data.synced_at} />. Days are UTC days.
        </p>
      ) : null}
      <ErrorNotice error={insights.error} />
      {insights.loading && !data ? <Progress label="Loading figures…" /> : null}
      {data?.missing_permission ? (
        <MissingPermission permission={data.missing_permission} account={account.data} />
      ) : null}
      {data ? (
        <div class="charts">
          {Object.entries(data.metrics).map(([metric, series]) => (
            <Chart key={`${metric}:${data.from}:${data.to}`} metric={metric} series={series} />
          ))}
        </div>
      ) : null}
      {account.data ? <RecentPosts account={account.data} /> : null}
    </main>
  );
}
