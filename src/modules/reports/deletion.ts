import { and, eq } from 'drizzle-orm';
import type { ProfileDeletionStep } from '../profiles/index.ts';
import { reportLinks, reportSchedules, reportSends } from './tables.ts';

/**
 * The reports module's part in deleting a profile: its schedule stops at once (no e-mail is
 * made after the deletion is asked), then its sends and links go (the sends name the links).
 */
export const reportsProfileDeletion: ProfileDeletionStep = {
  module: 'reports',
  revokeAccess: async (tx, profile) => {
    await tx
      .delete(reportSchedules)
      .where(and(eq(reportSchedules.ownerId, profile.ownerId), eq(reportSchedules.profileId, profile.id)));
  },
  deleteData: async ({ db }, profile) => {
    await db.transaction(async (tx) => {
      await tx
        .delete(reportSchedules)
        .where(and(eq(reportSchedules.ownerId, profile.ownerId), eq(reportSchedules.profileId, profile.id)));
      await tx
        .delete(reportSends)
        .where(and(eq(reportSends.ownerId, profile.ownerId), eq(reportSends.profileId, profile.id)));
      await tx
        .delete(reportLinks)
        .where(and(eq(reportLinks.ownerId, profile.ownerId), eq(reportLinks.profileId, profile.id)));
    });
  },
};
