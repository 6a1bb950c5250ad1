/** The posts module's part in deleting a profile. */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { PlatformError } from '../../platforms/index.ts';
import { accountById, actAsAccount } from '../accounts/index.ts';
import type { DeletedProfile, ProfileDeletionContext, ProfileDeletionStep } from '../profiles/index.ts';
import { waitsForItsTime } from './publishing/ahead.ts';
import { posts, postTargets } from './tables.ts';

/**
 * Removes from their platform the uploads made ahead of the profile's posts whose time is still
 * to come (a YouTube video private until its publishAt), which the platform would publish at
 * that time once nothing of the post is left to remove them. Best effort, as an account's
 * revocation is: a removal that fails is logged with the target and the upload, and the
 * deletion goes on.
 */
async function withdrawUploadsAhead(context: ProfileDeletionContext, profile: DeletedProfile) {
  const { db, log } = context;
  const rows = await db
    .select({ post: posts, target: postTargets })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(
      and(
        eq(posts.ownerId, profile.ownerId),
        eq(posts.profileId, profile.id),
        isNotNull(postTargets.containerId),
        inArray(postTargets.status, ['publishing', 'cancelled']),
      ),
    );
  const at = now();
  for (const { post, target } of rows) {
    const containerId = target.containerId;
    // A publishing target, or a cancelled one whose removal is still to be made.
    const pending = target.status === 'publishing' || target.step === 'withdraw';
    if (containerId === null || !pending || !waitsForItsTime(post, target.platform, at)) continue;
    const adapter = context.platforms.adapter(target.platform);
    const withdraw = adapter.publishing.withdraw;
    if (withdraw === undefined) continue;
    const video = { target_id: target.id, post_id: post.id, platform: target.platform, container_id: containerId };
    try {
      const account = await accountById(db, target.accountId);
      if (account?.status !== 'connected') {
        log.warn(
          { ...video, component: 'profile-deletion', account_status: account?.status ?? 'gone' },
          "an upload made ahead of a deleted profile's post could not be removed: its account is not connected; the platform publishes it at the post's time",
        );
        continue;
      }
      const result = await actAsAccount(
        { db, secretKey: context.secretKey, platforms: context.platforms },
        account,
        (credentials) => withdraw(credentials, containerId),
      );
      log.info(
        { ...video, component: 'profile-deletion', outcome: result.outcome },
        "a deleted profile's upload made ahead was withdrawn",
      );
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      log.warn(
        { ...video, component: 'profile-deletion', err: error.message },
        "an upload made ahead of a deleted profile's post could not be removed; the platform publishes it at the post's time",
      );
    }
  }
}

/** The posts module's part in deleting a profile: its uploads made ahead are withdrawn, then its posts go, with their targets. */
export const postsProfileDeletion: ProfileDeletionStep = {
  module: 'posts',
  deleteData: async (context, profile) => {
    await withdrawUploadsAhead(context, profile);
    await context.db.delete(posts).where(and(eq(posts.ownerId, profile.ownerId), eq(posts.profileId, profile.id)));
  },
};
