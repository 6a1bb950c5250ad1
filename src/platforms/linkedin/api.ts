/**
 * Calls to LinkedIn: the versioned REST API (api.linkedin.com/rest, every call with
 * `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`) and the OAuth endpoints
 * (www.linkedin.com/oauth/v2), their failures classified.
 */
import {
  type AdapterContext,
  callPlatform,
  expectObject,
  type PlatformRequest,
  type PlatformResponse,
} from '../http.ts';
import { linkedinError } from './errors.ts';

const platform = 'linkedin';
/** The API version every call names (YYYYMM); LinkedIn keeps a version for at least a year. */
export const LINKEDIN_VERSION = '202605';

export interface LinkedInApi {
  /** The URL of a path on www.linkedin.com (real or the sandbox's). */
  wwwUrl(path: string): string;
  /** A call to the OAuth endpoints: its answer, a JSON object. */
  oauth(path: string, form: Record<string, string>): Promise<Record<string, unknown>>;
  /** A REST call with the member's token: the whole answer (its headers name a created post). */
  rest(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json'>,
  ): Promise<PlatformResponse>;
  /** A REST call whose answer must be a JSON object. */
  restObject(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    extra?: Pick<PlatformRequest, 'query' | 'json'>,
  ): Promise<Record<string, unknown>>;
}

export interface LinkedInContext extends AdapterContext {
  readonly api: LinkedInApi;
}

export function linkedinContext(context: AdapterContext): LinkedInContext {
  const { options, now } = context;
  async function answer(call: PlatformRequest): Promise<PlatformResponse> {
    const response = await callPlatform(platform, call, options);
    if (response.status >= 400) throw linkedinError(response, now());
    return response;
  }
  const rest: LinkedInApi['rest'] = (method, path, token, extra = {}) =>
    answer({
      method,
      url: `${options.hostUrl('api.linkedin.com')}/rest${path}`,
      bearer: token,
      headers: { 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' },
      ...extra,
    });
  return {
    ...context,
    api: {
      wwwUrl: (path) => `${options.hostUrl('www.linkedin.com')}${path}`,
      async oauth(path, form) {
        const url = `${options.hostUrl('www.linkedin.com')}${path}`;
        return expectObject(platform, await answer({ method: 'POST', url, form }));
      },
      rest,
      async restObject(method, path, token, extra) {
        return expectObject(platform, await rest(method, path, token, extra));
      },
    },
  };
}
