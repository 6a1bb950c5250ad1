/**
 * How a report is written out for people, the same on its PDF and on its link's page: the
 * figures in order with their titles, a figure and its change in words, an account's name, and
 * the colours of the accounts' lines.
 */
import { platformInfo } from '../../platforms/index.ts';
import type { Figure } from './figures.ts';
import type { ProfileReport, ReportAccount } from './service.ts';

/** Distinct in print and for the common colour blindnesses (Okabe and Ito's palette), as the dashboard's charts. */
export const REPORT_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

/** The headline figures in the order a report shows them, each with a chart. */
export const REPORT_FIGURES = [
  { key: 'followers', title: 'Followers' },
  { key: 'views', title: 'Views' },
  { key: 'engagement', title: 'Engagement' },
  { key: 'postsPublished', title: 'Posts published' },
] as const;

export function figureText(value: number | null): string {
  return value === null ? 'no data' : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A change in words: "+30 (+100.0%)", "no change to show" without both periods. */
export function changeText(figure: Figure): string {
  if (figure.change === null) return 'no change to show';
  const sign = figure.change > 0 ? '+' : figure.change < 0 ? '−' : '±';
  const ratio = figure.changeRatio === null ? '' : ` (${sign}${Math.abs(figure.changeRatio * 100).toFixed(1)}%)`;
  return `${sign}${figureText(Math.abs(figure.change))}${ratio}`;
}

/** An account as a report names it: its handle, else its name, else its id, and its platform. */
export function accountName(a: ReportAccount): string {
  const name = a.account.username ? `@${a.account.username}` : (a.account.displayName ?? a.account.id);
  return `${name} (${platformInfo(a.account.platform).label})`;
}

/** A day as words: "1 October 2026". */
export function longDate(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A period as words: "1 October 2026 to 31 October 2026". */
export function periodText(from: string, to: string): string {
  return `${longDate(from)} to ${longDate(to)}`;
}

/** A report's title, its document's and its page's: "<profile>: report <from> to <to>". */
export function reportTitle(report: ProfileReport): string {
  return `${report.profile.name}: report ${report.from} to ${report.to}`;
}

/** The name a report's file is saved under: `report-<profile id>-<from>-<to>.<extension>`. */
export function reportFileName(report: ProfileReport, extension: 'csv' | 'pdf'): string {
  return `report-${report.profile.id}-${report.from}-${report.to}.${extension}`;
}
