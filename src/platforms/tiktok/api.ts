/** Calls to TikTok's API and OAuth endpoints (open.tiktokapis.com), their failures classified. */
import {
  type AdapterContext,
  callPlatform,
  expectObject,
  type PlatformRequest,
  type PlatformResponse,
  record,
} from '../http.ts';
import { apiFailed, tiktokError } from './errors.ts';

const platform = 'tiktok';

export interface TikTokApi {
  /** The URL of a path on TikTok's API host (real or the sandbox's). */
  url(path: string): string;
  /** A call whose failure is thrown, classified; the answer as TikTok gave it. */
  answer(call: PlatformRequest): Promise<PlatformResponse>;
  /** A call whose answer must be a JSON object. */
  send(call: PlatformRequest): Promise<Record<string, unknown>>;
  /** An API call with the user's token: its `data`. */
  data(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json' | 'jsonWithoutBody'>,
  ): Promise<Record<string, unknown>>;
}

/** What the parts of the TikTok adapter share: the app's options, the clock and the API. */
export interface TikTokContext extends AdapterContext {
  readonly api: TikTokApi;
}

export function tiktokContext(context: AdapterContext): TikTokContext {
  const { options, now } = context;
  const url = (path: string) => `${options.hostUrl('open.tiktokapis.com')}${path}`;
  async function answer(call: PlatformRequest): Promise<PlatformResponse> {
    const response = await callPlatform(platform, call, options);
    if (apiFailed(response)) throw tiktokError(response, now());
    return response;
  }
  async function send(call: PlatformRequest): Promise<Record<string, unknown>> {
    return expectObject(platform, await answer(call));
  }
  return {
    ...context,
    api: {
      url,
      answer,
      send,
      async data(method, path, token, extra = {}) {
        return record((await send({ method, url: url(path), bearer: token, ...extra })).data);
      },
    },
  };
}
