/**
 * Posts and their targets (one per account). So far only what other modules ask of posts:
 * whether an account has targets waiting to be published (it may not move then), and what
 * deleting a profile does to its posts.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/connection.ts';
import { ApiError } from '../../http/errors.ts';
import type { AccountMoveCheck } from '../accounts/index.ts';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { posts, postTargets } from './tables.ts';

/** Target statuses that are still to be published; `published` and `failed` are done. */
const WAITING_TARGET_STATUSES = ['scheduled', 'publishing'] as const;

/**
 * True when the account has a post target waiting to be published (scheduled, or being
 * published right now). Call it in the transaction that acts on the answer, after locking
 * the account row FOR UPDATE: inserting a target takes a KEY SHARE lock on its account
 * row (the foreign key), which conflicts with that lock, so no target can appear until
 * the transaction commits. Code that makes a done target wait again (a retry) must lock
 * the account row itself for the same reason.
 */
async function accountHasWaitingPosts(tx: Queryable, accountId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: postTargets.id })
    .from(postTargets)
    .where(and(eq(postTargets.accountId, accountId), inArray(postTargets.status, [...WAITING_TARGET_STATUSES])))
    .limit(1);
  return row !== undefined;
}

/** An account with posts waiting to be published stays in its profile until they are done. */
export const waitingPostsHoldAccount: AccountMoveCheck = async (tx, account) =>
  (await accountHasWaitingPosts(tx, account.id))
    ? new ApiError(
        409,
        'account_has_scheduled_posts',
        'The account has posts waiting to be published; wait until they are published or delete them, then move it.',
      )
    : null;

/** The posts module's part in deleting a profile: its posts go, with their targets. */
export const postsProfileDeletion: ProfileDeletionStep = {
  module: 'posts',
  deleteData: async ({ db }, profile) => {
    await db.delete(posts).where(and(eq(posts.ownerId, profile.ownerId), eq(posts.profileId, profile.id)));
  },
};
