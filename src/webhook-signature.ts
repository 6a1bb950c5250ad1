/**
 * The signature headers of webhook deliveries: how the service signs, and how a receiver
 * verifies `Service-Signature` (exported from the package as `verifyWebhook`).
 *
 *   Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]
 *
 * Each `v1` is the lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed with one of the
 * endpoint's secrets (the whole `whsec_...` string, UTF-8).
 *
 * Beside it, the Standard Webhooks headers (standardwebhooks.com), so a receiver can verify
 * with any Standard Webhooks library instead:
 *
 *   webhook-id: <the event's id>
 *   webhook-timestamp: <unix seconds, the same as t>
 *   webhook-signature: v1,<base64>[ v1,<base64>]
 *
 * Each `v1,` entry is the standard base64 HMAC-SHA256 of `<id>.<timestamp>.<raw body>` keyed
 * with the bytes the secret encodes (the base64 after `whsec_`). One secret string serves both.
 *
 * Dependency-free: node:crypto only, so receivers can import it without pulling in the service.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** Receivers reject a delivery whose `t` differs from their clock by more than this. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What every endpoint secret starts with; Standard Webhooks keys are the base64 after it. */
const SECRET_PREFIX = 'whsec_';
/** SHA-256 digests are 32 bytes: 64 hex digits. */
const DIGEST_HEX = /^[0-9a-f]{64}$/i;
/** `t` is whole unix seconds; more than 15 digits is no real time (and loses precision). */
const TIMESTAMP = /^\d{1,15}$/;

// Keys go to createHmac as a string (taken as its UTF-8 bytes) or a KeyObject, never a Buffer:
// Node prepares a Buffer key about three times slower than the HMAC of a 1 KB body itself, and
// every delivery signs twice.
function hmac(secret: string, timestamp: string, body: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
}

/**
 * The Service-Signature header value: `t=<unix seconds>,v1=<hex>` with one v1= per secret
 * (current first; during a secret rotation also the old one). v1 is lowercase hex
 * HMAC-SHA256 of `${t}.${rawBody}` keyed with the secret string as given (the whole
 * `whsec_...` string, UTF-8).
 */
export function signatureHeader(rawBody: string, secrets: string[], unixSeconds: number): string {
  checkSigning(secrets, unixSeconds);
  const t = String(unixSeconds);
  const body = Buffer.from(rawBody, 'utf8');
  return [`t=${t}`, ...secrets.map((secret) => `v1=${hmac(secret, t, body).toString('hex')}`)].join(',');
}

/**
 * The Standard Webhooks `webhook-signature` header value: space-separated `v1,<base64>`, one
 * per secret in the order given (current first; during a secret rotation also the old one).
 * Each is the standard, padded base64 HMAC-SHA256 of `${webhookId}.${unixSeconds}.${rawBody}`,
 * keyed with the bytes the secret's base64 after `whsec_` encodes: what the Standard Webhooks
 * libraries compute. `webhookId` is the event's id and `unixSeconds` the attempt's
 * `webhook-timestamp`, the same as Service-Signature's `t`.
 */
export function standardSignatureHeader(
  webhookId: string,
  rawBody: string,
  secrets: string[],
  unixSeconds: number,
): string {
  checkSigning(secrets, unixSeconds);
  if (webhookId === '') throw new RangeError('webhookId must not be empty');
  const signed = `${webhookId}.${unixSeconds}.`;
  const body = Buffer.from(rawBody, 'utf8');
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', standardKey(secret)).update(signed, 'utf8').update(body).digest('base64')}`,
    )
    .join(' ');
}

/**
 * The HMAC key of `webhook-signature`: the bytes the secret's base64 after `whsec_` encodes.
 * Node's base64 decoder also reads the URL alphabet without padding, so the secrets made before
 * the service made standard base64 ones (`whsec_` and base64url) decode to their same 32 bytes.
 */
function standardKey(secret: string): KeyObject {
  let made = standardKeys.get(secret);
  if (made === undefined) {
    const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
    // The Standard Webhooks libraries refuse an empty key: no receiver could verify a signature by it.
    if (key.length === 0) throw new RangeError('a secret must encode at least one byte to sign webhook-signature');
    made = createSecretKey(key);
    if (standardKeys.size >= STANDARD_KEYS_MAX) standardKeys.clear();
    standardKeys.set(secret, made);
  }
  return made;
}

/**
 * The keys made, by secret: a KeyObject costs about as much to make as the HMAC of a delivery's
 * body, and every delivery signs with its endpoint's. Bounded, as secrets rotate.
 */
const standardKeys = new Map<string, KeyObject>();
const STANDARD_KEYS_MAX = 10_000;

function checkSigning(secrets: string[], unixSeconds: number): void {
  if (!Number.isSafeInteger(unixSeconds) || unixSeconds < 0) {
    throw new RangeError(`unixSeconds must be a non-negative whole number, not ${unixSeconds}`);
  }
  if (secrets.length === 0) throw new RangeError('at least one secret is needed to sign');
}

export interface VerifyOptions {
  /** Largest accepted difference, in seconds, between `t` and now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The receiver's clock, unix seconds (fractions allowed). Default `Date.now() / 1000`. */
  nowSeconds?: number;
}

/** `t` and the `v1` values of a header; null when it has no single well-formed `t`. */
function parseHeader(header: string): { t: string; v1: string[] } | null {
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      // Two timestamps are ambiguous: which one was signed?
      if (t !== null || !TIMESTAMP.test(value)) return null;
      t = value;
    } else if (key === 'v1') {
      v1.push(value);
    }
    // Other schemes (a future v2=) are ignored, so old receivers keep working.
  }
  return t === null ? null : { t, v1 };
}

function bodyBytes(rawBody: unknown): Buffer | null {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (Buffer.isBuffer(rawBody)) return rawBody;
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  return null;
}

/**
 * Verifies a delivery as a receiver would: parses the header (t and any number of v1=),
 * rejects when |now - t| > tolerance, recomputes HMAC-SHA256 over the raw body (string or
 * Buffer, exact bytes) and compares each v1 in constant time (crypto.timingSafeEqual on
 * equal-length buffers). Returns true/false; never throws on malformed input.
 *
 * Pass the body exactly as received, before any JSON parsing: re-serialised JSON is not
 * the same bytes.
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  header: string | undefined | null,
  secret: string,
  options: VerifyOptions = {},
): boolean {
  try {
    if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
    const body = bodyBytes(rawBody);
    if (body === null) return false;
    const parsed = parseHeader(header);
    if (parsed === null || parsed.v1.length === 0) return false;

    const tolerance = options?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const now = options?.nowSeconds ?? Date.now() / 1000;
    if (typeof tolerance !== 'number' || !(tolerance >= 0)) return false;
    if (typeof now !== 'number' || !Number.isFinite(now)) return false;
    if (Math.abs(now - Number(parsed.t)) > tolerance) return false;

    const expected = hmac(secret, parsed.t, body);
    let match = false;
    for (const candidate of parsed.v1) {
      if (!DIGEST_HEX.test(candidate)) continue;
      const given = Buffer.from(candidate, 'hex');
      // Both are 32 bytes here (timingSafeEqual throws on different lengths).
      if (given.length === expected.length && timingSafeEqual(given, expected)) match = true;
    }
    return match;
  } catch {
    return false;
  }
}
