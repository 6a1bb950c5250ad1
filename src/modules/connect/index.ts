/** The connect module's public entry: the API routes, and the hosted flow's rules for the web pages. */

import type { ModuleInstall } from '../../registry.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { connectProfileDeletion } from './service.ts';

export {
  type AccountName,
  choosePages,
  finishTrip,
  type LinkLookup,
  linkPage,
  lookUpLink,
  pendingPages,
  previewPage,
  startTrip,
  type TripEnd,
  tripCookieName,
} from './flow.ts';
export type { ConnectLink } from './json.ts';
export { logoOf } from './logo.ts';
export { logoRoutes } from './logo-routes.ts';
export { connectRoutes } from './routes.ts';
export { brandNameOf, deleteOldConnectLinks, LINK_LIFETIME_MS, reportBrandOf } from './service.ts';

/** The connect module's part at start: a profile's links go with it. */
export const connectModule: ModuleInstall = {
  name: 'connect',
  // A link's attempts name the accounts they made: they go before the accounts.
  before: ['accounts'],
  install() {
    registerProfileDeletionStep(connectProfileDeletion);
  },
};
