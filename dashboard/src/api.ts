/**
 * Every request the dashboard makes goes to the public /v1 API of the service that serves
 * it, with the session cookie the browser keeps (never a key) and, on a change, the
 * session's CSRF token.
 */

/** One problem of a `validation_failed` (or a platform's) error: where it is and what is wrong. */
export interface ErrorDetail {
  field?: string;
  message?: string;
  [key: string]: unknown;
}

/** An answer of the API that was not a success, in the API's error shape. */
export class ApiFailure extends Error {
  override name = 'ApiFailure';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details: unknown,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }

  /** The problems listed in `details`, when it is a list of them. */
  get problems(): ErrorDetail[] {
    return Array.isArray(this.details)
      ? this.details.filter((d): d is ErrorDetail => typeof d === 'object' && d !== null)
      : [];
  }

  /** The message of the problem at `field` (e.g. `body.name`), if the API named one. */
  problemAt(field: string): string | undefined {
    return this.problems.find((p) => p.field === field)?.message;
  }
}

let csrfToken: string | null = null;
let onSessionEnded: () => void = () => {};

/** The CSRF token of the session this page is signed in with; null when signed out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** What to do when the API says the session is over (401): show the sign-in page. */
export function whenSessionEnds(handler: () => void): void {
  onSessionEnded = handler;
}

export interface RequestOptions {
  body?: unknown;
  /** A body sent as it is (an upload), with its own content type. */
  form?: FormData;
  /** The Service-Profile header: limits an owner session's request to one profile. */
  profile?: string;
  /** Extra headers, e.g. an Authorization header for the sign-in itself. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const SAFE = new Set(['GET', 'HEAD']);

async function failureOf(response: Response): Promise<ApiFailure> {
  const requestId = response.headers.get('request-id');
  const retryAfter = Number(response.headers.get('retry-after'));
  const retry = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's page): described by its status below.
  }
  const error =
    typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error
      ? (body.error as { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown })
      : null;
  return new ApiFailure(
    response.status,
    typeof error?.code === 'string' ? error.code : `http_${response.status}`,
    typeof error?.message === 'string'
      ? error.message
      : `The service answered ${response.status} ${response.statusText}.`,
    typeof error?.request_id === 'string' ? error.request_id : requestId,
    error?.details ?? null,
    retry,
  );
}

/** Calls the API; answers the parsed body (null for 204), or throws an ApiFailure. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (!SAFE.has(method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (options.profile !== undefined) headers['service-profile'] = options.profile;
  let body: BodyInit | undefined;
  if (options.form !== undefined) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body ?? null,
      credentials: 'same-origin',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiFailure(
      0,
      'network_error',
      'The service could not be reached. Check the connection and try again.',
      null,
      null,
      null,
    );
  }
  if (!response.ok) {
    const failure = await failureOf(response);
    if (failure.status === 401 && options.headers?.authorization === undefined) onSessionEnded();
    throw failure;
  }
  if (response.status === 204) return null as T;
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, ...(body !== undefined ? { body } : {}) }),
  patch: <T>(path: string, body: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T = null>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** A query string from the set values of `params`. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** A path segment, encoded. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** Every item of a list, page by page (for short lists: profiles, keys, endpoints). */
export async function all<T>(path: string, options?: RequestOptions): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: Page<T> = await api.get<Page<T>>(
      `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      options,
    );
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return items;
}
