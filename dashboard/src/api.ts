/**
 * Every request the dashboard makes goes to the public /v1 API of the service that serves it,
 * through openapi-fetch typed by the types generated from the OpenAPI document, as the typed
 * client's (src/client) are. It sends the session cookie the browser keeps, never a key; its
 * middleware adds the session's CSRF token to every change and shows the sign-in page when the
 * API says the session is over. A failed answer is thrown as the typed client's
 * SwitchboardError, read from the API's error shape by the client's own reader.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { errorFromAnswer } from '../../src/client/errors.ts';
import { type ListItem, type ListParameters, type ListPath, paginate, type paths } from '../../src/client/index.ts';

export { SwitchboardError } from '../../src/client/index.ts';

/** The API, on this page's origin (the paths begin with /v1). */
export const api = createClient<paths>({ credentials: 'same-origin' });

let csrfToken: string | null = null;
let onSessionEnded: () => void = () => {};
/**
 * How often the page has signed in or out. A request's answer speaks of the session it was sent
 * in: a 401 to one sent before the page signed in (its first reads, signed out, still on their
 * way on a slow network) ends nothing.
 */
let sessionChanges = 0;
const sentIn = new WeakMap<Request, number>();

/** The CSRF token of the session this page is signed in with; null when signed out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
  sessionChanges += 1;
}

/** What to do when the API says the session is over (401): show the sign-in page. */
export function whenSessionEnds(handler: () => void): void {
  onSessionEnded = handler;
}

let actingProfile: string | null = null;

/**
 * The profile a member with roles on several profiles is working on: sent as Service-Profile
 * with every request that names none itself (the API asks such a member which profile a request
 * is about). Null for every other session.
 */
export function setActingProfile(id: string | null): void {
  actingProfile = id;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

const session: Middleware = {
  onRequest({ request }) {
    sentIn.set(request, sessionChanges);
    // The cookie alone does not make a change: the API asks for the session's token beside it.
    if (csrfToken !== null && !SAFE_METHODS.has(request.method)) request.headers.set('X-CSRF-Token', csrfToken);
    if (actingProfile !== null && !request.headers.has('service-profile')) {
      request.headers.set('Service-Profile', actingProfile);
    }
  },
  onResponse({ request, response }) {
    // A request with a key (signing in) is judged by the key: its 401 says nothing of a session.
    if (response.status !== 401 || request.headers.has('authorization')) return;
    if ((sentIn.get(request) ?? sessionChanges) === sessionChanges) onSessionEnded();
  },
  onError({ error }) {
    // An abandoned request (a screen left) is no failure to show.
    if (error instanceof DOMException && error.name === 'AbortError') return;
    return new Error('The service could not be reached. Check the connection and try again.');
  },
};
api.use(session);

/** What openapi-fetch answers for a call: the body of a success, or the parsed body of an error. */
interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer (undefined for a 204), or the API's error thrown as a SwitchboardError. */
export async function answer<T>(call: Promise<Answered<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromAnswer(response, error);
  return data as T;
}

/** The largest page the API gives: a short list (profiles, keys, endpoints) in one request. */
const PAGE_SIZE = 100;

/** Every item of a short list, read a page at a time by the typed client's `paginate`. */
export async function all<P extends ListPath>(path: P, params: ListParameters<P>): Promise<ListItem<P>[]> {
  // Typed by the path in this signature; paginate's own, whose options are optional only for a
  // list without path parameters, is not resolved for an unknown P.
  const pages = paginate as (
    client: typeof api,
    path: ListPath,
    options: { params: ListParameters<ListPath> },
  ) => AsyncGenerator<ListItem<P>>;
  const items: ListItem<P>[] = [];
  for await (const item of pages(api, path, { params: { ...params, query: { limit: PAGE_SIZE, ...params.query } } })) {
    items.push(item);
  }
  return items;
}
