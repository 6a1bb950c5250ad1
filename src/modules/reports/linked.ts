/** What a report link's hosted page shows: the profile's report over the link's period, with the owner's brand. */
import { logoOf, reportBrandOf } from '../connect/index.ts';
import type { InsightReadDeps } from '../insights/index.ts';
import { openReportLink, storedPeriod } from './links.ts';
import type { ReportBrand } from './pdf.ts';
import { type ProfileReport, reportOf } from './service.ts';

export type LinkedReport =
  | { kind: 'open'; report: ProfileReport; brand: ReportBrand; hasLogo: boolean }
  | { kind: 'closed'; state: 'expired' | 'revoked' }
  | { kind: 'unknown' };

/**
 * The report a link's token opens (its opening counted, unless `count` is false: the page's own
 * PDF and logo), or why it opens none.
 */
export async function linkedReport(deps: InsightReadDeps, token: string, count: boolean): Promise<LinkedReport> {
  const opened = await openReportLink(deps.db, token, count);
  if (opened.kind !== 'open') return opened;
  const { link, profile } = opened;
  const report = await reportOf(deps, profile, storedPeriod(link));
  const brand = await reportBrandOf(deps.db, profile.ownerId);
  return { kind: 'open', report, brand, hasLogo: brand.logoPng !== null };
}

/** The owner's logo, for the page a link opens (its opening not counted again), or why the link opens nothing; null: no logo. */
export async function linkedLogo(
  deps: InsightReadDeps,
  token: string,
): Promise<{ kind: 'open'; logoPng: Buffer | null } | Exclude<LinkedReport, { kind: 'open' }>> {
  const opened = await openReportLink(deps.db, token, false);
  if (opened.kind !== 'open') return opened;
  return { kind: 'open', logoPng: await logoOf(deps.db, opened.profile.ownerId) };
}
