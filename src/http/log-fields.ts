/**
 * What a request's log line says of it. The hosted pages' addresses hold capabilities: a
 * connect link's, approval link's or report link's token (`/connect/<token>`, `/approve/<token>`,
 * `/reports/<token>`, valid up to 90 days), a member's single-use link
 * (`/members/accept/<token>`, `/members/sign-in/<token>`), and the OAuth code and state a
 * platform sends back (`/connect/callback/<platform>?...`).
 * The service keeps only hashes of tokens; its logs must not keep them in clear either.
 */

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
}

const HOSTED = /^\/(approve|connect|reports|members\/accept|members\/sign-in)\/([^/?#]+)/;

/** A request's path for the logs, each hosted page's token and query left out. */
export function loggedUrl(url: string): string {
  const hosted = HOSTED.exec(url);
  if (!hosted) return url;
  const [, page, segment] = hosted;
  const path = url.split(/[?#]/, 1)[0] ?? url;
  // `/connect/callback/<platform>` names a platform, not a token: only its query is secret; nor
  // is `/members/sign-in/password` (the password form) a token.
  const named =
    (page === 'connect' && segment === 'callback') || (page === 'members/sign-in' && segment === 'password');
  const shown = named ? path : path.replace(HOSTED, `/${page}/<token>`);
  return path.length < url.length ? `${shown}?<redacted>` : shown;
}

/** The `req` serializer of the service's logger: Fastify's usual fields, the URL as loggedUrl gives it. */
export function requestLogFields(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? loggedUrl(request.url) : request.url,
    host: request.host,
    remoteAddress: request.ip,
  };
}
