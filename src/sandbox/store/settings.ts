/** The switches' values, kept in the settings table: what the control API set, else each one's default. */
import { eq } from 'drizzle-orm';
import type { Store } from '../platform.ts';
import { sandboxSettings } from '../schema.ts';
import type { Setting } from './setting-kinds.ts';

export async function setSetting<T extends string | number>(
  store: Store,
  setting: Setting<T>,
  value: T,
): Promise<void> {
  await store.db
    .insert(sandboxSettings)
    .values({ name: setting.name, value })
    .onConflictDoUpdate({ target: sandboxSettings.name, set: { value } });
}

export async function getSetting<T extends string | number>(store: Store, setting: Setting<T>): Promise<T> {
  const [row] = await store.db.select().from(sandboxSettings).where(eq(sandboxSettings.name, setting.name));
  return row === undefined ? setting.default : (setting.read(row.value) ?? setting.default);
}
