/**
 * A profile's report: last month (or a range in the page's address) beside the period before,
 * the profile's headline figures, a chart of each across its accounts, each account's figures,
 * the best posts, and the report as a PDF and its days as a CSV to download.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { answer, api } from '../../api.ts';
import { platformLabel } from '../../catalogue.ts';
import { accountLabel, type ProfileReport, type ReportAccount, type ReportFigure } from '../../resources.ts';
import { mayOpen, PATHS, query, useSession } from '../../session.ts';
import { Empty, ErrorNotice, Progress, TextField, Time, useLoad } from '../../ui.tsx';
import { AccountsChart } from './accounts-chart.tsx';
import { ReportLinks } from './links.tsx';
import { ReportSchedulePanel } from './schedule.tsx';

const FIGURES = [
  { key: 'followers', title: 'Followers' },
  { key: 'views', title: 'Views' },
  { key: 'engagement', title: 'Engagement' },
  { key: 'posts_published', title: 'Posts published' },
] as const;

/** A figure's value, or why there is none. */
function shown(value: number | null, offered: boolean): string {
  if (!offered) return 'not offered';
  return value === null ? 'no data' : value.toLocaleString();
}

/** The change against the previous period, in words a client reads at a glance. */
function Change({ figure }: { figure: ReportFigure }) {
  if (figure.change === null) return <span class="muted small">no change to show</span>;
  const sign = figure.change > 0 ? '+' : figure.change < 0 ? '−' : '±';
  const ratio = figure.change_ratio === null ? '' : ` (${sign}${Math.abs(figure.change_ratio * 100).toFixed(1)}%)`;
  const tone = figure.change > 0 ? 'good' : figure.change < 0 ? 'bad' : 'neutral';
  return (
    <span class={`change ${tone}`}>
      {sign}
      {Math.abs(figure.change).toLocaleString()}
      {ratio} vs. previous period
    </span>
  );
}

function Totals({ report }: { report: ProfileReport }) {
  return (
    <ul class="headlines" aria-label="The profile's figures">
      {FIGURES.map(({ key, title }) => {
        const figure = report.totals[key];
        return (
          <li key={key} class="card">
            <span class="muted small">{title}</span>
            <strong class="headline-value">{shown(figure.value, true)}</strong>
            <span class="small muted">before: {shown(figure.previous, true)}</span>
            <Change figure={figure} />
          </li>
        );
      })}
    </ul>
  );
}

function AccountsTable({ accounts }: { accounts: readonly ReportAccount[] }) {
  return (
    <section class="card" aria-labelledby="report-accounts">
      <h2 id="report-accounts">Accounts</h2>
      {accounts.length === 0 ? <Empty>This profile has no account yet.</Empty> : null}
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Account</th>
              {FIGURES.map(({ key, title }) => (
                <th key={key} scope="col">
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.account_id}>
                <th scope="row">
                  <a href={PATHS.accountInsights(a.account_id)}>{accountLabel(a)}</a>
                  {a.status !== 'connected' ? <span class="small muted"> ({a.status})</span> : null}
                  {a.missing_permission ? (
                    <span class="small muted">
                      {' '}
                      — figures not granted (<code>{a.missing_permission}</code>)
                    </span>
                  ) : null}
                </th>
                {FIGURES.map(({ key }) => {
                  const offered = key === 'posts_published' || !a.not_offered.includes(key);
                  const figure = a[key];
                  return (
                    <td key={key} class={figure.value === null ? 'muted' : ''}>
                      {key === 'followers' && a.followers.start !== null && a.followers.value !== null
                        ? `${a.followers.start.toLocaleString()} → ${a.followers.value.toLocaleString()}`
                        : shown(figure.value, offered)}
                      {offered ? (
                        <>
                          <br />
                          <Change figure={figure} />
                        </>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function BestPosts({ report }: { report: ProfileReport }) {
  const names = new Map(report.accounts.map((a) => [a.account_id, accountLabel(a)]));
  return (
    <section class="card" aria-labelledby="report-posts">
      <h2 id="report-posts">Best posts</h2>
      {report.top_posts.length === 0 ? <Empty>No post of the period has figures yet.</Empty> : null}
      <ol class="best-posts">
        {report.top_posts.map((p) => (
          <li key={`${p.post_id} ${p.account_id}`}>
            <a href={PATHS.postInsights(p.post_id)}>{p.text ? p.text.slice(0, 120) : p.post_id}</a>
            <span class="small muted">
              {' '}
              — {names.get(p.account_id) ?? platformLabel(p.platform)}, <Time iso={p.published_at} />
            </span>
            <br />
            <strong>{p.engagement.toLocaleString()}</strong> engagement
            {p.permalink && /^https?:\/\//i.test(p.permalink) ? (
              <>
                {' · '}
                <a href={p.permalink} rel="noopener noreferrer" target="_blank">
                  on {platformLabel(p.platform)}
                </a>
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ReportScreen() {
  const { params } = useRoute();
  const location = useLocation();
  const session = useSession();
  const { readsProfiles } = session;
  const id = params.id ?? '';
  const q = location.query;
  const from = q.from || undefined;
  const to = q.to || undefined;
  const [draft, setDraft] = useState({ from: from ?? '', to: to ?? '' });
  const report = useLoad(
    () => answer(api.GET('/v1/profiles/{id}/report', { params: { path: { id }, query: { from, to } } })),
    [id, from, to],
  );
  const data = report.data;
  // The date boxes show the period on screen, last month's when none was chosen.
  useEffect(() => setDraft({ from: data?.from ?? from ?? '', to: data?.to ?? to ?? '' }), [data, from, to]);
  const file = (format: 'csv' | 'pdf') =>
    `/v1/profiles/${encodeURIComponent(id)}/report.${format}${query({ from: data?.from, to: data?.to })}`;
  return (
    <main id="main">
      <p>
        <a href={PATHS.profile(id)}>← {readsProfiles ? 'Profile' : 'Your profile'}</a>
      </p>
      <h1>Report{data ? `: ${data.profile_name}` : ''}</h1>
      <form
        class="inline filters"
        aria-label="Period"
        onSubmit={(e) => {
          e.preventDefault();
          location.route(`${PATHS.report(id)}${query({ from: draft.from, to: draft.to })}`, true);
        }}
      >
        <TextField label="From" type="date" value={draft.from} onValue={(v) => setDraft({ ...draft, from: v })} />
        <TextField label="To" type="date" value={draft.to} onValue={(v) => setDraft({ ...draft, to: v })} />
        <button type="submit" class="secondary">
          Show period
        </button>
        <button type="button" class="secondary" onClick={() => location.route(PATHS.report(id), true)}>
          Last month
        </button>
      </form>
      <ErrorNotice error={report.error} />
      {report.loading && !data ? <Progress label="Loading the report…" /> : null}
      {data ? (
        <>
          <p class="small muted">
            {data.from} to {data.to} (UTC days), beside {data.previous.from} to {data.previous.to}. Made from the
            figures last read from the platforms.{' '}
            <a href={file('pdf')} download>
              Download PDF
            </a>
            {' · '}
            <a href={file('csv')} download>
              Download CSV
            </a>
          </p>
          <Totals report={data} />
          <div class="charts">
            {FIGURES.map(({ key, title }) => (
              <AccountsChart key={`${key}:${data.from}:${data.to}`} figure={key} title={title} report={data} />
            ))}
          </div>
          <AccountsTable accounts={data.accounts} />
          <BestPosts report={data} />
          {/* A client reads its own report; its links are the agency's to send (viewers and up). */}
          {mayOpen(session, 'viewer', false) ? <ReportLinks profileId={id} from={data.from} to={data.to} /> : null}
          {mayOpen(session, 'viewer', false) ? (
            <ReportSchedulePanel profileId={id} from={data.from} to={data.to} />
          ) : null}
        </>
      ) : null}
    </main>
  );
}
