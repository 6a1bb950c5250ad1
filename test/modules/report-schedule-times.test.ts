import { describe, expect, it } from 'vitest';
import { dayText } from '../../src/days.ts';
import { lastSendAt, nextSendAt, scheduledPeriod } from '../../src/modules/reports/schedules.ts';

/**
 * When a report schedule sends and which period it sends (docs/reports.md, "E-mailed
 * reports"): days and hours in UTC, the periods written out from the calendar.
 */

const at = (text: string) => new Date(text);
const period = (p: { from: number; to: number }) => [dayText(p.from), dayText(p.to)];

describe('a monthly schedule', () => {
  const on2At7 = { frequency: 'monthly', day: 2, hour: 7 } as const;

  it('sends next on its day at its hour, this month until then, else next month, across the year', () => {
    expect(nextSendAt(on2At7, at('2026-11-27T10:00:00Z')).toISOString()).toBe('2026-12-02T07:00:00.000Z');
    expect(nextSendAt(on2At7, at('2026-12-02T06:59:59Z')).toISOString()).toBe('2026-12-02T07:00:00.000Z');
    // Strictly after: at the very time, the next is a month on.
    expect(nextSendAt(on2At7, at('2026-12-02T07:00:00Z')).toISOString()).toBe('2027-01-02T07:00:00.000Z');
    expect(nextSendAt({ ...on2At7, day: 28 }, at('2028-02-28T07:00:00Z')).toISOString()).toBe(
      '2028-03-28T07:00:00.000Z',
    );
  });

  it('was last due at its latest time at or before now', () => {
    expect(lastSendAt(on2At7, at('2026-12-02T07:00:00Z')).toISOString()).toBe('2026-12-02T07:00:00.000Z');
    expect(lastSendAt(on2At7, at('2026-12-02T06:59:00Z')).toISOString()).toBe('2026-11-02T07:00:00.000Z');
    expect(lastSendAt(on2At7, at('2027-01-01T23:00:00Z')).toISOString()).toBe('2026-12-02T07:00:00.000Z');
  });

  it('sends the last full calendar month', () => {
    expect(period(scheduledPeriod('monthly', at('2026-12-02T07:00:00Z')))).toEqual(['2026-11-01', '2026-11-30']);
    expect(period(scheduledPeriod('monthly', at('2027-01-02T07:00:00Z')))).toEqual(['2026-12-01', '2026-12-31']);
    expect(period(scheduledPeriod('monthly', at('2028-03-01T00:00:00Z')))).toEqual(['2028-02-01', '2028-02-29']);
  });
});

describe('a weekly schedule', () => {
  // 2026-12-02 is a Wednesday (ISO weekday 3); 2026-12-06 a Sunday (7).
  const wednesdayAt8 = { frequency: 'weekly', day: 3, hour: 8 } as const;

  it('sends next on its weekday at its hour', () => {
    expect(nextSendAt(wednesdayAt8, at('2026-11-27T10:00:00Z')).toISOString()).toBe('2026-12-02T08:00:00.000Z');
    expect(nextSendAt(wednesdayAt8, at('2026-12-02T07:00:00Z')).toISOString()).toBe('2026-12-02T08:00:00.000Z');
    expect(nextSendAt(wednesdayAt8, at('2026-12-02T08:00:00Z')).toISOString()).toBe('2026-12-09T08:00:00.000Z');
    expect(nextSendAt({ frequency: 'weekly', day: 7, hour: 23 }, at('2026-12-31T12:00:00Z')).toISOString()).toBe(
      '2027-01-03T23:00:00.000Z',
    );
    expect(nextSendAt({ frequency: 'weekly', day: 1, hour: 0 }, at('2026-12-06T23:59:00Z')).toISOString()).toBe(
      '2026-12-07T00:00:00.000Z',
    );
  });

  it('was last due at its latest time at or before now', () => {
    expect(lastSendAt(wednesdayAt8, at('2026-12-02T08:00:00Z')).toISOString()).toBe('2026-12-02T08:00:00.000Z');
    expect(lastSendAt(wednesdayAt8, at('2026-12-02T07:59:00Z')).toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(lastSendAt(wednesdayAt8, at('2026-12-08T12:00:00Z')).toISOString()).toBe('2026-12-02T08:00:00.000Z');
  });

  it('sends the last full week, Monday to Sunday, before its day', () => {
    expect(period(scheduledPeriod('weekly', at('2026-12-02T08:00:00Z')))).toEqual(['2026-11-23', '2026-11-29']);
    // On a Monday: the week that ended the day before.
    expect(period(scheduledPeriod('weekly', at('2026-11-30T08:00:00Z')))).toEqual(['2026-11-23', '2026-11-29']);
    // On a Sunday: not the week that ends that day, the one before it.
    expect(period(scheduledPeriod('weekly', at('2026-12-06T08:00:00Z')))).toEqual(['2026-11-23', '2026-11-29']);
    expect(period(scheduledPeriod('weekly', at('2027-01-04T08:00:00Z')))).toEqual(['2026-12-28', '2027-01-03']);
  });
});
