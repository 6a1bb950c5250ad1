/**
 * Insights: choose an account, then one line chart per metric over 7, 30, 90 or 365 days or
 * a range of its own, with the total; a day without data is a gap in the line and "no data"
 * in the table beside it, never a zero. Sync now, with the wait the 5-minute rule asks for;
 * a missing permission says what to do. A post's figures are on their own screen.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { all, answer, api, SwitchboardError } from '../api.ts';
import { INSIGHT_PLATFORMS } from '../platforms.ts';
import { type Account, accountLabel, type MetricSeries } from '../resources.ts';
import { PATHS, query } from '../session.ts';
import { Empty, ErrorNotice, Progress, TextField, Time, useAction, useLoad } from '../ui.tsx';

const RANGES = [7, 30, 90, 365] as const;
const DAY_MS = 24 * 3_600_000;

function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function metricName(metric: string): string {
  return metric.replaceAll('_', ' ');
}

function Chart({ metric, series }: { metric: string; series: MetricSeries }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = series.values.map((v) => Date.parse(`${v.date}T00:00:00Z`) / 1000);
    // null stays null: uPlot draws no line through a day without data.
    const ys = series.values.map((v) => v.value);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 200,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { show: true },
        scales: { x: { time: true } },
        series: [
          {},
          { label: metricName(metric), stroke: '#2446c7', width: 2, spanGaps: false, points: { show: true, size: 4 } },
        ],
        axes: [{}, { size: 50 }],
      },
      [xs, ys],
      element,
    );
    // The chart follows its box's width (a resized window, a turned phone).
    const resized = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 200 }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [metric, series]);
  const captionId = `chart-${metric}`;
  return (
    <figure class="card chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        <strong>{metricName(metric)}</strong> — total:{' '}
        <span class="total">{series.total === null ? 'no data' : series.total.toLocaleString()}</span>
      </figcaption>
      <div
        ref={box}
        class="plot"
        role="img"
        aria-label={`Line chart of ${metricName(metric)} by day; the table below has the values`}
      />
      <details>
        <summary>Values by day</summary>
        <table>
          <caption class="visually-hidden">{metricName(metric)} by day</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">{metricName(metric)}</th>
            </tr>
          </thead>
          <tbody>
            {series.values.map((v) => (
              <tr key={v.date}>
                <td>{v.date}</td>
                <td class={v.value === null ? 'muted' : ''}>
                  {v.value === null ? 'no data' : v.value.toLocaleString()}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** How long a refused sync asks to wait (`sync_rate_limited`'s `details.retry_after_seconds`), else null. */
function syncWaitSeconds(error: unknown): number | null {
  if (!(error instanceof SwitchboardError) || error.code !== 'sync_rate_limited') return null;
  const details = error.details;
  return typeof details === 'object' && details !== null && 'retry_after_seconds' in details
    ? Number(details.retry_after_seconds)
    : null;
}

function SyncNow({ accountId, onQueued }: { accountId: string; onQueued: () => void }) {
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

function MissingPermission({ permission, account }: { permission: string; account: Account | undefined }) {
  return (
    <div class="notice warn" role="status">
      <p>
        The account has not granted <code>{permission}</code>, so its figures cannot be read.
      </p>
      <p>
        Send the client a reconnect link and ask them to allow it:{' '}
        {account ? (
          <a href={PATHS.profile(account.profile_id)}>open the profile menu, then the account’s “Reconnect link”</a>
        ) : (
          'from the profile menu'
        )}
        .
      </p>
    </div>
  );
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

export function PostInsightsScreen() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const figures = useLoad(() => answer(api.GET('/v1/posts/{id}/insights', { params: { path: { id } } })), [id]);
  const account = useLoad(
    () =>
      figures.data
        ? answer(api.GET('/v1/accounts/{id}', { params: { path: { id: figures.data.account_id } } }))
        : Promise.resolve(undefined),
    [figures.data?.account_id],
  );
  const data = figures.data;
  return (
    <main id="main">
      <p>
        <a href={PATHS.post(id)}>← The post</a>
      </p>
      <h1>Post figures</h1>
      <ErrorNotice error={figures.error} />
      {figures.loading && !data ? <Progress label="Loading figures…" /> : null}
      {data?.missing_permission ? (
        <MissingPermission permission={data.missing_permission} account={account.data} />
      ) : null}
      {data ? (
        <>
          <table>
            <caption class="visually-hidden">The post's lifetime figures</caption>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(data.metrics).map(([metric, value]) => (
                <tr key={metric}>
                  <td>{metricName(metric)}</td>
                  <td class={value === null ? 'muted' : ''}>{value === null ? 'no data' : value.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="small muted">
            {data.synced_at ? (
              <>
                Last read <Time iso={data.synced_at} />.
              </>
            ) : (
              'Not read yet.'
            )}
          </p>
          {account.data ? <SyncNow accountId={account.data.id} onQueued={figures.reload} /> : null}
        </>
      ) : null}
    </main>
  );
}

export function InsightsScreen() {
  const accounts = useLoad(() => all('/v1/accounts', {}), []);
  const withInsights = (accounts.data ?? []).filter((a) => INSIGHT_PLATFORMS.includes(a.platform));
  return (
    <main id="main">
      <h1>Insights</h1>
      <p class="muted">Daily figures of Instagram and Threads accounts (TikTok and Facebook Pages have none here).</p>
      <ErrorNotice error={accounts.error} />
      {accounts.loading && !accounts.data ? <Progress label="Loading accounts…" /> : null}
      {accounts.data && withInsights.length === 0 ? <Empty>No Instagram or Threads account yet.</Empty> : null}
      <ul>
        {withInsights.map((a) => (
          <li key={a.id}>
            <a href={PATHS.accountInsights(a.id)}>{accountLabel(a)}</a> <span class="muted small">{a.status}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
