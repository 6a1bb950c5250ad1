/**
 * Outbound HTTP client for webhook deliveries, media imports (and later platform calls), safe against SSRF.
 *
 * - `createOutboundAgent` builds an undici Agent whose connector resolves host names itself (the `lookup`
 *   option undici passes through to `net.connect` / `tls.connect`), refuses the connection when any resolved
 *   address is not public (unless `allowPrivate`), and hands Node exactly the addresses it checked, so the
 *   socket goes to a checked address: there is no second resolution a DNS rebinding could answer differently.
 *   Connections opened together (a burst to a receiver not yet connected) share one lookup under way.
 *   Node never calls `lookup` for IP-literal hosts, so the connector checks those before connecting.
 * - `postBytes` sends one POST and reports what happened; it never follows redirects, never throws for
 *   network problems, and bounds both time (including reading the body) and the amount of body kept. Each
 *   call has the host name checked again, also when the request will reuse a kept-alive connection: by a
 *   lookup of its own, or by one of the last second that it shares (src/outbound/name-checks.ts).
 *
 * A delivery attempt succeeded when the result has a 2xx `status` and no `error` (see `isSuccess`).
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, request } from 'undici';
import { nonPublicReason, type Resolver } from './address-policy.ts';
import { SharedNameChecks } from './name-checks.ts';

export interface OutboundPolicy {
  allowPrivate: boolean;
  resolve: Resolver;
}

export interface PostResult {
  /** HTTP status, when a response arrived. */
  status?: number;
  /** Up to maxBodyBytes of the response body (utf8, lossy), when a response arrived. */
  body?: string;
  /**
   * Why there is no usable response, e.g. 'timeout after 5000 ms', 'connection refused',
   * 'address not allowed: 10.0.0.5 is a private address', 'TLS error: ...'. A redirect is not an error: its
   * 3xx status is returned as `status`. Set together with `status` when the response broke off (or the time
   * ran out) while its body was being read.
   */
  error?: string;
  durationMs: number;
}

const ADDRESS_NOT_ALLOWED = 'ERR_OUTBOUND_ADDRESS_NOT_ALLOWED';
const HOST_NOT_RESOLVED = 'ERR_OUTBOUND_HOST_NOT_RESOLVED';

/** Raised from the agent's lookup/connector when the policy refuses an address; never a socket is opened. */
class AddressNotAllowedError extends Error {
  readonly code = ADDRESS_NOT_ALLOWED;
  constructor(readonly reason: string) {
    super(`address not allowed: ${reason}`);
    this.name = 'AddressNotAllowedError';
  }
}

class HostNotResolvedError extends Error {
  readonly code = HOST_NOT_RESOLVED;
  constructor(hostname: string, options?: ErrorOptions) {
    super(`${hostname} does not resolve`, options);
    this.name = 'HostNotResolvedError';
  }
}

/** A policy as an agent made by createOutboundAgent enforces it, with the agent's shared checks of names. */
interface AgentPolicy extends OutboundPolicy {
  names: SharedNameChecks<LookupAddress[]>;
}

/** The policy each agent made by createOutboundAgent enforces, so postBytes can check IP literals and names up front. */
const agentPolicies = new WeakMap<Agent, AgentPolicy>();

/** A URL's hostname without the brackets of an IPv6 literal. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** A promise that rejects with the signal's reason once it aborts (and never settles otherwise). */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Why an IP-literal host may not be called, or null when it may (or is not an IP literal). Same rules as
 * checkOutboundUrl: strict mode takes names only; with allowPrivate any valid literal is fine.
 */
function literalHostRefusal(hostname: string, allowPrivate: boolean): string | null {
  const literal = bareHost(hostname);
  if (isIP(literal) === 0) return null;
  if (allowPrivate) return null;
  return nonPublicReason(literal) ?? `the host must be a name, not an IP address (${literal})`;
}

/**
 * Resolves `hostname` with `policy.resolve` and answers its addresses; rejects with
 * HostNotResolvedError when there are none, and with AddressNotAllowedError when any is invalid
 * or (unless allowPrivate) non-public.
 */
async function checkedAddresses(hostname: string, policy: OutboundPolicy): Promise<LookupAddress[]> {
  let resolved: Awaited<ReturnType<Resolver>>;
  try {
    resolved = await policy.resolve(hostname);
  } catch (err) {
    throw new HostNotResolvedError(hostname, { cause: err });
  }
  if (!Array.isArray(resolved) || resolved.length === 0) throw new HostNotResolvedError(hostname);
  const addresses: LookupAddress[] = [];
  for (const entry of resolved) {
    const address = entry?.address;
    const reason = nonPublicReason(address);
    if (reason !== null && (!policy.allowPrivate || isIP(address) === 0)) throw new AddressNotAllowedError(reason);
    addresses.push({ address, family: isIP(address) });
  }
  return addresses;
}

/**
 * A `dns.lookup`-compatible function that answers with the addresses `checked` allowed only
 * (see checkedAddresses).
 */
function policyLookup(checked: (hostname: string) => Promise<LookupAddress[]>): LookupFunction {
  return (hostname, options: LookupOptions, callback) => {
    checked(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        const first = usable[0];
        if (first === undefined) {
          callback(new HostNotResolvedError(`${hostname} (IPv${family})`), '', 0);
          return;
        }
        if (options.all) {
          (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: unknown) => callback(err as Error, '', 0),
    );
  };
}

/**
 * An undici Agent whose connect.lookup resolves with policy.resolve, refuses (unless allowPrivate) when ANY
 * resolved address is non-public, and connects to the checked address (pinning it: the socket goes to exactly
 * the address that was checked). Connections opened together share a lookup under way (SharedNameChecks'
 * `lookup`). IP-literal hosts are checked before connecting.
 */
export function createOutboundAgent(policy: OutboundPolicy, options: { connectTimeoutMs?: number } = {}): Agent {
  const own: AgentPolicy = { ...policy, names: new SharedNameChecks((hostname) => checkedAddresses(hostname, own)) };
  const connector = buildConnector({
    lookup: policyLookup((hostname) => own.names.lookup(hostname)),
    timeout: options.connectTimeoutMs ?? 10_000,
  });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const refusal = literalHostRefusal(connectOptions.hostname, policy.allowPrivate);
    if (refusal !== null) {
      process.nextTick(callback, new AddressNotAllowedError(refusal), null);
      return;
    }
    connector(connectOptions, callback);
  };
  const agent = new Agent({ connect });
  agentPolicies.set(agent, own);
  return agent;
}

/** A delivery attempt succeeded: a 2xx response arrived (and was read) within the time limit. */
export function isSuccess(result: PostResult): boolean {
  return result.error === undefined && result.status !== undefined && result.status >= 200 && result.status < 300;
}

interface ErrorLike {
  code?: unknown;
  reason?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and its causes (and an AggregateError's first error), outermost first. */
function errorChain(err: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = err;
  while (current !== null && typeof current === 'object' && chain.length < 8 && !chain.includes(current)) {
    const e = current as ErrorLike;
    chain.push(e);
    current = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  }
  return chain;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|^UNABLE_TO_|SIGNATURE|HOSTNAME_MISMATCH/;

/** A short, human description of why a request failed. */
function describeError(err: unknown): string {
  const chain = errorChain(err);
  for (const e of chain) {
    if (e instanceof AddressNotAllowedError) return e.message;
    if (e instanceof HostNotResolvedError) return 'host does not resolve';
  }
  const messageOf = (e: ErrorLike | undefined) => (typeof e?.message === 'string' ? e.message : String(e));
  for (const e of chain) {
    const code = typeof e.code === 'string' ? e.code : '';
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection refused';
      case 'ECONNRESET':
      case 'EPIPE':
        return 'connection reset';
      case 'UND_ERR_SOCKET':
        return 'connection closed by the server';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
      case 'EAI_FAIL':
      case 'EAI_NODATA':
      case 'EAI_NONAME':
        return 'host does not resolve';
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'ETIMEDOUT':
        return 'connection timed out';
      case 'EHOSTUNREACH':
        return 'host unreachable';
      case 'ENETUNREACH':
        return 'network unreachable';
      case 'UND_ERR_HEADERS_TIMEOUT':
        return 'timed out waiting for the response';
      case 'UND_ERR_BODY_TIMEOUT':
        return 'timed out waiting for the rest of the response';
      case 'UND_ERR_HEADERS_OVERFLOW':
        return 'response headers too large';
      case 'HPE_INVALID_CONSTANT':
      case 'HPE_INVALID_VERSION':
      case 'HPE_INVALID_STATUS':
        return 'invalid HTTP response';
    }
    if (TLS_CODE.test(code)) {
      // OpenSSL's messages carry a whole error stack; Node puts the readable part in `reason`.
      const detail = typeof e.reason === 'string' && e.reason !== '' ? e.reason : messageOf(e).split('\n')[0];
      return `TLS error: ${detail}`;
    }
  }
  return `request failed: ${messageOf(chain[0])}`;
}

/** A URL this client may call with `agent`, or why not (a bad URL, a refused IP literal). */
function outboundTarget(
  agent: Agent,
  url: string,
): { parsed: URL; policy: AgentPolicy | undefined } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: 'invalid URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { error: 'invalid URL: the URL must use https or http' };
  }
  const policy = agentPolicies.get(agent);
  // The agent checks IP literals too; refusing here as well keeps a foreign agent from being a way around it.
  const refusal = literalHostRefusal(parsed.hostname, policy?.allowPrivate ?? false);
  if (refusal !== null) return { error: `address not allowed: ${refusal}` };
  return { parsed, policy };
}

/**
 * Checked before every request, also one that will reuse a kept-alive connection: that
 * connection goes to the address checked when it was opened, and the name must still resolve to
 * allowed addresses only, as a check under way or an allowing answer of the last second says
 * (SharedNameChecks). A new connection resolves the name itself, or takes a lookup of it still under way
 * that started at most 0.1 s before (the agent's policyLookup, through SharedNameChecks' `lookup`).
 */
async function recheckHost(parsed: URL, policy: AgentPolicy | undefined): Promise<void> {
  if (policy && isIP(bareHost(parsed.hostname)) === 0) await policy.names.ensure(parsed.hostname);
}

export type StreamResult =
  | { status: number; headers: Record<string, string | string[] | undefined>; body: Readable }
  | { error: string };

/**
 * GETs `url` and hands back the response body as a stream, for the caller to read (and cap) as
 * it arrives: nothing is buffered here. Never throws for network problems and never follows
 * redirects (a 3xx comes back as its status). `headersTimeoutMs` bounds the wait for the
 * response; `idleTimeoutMs` the silence between body chunks (the stream then errors).
 */
export async function getStream(
  agent: Agent,
  url: string,
  options: { headersTimeoutMs: number; idleTimeoutMs: number; signal?: AbortSignal },
): Promise<StreamResult> {
  const target = outboundTarget(agent, url);
  if ('error' in target) return target;
  try {
    await recheckHost(target.parsed, target.policy);
    const response = await request(target.parsed, {
      dispatcher: agent,
      method: 'GET',
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.idleTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  } catch (err) {
    return { error: describeError(err) };
  }
}

/**
 * POSTs `body` (exact bytes) to `url` with `headers`; never throws for network problems; never follows
 * redirects; gives up (aborting the request) after timeoutMs in total, including reading the response; reads
 * at most maxBodyBytes of the body and discards the rest.
 */
export async function postBytes(
  agent: Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; maxBodyBytes: number },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  const target = outboundTarget(agent, url);
  if ('error' in target) return { error: target.error, durationMs: elapsed() };
  const { parsed, policy } = target;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timeout after ${options.timeoutMs} ms`));
  }, options.timeoutMs);

  let status: number | undefined;
  const chunks: Buffer[] = [];
  let kept = 0;
  // Buffer#toString replaces a multi-byte character cut at the limit with U+FFFD.
  const bodyText = () => Buffer.concat(chunks, kept).toString('utf8');
  try {
    await Promise.race([recheckHost(parsed, policy), rejectOnAbort(controller.signal)]);
    // undici's request() follows no redirects: that takes the redirect interceptor, which is not installed.
    const response = await request(parsed, {
      dispatcher: agent,
      method: 'POST',
      headers,
      body,
      signal: controller.signal,
    });
    status = response.statusCode;
    if (options.maxBodyBytes > 0) {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const room = options.maxBodyBytes - kept;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        kept += Math.min(chunk.length, room);
        if (kept >= options.maxBodyBytes) break; // leaving the loop destroys the stream: the rest is discarded
      }
    } else {
      response.body.destroy();
    }
    return { status, body: bodyText(), durationMs: elapsed() };
  } catch (err) {
    const error = timedOut ? `timeout after ${options.timeoutMs} ms` : describeError(err);
    const result: PostResult = { error, durationMs: elapsed() };
    if (status !== undefined) {
      result.status = status;
      result.body = bodyText();
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}
