/** The comments module's public entry: the inbox, the platforms' webhooks, and the jobs that bring comments in. */

import { profiledBy } from '../../db/profile-of-row.ts';
import type { ModuleInstall } from '../../registry.ts';
import { registerAccountMoveStep } from '../accounts/index.ts';
import { registerProfileOfObjects } from '../audit/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { commentsFollowAccount, commentsProfileDeletion } from './ownership.ts';
import { comments } from './tables.ts';

export { ingestNotices, pollComments, scheduleCommentPolls } from './intake.ts';
export { platformWebhookRoutes } from './platform-webhooks.ts';
export { sendPendingReply } from './reply-workflow.ts';
export { commentRoutes } from './routes.ts';

/**
 * The comments module's part at start: a moved account's comments keep naming posts its new
 * profile shows (after the posts module moved the platform posts); comments go with their profile.
 */
export const commentsModule: ModuleInstall = {
  name: 'comments',
  // Its account move step finds the posts that posts' own step has moved; its rows are keyed by accounts.
  after: ['posts'],
  before: ['accounts'],
  install() {
    registerProfileOfObjects(
      profiledBy('comments', {
        table: comments,
        id: comments.id,
        ownerId: comments.ownerId,
        profileId: comments.profileId,
      }),
    );
    registerAccountMoveStep(commentsFollowAccount);
    registerProfileDeletionStep(commentsProfileDeletion);
  },
};
