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

/**
 * The switch's value now, in a statement of its own. Code that has the call's `Caller` may read
 * instead what its caller's read found, with no statement (`settingIn(who.settings, setting)`):
 * a call then sees its switches as they were when it began. Instagram's and Threads' publishing
 * calls and the Graph usage headers do; the other platforms' calls still read here, and so does
 * what runs outside a call (the control API, notices, token exchanges).
 */
export async function getSetting<T extends string | number>(store: Store, setting: Setting<T>): Promise<T> {
  const [row] = await settingByName(store.db).execute({ name: setting.name });
  return settingIn(row === undefined ? {} : { [setting.name]: row.value }, setting);
}

/** Every switch the control API set, by name, as one read found them (a call's, `Caller.settings`). */
export type SettingValues = Readonly<Record<string, unknown>>;

/** What `setting` is in `values`: the value set, or its default where none (or none it takes) is. */
export function settingIn<T extends string | number>(values: SettingValues, setting: Setting<T>): T {
  const value = Object.hasOwn(values, setting.name) ? values[setting.name] : undefined;
  return value === undefined ? setting.default : (setting.read(value) ?? setting.default);
}

/** Every switch set, as one JSON object: a column of the read that starts a call (`findCaller`). */
export const allSettings = sql<SettingValues>`(select coalesce(jsonb_object_agg(${sandboxSettings.name}, ${sandboxSettings.value}), '{}'::jsonb) from ${sandboxSettings})`;

/** Prepared: the switches read outside a caller's read, one at a time. */
const settingByName = preparedPerDb((db) =>
  db
    .select()
    .from(sandboxSettings)
    .where(eq(sandboxSettings.name, sql.placeholder('name')))
    .prepare('sandbox_setting_by_name'),
);
