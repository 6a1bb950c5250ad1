/**
 * Calls to Meta's Graph platforms (Instagram, Threads, Facebook): versioned paths, the
 * `access_token` parameter, `{"error":{...}}` envelopes, `paging.next`, usage headers.
 */
import {
  type AdapterContext,
  type AdapterOptions,
  callPlatform,
  expectObject,
  list,
  type PlatformRequest,
  type PlatformResponse,
  record,
  str,
  underBase,
} from '../http.ts';
import type { Platform } from '../types.ts';
import { graphError } from './graph-errors.ts';
import { usagePercentOf } from './usage-headers.ts';

/** The highest usage seen over a sequence of calls (one recentComments), null until a call reports one. */
export class UsageMeter {
  highest: number | null = null;

  record(response: PlatformResponse): void {
    const percent = usagePercentOf(response);
    if (percent !== null) this.highest = Math.max(this.highest ?? 0, percent);
  }
}

/** Graph calls for one platform host and API version. */
export class GraphClient {
  constructor(
    readonly platform: Platform,
    private readonly baseUrl: string,
    /** The API version its versioned paths name (`v27.0`). */
    readonly version: string,
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

  /** A versioned API path (`/v27.0/me`); `unversioned` for the OAuth token endpoints. */
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

/** What the parts of a Meta adapter share: the app's options, the clock and the platform's Graph client. */
export interface GraphContext extends AdapterContext {
  readonly graph: GraphClient;
}

/** A Meta adapter's context: its Graph client on `host` (real or the sandbox's) at API `version`, the options, the clock. */
export function graphContext(
  platform: Platform,
  host: string,
  version: string,
  options: AdapterOptions,
  now: () => Date,
): GraphContext {
  return { graph: new GraphClient(platform, options.hostUrl(host), version, options, now), options, now };
}
