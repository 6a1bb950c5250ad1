/**
 * Calls to Pinterest: the API v5 (api.pinterest.com/v5, the user's token as a Bearer), its token
 * endpoint (api.pinterest.com/v5/oauth/token, the app's id and secret as Basic authentication),
 * and the authorization page (www.pinterest.com/oauth/).
 */
import {
  type AdapterContext,
  callPlatform,
  expectObject,
  type PlatformRequest,
  type PlatformResponse,
} from '../http.ts';
import { pinterestError } from './errors.ts';

const platform = 'pinterest';

export interface PinterestApi {
  /** The URL of a path on www.pinterest.com (real or the sandbox's). */
  webUrl(path: string): string;
  /** A call to the token endpoint with the app's Basic authentication. */
  oauth(form: Record<string, string>): Promise<Record<string, unknown>>;
  /** A call to the API v5 with the user's token; its answer a JSON object. */
  call(
    method: PlatformRequest['method'],
    path: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json'>,
  ): Promise<Record<string, unknown>>;
}

export interface PinterestContext extends AdapterContext {
  readonly api: PinterestApi;
}

export function pinterestContext(context: AdapterContext): PinterestContext {
  const { options, now } = context;
  async function answer(call: PlatformRequest, tokenEndpoint = false): Promise<PlatformResponse> {
    const response = await callPlatform(platform, call, options);
    if (response.status >= 400) throw pinterestError(response, now(), tokenEndpoint);
    return response;
  }
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
  const v5 = (path: string) => `${options.hostUrl('api.pinterest.com')}/v5${path}`;
  return {
    ...context,
    api: {
      webUrl: (path) => `${options.hostUrl('www.pinterest.com')}${path}`,
      async oauth(form) {
        return expectObject(
          platform,
          await answer(
            { method: 'POST', url: v5('/oauth/token'), form, headers: { authorization: `Basic ${basic}` } },
            true,
          ),
        );
      },
      async call(method, path, token, extra = {}) {
        return expectObject(platform, await answer({ method, url: v5(path), bearer: token, ...extra }));
      },
    },
  };
}
