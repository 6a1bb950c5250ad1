/** The posts module's public entry. */

import { profiledBy } from '../../db/profile-of-row.ts';
import type { ModuleInstall } from '../../registry.ts';
import { registerAccountMoveCheck, registerAccountMoveStep, registerPostsAtRiskReader } from '../accounts/index.ts';
import { registerProfileOfObjects } from '../audit/index.ts';
import { subscribe } from '../events/index.ts';
import { registerMediaUseCheck } from '../media/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { postsProfileDeletion } from './deletion.ts';
import { platformPostsFollowAccount } from './platform-posts.ts';
import { queueTargetsOfReturnedAccounts } from './publishing/account-wait.ts';
import { posts } from './tables.ts';
import { waitingPostsAtRisk, waitingPostsHoldAccount, waitingPostsHoldMedia } from './waiting-posts.ts';

export { APPROVAL_LINK_LIFETIME_MS, MAX_APPROVAL_COMMENT_LENGTH } from './approval/links.ts';
export {
  type ApprovalPageDeps,
  type ApprovalPageView,
  approvalPageView,
  decideApproval,
  lookUpApprovalLink,
} from './approval/page.ts';
export { approvalLinkRoutes, approvalPagePath } from './approval/routes.ts';
export { platformOptionsSchema } from './json.ts';
export {
  describePlatformPost,
  ensurePlatformPosts,
  ensurePlatformPostsOfAccounts,
  type PlatformPostRef,
} from './platform-posts.ts';
export { projectUnits } from './publishing/project-uploads.ts';
export { publishTarget } from './publishing/publish-target.ts';
export type { PublishDeps } from './publishing/run.ts';
export { postIdsOfProfile, publishedCopiesOf, publishedTargetsOf } from './readers.ts';
export { postRoutes } from './routes.ts';
export { getPost } from './service.ts';

/**
 * The posts module's part at start: waiting posts hold their account in its profile and
 * their media in storage; platform posts follow their account; posts go with their profile;
 * targets waiting for their expired account go on when it is reconnected (or disconnected).
 */
export const postsModule: ModuleInstall = {
  name: 'posts',
  // Targets are keyed by accounts: they go before the accounts.
  before: ['accounts'],
  install() {
    registerProfileOfObjects(
      profiledBy('posts', { table: posts, id: posts.id, ownerId: posts.ownerId, profileId: posts.profileId }),
    );
    registerAccountMoveCheck(waitingPostsHoldAccount);
    registerPostsAtRiskReader(waitingPostsAtRisk);
    registerAccountMoveStep(platformPostsFollowAccount);
    registerMediaUseCheck(waitingPostsHoldMedia);
    registerProfileDeletionStep(postsProfileDeletion);
    subscribe(queueTargetsOfReturnedAccounts);
  },
};
