/**
 * The settings Meta's platforms declare beside their app's id and secret: the API version their
 * calls name (`<PREFIX>_GRAPH_VERSION`).
 */
import { Type } from 'typebox';
import { type PlatformSetting, platformSetting } from '../definition.ts';
import type { AdapterOptions } from '../http.ts';

/**
 * The newest Graph API version: Meta's Graph API Changelog (updated October 29, 2026) lists
 * v27.0, introduced November 4, 2026. graph.facebook.com and graph.instagram.com take it.
 */
export const CURRENT_GRAPH_API_VERSION = 'v27.0';

/** `v27.0`: Meta's versions are a major and a minor number. */
const VERSION = Type.String({ pattern: '^v[0-9]{1,3}\\.[0-9]{1,2}$' });

/** The setting naming the version of `api` that the platform's versioned calls use; `current` when unset. */
export function graphVersionSetting<Variable extends string>(
  variable: Variable,
  api: string,
  current: string,
): PlatformSetting<Variable> {
  return platformSetting(
    variable,
    VERSION,
    `The version of ${api} every versioned call names (vN.N). Unset: ${current}, the current one when this release was made.`,
    current,
  );
}

/** The version the adapter's calls name: its setting, which the platform set hands over, its default when unset. */
export function graphVersionOf(options: AdapterOptions): string {
  const version = options.settings?.graphVersion;
  if (version === undefined) throw new Error('the adapter was made without its graphVersion setting');
  return version;
}
