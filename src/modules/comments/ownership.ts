/** What an account's move and a profile's deletion ask of comments. */
import { and, eq, ne } from 'drizzle-orm';
import type { AccountMoveStep } from '../accounts/index.ts';
import { ensurePlatformPosts } from '../posts/index.ts';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { comments } from './tables.ts';

/** A moved account's comments go to its new profile, naming posts that profile shows (platform-posts.ts). */
export const commentsFollowAccount: AccountMoveStep = async (tx, account) => {
  await tx.update(comments).set({ profileId: account.profileId }).where(eq(comments.accountId, account.id));
  const rows = await tx
    .selectDistinct({ platformPostId: comments.platformPostId })
    .from(comments)
    .where(eq(comments.accountId, account.id));
  if (rows.length === 0) return;
  const posts = await ensurePlatformPosts(
    tx,
    account,
    rows.map((r) => ({ id: r.platformPostId })),
  );
  for (const [platformPostId, postId] of posts) {
    await tx
      .update(comments)
      .set({ postId })
      .where(
        and(
          eq(comments.accountId, account.id),
          eq(comments.platformPostId, platformPostId),
          ne(comments.postId, postId),
        ),
      );
  }
};

/** A profile's comments go with it (before its accounts, which would take them along anyway). */
export const commentsProfileDeletion: ProfileDeletionStep = {
  module: 'comments',
  deleteData: async ({ db }, profile) => {
    await db.delete(comments).where(and(eq(comments.ownerId, profile.ownerId), eq(comments.profileId, profile.id)));
  },
};
