import { createCipheriv, createDecipheriv, createSecretKey, hash, type KeyObject, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Webhook secrets and platform tokens are stored encrypted with AES-256-GCM under
 * SECRET_KEY. Without the setting, a key is generated once into DATA_DIR/secret.key, which
 * is enough for one machine; several machines sharing a database must all be given the
 * same SECRET_KEY.
 */
export async function loadSecretKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured !== undefined) return decodeKey(configured, 'SECRET_KEY');
  const file = path.join(dataDir, 'secret.key');
  await fs.mkdir(dataDir, { recursive: true });
  try {
    await fs.writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey((await fs.readFile(file, 'utf8')).trim(), file);
}

function decodeKey(text: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${source} must be 32 bytes, as 64 hex digits or base64`);
  return key;
}

const VERSION = 'v1';

const keyObjects = new WeakMap<Buffer, KeyObject>();

/**
 * The KeyObject of a key's bytes, made once per key (the key's bytes never change once
 * loaded). Node (24) prepares a Buffer key again at every cipher or HMAC made with it, at about
 * ten times the cost of the cipher's own setup (15 against 1.3 µs), and every platform call
 * decrypts its account's token: ciphers and HMACs under a Buffer key take this instead.
 */
export function keyObjectOf(key: Buffer): KeyObject {
  let object = keyObjects.get(key);
  if (object === undefined) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return object;
}

/** Encrypts `plain` as `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
export function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
    throw new Error('not a value sealed by encrypt()');
  }
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Values already decrypted, by sealed value, per key: a worker signs every webhook attempt with
 * its endpoint's secret, and decrypting it each time was a measurable share of an attempt. A
 * sealed value never changes meaning (a rotation seals a new one), so entries need no
 * invalidation, only a bound. Platform tokens are not kept so: a replaced or disconnected
 * account's token (a Bluesky one carries its DPoP key) would stay in memory until the bound.
 */
const opened = new WeakMap<Buffer, Map<string, string>>();
const OPENED_MAX = 10_000;

/** decrypt, remembered (above): for values read again and again. */
export function openSealed(key: Buffer, sealed: string): string {
  let cache = opened.get(key);
  if (!cache) {
    cache = new Map();
    opened.set(key, cache);
  }
  let plain = cache.get(sealed);
  if (plain === undefined) {
    plain = decrypt(key, sealed);
    if (cache.size >= OPENED_MAX) cache.clear();
    cache.set(sealed, plain);
  }
  return plain;
}

/**
 * SHA-256 in hex, for bearer secrets of 256 random bits (API keys, connect link tokens, OAuth
 * states): only this is stored. They are too long to guess, so a salt adds nothing. One-shot
 * hash: no Hash object per call, which shows on the per-request path.
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
