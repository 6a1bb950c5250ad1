/** The platforms the service talks to, by name: what settings and stored rows may name without knowing an adapter. */

export const PLATFORMS = [
  'instagram',
  'threads',
  'tiktok',
  'facebook',
  'linkedin',
  'youtube',
  'x',
  'google_business',
  'pinterest',
  'bluesky',
] as const;

export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

/** A platform's settings are `<PREFIX>_CLIENT_ID` and `<PREFIX>_CLIENT_SECRET`: its name in capitals. */
export function settingsPrefix<P extends Platform>(platform: P): Uppercase<P> {
  return platform.toUpperCase() as Uppercase<P>;
}
