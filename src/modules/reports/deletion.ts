import type { ProfileDeletionStep } from '../profiles/index.ts';
import { ofProfile } from './of-profile.ts';
import { reportLinks, reportSchedules, reportSends } from './tables.ts';

/**
 * The reports module's part in deleting a profile: its schedule stops at once (no e-mail is
 * made after the deletion is asked), then its sends and links go (the sends name the links).
 */
export const reportsProfileDeletion: ProfileDeletionStep = {
  module: 'reports',
  revokeAccess: async (tx, profile) => {
    await tx.delete(reportSchedules).where(ofProfile(reportSchedules, profile));
  },
  deleteData: async ({ db }, profile) => {
    await db.transaction(async (tx) => {
      await tx.delete(reportSchedules).where(ofProfile(reportSchedules, profile));
      await tx.delete(reportSends).where(ofProfile(reportSends, profile));
      await tx.delete(reportLinks).where(ofProfile(reportLinks, profile));
    });
  },
};
