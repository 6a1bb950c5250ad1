/** UTC days as numbers (days since 1970-01-01), so ranges and array offsets are plain arithmetic. */

const DAY_MS = 86_400_000;

/** The first day a date can name (the pattern ends at 9999; PostgreSQL has no year 0). */
export const FIRST_DAY = Date.parse('0001-01-01T00:00:00Z') / DAY_MS;

/** The day a real `YYYY-MM-DD` names, or null: February 30 is not a day, nor is `2026-1-5`, nor year 0000. */
export function dayNumber(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text.startsWith('0000')) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms)) return null;
  const day = ms / DAY_MS;
  // Date.parse rolls 2026-02-30 over into March; the round trip tells.
  return dayText(day) === text ? day : null;
}

export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day `at` falls in. */
export function dayOf(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS);
}

/** `from`..`to`, both included, as day texts. */
export function daysFrom(from: number, to: number): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day++) days.push(dayText(day));
  return days;
}
