/** The webhooks module's public entry. */

import type { ModuleInstall } from '../../registry.ts';
import { subscribe } from '../events/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { fanOut } from './deliveries.ts';
import { webhooksProfileDeletion } from './service.ts';

export { attemptDeliveries, type DeliveryDeps } from './attempts.ts';
export { deleteOldDeliveries } from './deliveries.ts';
export { notifyEndpointDisabled } from './notices.ts';
export { webhookRoutes } from './routes.ts';

/** The webhooks module's part at start: every event fans out to the endpoints that want it; bound endpoints go with their profile. */
export const webhooksModule: ModuleInstall = {
  name: 'webhooks',
  // Deliveries reference the events they carry: they go before the profile's events.
  before: ['events'],
  install() {
    subscribe(fanOut);
    registerProfileDeletionStep(webhooksProfileDeletion);
  },
};
