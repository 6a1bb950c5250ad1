/**
 * The hosted report page: what a report link opens. A client, without an account, reads the
 * profile's period beside the one before: the headline figures, a chart per figure (inline SVG,
 * drawn on the server: the page runs no script), each account's figures and the best posts, and
 * may download the PDF. Every name on it is the text of the elements it is in, never markup.
 */
import type { ComponentChildren } from 'preact';
import {
  accountName,
  changeText,
  figureText,
  type ProfileReport,
  REPORT_COLOURS,
  REPORT_FIGURES,
  type ReportAccount,
  reportTitle,
} from '../modules/reports/index.ts';
import { platformInfo } from '../platforms/index.ts';
import { BASE_CSS, type Page } from './page.tsx';

const REPORT_CSS = `main.report{max-width:60rem}
.figures{list-style:none;margin:0 0 1rem;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.75rem}
.figures li{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;background:#fff}
.figures strong{display:block;font-size:1.6rem}
.up{color:#17663a}.down{color:#a3182b}
.chart svg{display:block;width:100%;height:auto}
.legend{list-style:none;margin:.5rem 0 0;padding:0;font-size:.9rem}
.legend svg{display:inline-block;width:.8rem;height:.8rem;margin-right:.4rem;vertical-align:middle}
table{border-collapse:collapse;width:100%;font-size:.95rem}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
.scroll{overflow-x:auto}
.brand{display:flex;gap:1rem;align-items:center;margin:0 0 1rem}.brand img{max-height:3rem;max-width:8rem}
.button.inline{display:inline-block;width:auto}
`;

type Figure = ProfileReport['totals']['views'];

function Change({ figure }: { figure: Figure }) {
  if (figure.change === null) return <span class="muted">{changeText(figure)}</span>;
  return (
    <span class={figure.change > 0 ? 'up' : figure.change < 0 ? 'down' : 'muted'}>
      {`${changeText(figure)} vs. the period before`}
    </span>
  );
}

/** A chart of one figure by day, a line per account, as SVG: a gap where a day has no data, a lone day as a dot. */
function Chart({
  title,
  report,
  pick,
  none,
}: {
  title: string;
  report: ProfileReport;
  pick: (a: ReportAccount) => (number | null)[];
  /** What the chart says when no account has a day of the figure. */
  none: string;
}) {
  const lines = report.accounts
    .map((a, i) => ({
      name: accountName(a),
      colour: REPORT_COLOURS[i % REPORT_COLOURS.length] as string,
      values: pick(a),
    }))
    .filter((l) => l.values.some((v) => v !== null));
  if (lines.length === 0) {
    return (
      <section class="card chart">
        <h2>{title} by day</h2>
        <p class="muted">{none}</p>
      </section>
    );
  }
  const width = 600;
  const height = 180;
  const left = 44;
  const days = report.dates.length;
  const top = Math.max(1, ...lines.flatMap((l) => l.values.filter((v): v is number => v !== null)));
  const x = (day: number) => (days <= 1 ? left + (width - left) / 2 : left + (day / (days - 1)) * (width - left - 4));
  const y = (value: number) => height - 20 - (value / top) * (height - 30);
  const segments = (values: (number | null)[]): string[][] => {
    const runs: string[][] = [];
    let run: string[] = [];
    for (const [day, value] of values.entries()) {
      if (value === null) {
        if (run.length > 0) runs.push(run);
        run = [];
      } else run.push(`${x(day).toFixed(1)},${y(value).toFixed(1)}`);
    }
    if (run.length > 0) runs.push(run);
    return runs;
  };
  return (
    <section class="card chart">
      <h2>{title} by day</h2>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title} by day, a line per account`}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={left} x2={width} y1={y(top * f)} y2={y(top * f)} stroke="#d9dce3" stroke-width="1" />
            <text x={left - 6} y={y(top * f) + 4} text-anchor="end" font-size="11" fill="#5b6475">
              {figureText(Math.round(top * f * 100) / 100)}
            </text>
          </g>
        ))}
        <text x={left} y={height - 4} font-size="11" fill="#5b6475">
          {report.dates[0]}
        </text>
        <text x={width - 4} y={height - 4} font-size="11" fill="#5b6475" text-anchor="end">
          {report.dates[days - 1]}
        </text>
        {lines.flatMap((l) =>
          segments(l.values).map((run) =>
            run.length === 1 ? (
              <circle
                key={`${l.name}${run[0]}`}
                cx={run[0]?.split(',')[0]}
                cy={run[0]?.split(',')[1]}
                r="3"
                fill={l.colour}
              />
            ) : (
              <polyline
                key={`${l.name}${run[0]}`}
                points={run.join(' ')}
                fill="none"
                stroke={l.colour}
                stroke-width="2"
              />
            ),
          ),
        )}
      </svg>
      <ul class="legend">
        {lines.map((l) => (
          <li key={l.name}>
            <svg viewBox="0 0 10 10" aria-hidden="true">
              <rect width="10" height="10" fill={l.colour} />
            </svg>
            {l.name}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Cell({ a, figure }: { a: ReportAccount; figure: (typeof REPORT_FIGURES)[number] }): ComponentChildren {
  if (figure.key !== 'postsPublished' && a.notOffered.includes(figure.key))
    return <span class="muted">not offered</span>;
  const f = a[figure.key];
  const value =
    figure.key === 'followers' && a.followers.start !== null && a.followers.value !== null
      ? `${figureText(a.followers.start)} → ${figureText(a.followers.value)}`
      : figureText(f.value);
  return (
    <>
      {value}
      <br />
      <Change figure={f} />
    </>
  );
}

export function reportPage(view: {
  report: ProfileReport;
  brandName: string;
  logoUrl: string | null;
  pdfUrl: string;
}): Page {
  const { report } = view;
  return {
    status: 200,
    title: reportTitle(report),
    css: `${BASE_CSS}${REPORT_CSS}`,
    mediaSources: view.logoUrl === null ? [] : ["'self'"],
    body: (
      <main class="report">
        <div class="brand">
          {view.logoUrl === null ? null : <img src={view.logoUrl} alt={view.brandName} />}
          <p class="muted">{view.brandName}</p>
        </div>
        <h1>{report.profile.name}</h1>
        <p class="muted">
          {report.from} to {report.to} (UTC days), compared with {report.previous.from} to {report.previous.to}.
        </p>
        <p>
          <a class="button inline" href={view.pdfUrl}>
            Download the PDF
          </a>
        </p>
        <ul class="figures" aria-label="The figures of the period">
          {REPORT_FIGURES.map((f) => (
            <li key={f.key}>
              <span class="muted">{f.title}</span>
              <strong>{figureText(report.totals[f.key].value)}</strong>
              <span class="muted">before: {figureText(report.totals[f.key].previous)}</span>
              <br />
              <Change figure={report.totals[f.key]} />
            </li>
          ))}
        </ul>
        {REPORT_FIGURES.map((f) => (
          <Chart
            key={f.key}
            title={f.title}
            report={report}
            none={f.key === 'postsPublished' ? 'No post was published in this period.' : 'No data in this period.'}
            pick={(a) =>
              f.key === 'postsPublished'
                ? a.days.map((d) => (a.postsPublished.value === 0 ? null : d.postsPublished))
                : a.notOffered.includes(f.key)
                  ? []
                  : a.days.map((d) => d[f.key])
            }
          />
        ))}
        <section class="card">
          <h2>Accounts</h2>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  {REPORT_FIGURES.map((f) => (
                    <th key={f.key} scope="col">
                      {f.title}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.accounts.map((a) => (
                  <tr key={a.account.id}>
                    <th scope="row">{accountName(a)}</th>
                    {REPORT_FIGURES.map((f) => (
                      <td key={f.key}>
                        <Cell a={a} figure={f} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section class="card">
          <h2>Best posts</h2>
          {report.topPosts.length === 0 ? <p class="muted">No post of the period has figures yet.</p> : null}
          <ol>
            {report.topPosts.map((p) => (
              <li key={`${p.postId} ${p.accountId}`}>
                <p class="text">{p.text ?? '(no text)'}</p>
                <p class="muted">
                  {p.publishedAt.toISOString().slice(0, 10)}: {figureText(p.engagement)} engagement
                  {p.permalink !== null && /^https?:\/\//i.test(p.permalink) ? (
                    <>
                      {' · '}
                      <a href={p.permalink} rel="noopener noreferrer">
                        see it on {platformInfo(p.platform).label}
                      </a>
                    </>
                  ) : null}
                </p>
              </li>
            ))}
          </ol>
        </section>
        <p class="muted">
          Made {report.generatedAt.toISOString().slice(0, 10)} from the figures last read from each platform.
        </p>
      </main>
    ),
  };
}
