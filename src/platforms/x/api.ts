/**
 * Calls to X: the API v2 (api.x.com/2, the user's token as a Bearer), its OAuth 2.0 token
 * endpoints (api.x.com/2/oauth2, the app's id and secret as Basic authentication: a
 * confidential client), and the authorization page (x.com/i/oauth2/authorize).
 */
import {
  type AdapterContext,
  callPlatform,
  expectObject,
  type PlatformRequest,
  type PlatformResponse,
} from '../http.ts';
import { xError } from './errors.ts';

const platform = 'x';

export interface XApi {
  /** The URL of a path on x.com (real or the sandbox's). */
  webUrl(path: string): string;
  /** A call to the OAuth endpoints (`/2/oauth2/token`, `/2/oauth2/revoke`) with the app's Basic authentication. */
  oauth(path: string, form: Record<string, string>): Promise<Record<string, unknown>>;
  /** A call to the API v2 with the user's token; its answer a JSON object. */
  call(
    method: PlatformRequest['method'],
    path: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json'>,
  ): Promise<Record<string, unknown>>;
}

export interface XContext extends AdapterContext {
  readonly api: XApi;
}

export function xContext(context: AdapterContext): XContext {
  const { options, now } = context;
  async function answer(call: PlatformRequest): Promise<PlatformResponse> {
    const response = await callPlatform(platform, call, options);
    if (response.status >= 400) throw xError(response, now());
    return response;
  }
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  return {
    ...context,
    api: {
      webUrl: (path) => `${options.hostUrl('x.com')}${path}`,
      async oauth(path, form) {
        const url = `${options.hostUrl('api.x.com')}${path}`;
        return expectObject(
          platform,
          await answer({ method: 'POST', url, form, headers: { authorization: `Basic ${basic}` } }),
        );
      },
      async call(method, path, token, extra = {}) {
        const url = `${options.hostUrl('api.x.com')}/2${path}`;
        return expectObject(platform, await answer({ method, url, bearer: token, ...extra }));
      },
    },
  };
}
