/**
 * Members' passwords, where the operator allows them (MEMBER_PASSWORDS): hashed with argon2id,
 * the memory-hard function OWASP recommends, as Node's crypto computes it (OpenSSL's), with
 * OWASP's parameters (19 MiB, 2 passes, 1 lane) and a random salt. A hash is kept as a PHC string
 * (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`), so hashes made with other parameters
 * later still verify.
 */
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const hashWith = promisify(argon2);

const PARAMS = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const TAG_LENGTH = 32;
const PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

function b64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(16);
  const tag = await hashWith('argon2id', { message: password, nonce, tagLength: TAG_LENGTH, ...PARAMS });
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${b64(nonce)}$${b64(tag)}`;
}

/** True when `password` is the one `stored` was made from; false for anything not a hash of ours. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt, hash] = match;
  const expected = Buffer.from(hash ?? '', 'base64');
  const tag = await hashWith('argon2id', {
    message: password,
    nonce: Buffer.from(salt ?? '', 'base64'),
    tagLength: expected.length,
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
  });
  return tag.length === expected.length && timingSafeEqual(tag, expected);
}

/**
 * A hash no password matches, verified when an address has no password to check, so an answer
 * takes as long for an address that is no member's as for one that is.
 */
export const NO_PASSWORD_HASH = `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${b64(Buffer.alloc(16))}$${b64(Buffer.alloc(TAG_LENGTH))}`;
