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

/** Google's error envelope: the HTTP status, its canonical name, the message, and what the API adds. */
function envelope(
  status: number,
  message: string,
  extra: Record<string, unknown>,
  headers: Record<string, string>,
): SandboxAnswer {
  return new SandboxAnswer(
    status,
    { error: { code: status, message, ...extra, status: STATUS[status] ?? 'UNKNOWN' } },
    headers,
  );
}

/** A JSON API error, in Google's shape. */
export function googleAnswer(
  status: number,
  reason: string,
  message: string,
  domain = 'global',
  headers: Record<string, string> = {},
): SandboxAnswer {
  return envelope(status, message, { errors: [{ message, domain, reason }] }, headers);
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

/**
 * An error of Google's newer APIs (the Business Profile APIs among them, on their own hosts):
 * `{"error": {"code", "message", "status", "details": [{"@type": "...google.rpc.ErrorInfo",
 * "reason", "domain"}]}}`, without the older `errors[]`.
 */
export function googleRpcAnswer(
  status: number,
  reason: string | null,
  message: string,
  headers: Record<string, string> = {},
): SandboxAnswer {
  const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' };
  return envelope(status, message, reason === null ? {} : { details: [info] }, headers);
}

/** How Google's newer JSON APIs word what the shared parts refuse. */
export const googleRpc: ErrorDialect = {
  invalidToken: () =>
    googleRpcAnswer(
      401,
      'ACCESS_TOKEN_TYPE_UNSUPPORTED',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    ),
  preset(preset, waitSeconds) {
    switch (preset) {
      case 'token_expired':
      case 'access_revoked':
        return googleRpcAnswer(
          401,
          'ACCESS_TOKEN_EXPIRED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        );
      case 'permission_missing':
        return googleRpcAnswer(
          403,
          'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
          'Request had insufficient authentication scopes.',
        );
      case 'rate_limited':
        return googleRpcAnswer(429, 'RATE_LIMIT_EXCEEDED', "Quota exceeded for quota metric 'Requests'.", {
          'retry-after': String(waitOf(waitSeconds)),
        });
      case 'transient':
        return googleRpcAnswer(503, null, 'The service is currently unavailable.');
      case 'invalid_request':
        return googleRpcAnswer(400, null, 'Request contains an invalid argument.');
    }
  },
  badParameter: (message) => googleRpcAnswer(400, null, message),
  notFound: (id) => googleRpcAnswer(404, null, `Requested entity was not found: ${id}.`),
  unknownPath: (path) => googleRpcAnswer(404, null, `The requested URL ${path} was not found on this server.`),
};
