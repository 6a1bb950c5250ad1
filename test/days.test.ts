import { describe, expect, it } from 'vitest';
import { dayNumber, daysFrom } from '../src/days.ts';

const day = (text: string) => dayNumber(text) as number;

describe('daysFrom', () => {
  it('writes each day of a range, across month ends, leap days and years', () => {
    expect(daysFrom(day('2024-02-27'), day('2024-03-02'))).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
      '2024-03-02',
    ]);
    expect(daysFrom(day('1900-02-27'), day('1900-03-01'))).toEqual(['1900-02-27', '1900-02-28', '1900-03-01']);
    expect(daysFrom(day('2000-02-28'), day('2000-03-01'))).toEqual(['2000-02-28', '2000-02-29', '2000-03-01']);
    expect(daysFrom(day('2026-12-30'), day('2027-01-02'))).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
    expect(daysFrom(day('2026-04-30'), day('2026-05-01'))).toEqual(['2026-04-30', '2026-05-01']);
    expect(daysFrom(day('0999-12-30'), day('1000-01-02'))).toEqual([
      '0999-12-30',
      '0999-12-31',
      '1000-01-01',
      '1000-01-02',
    ]);
    expect(daysFrom(day('9999-12-30'), day('9999-12-31'))).toEqual(['9999-12-30', '9999-12-31']);
    expect(daysFrom(day('2026-11-23'), day('2026-11-23'))).toEqual(['2026-11-23']);
    expect(daysFrom(day('2026-11-23'), day('2026-11-22'))).toEqual([]);
  });

  it('agrees with the calendar of Date for every day of three centuries', () => {
    const from = day('1899-01-01');
    const to = day('2200-12-31');
    const expected: string[] = [];
    for (let ms = Date.UTC(1899, 0, 1); ms <= Date.UTC(2200, 11, 31); ms += 86_400_000) {
      expected.push(new Date(ms).toISOString().slice(0, 10));
    }
    expect(daysFrom(from, to)).toEqual(expected);
  });
});
