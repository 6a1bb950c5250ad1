/** The posts module's public entry. */
import { registerAccountMoveCheck } from '../accounts/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { postsProfileDeletion, waitingPostsHoldAccount } from './service.ts';

/** The posts module's part at start: waiting posts hold their account in its profile; posts go with their profile. */
export function installPosts(): void {
  registerAccountMoveCheck(waitingPostsHoldAccount);
  registerProfileDeletionStep(postsProfileDeletion);
}
