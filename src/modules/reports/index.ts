/** The reports module's public entry: a profile's report (docs/reports.md). */
export { reportRoutes } from './routes.ts';
