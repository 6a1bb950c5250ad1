/** The testers of each app: a platform may answer a call only to them (Threads' debug_token). */
import { eq, sql } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxSettings } from '../schema.ts';

/** Where the testers of one app are kept: in the settings table, as a JSON list of account ids. */
function testersKey(platform: string, clientId: string): string {
  return `testers:${platform}:${clientId}`;
}

/** Marks the user a tester of the app `clientId` (Threads' debug_token answers only to testers). */
export async function markTester(store: Store, platform: string, clientId: string, accountId: string): Promise<void> {
  const one = JSON.stringify([accountId]);
  await store.db
    .insert(sandboxSettings)
    .values({ name: testersKey(platform, clientId), value: [accountId] })
    .onConflictDoUpdate({
      target: sandboxSettings.name,
      set: {
        value: sql`case when ${sandboxSettings.value} @> ${one}::jsonb then ${sandboxSettings.value} else ${sandboxSettings.value} || ${one}::jsonb end`,
      },
    });
}

export async function isTester(store: Store, platform: string, clientId: string, accountId: string): Promise<boolean> {
  const [row] = await store.db
    .select()
    .from(sandboxSettings)
    .where(eq(sandboxSettings.name, testersKey(platform, clientId)));
  return Array.isArray(row?.value) && row.value.includes(accountId);
}
