/** The api-keys module's public entry. */

import type { ModuleInstall } from '../../registry.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { apiKeysProfileDeletion } from './service.ts';

export { apiKeyRoutes } from './routes.ts';
export {
  createKey,
  deleteKey,
  findPrincipal,
  listOwnerKeys,
} from './service.ts';
export { sessionRoutes } from './session-routes.ts';
export { deleteEndedSessions, useSession } from './sessions.ts';

/** The api-keys module's part at start: a profile's keys stop working the moment its deletion is asked for. */
export const apiKeysModule: ModuleInstall = {
  name: 'api-keys',
  install() {
    registerProfileDeletionStep(apiKeysProfileDeletion);
  },
};
