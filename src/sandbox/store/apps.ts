/**
 * The apps registered with a platform that knows its clients (X): a client id, its secret, and
 * what the platform saw of it (permission pages shown, codes exchanged, refreshes, revocations).
 * Kept in the settings table, one JSON value per app.
 */
import { eq, sql } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxSettings } from '../schema.ts';

const APP_USES = ['authorize', 'authorization_code', 'refresh_token', 'revoke'] as const;
export type AppUse = (typeof APP_USES)[number];

export interface SandboxApp {
  clientSecret: string;
  uses: Record<AppUse, number>;
}

function appKey(platform: string, clientId: string): string {
  return `app:${platform}:${clientId}`;
}

const NO_USES: Record<AppUse, number> = { authorize: 0, authorization_code: 0, refresh_token: 0, revoke: 0 };

/** Registers the app (or gives it a new secret, keeping what was seen of it). */
export async function registerApp(
  store: Store,
  platform: string,
  clientId: string,
  clientSecret: string,
): Promise<void> {
  await store.db
    .insert(sandboxSettings)
    .values({ name: appKey(platform, clientId), value: { clientSecret, uses: NO_USES } })
    .onConflictDoUpdate({
      target: sandboxSettings.name,
      set: {
        value: sql`jsonb_set(${sandboxSettings.value}, '{clientSecret}', ${JSON.stringify(clientSecret)}::jsonb)`,
      },
    });
}

export async function findApp(store: Store, platform: string, clientId: string): Promise<SandboxApp | undefined> {
  const [row] = await store.db
    .select()
    .from(sandboxSettings)
    .where(eq(sandboxSettings.name, appKey(platform, clientId)));
  return row?.value as SandboxApp | undefined;
}

/** Counts one use of a registered app (an unregistered one is not counted). */
export async function countAppUse(store: Store, platform: string, clientId: string, use: AppUse): Promise<void> {
  await store.db
    .update(sandboxSettings)
    .set({
      value: sql`jsonb_set(${sandboxSettings.value}, ${`{uses,${use}}`}::text[],
        to_jsonb(coalesce((${sandboxSettings.value} #>> ${`{uses,${use}}`}::text[])::int, 0) + 1))`,
    })
    .where(eq(sandboxSettings.name, appKey(platform, clientId)));
}
