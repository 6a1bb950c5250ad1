/**
 * LinkedIn's answers: its REST API's errors `{"status", "serviceErrorCode", "code", "message"}`
 * and its OAuth endpoints' `{"error", "error_description"}`.
 */
import { type ErrorDialect, SandboxAnswer } from '../answers.ts';

/** A REST API error, in LinkedIn's shape. */
export function linkedinAnswer(status: number, code: string | null, message: string, serviceErrorCode?: number) {
  return new SandboxAnswer(status, {
    status,
    ...(serviceErrorCode === undefined ? {} : { serviceErrorCode }),
    ...(code === null ? {} : { code }),
    message,
  });
}

/** An OAuth error (`{error, error_description}`). */
export function linkedinOAuthAnswer(status: number, error: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { error, error_description: description });
}

const invalidToken = () => linkedinAnswer(401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);

/** How LinkedIn's REST API words what the shared parts refuse. */
export const linkedin: ErrorDialect = {
  invalidToken,
  preset(preset) {
    switch (preset) {
      case 'token_expired':
        return linkedinAnswer(401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65602);
      case 'access_revoked':
        return linkedinAnswer(
          401,
          'REVOKED_ACCESS_TOKEN',
          'The token used in the request has been revoked by the user',
          65601,
        );
      case 'permission_missing':
        return linkedinAnswer(403, 'ACCESS_DENIED', 'Not enough permissions to access this resource', 100);
      case 'rate_limited':
        // LinkedIn's daily limits reset at midnight UTC; its 429 carries no Retry-After.
        return linkedinAnswer(
          429,
          'TOO_MANY_REQUESTS',
          'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
        );
      case 'transient':
        return linkedinAnswer(500, null, 'Internal Server Error');
      case 'invalid_request':
        return linkedinAnswer(400, 'ILLEGAL_ARGUMENT', 'The request is invalid');
    }
  },
  badParameter: (message) => linkedinAnswer(400, 'ILLEGAL_ARGUMENT', message),
  notFound: (id) => linkedinAnswer(404, 'NOT_FOUND', `Not Found: ${id}`),
  unknownPath: (path) => linkedinAnswer(404, 'NOT_FOUND', `Resource ${path} does not exist`),
};
