import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { takesIdempotencyKey } from './idempotency.ts';
import type { paths } from './openapi-types.ts';
import { type RetryOptions, retryingOn429 } from './retry.ts';

export interface ClientOptions {
  /**
   * Where the service answers, e.g. `http://localhost:8080`: the paths (`/v1/profiles`) are
   * appended to it, so it does not end in `/v1`.
   */
  baseUrl: string;
  /** An owner key (`sb_owner_...`) or a profile key (`sb_profile_...`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /**
   * For an owner key: a profile id or `external_id` that every request is scoped to (the
   * `Service-Profile` header). A request can name another in `params.header['service-profile']`,
   * or send none with `headers: { 'Service-Profile': null }`.
   */
  profile?: string;
  /** The fetch that sends the requests; `globalThis.fetch` by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of requests answered `429`, after their `Retry-After`. */
  retries?: RetryOptions;
}

/** The client: openapi-fetch's, typed by the API's paths (`GET`, `POST`, ... `use` for middleware). */
export type SwitchboardClient = Client<paths>;

/**
 * A typed client of the Switchboard API. Every call is typed by the OpenAPI document: the path
 * and its parameters, the body, the answer (`data`) and the error body (`error`). Beyond
 * openapi-fetch it sends the key (and profile) on every request, gives each POST that takes one
 * an `Idempotency-Key` of its own (kept across its retries), and sends a request answered `429`
 * again after its `Retry-After`.
 */
export function createClient(options: ClientOptions): SwitchboardClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: {
      Authorization: `Bearer ${options.apiKey}`,
      ...(options.profile === undefined ? {} : { 'Service-Profile': options.profile }),
    },
    fetch: retryingOn429(send, options.retries),
  });
  client.use(idempotencyKeys);
  return client;
}

/**
 * A random Idempotency-Key on a POST that takes one and has none, so a request the client sends
 * again (or the caller repeats with the same key) is done once. It is set before the request is
 * sent at all, so every retry of it carries the same key.
 */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method !== 'POST' || request.headers.has('idempotency-key')) return;
    if (takesIdempotencyKey(schemaPath)) request.headers.set('Idempotency-Key', crypto.randomUUID());
  },
};
