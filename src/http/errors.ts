/**
 * The one error type services throw. The error handler renders it as
 * `{"error":{"code","message","request_id","details"?}}` with `status`.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Sent with the error, e.g. `Retry-After` on a 429. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

export const errors = {
  unauthorized: () => new ApiError(401, 'unauthorized', 'Send a valid API key as "Authorization: Bearer <key>".'),
  sessionEnded: () =>
    new ApiError(
      401,
      'session_ended',
      'The dashboard session has ended (signed out, idle or past its limit, or its key or member was deleted); sign in again.',
    ),
  csrfTokenInvalid: () =>
    new ApiError(
      403,
      'csrf_token_invalid',
      "A change made with a session cookie needs the session's CSRF token in the X-CSRF-Token header.",
    ),
  ownerKeyRequired: () =>
    new ApiError(403, 'owner_key_required', 'This endpoint needs an owner API key; a profile key cannot use it.'),
  ownerLevelScoped: () =>
    new ApiError(
      403,
      'owner_key_required',
      "This endpoint is the owner's own settings, which belong to no profile: call it with an owner key (or as a member with a role for the whole owner) and no Service-Profile header.",
    ),
  roleRequired: (role: string, where: string) =>
    new ApiError(403, 'role_required', `This needs the ${role} role for ${where}; your role does not reach it.`),
  profileRequired: () =>
    new ApiError(
      400,
      'profile_required',
      'You are a member with roles on several profiles: name the profile this request is about in the Service-Profile header.',
    ),
  profileMismatch: () =>
    new ApiError(
      403,
      'profile_mismatch',
      'This profile key belongs to another profile than the Service-Profile header names.',
    ),
  profileNotFound: (ref: string) =>
    new ApiError(404, 'profile_not_found', `No profile with id or external_id ${JSON.stringify(ref)}.`),
  notFound: (what: string) => new ApiError(404, 'not_found', what),
  validation: (details: ValidationDetail[]) =>
    new ApiError(400, 'validation_failed', 'The request does not match the schema; see details.', details),
};

export interface ValidationDetail {
  /** Where the problem is: `body.name`, `query.limit`, `header.service-profile`. */
  field: string;
  message: string;
}

/** What the service depends on and may find unreachable for a while. */
export type Dependency = 'database' | 'storage';

/**
 * A dependency that does not answer (down, restarting, timing out): the request may succeed if
 * retried later. The error handler renders it as `503 <dependency>_unavailable`; the database's
 * own driver errors are recognised there too (db/unavailable.ts).
 */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
  constructor(
    readonly dependency: Dependency,
    options?: ErrorOptions,
  ) {
    super(`the ${dependency === 'storage' ? 'media store' : dependency} is unavailable`, options);
  }
}
