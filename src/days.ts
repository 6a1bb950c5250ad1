/** UTC days as numbers (days since 1970-01-01), so ranges and array offsets are plain arithmetic. */

/** A UTC day's length: a day number times it is its midnight's time. */
export const DAY_MS = 86_400_000;

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

/**
 * `from`..`to`, both included, as day texts. Counted on from the first day's year, month and
 * day rather than formatting a Date per day: a year of days is written for every answer, and
 * a Date per day was a third of the route's CPU. Years before 1000 or after 9999 are not
 * counted on (they are not written as four digits the same way), so they go day by day.
 */
export function daysFrom(from: number, to: number): string[] {
  const days: string[] = [];
  if (from > to) return days;
  const first = new Date(from * DAY_MS);
  let year = first.getUTCFullYear();
  if (year < 1000 || to > LAST_COUNTED_DAY) {
    for (let day = from; day <= to; day++) days.push(dayText(day));
    return days;
  }
  let month = first.getUTCMonth() + 1;
  let date = first.getUTCDate();
  for (let day = from; day <= to; day++) {
    days.push(`${year}-${month < 10 ? '0' : ''}${month}-${date < 10 ? '0' : ''}${date}`);
    date += 1;
    if (date > daysInMonth(year, month)) {
      date = 1;
      month += 1;
      if (month > 12) {
        month = 1;
        year += 1;
      }
    }
  }
  return days;
}

const LAST_COUNTED_DAY = Date.parse('9999-12-31T00:00:00Z') / DAY_MS;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
