/**
 * The URLs platforms fetch media at: `/media/<id>/<variant>.<ext>?expires=<unix s>&signature=<hmac>`.
 * No API key goes with a platform's fetch, so the URL itself is the permission: an HMAC-SHA256
 * over the path and the expiry, under a key derived from SECRET_KEY (so it never signs
 * anything else), makes it unguessable and unchangeable, and it stops working at `expires`.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { now } from '../../clock.ts';
import { keyObjectOf } from '../../secrets.ts';

/** `original`: the file as uploaded; `jpeg`: the JPEG made of a PNG, WebP or GIF image for Instagram. */
export type Variant = 'original' | 'jpeg';

export const FILE_ROUTE_PREFIX = '/media';

const signingKeys = new WeakMap<Buffer, KeyObject>();

/** The key URLs are signed with, derived from SECRET_KEY once per key (a worker signs one a target, the API checks one a fetch). */
function signingKey(secretKey: Buffer): KeyObject {
  let key = signingKeys.get(secretKey);
  if (key === undefined) {
    key = createSecretKey(
      createHmac('sha256', keyObjectOf(secretKey)).update('switchboard media URL signing key v1').digest(),
    );
    signingKeys.set(secretKey, key);
  }
  return key;
}

function signature(secretKey: Buffer, fileName: string, expires: number): Buffer {
  return createHmac('sha256', signingKey(secretKey)).update(`${fileName}\n${expires}`).digest();
}

/** A file a URL names: `<mediaId>/<variant>.<extension>`. */
export interface SignedFile {
  mediaId: string;
  variant: Variant;
  extension: string;
}

/** The path and query of a signed URL for the file, valid for `ttlSeconds`. */
export function signedPath(secretKey: Buffer, file: SignedFile, ttlSeconds: number): string {
  const fileName = `${file.mediaId}/${file.variant}.${file.extension}`;
  const expires = Math.floor(now().getTime() / 1000) + ttlSeconds;
  const sig = signature(secretKey, fileName, expires).toString('base64url');
  return `${FILE_ROUTE_PREFIX}/${fileName}?expires=${expires}&signature=${sig}`;
}

/** True when `sig` signs `<mediaId>/<name>` until `expires`, and that time has not come. */
export function isValidSignature(
  secretKey: Buffer,
  fileName: string,
  expires: string | undefined,
  sig: string | undefined,
): boolean {
  if (expires === undefined || sig === undefined || !/^\d{1,12}$/.test(expires)) return false;
  const expiresAt = Number(expires);
  if (expiresAt * 1000 <= now().getTime()) return false;
  const given = Buffer.from(sig, 'base64url');
  const expected = signature(secretKey, fileName, expiresAt);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
