import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../secrets.ts';

/**
 * API keys are 256 random bits behind a prefix that tells the kind (`sb_owner_`,
 * `sb_profile_`), so a leaked key is recognisable in logs and secret scanners. Only the
 * SHA-256 of a key is stored: the random part is too long to guess, so a salt adds nothing.
 */
export const KEY_PREFIXES = { owner: 'sb_owner_', profile: 'sb_profile_' } as const;
export type KeyKind = keyof typeof KEY_PREFIXES;

export function generateKey(kind: KeyKind): { key: string; hash: string; start: string } {
  const key = `${KEY_PREFIXES[kind]}${randomBytes(32).toString('base64url')}`;
  return { key, hash: sha256Hex(key), start: key.slice(0, KEY_PREFIXES[kind].length + 4) };
}
