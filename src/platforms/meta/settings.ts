/**
 * The settings Meta's platforms declare beside their app's id and secret: the API version their
 * calls name (`<PREFIX>_GRAPH_VERSION`), and for Instagram and Threads the Meta app's secret,
 * which may sign their notices instead of the platform app's own (`<PREFIX>_META_APP_SECRET`).
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

/** The setting holding the Meta app's secret, for a platform whose app has a secret of its own (`label`'s). */
export function metaAppSecretSetting<Variable extends string>(
  variable: Variable,
  label: string,
): PlatformSetting<Variable> {
  return platformSetting(
    variable,
    Type.String({ minLength: 1, maxLength: 500, pattern: '^\\S+$' }),
    `The secret of the Meta app the ${label} app belongs to (App settings > Basic), besides the ${label} app secret of the client secret setting. Meta's pages do not say which of the two signs ${label}'s notices: a notice signed with either is taken.`,
  );
}

/** The secrets a platform's notices may be signed with: its app's secret, and the Meta app's when set. */
export function noticeSecretsOf(options: AdapterOptions): string[] {
  const meta = options.settings?.metaAppSecret;
  return meta === undefined ? [options.clientSecret] : [options.clientSecret, meta];
}
