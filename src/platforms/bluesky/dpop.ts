/**
 * DPoP (RFC 9449), as AT Protocol's OAuth requires it of every token request and every call to
 * the PDS: an ES256 key per session, and a fresh signed proof per request naming its method and
 * URL (and, towards the PDS, a hash of the access token), carrying the server's latest nonce.
 */
import { createECDH, createHash, createHmac, createPrivateKey, type KeyObject, randomUUID, sign } from 'node:crypto';

export interface DpopKey {
  /** The private scalar, base64url: what is kept (sealed with the account's tokens) to sign again. */
  readonly d: string;
  readonly publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
  readonly key: KeyObject;
}

/** The key whose private scalar is `d` (32 bytes); throws for a scalar outside the curve's order. */
export function dpopKeyOf(d: Buffer): DpopKey {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const publicJwk = {
    kty: 'EC' as const,
    crv: 'P-256' as const,
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
  const key = createPrivateKey({ key: { ...publicJwk, d: d.toString('base64url') }, format: 'jwk' });
  return { d: d.toString('base64url'), publicJwk, key };
}

/**
 * The DPoP key of one sign-in, derived from its `state` under the app's secret: the service
 * keeps nothing between the authorization server's page and the code's exchange, and the code is
 * bound to the key its pushed request was proved with. Only the secret's holder can derive it.
 */
export function tripDpopKey(secret: string, state: string): DpopKey {
  for (let round = 0; ; round++) {
    const d = createHmac('sha256', secret).update(`bluesky-dpop:${round}:${state}`).digest();
    try {
      return dpopKeyOf(d);
    } catch {
      // A scalar past the curve's order (about one in four billion): the next round's.
    }
  }
}

/** The key a sealed session names (`DpopKey.d`). */
export function storedDpopKey(d: string): DpopKey {
  return dpopKeyOf(Buffer.from(d, 'base64url'));
}

function part(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** RFC 9449 4.2: the proof for one request; `htu` without query or fragment. */
export function dpopProof(
  key: DpopKey,
  request: { method: string; url: string; nonce?: string; accessToken?: string; now: Date },
): string {
  const target = new URL(request.url);
  target.search = '';
  target.hash = '';
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk };
  const payload = {
    jti: randomUUID(),
    htm: request.method,
    htu: target.toString(),
    iat: Math.floor(request.now.getTime() / 1000),
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    ...(request.accessToken === undefined
      ? {}
      : { ath: createHash('sha256').update(request.accessToken).digest('base64url') }),
  };
  const signingInput = `${part(header)}.${part(payload)}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: key.key, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** The PKCE code verifier of one sign-in, derived from its state as its DPoP key is (43 characters of base64url). */
export function tripCodeVerifier(secret: string, state: string): string {
  return createHmac('sha256', secret).update(`bluesky-pkce:${state}`).digest('base64url');
}

export function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
