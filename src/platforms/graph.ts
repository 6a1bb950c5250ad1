/**
 * What Instagram, Threads and Facebook share: Meta's Graph API conventions (versioned
 * paths, `access_token` parameter, `{"error":{...}}` envelopes, `paging.next`, usage headers).
 */
import {
  type AdapterOptions,
  callPlatform,
  expectObject,
  header,
  list,
  num,
  type PlatformRequest,
  type PlatformResponse,
  record,
  requiredText,
  retryAfterSeconds,
  str,
} from './http.ts';
import { type Platform, PlatformError, type PlatformErrorKind } from './types.ts';

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
/** Token invalid because the user removed the app (458), changed the password (460) or the session is invalid (467). */
const REVOKED_SUBCODES = new Set([458, 460, 467]);
const DAILY_PUBLISH_CAP_SUBCODE = 2207042;
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;

/** The longest `estimated_time_to_regain_access` (minutes) in a Business Use Case usage header, in seconds. */
function usageHeaderWait(response: PlatformResponse): number | undefined {
  const raw = header(response, 'x-business-use-case-usage');
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  let minutes: number | undefined;
  for (const entries of Object.values(record(parsed))) {
    for (const entry of list(entries)) {
      const value = num(record(entry).estimated_time_to_regain_access);
      if (value !== null) minutes = Math.max(minutes ?? 0, value);
    }
  }
  return minutes === undefined ? undefined : minutes * 60;
}

function kindOf(code: number | null, subcode: number | null, message: string, status: number): PlatformErrorKind {
  if (code === 190 || code === 102) {
    if (subcode !== null && REVOKED_SUBCODES.has(subcode)) return 'access_revoked';
    if (/has not authorized application|not authorized application/i.test(message)) return 'access_revoked';
    return 'token_expired';
  }
  if (subcode === DAILY_PUBLISH_CAP_SUBCODE) return 'rate_limited';
  if (code !== null && (RATE_LIMIT_CODES.has(code) || (code >= 80_000 && code <= 80_014))) return 'rate_limited';
  if (code === 10 || (code !== null && code >= 200 && code <= 299)) return 'permission_missing';
  if (code === 1 || code === 2) return 'transient';
  if (code !== null) return status >= 500 ? 'transient' : 'invalid_request';
  if (status === 429) return 'rate_limited';
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  return status >= 500 ? 'transient' : 'invalid_request';
}

/** Classifies a Graph-style error answer (also Instagram's flat OAuth one, `{error_type, code, error_message}`). */
export function graphError(platform: Platform, response: PlatformResponse, now: Date): PlatformError {
  const body = record(response.body);
  const envelope = record(body.error);
  const flat = body.error_type !== undefined || body.error_message !== undefined;
  const code = num(flat ? body.code : envelope.code);
  const subcode = num(envelope.error_subcode);
  const platformMessage =
    str(flat ? body.error_message : envelope.message) ?? (response.text.slice(0, 300) || `HTTP ${response.status}`);
  // The flat OAuth shape carries the HTTP status as its `code` (400 for a used code).
  const kind =
    flat && code !== null && code >= 400
      ? kindOf(null, null, platformMessage, code)
      : envelope.is_transient === true
        ? 'transient'
        : kindOf(code, subcode, platformMessage, response.status);
  const retryAfter =
    kind === 'rate_limited'
      ? (retryAfterSeconds(response, now) ??
        usageHeaderWait(response) ??
        (subcode === DAILY_PUBLISH_CAP_SUBCODE ? 3600 : DEFAULT_RATE_LIMIT_WAIT_SECONDS))
      : undefined;
  return new PlatformError(kind, `${platform}: ${platformMessage}`, {
    platform,
    status: response.status,
    ...(code !== null ? { code } : {}),
    ...(subcode !== null ? { subcode } : {}),
    platformMessage,
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  });
}

/**
 * `candidate` when it is on the origin of `base` and under its path, compared as parsed
 * URLs: a text prefix lets `https://graph.instagram.com.evil.test/` or
 * `https://graph.instagram.com@evil.test/` through. Null otherwise.
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

/** Graph calls for one platform host and API version. */
export class GraphClient {
  constructor(
    readonly platform: Platform,
    private readonly baseUrl: string,
    private readonly version: string,
    private readonly options: AdapterOptions,
    private readonly now: () => Date,
  ) {}

  /** A versioned API path (`/v25.0/me`); `unversioned` for the OAuth token endpoints. */
  url(path: string, unversioned = false): string {
    return `${this.baseUrl}${unversioned ? '' : `/${this.version}`}${path}`;
  }

  async call(request: PlatformRequest): Promise<Record<string, unknown>> {
    const response = await callPlatform(this.platform, request, this.options);
    const body = record(response.body);
    if (response.status >= 400 || body.error !== undefined || body.error_type !== undefined) {
      throw graphError(this.platform, response, this.now());
    }
    return expectObject(this.platform, response);
  }

  get(path: string, token: string, query: PlatformRequest['query'] = {}): Promise<Record<string, unknown>> {
    return this.call({ method: 'GET', url: this.url(path), query: { ...query, access_token: token } });
  }

  post(path: string, token: string, form: Record<string, string | undefined> = {}): Promise<Record<string, unknown>> {
    return this.call({ method: 'POST', url: this.url(path), form: { ...form, access_token: token } });
  }

  /** Every item of a paged list, following `paging.next` up to `max` items. */
  async getAll(path: string, token: string, query: PlatformRequest['query'], max: number): Promise<unknown[]> {
    const items: unknown[] = [];
    let page = await this.get(path, token, query);
    for (;;) {
      items.push(...list(page.data));
      const next = str(record(page.paging).next);
      if (items.length >= max || next === null) break;
      // `next` is a full URL with the token in it: only our own host (and, in sandbox mode,
      // the base path) may receive it. Anything else ends the list here.
      const nextUrl = underBase(this.baseUrl, next);
      if (nextUrl === null) break;
      page = await this.call({ method: 'GET', url: nextUrl });
    }
    return items.slice(0, max);
  }
}

/** The `id` of a `{"id": ...}` answer (publishing, replies), or a transient error when it is missing. */
export function idOf(platform: Platform, body: Record<string, unknown>): string {
  return requiredText(platform, body.id, 'an id');
}
