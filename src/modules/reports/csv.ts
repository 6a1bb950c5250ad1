import { stringify } from 'csv-stringify/sync';
import type { ProfileReport } from './service.ts';

/** The CSV's columns, in order. */
const COLUMNS = [
  'date',
  'account_id',
  'platform',
  'username',
  'display_name',
  'followers',
  'views',
  'engagement',
  'posts_published',
] as const;

/**
 * A report's days as CSV (RFC 4180, a header row): one row per account and day, the accounts in
 * the report's order. No data is an empty cell, never 0. A cell an account holder wrote that a
 * spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab) starts with `'`.
 */
export function reportCsv(report: ProfileReport): string {
  const rows = report.accounts.flatMap((a) =>
    a.days.map((day, i) => [
      report.dates[i],
      a.account.id,
      a.account.platform,
      a.account.username,
      a.account.displayName,
      day.followers,
      day.views,
      day.engagement,
      day.postsPublished,
    ]),
  );
  return stringify(rows, { header: true, columns: [...COLUMNS], record_delimiter: 'windows', escape_formulas: true });
}
