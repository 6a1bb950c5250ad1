/** The comments module's public entry: the inbox, the platforms' webhooks, and the jobs that bring comments in. */
import { registerAccountMoveStep } from '../accounts/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { commentsFollowAccount, commentsProfileDeletion } from './ownership.ts';

export type { CommentDeps } from './inbox.ts';
export { type IntakeDeps, ingestNotices, pollComments, scheduleCommentPolls } from './intake.ts';
export { platformWebhookRoutes } from './platform-webhooks.ts';
export { sendPendingReply } from './reply-workflow.ts';
export { commentRoutes } from './routes.ts';

/**
 * The comments module's part at start: a moved account's comments keep naming posts its new
 * profile shows (after the posts module moved the platform posts); comments go with their profile.
 */
export function installComments(): void {
  registerAccountMoveStep(commentsFollowAccount);
  registerProfileDeletionStep(commentsProfileDeletion);
}
