/**
 * How the Bluesky adapter reaches the other side: every host is one a user's identity names (their
 * handle's host, the PLC directory, their PDS, its authorization server), so every call goes
 * through the SSRF-safe client when live, and a URL is only ever https. In sandbox mode each host
 * is the sandbox's stand-in for it (`hostUrl`), as every platform's is. Calls with DPoP keep each
 * server's latest nonce and retry once when the server asks for a fresh one.
 */
import type { Dispatcher } from 'undici';
import { systemResolver } from '../../outbound/address-policy.ts';
import { createOutboundAgent } from '../../outbound/http-client.ts';
import { invalidRequest } from '../errors.ts';
import {
  type AdapterContext,
  callPlatform,
  header,
  type PlatformRequest,
  type PlatformResponse,
  record,
  retryAfterSeconds,
  str,
} from '../http.ts';
import { PlatformError } from '../types.ts';
import { type DpopKey, dpopProof } from './dpop.ts';

export const platform = 'bluesky';

export interface BlueskyApi {
  /** Whether the adapter talks to the real network (then DNS TXT resolves handles too). */
  readonly live: boolean;
  /** Where a browser goes for a protocol URL (the authorization server's page): the host itself, or its sandbox stand-in. */
  webUrl(url: string): string;
  /** A plain GET of a protocol URL (`https://host/path`), answered as it came. */
  get(url: string): Promise<PlatformResponse>;
  /** A request proved with `key` (and bound to `accessToken` where given), nonces handled. */
  dpop(
    key: DpopKey,
    call: Omit<PlatformRequest, 'url' | 'bearer'> & { url: string; accessToken?: string },
  ): Promise<PlatformResponse>;
  /**
   * A call to a service other than the user's PDS (Bluesky's video service), with a service token
   * (`Authorization: Bearer`) rather than DPoP, answered as it came.
   */
  service(call: Omit<PlatformRequest, 'url'> & { url: string }): Promise<PlatformResponse>;
  /** An XRPC call to a PDS, classified: the answer's JSON object, or a PlatformError. */
  xrpc(
    session: { pds: string; accessToken: string; key: DpopKey },
    method: 'GET' | 'POST',
    nsid: string,
    input: { query?: PlatformRequest['query']; json?: unknown; bytes?: PlatformRequest['bytes'] },
  ): Promise<Record<string, unknown>>;
}

export interface BlueskyContext extends AdapterContext {
  readonly api: BlueskyApi;
}

/** `https://host/path?query` as the adapter calls it: the host itself when live, the sandbox's stand-in otherwise. */
function routed(hostUrl: (host: string) => string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest(platform, `not a URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '' || parsed.port !== '') {
    throw invalidRequest(platform, `only https URLs on the default port are called: ${url}`);
  }
  return `${hostUrl(parsed.hostname)}${parsed.pathname}${parsed.search}`;
}

function nonceAsked(response: PlatformResponse): boolean {
  if (response.status === 400 && record(response.body).error === 'use_dpop_nonce') return true;
  return response.status === 401 && (header(response, 'www-authenticate') ?? '').includes('use_dpop_nonce');
}

/** An XRPC failure (`{error, message}`) as the service's error classes. */
export function xrpcError(response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const code = str(body.error) ?? undefined;
  const message = str(body.message) ?? response.text.slice(0, 200);
  const detail = { platform, status: response.status, ...(code ? { code } : {}), platformMessage: message } as const;
  const text = `bluesky answered HTTP ${response.status}${code ? ` ${code}` : ''}: ${message}`;
  if (response.status === 429) {
    // The PDS's rate limit headers: `ratelimit-reset` is the Unix time the window ends.
    const reset = Number(header(response, 'ratelimit-reset'));
    const wait = Number.isFinite(reset)
      ? Math.max(1, Math.ceil(reset - now.getTime() / 1000))
      : (retryAfterSeconds(response, now) ?? 60);
    return new PlatformError('rate_limited', text, { ...detail, retryAfterSeconds: wait });
  }
  if (response.status >= 500) return new PlatformError('transient', text, detail);
  const authError = header(response, 'www-authenticate') ?? '';
  if (
    response.status === 401 ||
    code === 'ExpiredToken' ||
    code === 'InvalidToken' ||
    authError.includes('invalid_token')
  ) {
    return new PlatformError('token_expired', text, detail);
  }
  if (response.status === 403 && (code === 'InsufficientScope' || authError.includes('insufficient_scope'))) {
    return new PlatformError('permission_missing', text, detail);
  }
  if (code === 'AccountTakedown' || code === 'AccountDeactivated')
    return new PlatformError('access_revoked', text, detail);
  return new PlatformError('invalid_request', text, detail);
}

export function blueskyApi({ options, now }: AdapterContext): BlueskyApi {
  const live = options.hostUrl('bsky.social') === 'https://bsky.social';
  // Hosts a user's identity names are anyone's: live, only public addresses are connected to.
  const dispatcher: Dispatcher | undefined = live
    ? createOutboundAgent({ allowPrivate: false, resolve: systemResolver })
    : options.dispatcher;
  const http = { dispatcher, timeoutMs: options.timeoutMs, countCall: options.countCall };
  /** Each server's latest DPoP nonce, by origin. */
  const nonces = new Map<string, string>();

  async function dpop(
    key: DpopKey,
    call: Omit<PlatformRequest, 'url' | 'bearer'> & { url: string; accessToken?: string },
  ): Promise<PlatformResponse> {
    const { accessToken, ...rest } = call;
    const origin = new URL(call.url).origin;
    let response: PlatformResponse | undefined;
    for (let tries = 0; tries < 2; tries++) {
      const proof = dpopProof(key, {
        method: call.method,
        url: call.url,
        now: now(),
        ...(nonces.has(origin) ? { nonce: nonces.get(origin) as string } : {}),
        ...(accessToken === undefined ? {} : { accessToken }),
      });
      response = await callPlatform(
        platform,
        {
          ...rest,
          url: routed(options.hostUrl, call.url),
          headers: {
            ...rest.headers,
            dpop: proof,
            ...(accessToken === undefined ? {} : { authorization: `DPoP ${accessToken}` }),
          },
        },
        http,
      );
      const nonce = header(response, 'dpop-nonce');
      if (nonce !== undefined) nonces.set(origin, nonce);
      if (!nonceAsked(response) || nonce === undefined) return response;
    }
    return response as PlatformResponse;
  }

  return {
    live,
    webUrl: (url) => routed(options.hostUrl, url),
    get: (url) => callPlatform(platform, { method: 'GET', url: routed(options.hostUrl, url) }, http),
    service: (call) => callPlatform(platform, { ...call, url: routed(options.hostUrl, call.url) }, http),
    dpop,
    async xrpc(session, method, nsid, input) {
      const response = await dpop(session.key, {
        method,
        url: `${session.pds.replace(/\/+$/, '')}/xrpc/${nsid}`,
        accessToken: session.accessToken,
        ...(input.query === undefined ? {} : { query: input.query }),
        ...(input.json === undefined ? {} : { json: input.json }),
        ...(input.bytes === undefined ? {} : { bytes: input.bytes }),
      });
      if (response.status >= 200 && response.status < 300) return record(response.body);
      throw xrpcError(response, now());
    },
  };
}
