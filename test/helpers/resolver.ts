import type { ResolvedAddress, Resolver } from '../../src/outbound/address-policy.ts';

/**
 * The names the tests use for webhook hosts and what they resolve to. Tests never reach
 * the internet (or its DNS); anything not listed does not resolve.
 */
export const TEST_HOSTS: Record<string, string[]> = {
  'hooks.example.test': ['93.184.216.34'],
  'other.example.test': ['2606:2800:220:1:248:1893:25c8:1946'],
  'private.example.test': ['10.0.0.5'],
  'loopback.example.test': ['127.0.0.1'],
  'metadata.example.test': ['169.254.169.254'],
  'v6-loopback.example.test': ['::1'],
  'mapped.example.test': ['::ffff:127.0.0.1'],
  'mixed.example.test': ['93.184.216.34', '10.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
};

export const testResolver: Resolver = async (hostname) => {
  const addresses = TEST_HOSTS[hostname.toLowerCase()];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};
