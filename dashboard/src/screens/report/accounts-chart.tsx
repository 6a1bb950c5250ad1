/**
 * One headline figure by day, a line per account (uPlot), with the values as a table. A day
 * without data is a gap in its line and "no data" in the table, never a zero.
 */
import { useMemo, useRef } from 'preact/hooks';
import { useDailyPlot } from '../../daily-plot.ts';
import { accountLabel, type ProfileReport } from '../../resources.ts';

export type DailyFigure = 'followers' | 'views' | 'engagement' | 'posts_published';

/** Distinct on a white card and for the common colour blindnesses (Okabe and Ito's palette). */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

export function AccountsChart({
  figure,
  title,
  report,
}: {
  figure: DailyFigure;
  title: string;
  report: ProfileReport;
}) {
  const box = useRef<HTMLDivElement>(null);
  // A line for each account whose platform gives the figure (every account publishes posts),
  // kept while the report is the same: the chart is drawn again only when it changes.
  const { dates, accounts, lines } = useMemo(() => {
    const shown = report.accounts.filter((a) => figure === 'posts_published' || !a.not_offered.includes(figure));
    return {
      dates: report.accounts[0]?.days.map((d) => d.date) ?? [],
      accounts: shown,
      lines: shown.map((a, i) => ({
        label: accountLabel(a),
        stroke: COLOURS[i % COLOURS.length] as string,
        values: a.days.map((d) => d[figure]),
      })),
    };
  }, [figure, report]);
  useDailyPlot(box, dates, lines, { height: 220, legend: true }, [lines]);
  const captionId = `report-chart-${figure}`;
  return (
    <figure class="card chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        <strong>{title}</strong> by day
      </figcaption>
      <div
        ref={box}
        class="plot"
        role="img"
        aria-label={`Line chart of ${title} by day, a line per account; the table below has the values`}
      />
      <details>
        <summary>Values by day</summary>
        <table>
          <caption class="visually-hidden">{title} by day and account</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {accounts.map((a) => (
                <th key={a.account_id} scope="col">
                  {accountLabel(a)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dates.map((date, i) => (
              <tr key={date}>
                <td>{date}</td>
                {accounts.map((a) => {
                  const value = a.days[i]?.[figure] ?? null;
                  return (
                    <td key={a.account_id} class={value === null ? 'muted' : ''}>
                      {value === null ? 'no data' : value.toLocaleString()}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
