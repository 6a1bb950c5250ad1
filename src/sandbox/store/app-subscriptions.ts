/** The webhook fields an account asked the app's notices for (`POST /{id}/subscribed_apps`). */
import { eq } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxAppSubscriptions } from '../schema.ts';

/** Sets the webhook fields the account asks the app's notices for (replacing those it asked before). */
export async function setAppSubscription(store: Store, accountId: string, fields: readonly string[]): Promise<void> {
  const row = { accountId, fields: [...new Set(fields)], subscribedAt: store.now() };
  await store.db
    .insert(sandboxAppSubscriptions)
    .values(row)
    .onConflictDoUpdate({ target: sandboxAppSubscriptions.accountId, set: row });
}

/** Whether the account asked the app's notices for `field` (Meta sends it none otherwise). */
export async function subscribedTo(store: Store, accountId: string, field: string): Promise<boolean> {
  const [row] = await store.db
    .select({ fields: sandboxAppSubscriptions.fields })
    .from(sandboxAppSubscriptions)
    .where(eq(sandboxAppSubscriptions.accountId, accountId));
  return row?.fields.includes(field) ?? false;
}
