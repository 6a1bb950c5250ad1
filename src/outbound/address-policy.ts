/**
 * Outbound address policy: decides whether a user-given URL may be called (SSRF protection).
 *
 * Strict mode: `https`, port 443, and a host that is — or resolves only to — public unicast addresses.
 * With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS=true, for local development and tests) `http`, any port
 * and private or loopback addresses are allowed too, but the host must still parse and resolve.
 *
 * Address classification is ipaddr.js's `range()`; everything it does not call 'unicast' is refused.
 * Addresses that embed an IPv4 address (IPv4-mapped, IPv4-translated, NAT64 well-known prefix, 6to4) are
 * judged by the embedded IPv4 address.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One resolved address, as dns.promises.lookup(host, { all: true }) returns them. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to all its addresses; rejects when it does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * The system resolver: dns.promises.lookup(hostname, { all: true, verbatim: true }) — spelled with the
 * equivalent `order: 'verbatim'`, as `verbatim` is deprecated.
 */
export const systemResolver: Resolver = async (hostname) => {
  const results = await dns.lookup(hostname, { all: true, order: 'verbatim' });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

export interface UrlPolicy {
  allowPrivate: boolean;
  resolve: Resolver;
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** Everything currently allocated as IPv6 global unicast; ipaddr.js calls e.g. ::7f00:1 or 4000::1 'unicast'. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052 well-known NAT64 prefix: the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const IPV4_DESCRIPTIONS: Record<string, string> = {
  unspecified: 'an unspecified ("this network") address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved, documentation or benchmarking address',
};

const IPV6_DESCRIPTIONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  linkLocal: 'a link-local address',
  multicast: 'a multicast address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique local (private) address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
  teredo: 'a Teredo tunnelling address',
  benchmarking: 'a benchmarking address',
  reserved: 'a reserved or documentation address',
};

/** The last four bytes of an IPv6 address (or bytes `from`..`from+3`) as an IPv4 address. */
function embeddedIPv4(ip: IPv6, from = 12): IPv4 {
  return new ipaddr.IPv4(ip.toByteArray().slice(from, from + 4));
}

function describeIPv4(ip: IPv4): string | null {
  const range: string = ip.range();
  if (range === 'unicast') return null;
  return IPV4_DESCRIPTIONS[range] ?? `a special-purpose address (${range})`;
}

/** Why an embedded IPv4 address makes its IPv6 wrapper non-public, or null. */
function describeEmbedded(kind: string, v4: IPv4): string | null {
  const inner = describeIPv4(v4);
  return inner === null ? null : `${kind} ${v4.toString()}, ${inner}`;
}

function describeIPv6(ip: IPv6): string | null {
  if (ip.zoneId) return `a scoped address (zone ${ip.zoneId})`;
  const range: string = ip.range();
  switch (range) {
    case 'unicast':
      return ip.match(IPV6_GLOBAL_UNICAST) ? null : 'outside the global unicast range 2000::/3';
    case 'ipv4Mapped':
      return describeEmbedded('an IPv4-mapped address of', embeddedIPv4(ip));
    case 'rfc6145':
      return describeEmbedded('an IPv4-translated address of', embeddedIPv4(ip));
    case 'rfc6052':
      // 64:ff9b:1::/48 (RFC 8215) is for local use only.
      if (!ip.match(NAT64_WELL_KNOWN)) return 'a local-use NAT64 address';
      return describeEmbedded('a NAT64 address embedding', embeddedIPv4(ip));
    case '6to4':
      return describeEmbedded('a 6to4 address embedding', embeddedIPv4(ip, 2));
    default:
      return IPV6_DESCRIPTIONS[range] ?? `a special-purpose address (${range})`;
  }
}

type Classification = { valid: false } | { valid: true; nonPublic: string | null };

function classify(address: string): Classification {
  // node:net accepts only canonical forms: ipaddr.js alone would also take "010.0.0.1" (octal, 8.0.0.1) or
  // "2130706433", which other parsers read differently.
  if (typeof address !== 'string' || isIP(address) === 0 || !ipaddr.isValid(address)) return { valid: false };
  const ip = ipaddr.parse(address);
  return { valid: true, nonPublic: ip.kind() === 'ipv4' ? describeIPv4(ip as IPv4) : describeIPv6(ip as IPv6) };
}

/** Why an address is not public, or null when it is a public unicast address. */
export function nonPublicReason(address: string): string | null {
  const c = classify(address);
  if (!c.valid) return `"${address}" is not a valid IP address`;
  return c.nonPublic === null ? null : `${address} is ${c.nonPublic}`;
}

/** Names that only mean something locally: RFC 6761 localhost, RFC 6762 .local, .internal, RFC 8375 home.arpa. */
function isLocalName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === 'localhost' || name === 'home.arpa') return true;
  return ['.localhost', '.local', '.internal', '.home.arpa'].some((suffix) => name.endsWith(suffix));
}

function fail(reason: string): UrlCheck {
  return { ok: false, reason };
}

/** Checks a user-given URL for outbound calls (see rules). Never throws for bad input. */
export async function checkOutboundUrl(raw: string, policy: UrlPolicy): Promise<UrlCheck> {
  if (typeof raw !== 'string' || raw.trim() === '') return fail('the URL is empty');
  if (raw.length > MAX_URL_LENGTH) return fail(`the URL must be at most ${MAX_URL_LENGTH} characters`);

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('the URL is not a valid absolute URL');
  }
  if (url.href.length > MAX_URL_LENGTH) return fail(`the URL must be at most ${MAX_URL_LENGTH} characters`);

  const { allowPrivate } = policy;
  if (allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('the URL must use https or http');
  } else if (url.protocol !== 'https:') {
    return fail('the URL must use https');
  }
  if (url.username !== '' || url.password !== '') return fail('the URL must not contain a username or password');
  // url.hash is '' for an empty fragment too; the serialisation keeps the '#'.
  if (url.hash !== '' || url.href.includes('#')) return fail('the URL must not contain a fragment (#...)');
  // URL drops the scheme's default port, so an explicit :443 on https reads as ''.
  if (!allowPrivate && url.port !== '') return fail('the port must be 443 (or none)');
  if (url.hostname === '') return fail('the URL must have a host');

  // IP literals: URL has already normalised IPv4 forms (0x7f.1, 2130706433, ...) to dotted decimal.
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(literal);
  if (family !== 0) {
    const c = classify(literal);
    if (!c.valid) return fail(`the host ${url.hostname} is not a valid IP address`);
    if (!allowPrivate && c.nonPublic !== null) return fail(`${literal} is ${c.nonPublic}`);
    // Strict mode takes names only: a receiver is named by DNS (and by its certificate).
    if (!allowPrivate) return fail(`the host must be a name, not an IP address (${literal})`);
    return { ok: true, url, addresses: [{ address: literal, family: family === 6 ? 6 : 4 }] };
  }

  const host = url.hostname;
  if (!allowPrivate && isLocalName(host)) return fail(`${host} is a local-only host name`);

  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    return fail(`${host} does not resolve`);
  }
  if (!Array.isArray(addresses) || addresses.length === 0) return fail(`${host} does not resolve`);

  for (const entry of addresses) {
    const address = entry?.address;
    const c = classify(address);
    if (!c.valid) return fail(`${host} resolves to "${String(address)}", which is not a valid IP address`);
    if (!allowPrivate && c.nonPublic !== null) return fail(`${host} resolves to ${address}, ${c.nonPublic}`);
  }
  return { ok: true, url, addresses };
}
