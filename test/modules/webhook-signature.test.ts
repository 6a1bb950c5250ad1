import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import * as pkg from '../../src/index.ts';
import { signatureHeader, standardSignatureHeader, verifyWebhook } from '../../src/webhook-signature.ts';

const SECRET = 'whsec_Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8';
const OLD_SECRET = 'whsec_b2xkLXNlY3JldC1zdGlsbC1zaWduaW5nLWZvci0yNGg';
const T = 1_790_000_000;
const BODY = JSON.stringify({
  id: '0b0e8d2c-6a6b-4c55-9f4e-2f3d9d1f6a10',
  type: 'post.published',
  created_at: '2026-09-21T11:53:09.410Z',
  profile_id: 'prf_01jd8z3x0ffqv9b6c5t4r3s2q1',
  data: { post_id: 'post_1', text: 'Grüße, café ☕' },
});

/** The reference computation, written out here rather than taken from the module. */
function independentV1(secret: string, t: number | string, body: string | Buffer): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${t}.`);
  hmac.update(body);
  return hmac.digest('hex');
}

function parts(header: string): [string, string][] {
  return header.split(',').map((p) => {
    const eq = p.indexOf('=');
    return [p.slice(0, eq), p.slice(eq + 1)];
  });
}

const at = (seconds: number) => ({ nowSeconds: seconds });

describe('signatureHeader', () => {
  it('is t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "t.body"> keyed with the whole whsec_ string', () => {
    const header = signatureHeader(BODY, [SECRET], T);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(parts(header)).toEqual([
      ['t', String(T)],
      ['v1', independentV1(SECRET, T, BODY)],
    ]);
    // The key is the secret string as given, not its base64url payload.
    const payloadKey = Buffer.from(SECRET.slice('whsec_'.length), 'base64url');
    expect(header).not.toContain(createHmac('sha256', payloadKey).update(`${T}.${BODY}`).digest('hex'));
  });

  it('signs the UTF-8 bytes of the body', () => {
    const header = signatureHeader(BODY, [SECRET], T);
    expect(parts(header)[1]?.[1]).toBe(independentV1(SECRET, T, Buffer.from(BODY, 'utf8')));
  });

  it('gives one v1 per secret, in the order given (current first, then the rotated-out one)', () => {
    const header = signatureHeader(BODY, [SECRET, OLD_SECRET], T);
    expect(parts(header)).toEqual([
      ['t', String(T)],
      ['v1', independentV1(SECRET, T, BODY)],
      ['v1', independentV1(OLD_SECRET, T, BODY)],
    ]);
  });

  it('refuses a fractional or negative time and an empty secret list', () => {
    expect(() => signatureHeader(BODY, [SECRET], 1.5)).toThrow(RangeError);
    expect(() => signatureHeader(BODY, [SECRET], -1)).toThrow(RangeError);
    expect(() => signatureHeader(BODY, [], T)).toThrow(RangeError);
  });
});

describe('verifyWebhook', () => {
  const header = signatureHeader(BODY, [SECRET], T);

  it('accepts a correct delivery, as a string or as the received bytes', () => {
    expect(verifyWebhook(BODY, header, SECRET, at(T))).toBe(true);
    expect(verifyWebhook(Buffer.from(BODY, 'utf8'), header, SECRET, at(T))).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, { toleranceSeconds: 300, nowSeconds: T + 10 })).toBe(true);
  });

  it('accepts a header built independently of the module', () => {
    const own = `t=${T},v1=${independentV1(SECRET, T, BODY)}`;
    expect(verifyWebhook(BODY, own, SECRET, at(T))).toBe(true);
  });

  it('uses the real clock and a 300 s tolerance by default', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(BODY, signatureHeader(BODY, [SECRET], now), SECRET)).toBe(true);
    expect(verifyWebhook(BODY, signatureHeader(BODY, [SECRET], now - 400), SECRET)).toBe(false);
    expect(verifyWebhook(BODY, signatureHeader(BODY, [SECRET], now + 400), SECRET)).toBe(false);
  });

  it('accepts during a rotation with either secret: the matching v1 may be the second', () => {
    const rotated = signatureHeader(BODY, [SECRET, OLD_SECRET], T);
    expect(verifyWebhook(BODY, rotated, SECRET, at(T))).toBe(true);
    expect(verifyWebhook(BODY, rotated, OLD_SECRET, at(T))).toBe(true);
    expect(verifyWebhook(BODY, rotated, 'whsec_another', at(T))).toBe(false);
  });

  it('rejects a body changed in one byte', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    for (const i of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[i] = (tampered[i] ?? 0) ^ 0x01;
      expect(verifyWebhook(tampered, header, SECRET, at(T))).toBe(false);
    }
    expect(verifyWebhook(`${BODY} `, header, SECRET, at(T))).toBe(false);
    // Re-serialised JSON is not the signed bytes.
    expect(verifyWebhook(JSON.stringify(JSON.parse(BODY), null, 2), header, SECRET, at(T))).toBe(false);
  });

  it('rejects a wrong secret, also one differing only in the prefix', () => {
    expect(verifyWebhook(BODY, header, 'whsec_wrong', at(T))).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET.slice('whsec_'.length), at(T))).toBe(false);
    expect(verifyWebhook(BODY, header, '', at(T))).toBe(false);
  });

  it('rejects t more than 300 s old or ahead, accepts up to 300 s', () => {
    expect(verifyWebhook(BODY, header, SECRET, at(T + 299))).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, at(T - 299))).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, at(T + 300))).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, at(T + 300.5))).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET, at(T + 301))).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET, at(T - 301))).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET, at(T + 86_400))).toBe(false);
  });

  it('honours toleranceSeconds', () => {
    expect(verifyWebhook(BODY, header, SECRET, { toleranceSeconds: 10, nowSeconds: T + 10 })).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, { toleranceSeconds: 10, nowSeconds: T + 11 })).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET, { toleranceSeconds: 0, nowSeconds: T })).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, { toleranceSeconds: -1, nowSeconds: T })).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET, { toleranceSeconds: Number.NaN, nowSeconds: T })).toBe(false);
  });

  it('rejects a header without t or without v1', () => {
    const v1 = independentV1(SECRET, T, BODY);
    expect(verifyWebhook(BODY, `v1=${v1}`, SECRET, at(T))).toBe(false);
    expect(verifyWebhook(BODY, `t=${T}`, SECRET, at(T))).toBe(false);
    expect(verifyWebhook(BODY, `t=${T},v0=${v1}`, SECRET, at(T))).toBe(false);
    // Two timestamps: which one was signed is ambiguous.
    expect(verifyWebhook(BODY, `t=${T},t=${T},v1=${v1}`, SECRET, at(T))).toBe(false);
  });

  it('rejects garbage headers without throwing', () => {
    const v1 = independentV1(SECRET, T, BODY);
    const garbage: unknown[] = [
      '',
      ' ',
      ',',
      '=',
      't=',
      'v1=',
      't=abc,v1=zz',
      `t=abc,v1=${v1}`,
      `t=${T}.5,v1=${v1}`,
      `t=-${T},v1=${v1}`,
      `t=1e9,v1=${v1}`,
      `t=${'9'.repeat(400)},v1=${v1}`,
      `v1=${v1},v1=${v1}`,
      `t=${T},v1=zz`,
      `t=${T},v1=${'g'.repeat(64)}`,
      `t=${T};v1=${v1}`,
      `${`t=${T},`.repeat(50)}v1=${v1}`,
      undefined,
      null,
      42,
      { t: T, v1 },
      ['t', T],
    ];
    for (const value of garbage) {
      expect(() => verifyWebhook(BODY, value as string, SECRET, at(T))).not.toThrow();
      expect(verifyWebhook(BODY, value as string, SECRET, at(T))).toBe(false);
    }
    for (const body of [undefined, null, 42, {}, [1, 2]]) {
      expect(verifyWebhook(body as unknown as string, header, SECRET, at(T))).toBe(false);
    }
    expect(verifyWebhook(BODY, header, undefined as unknown as string, at(T))).toBe(false);
    expect(verifyWebhook(BODY, header, SECRET, null as unknown as undefined)).toBe(false);
  });

  it('rejects a v1 of the wrong length (a prefix, one digit more, one byte more)', () => {
    const v1 = independentV1(SECRET, T, BODY);
    for (const wrong of [v1.slice(0, 63), v1.slice(0, 62), v1.slice(0, 32), `${v1}0`, `${v1}00`, '']) {
      expect(verifyWebhook(BODY, `t=${T},v1=${wrong}`, SECRET, at(T))).toBe(false);
    }
  });

  it('tolerates spaces around the parts and ignores unknown schemes', () => {
    const v1 = independentV1(SECRET, T, BODY);
    expect(verifyWebhook(BODY, ` t=${T} , v1=${v1} `, SECRET, at(T))).toBe(true);
    expect(verifyWebhook(BODY, `t=${T},v2=abc,v1=${v1}`, SECRET, at(T))).toBe(true);
    expect(verifyWebhook(BODY, `v1=${'0'.repeat(64)},v1=${v1},t=${T}`, SECRET, at(T))).toBe(true);
  });

  it('verifies a Buffer body holding non-ASCII UTF-8 exactly as received', () => {
    const raw = Buffer.from('{"data":{"text":"Ünïcödé 日本語 🎉"}}', 'utf8');
    expect(raw.length).toBeGreaterThan(raw.toString('utf8').length);
    const own = `t=${T},v1=${independentV1(SECRET, T, raw)}`;
    expect(verifyWebhook(raw, own, SECRET, at(T))).toBe(true);
    expect(verifyWebhook(raw.toString('utf8'), own, SECRET, at(T))).toBe(true);
    // Decoded as Latin-1 it is other bytes, and fails.
    expect(verifyWebhook(raw.toString('latin1'), own, SECRET, at(T))).toBe(false);
    // A Uint8Array view of the same bytes (e.g. from fetch's arrayBuffer) works too.
    const view = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
    expect(verifyWebhook(view as Buffer, own, SECRET, at(T))).toBe(true);
  });

  it('holds for random bodies and secrets: signed verifies, any flipped byte does not', () => {
    for (let run = 0; run < 200; run++) {
      const body = randomBytes(randomInt(0, 300));
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      const t = randomInt(0, 2 ** 40);
      const signed = `t=${t},v1=${independentV1(secret, t, body)}`;
      expect(verifyWebhook(body, signed, secret, at(t))).toBe(true);
      const latin1 = body.toString('latin1');
      expect(signatureHeader(latin1, [secret], t)).toBe(`t=${t},v1=${independentV1(secret, t, latin1)}`);
      if (body.length > 0) {
        const tampered = Buffer.from(body);
        const i = randomInt(0, body.length);
        tampered[i] = (tampered[i] ?? 0) ^ (1 << randomInt(0, 8));
        expect(verifyWebhook(tampered, signed, secret, at(t))).toBe(false);
      }
    }
  });
});

/** Secrets as the service makes them now: `whsec_` and standard, padded base64 of 32 bytes. */
const STD_SECRET = 'whsec_uSXjo0ll7NrIVRQJPrYz+2vRxfMvare/FmrIbn3KMGo=';
const STD_OLD_SECRET = 'whsec_ugsdSqs82EtZ8VuvJ4DUyuoGAm+AaLS7/YJFlXXhtiE=';
/** A secret as the service made them before: `whsec_` and base64url, here with both `-` and `_`. */
const LEGACY_SECRET = 'whsec_MMgPBv2zYTMwWI5784JWw-JG2JjPsAelQCZ-V_sPgjQ';
const EVENT_ID = '0b0e8d2c-6a6b-4c55-9f4e-2f3d9d1f6a10';

/** The Standard Webhooks signature, written out here: base64 HMAC-SHA256 of "id.t.body" keyed with the decoded bytes. */
function independentStandard(key: Buffer, id: string, t: number, body: string | Buffer): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${t}.`).update(body).digest('base64')}`;
}

/**
 * Verifies with the standardwebhooks reference library as a receiver whose clock reads `seconds`
 * (the library reads Date.now()). Answers the parsed body; throws what the library throws.
 */
function libraryVerify(secret: string, id: string, t: number, signature: string, body: string, seconds = t) {
  const clock = vi.spyOn(Date, 'now').mockReturnValue(seconds * 1000);
  try {
    return new Webhook(secret).verify(body, {
      'webhook-id': id,
      'webhook-timestamp': String(t),
      'webhook-signature': signature,
    });
  } finally {
    clock.mockRestore();
  }
}

describe('standardSignatureHeader', () => {
  it('is v1,<base64 HMAC-SHA256 of "id.t.body"> keyed with the bytes after whsec_: a fixed vector', () => {
    // Computed once with node:crypto: createHmac('sha256', Buffer.from('uSXj...MGo=', 'base64'))
    // .update(`${EVENT_ID}.1790000000.${BODY}`).digest('base64').
    expect(standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T)).toBe(
      'v1,DJNeN0Zb4y4AKJEEXkQBdSeJXzjj5VbId+s4DoaYdPY=',
    );
    const key = Buffer.from('uSXjo0ll7NrIVRQJPrYz+2vRxfMvare/FmrIbn3KMGo=', 'base64');
    expect(key).toHaveLength(32);
    expect(standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T)).toBe(independentStandard(key, EVENT_ID, T, BODY));
  });

  it('is what the standardwebhooks library signs, and the library verifies it', () => {
    const header = standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T);
    expect(header).toBe(new Webhook(STD_SECRET).sign(EVENT_ID, new Date(T * 1000), BODY));
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(libraryVerify(STD_SECRET, EVENT_ID, T, header, BODY)).toEqual(JSON.parse(BODY));
  });

  it('is keyed with the decoded bytes, not the whole whsec_ string as Service-Signature is', () => {
    const header = standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T);
    expect(header).not.toBe(independentStandard(Buffer.from(STD_SECRET, 'utf8'), EVENT_ID, T, BODY));
  });

  it('signs the id and the time: another id or time is another signature, which the library rejects', () => {
    const header = standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T);
    expect(standardSignatureHeader('another-id', BODY, [STD_SECRET], T)).not.toBe(header);
    expect(standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T + 1)).not.toBe(header);
    expect(() => libraryVerify(STD_SECRET, 'another-id', T, header, BODY)).toThrow(WebhookVerificationError);
    expect(() => libraryVerify(STD_SECRET, EVENT_ID, T + 1, header, BODY)).toThrow('No matching signature found');
  });

  it('rejects, through the library, a body changed in one byte and another secret', () => {
    const header = standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T);
    const tampered = Buffer.from(BODY, 'utf8');
    tampered[10] = (tampered[10] ?? 0) ^ 0x01;
    expect(() => libraryVerify(STD_SECRET, EVENT_ID, T, header, tampered.toString('utf8'))).toThrow(
      'No matching signature found',
    );
    expect(() => libraryVerify(STD_OLD_SECRET, EVENT_ID, T, header, BODY)).toThrow('No matching signature found');
  });

  it('gives one space-separated entry per secret, in the order given; the library verifies with either', () => {
    const header = standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET, STD_OLD_SECRET], T);
    const library = (secret: string) => new Webhook(secret).sign(EVENT_ID, new Date(T * 1000), BODY);
    expect(header.split(' ')).toEqual([library(STD_SECRET), library(STD_OLD_SECRET)]);
    expect(libraryVerify(STD_SECRET, EVENT_ID, T, header, BODY)).toEqual(JSON.parse(BODY));
    expect(libraryVerify(STD_OLD_SECRET, EVENT_ID, T, header, BODY)).toEqual(JSON.parse(BODY));
    const third = 'whsec_phmdMN4/gJ+jQH0Bob0ynIfD0JTeS+LnZDz2d7cYfIM=';
    expect(() => libraryVerify(third, EVENT_ID, T, header, BODY)).toThrow('No matching signature found');
  });

  it('signs the UTF-8 bytes of the body', () => {
    const key = Buffer.from(STD_SECRET.slice('whsec_'.length), 'base64');
    expect(standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], T)).toBe(
      independentStandard(key, EVENT_ID, T, Buffer.from(BODY, 'utf8')),
    );
  });

  it('signs for a secret made before (base64url), keyed with the same 32 bytes, as the converted secret verifies', () => {
    const bytes = Buffer.from(LEGACY_SECRET.slice('whsec_'.length), 'base64url');
    expect(bytes).toHaveLength(32);
    const header = standardSignatureHeader(EVENT_ID, BODY, [LEGACY_SECRET], T);
    expect(header).toBe(independentStandard(bytes, EVENT_ID, T, BODY));
    // The library refuses the URL alphabet; the same bytes in standard padded base64 verify.
    expect(() => new Webhook(LEGACY_SECRET)).toThrow();
    const converted = `whsec_${LEGACY_SECRET.slice('whsec_'.length).replaceAll('-', '+').replaceAll('_', '/')}=`;
    expect(converted).toBe(`whsec_${bytes.toString('base64')}`);
    expect(libraryVerify(converted, EVENT_ID, T, header, BODY)).toEqual(JSON.parse(BODY));
  });

  it('refuses an empty id, a fractional or negative time, no secrets and a secret encoding no bytes', () => {
    expect(() => standardSignatureHeader('', BODY, [STD_SECRET], T)).toThrow(RangeError);
    expect(() => standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], 1.5)).toThrow(RangeError);
    expect(() => standardSignatureHeader(EVENT_ID, BODY, [STD_SECRET], -1)).toThrow(RangeError);
    expect(() => standardSignatureHeader(EVENT_ID, BODY, [], T)).toThrow(RangeError);
    expect(() => standardSignatureHeader(EVENT_ID, BODY, ['whsec_'], T)).toThrow(RangeError);
    // Refused again, not remembered as a key.
    expect(() => standardSignatureHeader(EVENT_ID, BODY, ['whsec_'], T)).toThrow(RangeError);
  });

  it('holds for random secrets, ids and bodies: the same as the library signs', () => {
    for (let run = 0; run < 200; run++) {
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const id = randomBytes(randomInt(1, 20)).toString('hex');
      const body = randomBytes(randomInt(0, 300)).toString('latin1');
      const t = randomInt(0, 2 ** 40);
      expect(standardSignatureHeader(id, body, [secret], t)).toBe(
        new Webhook(secret).sign(id, new Date(t * 1000), body),
      );
    }
  });
});

describe('the package entry', () => {
  it('exports verifyWebhook and not the internal signer', () => {
    expect(Object.keys(pkg).sort()).toEqual(['verifyWebhook']);
    expect(pkg.verifyWebhook).toBe(verifyWebhook);
  });
});
