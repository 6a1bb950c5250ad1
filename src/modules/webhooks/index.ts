/** The webhooks module's public entry. */
import { subscribe } from '../events/index.ts';
import { registerProfileDeletionStep } from '../profiles/index.ts';
import { fanOut } from './deliveries.ts';
import { webhooksProfileDeletion } from './service.ts';

export { attemptDeliveries, type DeliveryDeps } from './attempts.ts';
export { deleteOldDeliveries } from './deliveries.ts';
export { notifyEndpointDisabled } from './notices.ts';
export { webhookRoutes } from './routes.ts';
export type { WebhookDeps } from './service.ts';

/** The webhooks module's part at start: every event fans out to the endpoints that want it; bound endpoints go with their profile. */
export function installWebhooks(): void {
  subscribe(async (tx, event) => {
    await fanOut(tx, event);
  });
  registerProfileDeletionStep(webhooksProfileDeletion);
}
