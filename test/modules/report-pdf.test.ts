import { describe, expect, it } from 'vitest';
import { accountFigures, profileFigures } from '../../src/modules/reports/figures.ts';
import { reportPdf } from '../../src/modules/reports/pdf.ts';
import type { ProfileReport, ReportAccount } from '../../src/modules/reports/service.ts';
import { pdfText } from '../helpers/pdf-text.ts';

/**
 * The report's PDF from figures made here (no database): what it prints for many accounts, none,
 * and names in other scripts, read back with pdf.js.
 */

const DATES = ['2026-10-01', '2026-10-02', '2026-10-03'];

function account(n: number, username: string, views: (number | null)[]): ReportAccount {
  const figures = accountFigures(
    {
      figures: { followers: null, views: ['views'], engagement: { account: [], post: [] } },
      metrics: new Map([['views', [null, null, null, ...views]]]),
      postDays: [],
    },
    DATES.length,
  );
  return {
    ...figures,
    account: { id: `acc_${n}`, platform: 'instagram', username, displayName: null, status: 'connected' },
    missingPermission: null,
    syncedAt: null,
  };
}

function report(accounts: ReportAccount[], name = 'Client'): ProfileReport {
  return {
    profile: { id: 'prf_1', name },
    from: '2026-10-01',
    to: '2026-10-03',
    dates: DATES,
    previous: { from: '2026-09-28', to: '2026-09-30' },
    totals: profileFigures(accounts),
    accounts,
    topPosts: [],
    generatedAt: new Date('2026-11-26T09:00:00Z'),
  };
}

describe("a report's PDF", () => {
  it('draws the 10 accounts with the largest figures in a chart, and says how many more there are', async () => {
    const many = Array.from({ length: 12 }, (_, n) => account(n, `shop${n}`, [n, n + 1, n + 2]));
    const pdf = await pdfText(await reportPdf(report(many), { name: 'Agency', logoPng: null }));
    const first = pdf.pages[0] as string;
    expect(first).toContain('@shop11 (Instagram)');
    expect(first).toContain('@shop2 (Instagram)');
    // The two smallest are left to the table.
    expect(first).not.toContain('@shop0 (Instagram)');
    expect(first).toContain('and 2 more accounts (in the table of accounts)');
    // The table has every account: views 0 + 1 + 2.
    expect(pdf.pages.join(' ')).toContain('@shop0 (Instagram) not offered 3 no change to show');
    // No account published a post: that chart says so rather than drawing lines at 0.
    expect(pdf.pages.join(' ')).toContain('Posts published by day No post was published in this period.');
  });

  it('prints a profile without accounts, and names in Greek, Cyrillic and accented Latin as written', async () => {
    const none = await pdfText(
      await reportPdf(report([], 'Ελληνικό καφέ'), { name: 'Агентство Звезда', logoPng: null }),
    );
    expect(none.pages[0]).toContain('Агентство Звезда Ελληνικό καφέ');
    expect(none.pages[0]).toContain('Views by day No data in this period.');
    expect(none.pages.join(' ')).toContain('This profile has no account yet.');
    expect(none.pages.join(' ')).toContain('No post of the period has figures yet.');
    expect(none.title).toBe('Ελληνικό καφέ: report 2026-10-01 to 2026-10-03');
  });
});
