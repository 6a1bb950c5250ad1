/** The webhooks module's public entry. */

import { profiledBy } from '../../db/profile-of-row.ts';
import type { ModuleInstall } from '../../registry.ts';
import { registerProfileOfObjects } from '../audit/index.ts';
import { subscribe } from '../events/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { fanOut } from './deliveries.ts';
import { webhooksProfileDeletion } from './service.ts';
import { webhookEndpoints } from './tables.ts';

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
    registerProfileOfObjects(
      profiledBy('webhooks', {
        table: webhookEndpoints,
        id: webhookEndpoints.id,
        ownerId: webhookEndpoints.ownerId,
        profileId: webhookEndpoints.profileId,
      }),
    );
    subscribe(fanOut);
    registerProfileDeletionStep(webhooksProfileDeletion);
  },
};
