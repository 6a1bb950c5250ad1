/** The members module's public entry: an owner's people, their roles, their sign-in and sessions. */

import type { ModuleInstall } from '../../registry.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { revokeProfileRoles } from './service.ts';

export { sendMemberEmail } from './mail.ts';
export { PASSWORD_LENGTH } from './passwords.ts';
export { memberRoutes } from './routes.ts';
export {
  deleteEndedMemberSessions,
  endMemberSession,
  isMemberSessionToken,
  useMemberSession,
} from './sessions.ts';
export { requestSignInLinks, sendSignInLinks, signInWithLink, signInWithPassword } from './sign-in.ts';
export { deleteExpiredLinks, MEMBER_LINK_PATHS, peekLink, TOKEN_LIFETIME_MS } from './tokens.ts';

/** The members module's part at start: roles on a profile end the moment its deletion is asked for. */
export const membersModule: ModuleInstall = {
  name: 'members',
  install() {
    registerProfileDeletionStep({
      module: 'members',
      revokeAccess: (tx, profile) => revokeProfileRoles(tx, profile.id),
      // Again in the job: a role given in a transaction that read the profile before its deletion committed.
      deleteData: ({ db }, profile) => revokeProfileRoles(db, profile.id),
    });
  },
};
