/** The switches' values, kept in the settings table: what the control API set, else each one's default. */
import { eq, sql } from 'drizzle-orm';
import { preparedPerDb } from '../../db/prepared.ts';
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
  const [row] = await settingByName(store.db).execute({ name: setting.name });
  return row === undefined ? setting.default : (setting.read(row.value) ?? setting.default);
}

/** Prepared: a publishing call reads a few switches. */
const settingByName = preparedPerDb((db) =>
  db
    .select()
    .from(sandboxSettings)
    .where(eq(sandboxSettings.name, sql.placeholder('name')))
    .prepare('sandbox_setting_by_name'),
);
