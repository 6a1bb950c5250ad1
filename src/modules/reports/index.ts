/** The reports module's public entry: a profile's report (docs/reports.md), and its links' pages. */
import type { ModuleInstall } from '../../registry.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { reportsProfileDeletion } from './deletion.ts';

export { reportLinkRoutes } from './link-routes.ts';
export { type LinkedReport, linkedLogo, linkedReport } from './linked.ts';
export { reportPdf } from './pdf.ts';
export { reportRoutes } from './routes.ts';
export { scheduleReportRoutes } from './schedule-routes.ts';
export { scheduleReportSends, sendReport } from './sends.ts';
export type { ProfileReport, ReportAccount } from './service.ts';
export { accountName, changeText, figureText, REPORT_COLOURS, REPORT_FIGURES, reportTitle } from './words.ts';

/** The reports module's part at start: its links go with their profile. */
export const reportsModule: ModuleInstall = {
  name: 'reports',
  install() {
    registerProfileDeletionStep(reportsProfileDeletion);
  },
};
