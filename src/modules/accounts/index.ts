/** The accounts module's public entry. */

import { profiledBy } from '../../db/profile-of-row.ts';
import type { ModuleInstall } from '../../registry.ts';
import { registerProfileOfObjects } from '../audit/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { accountsProfileDeletion } from './deletion.ts';
import { accounts } from './tables.ts';

export { noteAccountFailure } from './access.ts';
export { actAsAccount, actAsAccountAnswering } from './acting.ts';
export { type AccountGrant, connectAccounts, reconnectAccount } from './connect-accounts.ts';
export { grantIsOf } from './connections.ts';
export { deauthorizeRoutes } from './deauthorize-routes.ts';
export { AccountParams } from './json.ts';
export { accountMetrics } from './metrics.ts';
export {
  scheduleNoticeSubscriptions,
  subscribeCommentNotices,
} from './notice-subscriptions.ts';
export { type ListedValues, optionValueRoutes, readListedValues } from './option-values.ts';
export { type PostsAtRisk, type PostsAtRiskReader, registerPostsAtRiskReader } from './posts-at-risk.ts';
export {
  type AccountState,
  accountBesideReader,
  accountById,
  accountIdsOfProfile,
  accountInProfile,
  accountStates,
  accountsByIdsLocked,
  accountsOfPlatformUsers,
  accountsOfProfile,
  accountsToSync,
  connectedAccountById,
  connectedAccounts,
  lockAccountsForPosting,
  type ReportedAccount,
  visibleAccountReader,
} from './readers.ts';
export { accountRoutes } from './routes.ts';
export {
  type AccountMoveCheck,
  type AccountMoveStep,
  getAccount,
  registerAccountMoveCheck,
  registerAccountMoveStep,
} from './service.ts';
export type { Account } from './tables.ts';
export { refreshDueTokens, type TokenRefreshDeps } from './token-refresh.ts';

/** The accounts module's part at start: its data goes with its profile. */
export const accountsModule: ModuleInstall = {
  name: 'accounts',
  install() {
    registerProfileOfObjects(
      profiledBy('accounts', {
        table: accounts,
        id: accounts.id,
        ownerId: accounts.ownerId,
        profileId: accounts.profileId,
      }),
    );
    registerProfileDeletionStep(accountsProfileDeletion);
  },
};
