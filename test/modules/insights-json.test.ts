import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/days.ts';
import {
  type AccountFigures,
  AccountInsightsJson,
  accountInsightsText,
  renderAccountInsights,
} from '../../src/modules/insights/json.ts';

const day = (text: string) => dayNumber(text) as number;
const ajv = addFormats.default(new Ajv({ strict: false }));
const valid = ajv.compile(AccountInsightsJson);

const answers: [string, AccountFigures][] = [
  [
    'figures with no-data days, a series starting inside the range, a metric never read, followers',
    {
      accountId: 'acc_1',
      platform: 'instagram',
      from: day('2026-02-27'),
      to: day('2026-03-02'),
      metrics: ['views', 'reach', 'likes', 'followers_count'],
      series: new Map([
        ['views', { start: day('2026-02-27'), values: [5, null, 0, 7] }],
        ['reach', { start: day('2026-03-01'), values: [3, 4] }],
        ['followers_count', { start: day('2026-02-27'), values: [100, 101, null, null] }],
      ]),
      missingPermission: null,
      syncedAt: new Date('2026-03-02T06:00:00.123Z'),
    },
  ],
  [
    'a missing permission and no refresh yet: every value null',
    {
      accountId: 'acc_"quoted"\\',
      platform: 'threads',
      from: day('2026-11-23'),
      to: day('2026-11-23'),
      metrics: ['views'],
      series: new Map(),
      missingPermission: 'threads_manage_insights',
      syncedAt: null,
    },
  ],
];

describe("the account insights answer's text", () => {
  it.each(answers)('%s: is the rendered answer, and the schema takes it', (_, figures) => {
    const text = accountInsightsText(figures);
    expect(text).toBe(JSON.stringify(renderAccountInsights(figures)));
    const parsed: unknown = JSON.parse(text);
    expect(valid(parsed), JSON.stringify(valid.errors)).toBe(true);
  });

  it('sums a flow and keeps the last count known, null when every day is null', () => {
    const [, figures] = answers[0] as [string, AccountFigures];
    expect(JSON.parse(accountInsightsText(figures)).metrics).toEqual({
      views: {
        total: 12,
        values: [
          { date: '2026-02-27', value: 5 },
          { date: '2026-02-28', value: null },
          { date: '2026-03-01', value: 0 },
          { date: '2026-03-02', value: 7 },
        ],
      },
      reach: {
        total: 7,
        values: [
          { date: '2026-02-27', value: null },
          { date: '2026-02-28', value: null },
          { date: '2026-03-01', value: 3 },
          { date: '2026-03-02', value: 4 },
        ],
      },
      likes: {
        total: null,
        values: ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'].map((date) => ({ date, value: null })),
      },
      followers_count: {
        total: 101,
        values: [
          { date: '2026-02-27', value: 100 },
          { date: '2026-02-28', value: 101 },
          { date: '2026-03-01', value: null },
          { date: '2026-03-02', value: null },
        ],
      },
    });
  });
});
