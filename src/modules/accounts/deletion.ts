/**
 * The accounts module's part in deleting a profile: first each account's platform access is
 * revoked where the platform offers that with the token the service holds (best effort,
 * logged), then the accounts go with their tokens. It runs after the modules whose data is
 * keyed by accounts (see src/modules.ts).
 */
import { and, eq } from 'drizzle-orm';
import { PlatformError } from '../../platforms/index.ts';
import type { DeletedProfile, ProfileDeletionContext, ProfileDeletionStep } from '../profiles/index.ts';
import { actAsAccount } from './acting.ts';
import { type Account, accounts } from './tables.ts';

async function revokeAccess(context: ProfileDeletionContext, account: Account): Promise<void> {
  // A disconnected account holds no token: there is no access left to revoke.
  if (account.accessTokenSealed === null) return;
  const fields = { component: 'profile-deletion', account_id: account.id, platform: account.platform };
  try {
    // Revoked with the app that connected the account, the only one X lets revoke its token.
    await actAsAccount(
      { db: context.db, secretKey: context.secretKey, platforms: context.platforms },
      account,
      (credentials, adapter) => adapter.revokeAccess(credentials),
    );
    context.log.info(fields, 'platform access revoked');
  } catch (error) {
    // Best effort: the account is deleted whatever the platform says; the line tells the operator.
    if (error instanceof PlatformError && error.kind === 'unsupported') {
      context.log.info({ ...fields, reason: error.message }, 'the platform offers no revocation with the token held');
    } else {
      context.log.warn(
        { ...fields, kind: error instanceof PlatformError ? error.kind : undefined, err: error },
        'revoking platform access failed; the account is deleted with its tokens all the same',
      );
    }
  }
}

export const accountsProfileDeletion: ProfileDeletionStep = {
  module: 'accounts',
  deleteData: async (context, profile: DeletedProfile) => {
    const scope = and(eq(accounts.ownerId, profile.ownerId), eq(accounts.profileId, profile.id));
    for (const account of await context.db.select().from(accounts).where(scope)) {
      await revokeAccess(context, account);
    }
    await context.db.delete(accounts).where(scope);
  },
};
