import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection.ts';
import type { SendMail } from '../../mail.ts';
import { getOwner } from '../owners/index.ts';
import { FAILURES_BEFORE_DEACTIVATION } from './attempts.ts';
import { webhookEndpoints } from './tables.ts';

/** Tells the owner by e-mail that an endpoint was made inactive, naming it and the last error. */
export async function notifyEndpointDisabled(
  deps: { db: Db; sendMail: SendMail },
  endpointId: string,
  lastError: string,
): Promise<void> {
  const [endpoint] = await deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  // Deleted meanwhile: nothing left to tell about.
  if (!endpoint) return;
  const owner = await getOwner(deps.db, endpoint.ownerId);
  if (!owner) return;
  await deps.sendMail({
    to: owner.email,
    subject: `Webhook endpoint disabled: ${endpoint.url}`,
    text: [
      `Hello ${owner.name},`,
      '',
      `Your webhook endpoint ${endpoint.id} (${endpoint.url}) failed ${FAILURES_BEFORE_DEACTIVATION} delivery attempts in a row, so it has been made inactive and its pending retries were cancelled.`,
      '',
      `Last error: ${lastError}`,
      '',
      'Events that happen while it is inactive are not stored for it. Once the receiver works again, re-enable it with',
      `PATCH /v1/webhooks/${endpoint.id} {"active": true}`,
      'and resend any delivery you need from its history (GET /v1/webhooks/{id}/deliveries).',
    ].join('\n'),
  });
}
