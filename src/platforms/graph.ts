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
  parseJson,
  record,
  requiredText,
  retryAfterSeconds,
  str,
} from './http.ts';
import { graphDate } from './shared.ts';
import { type Platform, PlatformError, type PlatformErrorKind } from './types.ts';

/*
 * Meta's error classes, as https://developers.facebook.com/docs/graph-api/guides/error-handling
 * lists them (and, for 32, 613 and 80000-80014, the rate-limiting guide
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting). Instagram's
 * publishing subcodes come from the Instagram Platform's error-code reference.
 */
/** API Too Many Calls (4), API User Too Many Calls (17), page-level throttling (32), "exceeded the rate limit" (613). */
const THROTTLING_CODES = new Set([4, 17, 32, 613]);
/** Application limit reached: the app-level limit counts calls over a rolling hour, so a minute's wait would only fail again. */
const APPLICATION_LIMIT_CODE = 341;
const APPLICATION_LIMIT_WAIT_SECONDS = 900;
/** Temporarily blocked for policies violations: Meta says to wait and retry; such blocks last hours, not seconds. */
const POLICY_BLOCK_CODE = 368;
const POLICY_BLOCK_WAIT_SECONDS = 3600;
/** Business Use Case rate limits (ads insights, pages, Instagram, ... catalog batch). */
const BUC_RATE_LIMIT_CODES = { first: 80_000, last: 80_014 };
/** API Method: a capability the app itself lacks, not a scope the user could grant. */
const APP_CAPABILITY_CODE = 3;
/**
 * Subcodes of 190 (and 102) that say the access was taken away, not merely that the token
 * stopped working: the user removed the app (458, "App Not Installed"), or the user behind a
 * page token lost their role on the page (492, "Invalid session"). The others (459
 * checkpointed, 460 password changed, 463 expired, 464 unconfirmed user, 467 "Access token
 * has expired, been revoked, or is otherwise invalid") say the token is gone: a new login
 * brings the account back.
 */
const REVOKED_SUBCODES = new Set([458, 492]);
/** Instagram's daily publishing cap (content_publishing_limit): an hour's wait, as it says nothing about when it lifts. */
const DAILY_PUBLISH_CAP_SUBCODE = 2207042;
const DAILY_PUBLISH_CAP_WAIT_SECONDS = 3600;
const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;

/*
 * Instagram's publishing error table (the Instagram Platform's error-code reference,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes;
 * docs/platforms.md, "Instagram errors"), by subcode, read before the code: the codes are
 * generic (-1, 1, 4, 24, 100...) and say the opposite of the subcode more than once (4 is
 * throttling, but 4/2207051 is suspected spam; 1 is a passing failure, but 1/2207057 a bad
 * thumbnail offset). What the page's "recommended solution" says decides the kind: "try again"
 * is transient; a wait for the container is transient; tomorrow is a rate limit; anything the
 * user or the content must change is a refusal.
 */
const PUBLISHING_SUBCODES: ReadonlyMap<number, PlatformErrorKind> = new Map([
  // "Instagram server error. Try again."
  [2207001, 'transient'],
  // "A timeout occured while downloading the media. Try again."
  [2207003, 'transient'],
  // "The media you are trying to access has expired... Generate a new container ID and use it to try again."
  [2207020, 'transient'],
  // "Failed to create a media container. Try again."
  [2207032, 'transient'],
  // "unknown upload error ... Generate a new container and use it to try again."
  [2207053, 'transient'],
  // "Temporary error publishing a container. Try again 1-2 times in the next 30 seconds to 2 minutes."
  [2207008, 'transient'],
  // "The media is not ready for publishing": "Check the container status and publish when its status is FINISHED."
  [2207027, 'transient'],
  // The daily publishing cap: "try again the following day".
  [2207042, 'rate_limited'],
  // Suspected spam (code 4, otherwise throttling): trying again will not help; the platform's message says why.
  [2207051, 'invalid_request'],
  // The account is restricted: its owner must act in the Instagram app.
  [2207050, 'invalid_request'],
  // "The media with {media-id} cannot be found": a missing permission or an expired token, a new container needed.
  [2207006, 'invalid_request'],
  // Thumbnail offset out of bounds (code 1, otherwise a passing failure).
  [2207057, 'invalid_request'],
  // Unknown media type, carousel of 2 to 10, product tags, more than 20 @ tags.
  [2207023, 'invalid_request'],
  [2207028, 'invalid_request'],
  [2207035, 'invalid_request'],
  [2207036, 'invalid_request'],
  [2207037, 'invalid_request'],
  [2207040, 'invalid_request'],
  // Video format, media not fetchable, image too large, image format, aspect ratio, caption too long.
  [2207026, 'invalid_request'],
  [2207052, 'invalid_request'],
  [2207004, 'invalid_request'],
  [2207005, 'invalid_request'],
  [2207009, 'invalid_request'],
  [2207010, 'invalid_request'],
]);

/**
 * "Story media metrics with values less than 5 return an error code 10 with the message (#10)
 * Not enough viewers for the media to show insights" (IG Media Insights reference): no figures
 * for that post, not a missing permission, which code 10 otherwise means.
 */
const NOT_ENOUGH_VIEWERS = /not enough viewers/i;

function notEnoughViewers(code: number | null | undefined, message: string): boolean {
  return code === 10 && NOT_ENOUGH_VIEWERS.test(message);
}

/** Instagram's answer for a story with too few viewers to show its figures (see NOT_ENOUGH_VIEWERS). */
export function isNotEnoughViewers(error: PlatformError): boolean {
  return notEnoughViewers(num(error.detail.code), error.detail.platformMessage ?? '');
}

/** The longest `estimated_time_to_regain_access` (minutes) in a Business Use Case usage header, in seconds. */
function usageHeaderWait(response: PlatformResponse): number | undefined {
  const raw = header(response, 'x-business-use-case-usage');
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = parseJson(raw);
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

/** The figures a usage header gives as percentages of a limit (Graph API rate-limiting guide). */
const USAGE_FIGURES = ['call_count', 'total_time', 'total_cputime'] as const;

function parsedHeader(response: PlatformResponse, name: string): unknown {
  const raw = header(response, name);
  if (raw === undefined) return undefined;
  try {
    return parseJson(raw);
  } catch {
    return undefined;
  }
}

function highestFigure(entry: unknown): number | null {
  const figures = USAGE_FIGURES.map((name) => num(record(entry)[name])).filter((n): n is number => n !== null);
  return figures.length === 0 ? null : Math.max(...figures);
}

/**
 * The highest share (0-100) of a rate limit an answer's usage headers report, or null when
 * it carries none. `X-App-Usage` is one object `{call_count, total_time, total_cputime}`;
 * `X-Business-Use-Case-Usage` maps each business object id to a list of such objects, one per
 * use case (https://developers.facebook.com/docs/graph-api/overview/rate-limiting). Both are
 * percentages of the limit, and the platform throttles once any reaches 100.
 */
export function usagePercentOf(response: PlatformResponse): number | null {
  const found: number[] = [];
  const app = highestFigure(parsedHeader(response, 'x-app-usage'));
  if (app !== null) found.push(app);
  for (const entries of Object.values(record(parsedHeader(response, 'x-business-use-case-usage')))) {
    for (const entry of list(entries)) {
      const figure = highestFigure(entry);
      if (figure !== null) found.push(figure);
    }
  }
  return found.length === 0 ? null : Math.min(100, Math.max(...found));
}

/** The highest usage seen over a sequence of calls (one recentComments), null until a call reports one. */
export class UsageMeter {
  highest: number | null = null;

  record(response: PlatformResponse): void {
    const percent = usagePercentOf(response);
    if (percent !== null) this.highest = Math.max(this.highest ?? 0, percent);
  }
}

function kindOf(
  code: number | null,
  subcode: number | null,
  message: string,
  status: number,
  isTransient: boolean,
): PlatformErrorKind {
  if (code === 190 || code === 102) {
    if (subcode !== null && REVOKED_SUBCODES.has(subcode)) return 'access_revoked';
    // Threads says so in words, without a subcode.
    if (/not authorized application/i.test(message)) return 'access_revoked';
    return 'token_expired';
  }
  const bySubcode = subcode === null ? undefined : PUBLISHING_SUBCODES.get(subcode);
  if (bySubcode !== undefined) return bySubcode;
  if (notEnoughViewers(code, message)) return 'invalid_request';
  if (
    code !== null &&
    (THROTTLING_CODES.has(code) ||
      code === APPLICATION_LIMIT_CODE ||
      code === POLICY_BLOCK_CODE ||
      (code >= BUC_RATE_LIMIT_CODES.first && code <= BUC_RATE_LIMIT_CODES.last))
  ) {
    return 'rate_limited';
  }
  if (isTransient) return 'transient';
  if (code === 10 || (code !== null && code >= 200 && code <= 299)) return 'permission_missing';
  if (code === APP_CAPABILITY_CODE) return 'unsupported';
  // 1 "API Unknown" and 2 "API Service" (Graph's error guide: "Wait and retry the operation");
  // -1 and -2, Instagram's server errors and timeouts (its error-code reference: "Try again").
  if (code === 1 || code === 2 || code === -1 || code === -2) return 'transient';
  if (code !== null) return status >= 500 ? 'transient' : 'invalid_request';
  if (status === 429) return 'rate_limited';
  if (status === 401) return 'token_expired';
  if (status === 403) return 'permission_missing';
  return status >= 500 ? 'transient' : 'invalid_request';
}

/** How long a rate-limited call should wait when the answer's headers do not say. */
function defaultWait(code: number | null, subcode: number | null): number {
  if (subcode === DAILY_PUBLISH_CAP_SUBCODE) return DAILY_PUBLISH_CAP_WAIT_SECONDS;
  if (code === APPLICATION_LIMIT_CODE) return APPLICATION_LIMIT_WAIT_SECONDS;
  if (code === POLICY_BLOCK_CODE) return POLICY_BLOCK_WAIT_SECONDS;
  return DEFAULT_RATE_LIMIT_WAIT_SECONDS;
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
      ? kindOf(null, null, platformMessage, code, false)
      : kindOf(code, subcode, platformMessage, response.status, envelope.is_transient === true);
  const retryAfter =
    kind === 'rate_limited'
      ? (retryAfterSeconds(response, now) ?? usageHeaderWait(response) ?? defaultWait(code, subcode))
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
    private readonly meter?: UsageMeter,
  ) {}

  /**
   * The same client, recording the usage headers of every call it makes into a meter of its
   * own: the adapter is shared by concurrent callers, so the meter cannot live on it.
   */
  metered(): { graph: GraphClient; meter: UsageMeter } {
    const meter = new UsageMeter();
    return { graph: new GraphClient(this.platform, this.baseUrl, this.version, this.options, this.now, meter), meter };
  }

  /** A versioned API path (`/v25.0/me`); `unversioned` for the OAuth token endpoints. */
  url(path: string, unversioned = false): string {
    return `${this.baseUrl}${unversioned ? '' : `/${this.version}`}${path}`;
  }

  async call(request: PlatformRequest): Promise<Record<string, unknown>> {
    const response = await callPlatform(this.platform, request, this.options);
    this.meter?.record(response);
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

/**
 * A `{"success": true}` answer. Meta's pages write it both ways (`true` in the Page Subscribed
 * Apps reference, `"true"` in its Webhooks for Pages guide), so both count; anything else
 * is a platform fault, worth another try.
 */
export function requireSuccess(platform: Platform, body: Record<string, unknown>, what: string): void {
  if (body.success === true || body.success === 'true') return;
  throw new PlatformError('transient', `${platform} did not confirm ${what}`, { platform });
}

/** The `id` of a `{"id": ...}` answer (publishing, replies), or a transient error when it is missing. */
export function idOf(platform: Platform, body: Record<string, unknown>): string {
  return requiredText(platform, body.id, 'an id');
}

/**
 * A new post's permalink, read after it was published: best effort (null when the read
 * fails), since the post exists whatever this read answers, and failing the publication
 * would make a retry publish it twice.
 */
export async function permalinkAfterPublish(
  read: () => Promise<Record<string, unknown>>,
  field: string,
): Promise<string | null> {
  try {
    const value = (await read())[field];
    return typeof value === 'string' && value !== '' ? value : null;
  } catch (error) {
    if (error instanceof PlatformError) return null;
    throw error;
  }
}

/**
 * Graph's answer for an object it does not have (or no longer has): code 100, subcode 33,
 * "Unsupported get request. Object with ID ... does not exist".
 */
export function isGone(error: unknown): boolean {
  return error instanceof PlatformError && error.detail.code === 100 && error.detail.subcode === 33;
}

/**
 * Each comment's own time, read one by one (`GET /{comment-id}?fields=<timeField>`): the one
 * read Meta documents for a comment on every host (Graph's `?ids=` batch read is documented
 * for graph.facebook.com only). A comment the platform no longer has is left out.
 */
export async function commentTimesByReading(
  graph: GraphClient,
  token: string,
  commentIds: readonly string[],
  timeField: 'timestamp' | 'created_time',
): Promise<Map<string, Date>> {
  const times = new Map<string, Date>();
  for (const id of new Set(commentIds)) {
    let body: Record<string, unknown>;
    try {
      body = await graph.get(`/${id}`, token, { fields: timeField });
    } catch (error) {
      if (isGone(error)) continue;
      throw error;
    }
    const time = graphDate(body[timeField]);
    if (time === null)
      throw new PlatformError('transient', `${graph.platform} answered a comment without its time`, {
        platform: graph.platform,
      });
    times.set(id, time);
  }
  return times;
}
