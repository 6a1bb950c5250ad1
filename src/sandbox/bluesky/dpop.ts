/**
 * Checking DPoP proofs (RFC 9449, as AT Protocol's OAuth requires them): a JWT typed
 * `dpop+jwt`, signed ES256 by the public key in its header, naming this request's method and URL
 * (as the protocol names the host: https, no port), fresh (`iat` within five minutes, `jti` never
 * seen), carrying the server's current nonce, and towards the PDS the hash of the access token
 * (`ath`). A proof without the current nonce is answered `use_dpop_nonce` with a new one. Nonces
 * rotate every three minutes; the one before is still taken.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import type { SandboxAnswer } from '../answers.ts';

const NONCE_ROTATION_MS = 3 * 60_000;
const MAX_AGE_SECONDS = 300;

export interface DpopServer {
  /** The nonce to send with every answer. */
  nonce(): string;
  /**
   * The proof's key thumbprint (RFC 7638), once the request's proof is checked; `refuse` words the
   * refusals (an OAuth error, or XRPC's 401 with WWW-Authenticate).
   */
  check(
    request: FastifyRequest,
    url: string,
    refuse: (error: 'use_dpop_nonce' | 'invalid_dpop_proof', description: string, nonce: string) => SandboxAnswer,
    accessToken?: string,
  ): Promise<string>;
}

export function dpopServer(now: () => Date): DpopServer {
  let current = { value: randomBytes(16).toString('base64url'), at: now().getTime() };
  let previous: string | null = null;
  const seen = new Map<string, number>();

  function nonce(): string {
    if (now().getTime() - current.at >= NONCE_ROTATION_MS) {
      previous = current.value;
      current = { value: randomBytes(16).toString('base64url'), at: now().getTime() };
    }
    return current.value;
  }

  return {
    nonce,
    async check(request, url, refuse, accessToken) {
      const fresh = nonce();
      const bad = (why: string) => refuse('invalid_dpop_proof', why, fresh);
      const proof = request.headers.dpop;
      if (typeof proof !== 'string' || proof === '') throw bad('DPoP proof required');
      let jwk: JWK;
      let payload: Record<string, unknown>;
      try {
        const header = decodeProtectedHeader(proof);
        if (header.typ !== 'dpop+jwt' || header.alg !== 'ES256' || header.jwk === undefined) throw new Error('header');
        jwk = header.jwk as JWK;
        if ('d' in jwk) throw new Error('a private key in the header');
        ({ payload } = await jwtVerify(proof, await importJWK(jwk, 'ES256'), {
          typ: 'dpop+jwt',
          currentDate: now(),
        }));
      } catch {
        throw bad('Invalid DPoP proof');
      }
      if (payload.htm !== request.method || payload.htu !== url) throw bad('DPoP htm or htu mismatch');
      const iat = typeof payload.iat === 'number' ? payload.iat : 0;
      if (Math.abs(now().getTime() / 1000 - iat) > MAX_AGE_SECONDS) throw bad('DPoP proof too old');
      const jti = typeof payload.jti === 'string' ? payload.jti : '';
      if (jti === '' || seen.has(jti)) throw bad('DPoP proof replayed');
      if (payload.nonce !== fresh && (previous === null || payload.nonce !== previous)) {
        throw refuse('use_dpop_nonce', 'Authorization server requires nonce in DPoP proof', fresh);
      }
      if (accessToken !== undefined) {
        const ath = createHash('sha256').update(accessToken).digest('base64url');
        if (payload.ath !== ath) throw bad('DPoP ath mismatch');
      }
      seen.set(jti, now().getTime());
      for (const [id, at] of seen) if (now().getTime() - at > MAX_AGE_SECONDS * 2000) seen.delete(id);
      return await calculateJwkThumbprint(jwk, 'sha256');
    },
  };
}
