/** The posts module's part in deleting a profile. */
import { and, eq } from 'drizzle-orm';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { posts } from './tables.ts';

/** The posts module's part in deleting a profile: its posts go, with their targets. */
export const postsProfileDeletion: ProfileDeletionStep = {
  module: 'posts',
  deleteData: async ({ db }, profile) => {
    await db.delete(posts).where(and(eq(posts.ownerId, profile.ownerId), eq(posts.profileId, profile.id)));
  },
};
