/**
 * The sandbox's error answers, in each platform family's own envelope: Meta's Graph API
 * (Instagram, Threads, Facebook) and TikTok's. A handler throws a SandboxAnswer; the
 * host's error handler sends it as it is.
 */
import { randomBytes } from 'node:crypto';

export type Family = 'graph' | 'tiktok';

/** The errors the control API can make the next call (or publish) answer with. */
export const FAULT_PRESETS = [
  'token_expired',
  'access_revoked',
  'permission_missing',
  'rate_limited',
  'transient',
  'invalid_request',
] as const;
export type FaultPreset = (typeof FAULT_PRESETS)[number];

export class SandboxAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`sandbox answer ${status}`);
  }
}

const traceId = () => randomBytes(12).toString('base64url');

/** A Graph API error envelope. */
export function graphAnswer(
  status: number,
  code: number,
  message: string,
  extra: { subcode?: number; type?: string; headers?: Record<string, string>; isTransient?: boolean } = {},
): SandboxAnswer {
  return new SandboxAnswer(
    status,
    {
      error: {
        message,
        type: extra.type ?? 'OAuthException',
        code,
        ...(extra.subcode !== undefined ? { error_subcode: extra.subcode } : {}),
        ...(extra.isTransient !== undefined ? { is_transient: extra.isTransient } : {}),
        fbtrace_id: traceId(),
      },
    },
    extra.headers,
  );
}

/** A TikTok API error envelope (`{"data":{},"error":{code,message,log_id}}`). */
export function tiktokAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return new SandboxAnswer(status, { data: {}, error: { code, message, log_id: traceId() } }, headers);
}

/** A TikTok OAuth error (`{error, error_description, log_id}`). */
export function tiktokOAuthAnswer(status: number, error: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { error, error_description: description, log_id: traceId() });
}

/**
 * The answer a preset gives on a platform. `waitSeconds` is the rate-limit wait, told the
 * platform's way: Graph's Business Use Case header (in minutes), TikTok's `Retry-After`.
 */
export function presetAnswer(
  family: Family,
  preset: FaultPreset,
  options: { platform: string; waitSeconds?: number },
): SandboxAnswer {
  const wait = Math.max(1, Math.ceil(options.waitSeconds ?? 60));
  if (family === 'tiktok') {
    switch (preset) {
      case 'token_expired':
      case 'access_revoked':
        return tiktokAnswer(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
      case 'permission_missing':
        return tiktokAnswer(401, 'scope_not_authorized', 'The user did not authorize the scope required for this API.');
      case 'rate_limited':
        return tiktokAnswer(429, 'rate_limit_exceeded', 'The API rate limit was exceeded.', {
          'retry-after': String(wait),
        });
      case 'transient':
        return tiktokAnswer(500, 'internal_error', 'Something went wrong. Please try again later.');
      case 'invalid_request':
        return tiktokAnswer(400, 'invalid_params', 'The request parameters are invalid.');
    }
  }
  switch (preset) {
    case 'token_expired':
      return graphAnswer(400, 190, `Error validating access token: Session has expired.`, { subcode: 463 });
    case 'access_revoked':
      return options.platform === 'threads'
        ? graphAnswer(400, 190, 'Error validating access token: The user has not authorized application.')
        : graphAnswer(400, 190, 'Error validating access token: The user has not authorized application.', {
            subcode: 458,
          });
    case 'permission_missing':
      return graphAnswer(403, 10, '(#10) Application does not have permission for this action');
    case 'rate_limited':
      return graphAnswer(400, 4, '(#4) Application request limit reached', {
        headers: {
          'x-business-use-case-usage': JSON.stringify({
            sandbox: [
              {
                type: options.platform,
                call_count: 100,
                total_cputime: 100,
                total_time: 100,
                estimated_time_to_regain_access: Math.ceil(wait / 60),
              },
            ],
          }),
        },
      });
    case 'transient':
      return graphAnswer(500, 2, 'An unexpected error has occurred. Please retry your request later.', {
        isTransient: true,
      });
    case 'invalid_request':
      return graphAnswer(400, 100, '(#100) Invalid parameter');
  }
}

/** A missing or malformed parameter, the family's way. */
export function badParameter(family: Family, message: string): SandboxAnswer {
  return family === 'tiktok'
    ? tiktokAnswer(400, 'invalid_params', message)
    : graphAnswer(400, 100, `(#100) ${message}`);
}

/** An object that does not exist or that this token may not see. */
export function notFound(family: Family, id: string): SandboxAnswer {
  return family === 'tiktok'
    ? tiktokAnswer(404, 'invalid_params', `Object ${id} does not exist.`)
    : graphAnswer(
        400,
        100,
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        { subcode: 33, type: 'GraphMethodException' },
      );
}
