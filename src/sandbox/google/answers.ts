/**
 * Google's answers, shared by every Google API the sandbox imitates: its JSON APIs' errors
 * `{"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"}}` and its
 * OAuth endpoints' `{"error", "error_description"}`.
 */
import { type ErrorDialect, SandboxAnswer, waitOf } from '../answers.ts';

/** The canonical status Google names beside an HTTP status. */
const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** A JSON API error, in Google's shape. */
export function googleAnswer(
  status: number,
  reason: string,
  message: string,
  domain = 'global',
  headers: Record<string, string> = {},
): SandboxAnswer {
  return new SandboxAnswer(
    status,
    {
      error: {
        code: status,
        message,
        errors: [{ message, domain, reason }],
        status: STATUS[status] ?? 'UNKNOWN',
      },
    },
    headers,
  );
}

/** An OAuth endpoint's error (`{error, error_description}`). */
export function googleOAuthAnswer(status: number, error: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { error, error_description: description });
}

const invalidCredentials = () =>
  googleAnswer(
    401,
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  );

/** How Google's JSON APIs word what the shared parts refuse. */
export const google: ErrorDialect = {
  invalidToken: invalidCredentials,
  preset(preset, waitSeconds) {
    switch (preset) {
      // Google answers an expired or revoked access token alike: 401 authError.
      case 'token_expired':
      case 'access_revoked':
        return invalidCredentials();
      case 'permission_missing':
        return googleAnswer(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      case 'rate_limited':
        return googleAnswer(
          403,
          'rateLimitExceeded',
          'The request cannot be completed because you have exceeded your quota.',
          'usageLimits',
          {
            'retry-after': String(waitOf(waitSeconds)),
          },
        );
      case 'transient':
        return googleAnswer(503, 'backendError', 'The service is currently unavailable.');
      case 'invalid_request':
        return googleAnswer(400, 'badRequest', 'The request is invalid.');
    }
  },
  badParameter: (message) => googleAnswer(400, 'invalidParameter', message),
  notFound: (id) => googleAnswer(404, 'notFound', `The resource ${id} cannot be found.`),
  unknownPath: (path) => googleAnswer(404, 'notFound', `The requested URL ${path} was not found on this server.`),
};
