import { type Dispatcher, request } from 'undici';
import { type Platform, PlatformError, type ProjectUnits } from './types.ts';

/**
 * How a call to a platform ended: ok (HTTP 1xx-3xx), rate_limited (429), client_error (another
 * 4xx; Meta's rate limits among them), server_error (5xx), unreachable (no answer in time, or a
 * network error).
 */
export type CallResult = 'ok' | 'rate_limited' | 'client_error' | 'server_error' | 'unreachable';

function resultOf(status: number): CallResult {
  if (status < 400) return 'ok';
  if (status === 429) return 'rate_limited';
  return status < 500 ? 'client_error' : 'server_error';
}

/** How adapters reach a platform: its hosts (real or sandbox), credentials and HTTP settings. */
export interface AdapterOptions {
  clientId: string;
  clientSecret: string;
  /** `https://graph.instagram.com`, or the sandbox's stand-in for that host. */
  hostUrl(host: string): string;
  /** Undici dispatcher (tests and the service share one with keep-alive); the global one by default. */
  dispatcher?: Dispatcher;
  /** Whole-call limit, reading the body included. */
  timeoutMs?: number;
  /** Told how each call ended (the platform set counts them in a metric); unset: nobody is. */
  countCall?: (platform: Platform, result: CallResult) => void;
  /**
   * The values of the settings the platform's definition declares (`PlatformDefinition.settings`),
   * by the definition's name for each; an unset one is absent or undefined.
   */
  settings?: Readonly<Record<string, string | undefined>>;
  /** Where a platform's project quota units are counted (YouTube's); unset: they are not. */
  projectUnits?: ProjectUnits;
  /** The service's own public address (PUBLIC_URL, else where it listens), where a platform fetches the app's documents; unset: unknown. */
  serviceUrl?: string;
}

/**
 * What an adapter's parts (sign-in, publishing, comments, insights) share: the app's options on
 * the platform and the clock, handed to each part when the adapter is made.
 */
export interface AdapterContext {
  readonly options: AdapterOptions;
  readonly now: () => Date;
}

/** Real platform hosts, or `${sandboxUrl}/${host}` for the sandbox, which serves each host under its name. */
export function hostUrlFor(mode: 'live' | 'sandbox', sandboxUrl: string | undefined): (host: string) => string {
  if (mode === 'live') return (host) => `https://${host}`;
  if (sandboxUrl === undefined) throw new Error('the sandbox URL is needed in sandbox mode');
  const base = sandboxUrl.replace(/\/+$/, '');
  return (host) => `${base}/${host}`;
}

export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | undefined>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as they are, with their own content type (an upload of a file's bytes). */
  bytes?: { body: Buffer; contentType: string };
  /**
   * Say `Content-Type: application/json` even without a body: TikTok requires it on
   * creator_info/query, whose documented request has no body.
   */
  jsonWithoutBody?: boolean;
  bearer?: string;
  /** Headers the platform asks of every call beside those above (LinkedIn's `LinkedIn-Version`). */
  headers?: Record<string, string>;
}

export interface PlatformResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body, or undefined when it is not JSON. */
  body: unknown;
  text: string;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** As TikTok's Content Posting reference spells it; the charset is case-insensitive for everyone else. */
const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** What Node 24 hands a JSON.parse reviver as its third argument; TypeScript's lib does not declare it yet. */
interface JsonReviverContext {
  /** The value's text in the document, for primitives. */
  source?: string;
}

const INTEGER_LITERAL = /^-?\d+$/;
/** A number literal of 16 digits or more (as every integer beyond 2^53 has), where JSON puts a value. */
const LONG_NUMBER = /(?:^|[[:,])\s*-?\d{16}/;

/**
 * JSON.parse for platform answers: an integer too large for a double (Instagram's
 * `user_id`, TikTok's int64 post ids, above 2^53) comes back as its exact digits, since
 * JSON.parse alone rounds 17841405793187219 to 17841405793187220. The service keeps ids as
 * strings, and `str()` reads both.
 */
export function parseJson(text: string): unknown {
  // The reviver is a call for every value of the answer: only one with a long number needs it.
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key: string, value: unknown, context?: JsonReviverContext) =>
    typeof value === 'number' &&
    !Number.isSafeInteger(value) &&
    context?.source !== undefined &&
    INTEGER_LITERAL.test(context.source)
      ? context.source
      : value,
  );
}

function withQuery(url: string, query: PlatformRequest['query']): string {
  if (!query) return url;
  const target = new URL(url);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) target.searchParams.set(name, String(value));
  }
  return target.toString();
}

/**
 * One HTTP call to a platform. Never follows redirects. A network failure or timeout is a
 * `transient` PlatformError; any HTTP answer is returned for the adapter to classify.
 */
export async function callPlatform(
  platform: Platform,
  call: PlatformRequest,
  options: Pick<AdapterOptions, 'dispatcher' | 'timeoutMs' | 'countCall'>,
): Promise<PlatformResponse> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | Buffer | undefined;
  if (call.bytes) {
    body = call.bytes.body;
    headers['content-type'] = call.bytes.contentType;
  } else if (call.form) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(call.form)) if (value !== undefined) form.set(name, value);
    body = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers['content-type'] = JSON_CONTENT_TYPE;
  } else if (call.jsonWithoutBody) {
    headers['content-type'] = JSON_CONTENT_TYPE;
  }
  if (call.bearer) headers.authorization = `Bearer ${call.bearer}`;
  Object.assign(headers, call.headers);
  // A deadline cleared with the call: AbortSignal.timeout's timer outlives the call and fires
  // anyway, making an abort error (a DOMException, with its stack) for every call made.
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = new AbortController();
  const { signal } = deadline;
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    const response = await request(withQuery(call.url, call.query), {
      method: call.method,
      headers,
      body,
      signal,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new Error(`answer larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : parseJson(text);
    } catch {
      parsed = undefined;
    }
    options.countCall?.(platform, resultOf(response.statusCode));
    return { status: response.statusCode, headers: response.headers, body: parsed, text };
  } catch (error) {
    options.countCall?.(platform, 'unreachable');
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    throw new PlatformError('transient', `${platform} could not be reached: ${reason}`, { platform });
  } finally {
    clearTimeout(timer);
  }
}

/** A plain object, or an empty one: platform answers are read defensively. */
export function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** The first header value, as a string. */
export function header(response: PlatformResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** A field the platform's answer must carry (a token, an id); missing or empty, the answer is a platform fault. */
export function requiredText(platform: Platform, value: unknown, field: string): string {
  const text = str(value);
  if (text === null || text === '') {
    throw new PlatformError('transient', `${platform} answered without ${field}`, { platform });
  }
  return text;
}

/** A 2xx answer without a JSON object body is a platform fault, not something to guess at. */
export function expectObject(platform: Platform, response: PlatformResponse): Record<string, unknown> {
  if (response.body === null || typeof response.body !== 'object' || Array.isArray(response.body)) {
    throw new PlatformError('transient', `${platform} answered HTTP ${response.status} without a JSON object`, {
      platform,
      status: response.status,
    });
  }
  return response.body as Record<string, unknown>;
}

/** Seconds to wait from a `Retry-After` header (seconds or HTTP date), if present. */
export function retryAfterSeconds(response: PlatformResponse, now: Date): number | undefined {
  const value = header(response, 'retry-after');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * `candidate` when it is on the origin of `base` and under its path, compared as parsed
 * URLs: a text prefix lets `https://graph.instagram.com.evil.test/` or
 * `https://graph.instagram.com@evil.test/` through (a platform's paging links, its upload URLs). Null otherwise.
 */
export function underBase(base: string, candidate: string): string | null {
  let url: URL;
  let root: URL;
  try {
    url = new URL(candidate);
    root = new URL(base);
  } catch {
    return null;
  }
  if (url.origin !== root.origin || url.username !== '' || url.password !== '') return null;
  const prefix = root.pathname.replace(/\/+$/, '');
  if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  return url.href;
}
