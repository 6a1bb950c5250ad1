/**
 * The accounts module's part in deleting a profile: the profile's accounts and their tokens go.
 * It runs after the modules whose data is keyed by accounts (see src/modules.ts).
 */
import { and, eq } from 'drizzle-orm';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { accounts } from './tables.ts';

export const accountsProfileDeletion: ProfileDeletionStep = {
  module: 'accounts',
  deleteData: async ({ db }, profile) => {
    await db.delete(accounts).where(and(eq(accounts.ownerId, profile.ownerId), eq(accounts.profileId, profile.id)));
  },
};
