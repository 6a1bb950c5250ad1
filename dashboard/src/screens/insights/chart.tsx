/**
 * One metric's line chart over days (uPlot), with its total and the values by day as a table.
 * A day without data is a gap in the line and "no data" in the table, never a zero.
 */
import { useRef } from 'preact/hooks';
import { useDailyPlot } from '../../daily-plot.ts';
import type { MetricSeries } from '../../resources.ts';

export function metricName(metric: string): string {
  return metric.replaceAll('_', ' ');
}

export function Chart({ metric, series }: { metric: string; series: MetricSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const line = { label: metricName(metric), stroke: '#2446c7', values: series.values.map((v) => v.value) };
  useDailyPlot(
    box,
    series.values.map((v) => v.date),
    [line],
    { height: 200, legend: false },
    [metric, series],
  );
  const captionId = `chart-${metric}`;
  return (
    <figure class="card chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        <strong>{metricName(metric)}</strong> — total:{' '}
        <span class="total">
          {series.total !== null
            ? series.total.toLocaleString()
            : // A rate (LinkedIn's engagement) has days with data but no total: rates do not add up.
              series.values.some((v) => v.value !== null)
              ? 'none (a rate: days do not add up)'
              : 'no data'}
        </span>
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
