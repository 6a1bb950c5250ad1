/**
 * X's answers: the API v2's problems (`{"title", "type", "detail", "status"}`, RFC 7807, typed
 * under https://api.twitter.com/2/problems/), 429s with `x-rate-limit-*` headers, and its OAuth
 * endpoints' `{"error", "error_description"}`.
 */
import { type ErrorDialect, SandboxAnswer, waitOf } from '../answers.ts';

export const PROBLEMS = 'https://api.twitter.com/2/problems/';

/** A problem in X's shape (`type` about:blank for plain HTTP refusals). */
export function xProblem(
  status: number,
  title: string,
  detail: string,
  type = 'about:blank',
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): SandboxAnswer {
  return new SandboxAnswer(status, { title, type, status, detail, ...extra }, headers);
}

/** An OAuth error (`{error, error_description}`). */
export function xOAuthAnswer(status: number, error: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { error, error_description: description });
}

/** A parameter X refuses: 400 invalid-request, the message in `errors`. */
export function invalidRequest(message: string): SandboxAnswer {
  return xProblem(
    400,
    'Invalid Request',
    'One or more parameters to your request was invalid.',
    `${PROBLEMS}invalid-request`,
    {
      errors: [{ parameters: {}, message }],
    },
  );
}

/** A 429 with X's headers: the window's limit, none left, and its reset in epoch seconds. */
export function rateLimited(now: Date, waitSeconds: number, limit = 100): SandboxAnswer {
  const reset = Math.ceil(now.getTime() / 1000 + waitSeconds);
  return xProblem(
    429,
    'Too Many Requests',
    'Too Many Requests',
    'about:blank',
    {},
    {
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': '0',
      'x-rate-limit-reset': String(reset),
    },
  );
}

const unauthorized = () => xProblem(401, 'Unauthorized', 'Unauthorized');

/** How X's API v2 words what the shared parts refuse. */
export function xDialect(now: () => Date): ErrorDialect {
  return {
    invalidToken: unauthorized,
    preset(preset, waitSeconds) {
      switch (preset) {
        case 'token_expired':
        case 'access_revoked':
          // X answers an expired and a revoked token alike.
          return unauthorized();
        case 'permission_missing':
          return xProblem(
            403,
            'Forbidden',
            'You are not permitted to perform this action.',
            `${PROBLEMS}not-authorized-for-resource`,
          );
        case 'rate_limited':
          return rateLimited(now(), waitOf(waitSeconds));
        case 'transient':
          return xProblem(503, 'Service Unavailable', 'Service Unavailable');
        case 'invalid_request':
          return invalidRequest('The request is invalid');
      }
    },
    badParameter: invalidRequest,
    notFound: (id) =>
      xProblem(404, 'Not Found Error', `Could not find tweet with id: [${id}].`, `${PROBLEMS}resource-not-found`),
    unknownPath: () => xProblem(404, 'Not Found', 'Sorry, that page does not exist'),
  };
}
