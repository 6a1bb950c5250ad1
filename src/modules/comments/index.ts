/** The comments module's public entry: the inbox, the platforms' webhooks, and the jobs that bring comments in. */
import { registerAccountMoveStep } from '../accounts/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { commentsFollowAccount, commentsProfileDeletion } from './service.ts';

export { type IntakeDeps, ingestNotices, pollComments, scheduleCommentPolls } from './intake.ts';
export { platformWebhookRoutes } from './platform-webhooks.ts';
export { commentRoutes } from './routes.ts';
export { type CommentDeps, sendPendingReply } from './service.ts';

/**
 * The comments module's part at start: a moved account's comments keep naming posts its new
 * profile shows (after the posts module moved the platform posts); comments go with their profile.
 */
export function installComments(): void {
  registerAccountMoveStep(commentsFollowAccount);
  registerProfileDeletionStep(commentsProfileDeletion);
}
