/**
 * A line chart drawn as vectors on a PDF page: a line per series over the days, a gap where a
 * day has no data (never a drop to 0), a lone day as a dot, the value axis from 0 to a round
 * top, the first, middle and last day under it, and a legend.
 */
export interface ChartSeries {
  label: string;
  colour: string;
  values: readonly (number | null)[];
}

interface ChartBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The top of the value axis: four steps of 1, 2 or 5 times a power of ten (at least 1), so
 * that every step of a count is a whole, round number.
 */
export function roundTop(value: number): number {
  const rough = Math.max(value / 4, 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].find((m) => m * power >= rough) as number;
  return 4 * step * power;
}

/** A chart's height for `lines` series: the plot, the days under it and a line of legend each. */
export function chartHeight(lines: number): number {
  return PLOT_HEIGHT + DATES_HEIGHT + 10 + lines * LEGEND_LINE;
}

const PLOT_HEIGHT = 90;
const GRID = '#d9dce3';
const INK = '#4a5060';
const AXIS_WIDTH = 44;
const DATES_HEIGHT = 14;
const LEGEND_LINE = 12;

export function drawLineChart(
  doc: PDFKit.PDFDocument,
  box: Omit<ChartBox, 'height'>,
  dates: readonly string[],
  series: readonly ChartSeries[],
  fonts: { regular: string },
): void {
  const plot = { x: box.x + AXIS_WIDTH, y: box.y + 6, width: box.width - AXIS_WIDTH, height: PLOT_HEIGHT };
  const known = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const top = roundTop(Math.max(0, ...known));
  const yOf = (value: number) => plot.y + plot.height - (value / top) * plot.height;
  const xOf = (day: number) =>
    dates.length <= 1 ? plot.x + plot.width / 2 : plot.x + (day / (dates.length - 1)) * plot.width;

  doc.font(fonts.regular).fontSize(7).fillColor(INK);
  for (let i = 0; i <= 4; i++) {
    const value = (top / 4) * i;
    const y = yOf(value);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.width, y)
      .lineWidth(0.5)
      .strokeColor(GRID)
      .stroke();
    doc.text(value.toLocaleString('en-US'), box.x, y - 4, { width: AXIS_WIDTH - 6, align: 'right', lineBreak: false });
  }
  const labelled = [...new Set([0, Math.floor((dates.length - 1) / 2), dates.length - 1])].filter((i) => i >= 0);
  for (const day of labelled) {
    const date = dates[day] ?? '';
    doc.text(date, xOf(day) - 30, plot.y + plot.height + 4, { width: 60, align: 'center', lineBreak: false });
  }

  for (const s of series) {
    doc.lineWidth(1.5).strokeColor(s.colour).fillColor(s.colour);
    let drawing = false;
    for (const [day, value] of s.values.entries()) {
      if (value === null) {
        drawing = false;
        continue;
      }
      const alone = (s.values[day - 1] ?? null) === null && (s.values[day + 1] ?? null) === null;
      if (alone) doc.circle(xOf(day), yOf(value), 1.8).fill();
      if (drawing) doc.lineTo(xOf(day), yOf(value));
      else doc.moveTo(xOf(day), yOf(value));
      drawing = true;
      if ((s.values[day + 1] ?? null) === null) doc.stroke();
    }
  }

  let legendY = plot.y + plot.height + DATES_HEIGHT + 6;
  for (const s of series) {
    doc
      .rect(plot.x, legendY + 2, 10, 4)
      .fillColor(s.colour)
      .fill();
    doc
      .fillColor(INK)
      .text(s.label, plot.x + 14, legendY, { width: plot.width - 14, lineBreak: false, ellipsis: true });
    legendY += LEGEND_LINE;
  }
}
