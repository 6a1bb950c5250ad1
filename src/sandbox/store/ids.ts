/** The sandbox's made-up ids and secrets, shaped like the platforms' own. */
import { randomBytes, randomInt } from 'node:crypto';

/** A platform-looking id: 17 digits. */
export function numericId(): string {
  return `${randomInt(1, 10)}${Array.from({ length: 16 }, () => randomInt(0, 10)).join('')}`;
}

/** An unguessable opaque string (codes, tokens) with a platform-like prefix. */
export function opaqueString(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}
