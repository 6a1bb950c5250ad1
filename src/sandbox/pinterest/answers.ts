/**
 * Pinterest's answers: the API v5's errors, `{"code", "message"}` under the HTTP status that
 * tells what went wrong (the OpenAPI description's `Error`; its examples give the status as the
 * code: `{"code": 403, "message": "Not authorized to access the user account."}`).
 */
import { type ErrorDialect, SandboxAnswer, waitOf } from '../answers.ts';

export function pinterestAnswer(status: number, message: string, headers: Record<string, string> = {}): SandboxAnswer {
  return new SandboxAnswer(status, { code: status, message }, headers);
}

/** How Pinterest's API v5 words what the shared parts refuse. */
export const pinterest: ErrorDialect = {
  invalidToken: () => pinterestAnswer(401, 'Authentication failed.'),
  preset(preset, waitSeconds) {
    switch (preset) {
      case 'token_expired':
      case 'access_revoked':
        // Pinterest answers an expired and a revoked token alike.
        return pinterestAnswer(401, 'Authentication failed.');
      case 'permission_missing':
        return pinterestAnswer(403, 'Not authorized to access this resource.');
      case 'rate_limited':
        return pinterestAnswer(429, 'You have exceeded your rate limit. Try again later.', {
          'retry-after': String(waitOf(waitSeconds)),
        });
      case 'transient':
        return pinterestAnswer(503, 'Service unavailable.');
      case 'invalid_request':
        return pinterestAnswer(400, 'Invalid request.');
    }
  },
  badParameter: (message) => pinterestAnswer(400, message),
  notFound: (id) => pinterestAnswer(404, `Not found: ${id}`),
  unknownPath: (path) => pinterestAnswer(404, `Not found: ${path}`),
};
