import type { paths } from './openapi-types.ts';

/**
 * The body of every error answer (docs/api-conventions.md, "Errors"): `code` is stable and meant
 * for programs, `message` is for people, `request_id` is also the `Request-Id` header, and
 * `details` appears only where a code says so (`validation_failed`: a list of `{field, message}`).
 */
export type ErrorBody = paths['/v1/profiles/{id}']['get']['responses'][404]['content']['application/json'];

/**
 * An error answer as an exception: what the pagination helper throws when a page fails. It
 * carries the API's `code` and `message`; an answer that is not in the API's error shape (a
 * proxy's page, say) has the code `unexpected_response`.
 */
export class SwitchboardError extends Error {
  override name = 'SwitchboardError';
  /** The HTTP status. */
  readonly status: number;
  /** The API's error code (`profile_not_found`, `rate_limited`, ...), or `unexpected_response`. */
  readonly code: string;
  /** The `request_id` to quote when reporting a problem, when the answer had one. */
  readonly requestId: string | undefined;
  /** The error's `details`, when its code has them. */
  readonly details: unknown;
  /** The error body as the API sent it, when it was in the API's error shape. */
  readonly body: ErrorBody | undefined;

  constructor(status: number, body: ErrorBody | undefined, fallbackMessage?: string) {
    super(body?.error.message ?? fallbackMessage ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error.code ?? 'unexpected_response';
    this.requestId = body?.error.request_id;
    this.details = body?.error.details;
    this.body = body;
  }
}

/** The error for a failed answer, from what openapi-fetch parsed of its body (JSON, else text). */
export function errorFromAnswer(response: Response, parsed: unknown): SwitchboardError {
  if (isErrorBody(parsed)) return new SwitchboardError(response.status, parsed);
  const text = typeof parsed === 'string' ? parsed.slice(0, 200) : '';
  return new SwitchboardError(
    response.status,
    undefined,
    `HTTP ${response.status} without an error body${text === '' ? '' : `: ${text}`}`,
  );
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const { error } = value;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}
