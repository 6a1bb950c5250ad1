/**
 * One metric's line chart over days (uPlot), with its total and the values by day as a table.
 * A day without data is a gap in the line and "no data" in the table, never a zero.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { MetricSeries } from '../../resources.ts';

export function metricName(metric: string): string {
  return metric.replaceAll('_', ' ');
}

export function Chart({ metric, series }: { metric: string; series: MetricSeries }) {
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
