/**
 * A line chart of figures by UTC day (uPlot) in a box: drawn once the box is on screen, at its
 * width, again at its new width when it changes (a resized window, a turned phone). A day
 * without data is a gap in its line, never a drop to 0.
 */
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface DailyLine {
  label: string;
  stroke: string;
  values: readonly (number | null)[];
}

const DAY_S = 86_400;
/** Ticks on whole days: the figures are daily, so hours between them would mean nothing. */
const DAY_STEPS = [1, 2, 7, 14, 30, 91, 182, 365].map((days) => days * DAY_S);

export function useDailyPlot(
  box: RefObject<HTMLDivElement | null>,
  dates: readonly string[],
  lines: readonly DailyLine[],
  options: { height: number; legend: boolean },
  deps: readonly unknown[],
): void {
  // Drawn again when what the caller names changes: the lines are made anew at each render.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000);
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: options.height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: options.legend },
        cursor: { show: true },
        scales: { x: { time: true } },
        series: [
          {},
          ...lines.map((line) => ({
            label: line.label,
            stroke: line.stroke,
            width: 2,
            spanGaps: false,
            points: { show: true, size: 4 },
          })),
        ],
        axes: [{ incrs: DAY_STEPS }, { size: 50 }],
      },
      [xs, ...lines.map((line) => [...line.values])],
      element,
    );
    const resized = new ResizeObserver(() => plot.setSize({ width: width(), height: options.height }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, deps);
}
