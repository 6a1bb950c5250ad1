import { BenchError } from './server.ts';

/** Shared by the benches: settings from the environment, percentiles and plain-text tables. */

export function positiveIntFromEnv(name: string, fallback: number): number {
  return intFromEnv(name, fallback, 1);
}

/** As positiveIntFromEnv, where 0 is allowed (none). */
export function nonNegativeIntFromEnv(name: string, fallback: number): number {
  return intFromEnv(name, fallback, 0);
}

function intFromEnv(name: string, fallback: number, least: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < least) {
    throw new BenchError(`${name}=${JSON.stringify(raw)}: must be a whole number, ${least} or more`);
  }
  return n;
}

/** Nearest-rank percentile of an ascending array; NaN when it is empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? Number.NaN;
}

export function table(rows: string[][], rightAligned: boolean[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, i) => (rightAligned[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

export const met = (ok: boolean): string => (ok ? 'met' : 'NOT MET');

/**
 * A baseline or floor measured before and after the runs held against it: its later rate as a
 * multiple of its earlier one when they differ by more than a tenth (the machine's speed moved
 * in between), else undefined.
 */
export function speedMoved(before: number, after: number): number | undefined {
  const move = after / before;
  return move < 0.9 || move > 1.1 ? move : undefined;
}

/**
 * A floor's ratio, measured in the same run as an aim's, saying when the floor itself misses that
 * aim: only then may the aim's miss be called bounded by its floor.
 */
export const floorAgainstAim = (ratio: number, aim: number): string =>
  `${ratio.toFixed(3)}${ratio < aim ? ', itself under the aim' : ''}`;

/** A failure as one message: a BenchError's own text, otherwise the stack. */
export function describe(failure: unknown): string {
  if (failure instanceof BenchError) return failure.message;
  return failure instanceof Error ? (failure.stack ?? failure.message) : String(failure);
}

/**
 * The report's closing note when processes outside the bench used more than a tenth of the
 * machine during a run (`busiest`: the largest share); `consequence` says what moves with that.
 */
export function outsideNote(busiest: number, consequence: string): string[] {
  return busiest > 0.1
    ? [
        '',
        `note: processes outside the bench used up to ${(busiest * 100).toFixed(0)}% of the machine during a run; ${consequence}`,
      ]
    : [];
}
