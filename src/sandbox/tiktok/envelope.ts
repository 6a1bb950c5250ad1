/**
 * TikTok's answers: its API's envelope (`{"data":{...},"error":{"code":"ok",...}}`, an error's
 * `{"data":{},"error":{code,message,log_id}}`) and its OAuth endpoints' flat errors.
 */
import { randomBytes } from 'node:crypto';
import { type ErrorDialect, SandboxAnswer, traceId, waitOf } from '../answers.ts';
import type { Store } from '../platform.ts';

/** TikTok's log ids: a timestamp and hex (`202210112248442CB9319E1FB30C1073F3`). */
function logId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(10).toString('hex').toUpperCase()}`;
}

/** A successful API answer in TikTok's envelope. */
export function ok(store: Store, data: Record<string, unknown>) {
  return { data, error: { code: 'ok', message: '', log_id: logId(store.now()) } };
}

/** A TikTok API error envelope. */
export function tiktokAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return new SandboxAnswer(status, { data: {}, error: { code, message, log_id: traceId() } }, headers);
}

/** A TikTok OAuth error (`{error, error_description, log_id}`). */
export function tiktokOAuthAnswer(status: number, error: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { error, error_description: description, log_id: traceId() });
}

const invalidToken = () =>
  tiktokAnswer(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');

/** How TikTok's API words what the shared parts refuse. */
export const tiktok: ErrorDialect = {
  // TikTok says the same of every token it does not take.
  invalidToken,
  preset(preset, waitSeconds) {
    switch (preset) {
      case 'token_expired':
      case 'access_revoked':
        return invalidToken();
      case 'permission_missing':
        return tiktokAnswer(401, 'scope_not_authorized', 'The user did not authorize the scope required for this API.');
      case 'rate_limited':
        return tiktokAnswer(429, 'rate_limit_exceeded', 'The API rate limit was exceeded.', {
          'retry-after': String(waitOf(waitSeconds)),
        });
      case 'transient':
        return tiktokAnswer(500, 'internal_error', 'Something went wrong. Please try again later.');
      case 'invalid_request':
        return tiktokAnswer(400, 'invalid_params', 'The request parameters are invalid.');
    }
  },
  badParameter: (message) => tiktokAnswer(400, 'invalid_params', message),
  notFound: (id) => tiktokAnswer(404, 'invalid_params', `Object ${id} does not exist.`),
  unknownPath: (path) => tiktokAnswer(404, 'invalid_params', `Unknown path ${path}`),
};
