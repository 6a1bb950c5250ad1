/** Meta's Graph API errors, as Instagram, Threads and Facebook answer them: one envelope, one dialect each. */
import { type ErrorDialect, SandboxAnswer, traceId, waitOf } from '../answers.ts';

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

/** What every Graph host answers alike. */
export const graph = {
  invalidToken: (message: string) => graphAnswer(400, 190, message),
  /** A missing or malformed parameter. */
  badParameter: (message: string) => graphAnswer(400, 100, `(#100) ${message}`),
  /** An object that does not exist or that this token may not see. */
  notFound: (id: string) =>
    graphAnswer(
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33, type: 'GraphMethodException' },
    ),
  unknownPath: (path: string) => graphAnswer(400, 100, `Unknown path components: ${path}`, { subcode: 2500 }),
} satisfies Omit<ErrorDialect, 'preset'>;

/**
 * A Meta platform's dialect: Graph's answers, the fault presets told with its name (a rate
 * limit's Business Use Case header is typed by it) and, for a revoked token, its subcode
 * (458, "app removed"; Threads documents none).
 */
export function graphErrors(platform: string, options: { revokedSubcode: number | null }): ErrorDialect {
  return {
    ...graph,
    preset(preset, waitSeconds) {
      switch (preset) {
        case 'token_expired':
          return graphAnswer(400, 190, `Error validating access token: Session has expired.`, { subcode: 463 });
        case 'access_revoked':
          return graphAnswer(400, 190, 'Error validating access token: The user has not authorized application.', {
            ...(options.revokedSubcode === null ? {} : { subcode: options.revokedSubcode }),
          });
        case 'permission_missing':
          return graphAnswer(403, 10, '(#10) Application does not have permission for this action');
        case 'rate_limited':
          // Graph tells the wait in the Business Use Case header, in minutes.
          return graphAnswer(400, 4, '(#4) Application request limit reached', {
            headers: {
              'x-business-use-case-usage': JSON.stringify({
                sandbox: [
                  {
                    type: platform,
                    call_count: 100,
                    total_cputime: 100,
                    total_time: 100,
                    estimated_time_to_regain_access: Math.ceil(waitOf(waitSeconds) / 60),
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
    },
  };
}
