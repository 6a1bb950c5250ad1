/** The insights module's public entry: the endpoints, and the jobs that read figures from the platforms. */

import type { ModuleInstall } from '../../registry.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { insightsProfileDeletion } from './service.ts';

export { answerCache as insightAnswers } from './answers.ts';
export { storedDaysOf, storedPostFiguresOf } from './readers.ts';
export {
  fillInsightHistory,
  type InsightDeps,
  refreshInsights,
  scheduleInsightRefreshes,
} from './refresh.ts';
export { Day as DayQuery, insightRoutes, rangeError } from './routes.ts';
export { type InsightReadDeps, rangeOf } from './service.ts';

/** The insights module's part at start: its figures go with their profile (before the posts and accounts they are keyed by). */
export const insightsModule: ModuleInstall = {
  name: 'insights',
  // Its figures are keyed by posts and accounts: they go before both.
  before: ['posts', 'accounts'],
  install() {
    registerProfileDeletionStep(insightsProfileDeletion);
  },
};
