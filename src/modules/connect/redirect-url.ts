/**
 * Redirect origins and redirect URLs. The connect flow sends clients (with account ids and
 * the owner's state) back to a URL the link names, so only URLs whose origin the owner
 * registered are accepted, compared as whole origins: a host that merely starts with a
 * registered one (`https://app.example.com.evil.test`) is another origin.
 */
import { errors } from '../../http/errors.ts';

/**
 * Hosts a browser treats as this machine (a "potentially trustworthy" origin: `localhost`,
 * `*.localhost`, 127.0.0.0/8 and `[::1]`): plain http is accepted only for them.
 */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** A DNS label of a host name: letters, digits and inner hyphens, 1 to 63 of them. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether the URL parser's host (lowercase, international names in their `xn--` form) is a
 * host name of valid labels, or an IP address. The parser has checked IP addresses already (a
 * host ending in a number is read as IPv4 or refused); it lets through names no DNS has, such
 * as `*.example.com` or `a..b`.
 */
function isValidHost(hostname: string): boolean {
  if (hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname)) return true;
  return hostname.length <= 253 && hostname.split('.').every((label) => LABEL.test(label));
}

function parse(value: string, field: string): URL {
  try {
    return new URL(value);
  } catch {
    throw errors.validation([{ field, message: 'must be an absolute URL' }]);
  }
}

/**
 * The origin of `value`, checked as docs/connect.md describes one: https (or http for
 * localhost), a host name of valid labels (no wildcard) or an IP address, a port from 1 to
 * 65535 where one is given, and no user name or password. One check for a registered origin and
 * for a link's `redirect_url`, so whatever a link may name can be registered, and the reverse.
 */
function checkedOrigin(value: string, field: string): URL {
  const url = parse(value, field);
  const problem = (message: string) => errors.validation([{ field, message }]);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw problem('must use https (or http for localhost)');
  if (!isValidHost(url.hostname)) {
    throw problem('must have a host name of letters, digits and hyphens (no wildcard), or an IP address');
  }
  if (url.port === '0') throw problem('must have a port from 1 to 65535');
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) throw problem('must use https (http only for localhost)');
  if (url.username !== '' || url.password !== '') throw problem('must not contain a user name or password');
  return url;
}

/**
 * The origin to store for `value` (`https://App.Example.com:443/` -> `https://app.example.com`),
 * or a validation error: only a scheme, host and optional port, nothing after them.
 */
export function normaliseOrigin(value: string): string {
  const field = 'body.origin';
  const url = checkedOrigin(value, field);
  // `new URL` turns "https://a.test" into "https://a.test/": a lone slash is no path.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(value)) {
    throw errors.validation([{ field, message: 'must be only a scheme, host and optional port, without a path' }]);
  }
  return url.origin;
}

/**
 * Checks a link's `redirect_url`: an absolute URL under a valid origin, without a fragment.
 * Answers its origin, which must then be one the owner registered.
 */
export function redirectUrlOrigin(value: string): string {
  const field = 'body.redirect_url';
  const url = checkedOrigin(value, field);
  // The outcome is added to the query; a fragment would hide it from the owner's server.
  if (url.hash !== '' || value.includes('#')) throw errors.validation([{ field, message: 'must not have a fragment' }]);
  return url.origin;
}

export type Outcome =
  | { status: 'connected'; profileId: string; accountIds: string[] }
  | { status: 'error'; error: ConnectError };

export const CONNECT_ERRORS = [
  'access_denied',
  'permission_missing',
  'account_in_other_profile',
  'plan_account_limit',
  'account_mismatch',
  'expired',
] as const;
export type ConnectError = (typeof CONNECT_ERRORS)[number];

/**
 * `redirect_url` with the outcome added to its query (the service's parameters replace
 * any of the same name already there), and `state` when the link was given one, ending
 * in an empty fragment.
 */
export function outcomeUrl(redirectUrl: string, state: string | null, outcome: Outcome): string {
  const url = new URL(redirectUrl);
  const params = url.searchParams;
  for (const name of ['status', 'error', 'profile_id', 'account_ids', 'state']) params.delete(name);
  params.set('status', outcome.status);
  if (outcome.status === 'connected') {
    params.set('profile_id', outcome.profileId);
    params.set('account_ids', outcome.accountIds.join(','));
  } else {
    params.set('error', outcome.error);
  }
  if (state !== null) params.set('state', state);
  // Instagram and Threads add `#_` to their redirect to us, and a browser keeps a fragment
  // across a redirect whose target has none: an empty one ends it here.
  return `${url.toString()}#`;
}
