import { describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  nonPublicReason,
  type ResolvedAddress,
  type Resolver,
  type UrlPolicy,
} from '../../src/outbound/address-policy.ts';

function addr(address: string): ResolvedAddress {
  return { address, family: address.includes(':') ? 6 : 4 };
}

/** A resolver backed by a map; unknown names reject like getaddrinfo's ENOTFOUND. Never touches the network. */
function fakeResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
        hostname,
      });
    }
    return found.map(addr);
  };
  return Object.assign(resolve, { calls });
}

const PRIVATE_TARGETS: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['0.0.0.0', /unspecified/],
  ['::1', /loopback/],
  ['::ffff:127.0.0.1', /IPv4-mapped address of 127\.0\.0\.1, a loopback/],
  ['fc00::1', /unique local/],
  ['fe80::1', /link-local/],
  ['64:ff9b::a00:1', /NAT64 address embedding 10\.0\.0\.1, a private/],
  ['2002:7f00:1::', /6to4 address embedding 127\.0\.0\.1, a loopback/],
];

const PUBLIC_TABLE: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'v6.example.com': ['2606:4700:4700::1111'],
  'dual.example.com': ['93.184.215.14', '2001:4860:4860::8888'],
  'mixed.example.com': ['93.184.215.14', '10.0.0.5'],
  'mixed6.example.com': ['2606:4700:4700::1111', 'fd12:3456::1'],
  'empty.example.com': [],
  localhost: ['127.0.0.1'],
  'dev.localhost': ['127.0.0.1'],
  'metadata.google.internal': ['169.254.169.254'],
  ...Object.fromEntries(PRIVATE_TARGETS.map(([a], i) => [`private${i}.example.com`, [a]])),
};

function strict(table = PUBLIC_TABLE): UrlPolicy & { resolve: ReturnType<typeof fakeResolver> } {
  return { allowPrivate: false, resolve: fakeResolver(table) };
}

function lenient(table = PUBLIC_TABLE): UrlPolicy & { resolve: ReturnType<typeof fakeResolver> } {
  return { allowPrivate: true, resolve: fakeResolver(table) };
}

async function reasonFor(raw: string, policy: UrlPolicy = strict()): Promise<string> {
  const result = await checkOutboundUrl(raw, policy);
  if (result.ok) throw new Error(`expected ${raw} to be refused, got ${result.url.href}`);
  return result.reason;
}

describe('nonPublicReason', () => {
  it.each(PRIVATE_TARGETS)('%s is not public', (address, pattern) => {
    const reason = nonPublicReason(address);
    expect(reason).toMatch(pattern);
    expect(reason).toContain(address);
  });

  it.each([
    ['255.255.255.255', /broadcast/],
    ['224.0.0.1', /multicast/],
    ['0.1.2.3', /unspecified/],
    ['192.0.0.170', /reserved/],
    ['192.0.2.1', /reserved/],
    ['198.18.0.1', /reserved/],
    ['198.51.100.7', /reserved/],
    ['203.0.113.9', /reserved/],
    ['240.0.0.1', /reserved/],
    ['192.88.99.1', /reserved/],
    ['::', /unspecified/],
    ['ff02::1', /multicast/],
    ['fd00::1', /unique local/],
    ['fec0::1', /site-local/],
    ['100::1', /discard-only/],
    ['2001:db8::1', /documentation/],
    ['3fff::1', /documentation/],
    ['2001::1', /Teredo/],
    ['::ffff:0:a00:1', /IPv4-translated address of 10\.0\.0\.1/],
    ['64:ff9b:1::a00:1', /local-use NAT64/],
    ['::7f00:1', /global unicast/],
    ['4000::1', /global unicast/],
    ['fe80::1%eth0', /zone eth0/],
    ['2606:4700:4700::1111%eth0', /zone eth0/],
  ])('%s is not public (special-purpose ranges)', (address, pattern) => {
    expect(nonPublicReason(address)).toMatch(pattern);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(nonPublicReason(address)).toBeNull();
  });

  it.each([
    '',
    'example.com',
    '[::1]',
    '1.2.3',
    '256.1.1.1',
    // Non-canonical forms that ipaddr.js would parse (octal, hex, a single number): not addresses a resolver returns.
    '010.0.0.1',
    '0x7f.1',
    '2130706433',
  ])('%j is not a valid address, so not public', (address) => {
    expect(nonPublicReason(address)).toMatch(/not a valid IP address/);
  });
});

describe('checkOutboundUrl in strict mode', () => {
  it('accepts an https URL whose host resolves to public IPv4 and IPv6 addresses', async () => {
    for (const host of ['hooks.example.com', 'v6.example.com', 'dual.example.com']) {
      const result = await checkOutboundUrl(`https://${host}/webhooks/in?x=1`, strict());
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(result.url.href).toBe(`https://${host}/webhooks/in?x=1`);
      expect(result.addresses.map((a) => a.address)).toEqual(PUBLIC_TABLE[host]);
    }
    const dual = await checkOutboundUrl('https://dual.example.com/', strict());
    expect(dual).toMatchObject({
      ok: true,
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
    });
  });

  it('returns the URL as normalised by URL', async () => {
    const result = await checkOutboundUrl('HTTPS://Hooks.Example.COM:443/a/../b', strict());
    expect(result.ok && result.url.href).toBe('https://hooks.example.com/b');
  });

  it('accepts an explicit :443 but refuses other ports', async () => {
    expect((await checkOutboundUrl('https://hooks.example.com:443/x', strict())).ok).toBe(true);
    expect(await reasonFor('https://hooks.example.com:8443/x')).toBe('the port must be 443 (or none)');
    expect(await reasonFor('https://hooks.example.com:80/x')).toBe('the port must be 443 (or none)');
  });

  it.each(PRIVATE_TARGETS)('refuses a host resolving to %s, naming the address', async (address, pattern) => {
    const i = PRIVATE_TARGETS.findIndex(([a]) => a === address);
    const host = `private${i}.example.com`;
    const reason = await reasonFor(`https://${host}/hook`);
    expect(reason).toContain(`${host} resolves to ${address}, `);
    expect(reason).toMatch(pattern);
  });

  it('refuses a host when any one of its addresses is private', async () => {
    expect(await reasonFor('https://mixed.example.com/')).toBe(
      'mixed.example.com resolves to 10.0.0.5, a private address',
    );
    expect(await reasonFor('https://mixed6.example.com/')).toMatch(/resolves to fd12:3456::1, a unique local/);
  });

  it.each([
    ['https://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['https://[::1]/', '::1 is a loopback address'],
    ['https://[::ffff:7f00:1]/', '::ffff:7f00:1 is an IPv4-mapped address of 127.0.0.1, a loopback address'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is an IPv4-mapped address of 127.0.0.1, a loopback address'],
    ['https://10.0.0.1/', '10.0.0.1 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    // URL normalises these IPv4 spellings to 127.0.0.1 before we see them.
    ['https://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['https://2130706433/', '127.0.0.1 is a loopback address'],
    ['https://017700000001/', '127.0.0.1 is a loopback address'],
    ['https://127.1/', '127.0.0.1 is a loopback address'],
    ['https://127.0.0.1./', '127.0.0.1 is a loopback address'],
    ['https://0/', '0.0.0.0 is an unspecified ("this network") address'],
    // IPv4-compatible form: URL makes it ::7f00:1, which ipaddr.js calls plain 'unicast'.
    ['https://[::127.0.0.1]/', '::7f00:1 is outside the global unicast range 2000::/3'],
    ['https://[64:ff9b::10.0.0.1]/', '64:ff9b::a00:1 is a NAT64 address embedding 10.0.0.1, a private address'],
  ])('refuses the IP literal %s without resolving', async (raw, reason) => {
    const policy = strict();
    expect(await reasonFor(raw, policy)).toBe(reason);
    expect(policy.resolve.calls).toEqual([]);
  });

  it('refuses even a public IP literal in strict mode: receivers are named by DNS', async () => {
    const policy = strict();
    expect(await reasonFor('https://8.8.8.8/hook', policy)).toBe(
      'the host must be a name, not an IP address (8.8.8.8)',
    );
    expect(await reasonFor('https://[2606:4700:4700::1111]/hook', policy)).toBe(
      'the host must be a name, not an IP address (2606:4700:4700::1111)',
    );
    expect(policy.resolve.calls).toEqual([]);
  });

  it('accepts a public IP literal with allowPrivate, with the literal as the address', async () => {
    const policy = { ...strict(), allowPrivate: true };
    expect(await checkOutboundUrl('https://8.8.8.8/hook', policy)).toMatchObject({
      ok: true,
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
    expect(await checkOutboundUrl('https://[2606:4700:4700::1111]/hook', policy)).toMatchObject({
      ok: true,
      addresses: [{ address: '2606:4700:4700::1111', family: 6 }],
    });
    expect(policy.resolve.calls).toEqual([]);
  });

  it('refuses local-only names up front', async () => {
    for (const host of ['localhost', 'LOCALHOST.', 'dev.localhost', 'printer.local', 'metadata.google.internal']) {
      const policy = strict();
      expect(await reasonFor(`https://${host}/`, policy)).toMatch(/is a local-only host name$/);
      expect(policy.resolve.calls).toEqual([]);
    }
  });

  it('refuses http', async () => {
    expect(await reasonFor('http://hooks.example.com/')).toBe('the URL must use https');
  });

  it('refuses credentials', async () => {
    expect(await reasonFor('https://user:pw@hooks.example.com/')).toBe(
      'the URL must not contain a username or password',
    );
    expect(await reasonFor('https://user@hooks.example.com/')).toMatch(/username or password/);
    expect(await reasonFor('https://:pw@hooks.example.com/')).toMatch(/username or password/);
  });

  it('refuses a fragment, even an empty one', async () => {
    expect(await reasonFor('https://hooks.example.com/x#frag')).toBe('the URL must not contain a fragment (#...)');
    expect(await reasonFor('https://hooks.example.com/x#')).toMatch(/fragment/);
    // A '#' in what looks like userinfo starts the fragment.
    expect(await reasonFor('https://evil.example#@hooks.example.com/')).toMatch(/fragment/);
  });

  it('refuses an over-long URL', async () => {
    const ok = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
    expect(ok.length).toBe(2048);
    expect((await checkOutboundUrl(ok, strict())).ok).toBe(true);
    expect(await reasonFor(`${ok}a`)).toBe('the URL must be at most 2048 characters');
    // Also when URL's percent-encoding makes it longer than 2048.
    expect(await reasonFor(`https://hooks.example.com/${'é'.repeat(1000)}`)).toMatch(/at most 2048/);
  });

  it.each([
    'not a url',
    '',
    '   ',
    'javascript:alert(1)',
    'ftp://x/',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'gopher://hooks.example.com/',
    '//hooks.example.com/',
    '/relative/path',
    'https://',
    'https://[::1/',
    'https://exa mple.com/',
    'https://hooks.example.com:99999/',
    'https://[fe80::1%25eth0]/',
    'https://\u0000/',
  ])('refuses %j without throwing', async (raw) => {
    await expect(checkOutboundUrl(raw, strict())).resolves.toMatchObject({ ok: false, reason: expect.any(String) });
  });

  it('refuses non-string input without throwing', async () => {
    for (const raw of [undefined, null, 42, {}]) {
      await expect(checkOutboundUrl(raw as unknown as string, strict())).resolves.toMatchObject({ ok: false });
    }
  });

  it('refuses a host that does not resolve, or resolves to nothing', async () => {
    expect(await reasonFor('https://nowhere.example.com/')).toBe('nowhere.example.com does not resolve');
    expect(await reasonFor('https://empty.example.com/')).toBe('empty.example.com does not resolve');
  });

  it('refuses a resolver answer that is not an IP address', async () => {
    const policy: UrlPolicy = { allowPrivate: false, resolve: async () => [{ address: 'bogus', family: 4 }] };
    expect(await reasonFor('https://hooks.example.com/', policy)).toMatch(/not a valid IP address/);
  });
});

describe('checkOutboundUrl with allowPrivate', () => {
  it('accepts http, other ports and loopback IP literals', async () => {
    const policy = lenient();
    const result = await checkOutboundUrl('http://127.0.0.1:8080/hook', policy);
    expect(result).toMatchObject({ ok: true, addresses: [{ address: '127.0.0.1', family: 4 }] });
    expect(result.ok && result.url.href).toBe('http://127.0.0.1:8080/hook');
    expect((await checkOutboundUrl('http://[::1]:9000/', policy)).ok).toBe(true);
    expect((await checkOutboundUrl('https://10.0.0.1:8443/', policy)).ok).toBe(true);
  });

  it('resolves hostnames and accepts private answers', async () => {
    const policy = lenient();
    const result = await checkOutboundUrl('http://localhost:3000/x', policy);
    expect(result).toMatchObject({ ok: true, addresses: [{ address: '127.0.0.1', family: 4 }] });
    expect(policy.resolve.calls).toEqual(['localhost']);
    expect((await checkOutboundUrl('https://mixed.example.com/', policy)).ok).toBe(true);
  });

  it('still refuses other schemes, credentials, fragments and unresolvable hosts', async () => {
    const policy = lenient();
    expect(await reasonFor('ftp://localhost/', policy)).toBe('the URL must use https or http');
    expect(await reasonFor('javascript:alert(1)', policy)).toMatch(/https or http/);
    expect(await reasonFor('http://u:p@localhost/', policy)).toMatch(/username or password/);
    expect(await reasonFor('http://localhost/#x', policy)).toMatch(/fragment/);
    expect(await reasonFor('http://nowhere.example.com/', policy)).toBe('nowhere.example.com does not resolve');
    expect(await reasonFor('not a url', policy)).toMatch(/not a valid absolute URL/);
  });
});
