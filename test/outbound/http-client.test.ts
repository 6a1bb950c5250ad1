import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ResolvedAddress, Resolver } from '../../src/outbound/address-policy.ts';
import { createOutboundAgent, isSuccess, postBytes } from '../../src/outbound/http-client.ts';

interface SeenRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface TestServer {
  server: Server;
  host: string;
  port: number;
  /** TCP connections accepted. */
  connections: number;
  /** The client-side port of each accepted connection, in the order they were accepted. */
  remotePorts: (number | undefined)[];
  requests: SeenRequest[];
}

const servers: Server[] = [];

/** A node:http server on 127.0.0.1 (or `host`) that records connections and requests, then runs `handler`. */
async function startServer(handler: RequestListener, host = '127.0.0.1'): Promise<TestServer> {
  const server = createServer();
  const state: TestServer = { server, host, port: 0, connections: 0, remotePorts: [], requests: [] };
  server.on('connection', (socket) => {
    state.connections += 1;
    state.remotePorts.push(socket.remotePort);
  });
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      handler(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A resolver backed by a map (or a function of the call number); unknown names reject like ENOTFOUND. */
function fakeResolver(table: Record<string, string[] | ((call: number) => string[])>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const entry = table[hostname];
    if (!entry) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    }
    const list = typeof entry === 'function' ? entry(calls.filter((h) => h === hostname).length) : entry;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

/**
 * A resolver answering 127.0.0.1, whose first `held` lookups answer only once `release` is called
 * with their number (from 0); later ones answer at once.
 */
function lookupsHeld(held: number): { resolve: Resolver; calls: string[]; release: (call: number) => void } {
  const resumes: (() => void)[] = [];
  const releases = Array.from(
    { length: held },
    () =>
      new Promise<void>((resume) => {
        resumes.push(resume);
      }),
  );
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    const call = calls.push(hostname) - 1;
    await releases[call];
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const release = (call: number) => {
    const resume = resumes[call];
    if (resume === undefined) throw new Error(`lookup ${call} is not held`);
    resume();
  };
  return { resolve, calls, release };
}

const agents: ReturnType<typeof createOutboundAgent>[] = [];
function agentFor(...args: Parameters<typeof createOutboundAgent>) {
  const agent = createOutboundAgent(...args);
  agents.push(agent);
  return agent;
}
afterAll(async () => {
  await Promise.all(agents.map((a) => a.destroy()));
});

/**
 * How many connections `target` accepted before one this opens now. A listening socket
 * accepts connections first in, first out, so once the server has seen this one, it has
 * seen every connection made before the call: no waiting for something not to happen.
 */
async function connectionsBefore(target: TestServer): Promise<number> {
  const probe = net.connect(target.port, target.host);
  await new Promise<void>((resolve) => probe.once('connect', () => resolve()));
  const port = probe.localPort;
  if (!target.remotePorts.includes(port)) {
    await new Promise<void>((resolve) => {
      const seen = (socket: { remotePort?: number }) => {
        if (socket.remotePort !== port) return;
        target.server.off('connection', seen);
        resolve();
      };
      target.server.on('connection', seen);
    });
  }
  probe.destroy();
  return target.remotePorts.indexOf(port);
}

/** Resolves once `condition` holds, checking again after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const LIMITS = { timeoutMs: 5000, maxBodyBytes: 20 * 1024 };

describe('postBytes with allowPrivate (local receivers)', () => {
  const resolve = fakeResolver({ 'receiver.test': ['127.0.0.1'] });
  const agent = agentFor({ allowPrivate: true, resolve });

  it('returns status, body and duration of a 200, and sends the exact bytes and headers', async () => {
    const target = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks ✓');
    });
    const payload = '{"event":"post.published","text":"héllo ✓ 🚀"}';
    const result = await postBytes(
      agent,
      `http://receiver.test:${target.port}/hooks/in?x=1`,
      payload,
      {
        'content-type': 'application/json',
        'user-agent': 'Switchboard-Webhooks/1',
        'x-switchboard-signature': 't=1,v1=abc',
      },
      LIMITS,
    );
    expect(result).toEqual({ status: 200, body: 'thanks ✓', durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(isSuccess(result)).toBe(true);

    expect(target.requests).toHaveLength(1);
    const seen = target.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/hooks/in?x=1');
    expect(seen?.body.equals(Buffer.from(payload, 'utf8'))).toBe(true);
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['user-agent']).toBe('Switchboard-Webhooks/1');
    expect(seen?.headers['x-switchboard-signature']).toBe('t=1,v1=abc');
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(payload)));
    expect(seen?.headers.host).toBe(`receiver.test:${target.port}`);
  });

  it('returns a 500 as a status, not an error', async () => {
    const target = await startServer((_req, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    const result = await postBytes(agent, `http://receiver.test:${target.port}/`, '{}', {}, LIMITS);
    expect(result.status).toBe(500);
    expect(result.body).toBe('boom');
    expect(result.error).toBeUndefined();
    expect(isSuccess(result)).toBe(false);
  });

  it('does not follow a redirect: the 302 is the result and the target receives nothing', async () => {
    const elsewhere = await startServer((_req, res) => res.end('should not be reached'));
    const target = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://receiver.test:${elsewhere.port}/next` });
      res.end();
    });
    const result = await postBytes(agent, `http://receiver.test:${target.port}/`, '{}', {}, LIMITS);
    expect(result.status).toBe(302);
    expect(result.error).toBeUndefined();
    expect(isSuccess(result)).toBe(false);
    expect(await connectionsBefore(elsewhere)).toBe(0);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('gives up after timeoutMs when no response comes', async () => {
    const target = await startServer(() => {
      // never answers
    });
    const started = Date.now();
    const result = await postBytes(
      agent,
      `http://receiver.test:${target.port}/`,
      '{}',
      {},
      {
        timeoutMs: 300,
        maxBodyBytes: 1024,
      },
    );
    expect(result.error).toBe('timeout after 300 ms');
    expect(result.status).toBeUndefined();
    // It waited the whole limit: the lower bound is the point, any later is the machine.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('counts reading the body against the time limit', async () => {
    const target = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial'); // and never ends
    });
    const result = await postBytes(
      agent,
      `http://receiver.test:${target.port}/`,
      '{}',
      {},
      {
        timeoutMs: 300,
        maxBodyBytes: 1024,
      },
    );
    // The status came in time; the body that never ended is what the limit cut.
    expect(result.status).toBe(200);
    expect(result.error).toBe('timeout after 300 ms');
    expect(result.body).toBe('partial');
    expect(isSuccess(result)).toBe(false);
  });

  it('reports a closed port as connection refused', async () => {
    const closed = await startServer((_req, res) => res.end());
    await new Promise((resolve) => closed.server.close(resolve));
    const result = await postBytes(agent, `http://receiver.test:${closed.port}/`, '{}', {}, LIMITS);
    expect(result).toEqual({ error: 'connection refused', durationMs: expect.any(Number) });
  });

  it('keeps at most maxBodyBytes of a large body and returns promptly, even if the body never ends', async () => {
    const big = 'a'.repeat(100 * 1024);
    const target = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(big); // 100 KB, then the response stays open
    });
    const result = await postBytes(agent, `http://receiver.test:${target.port}/`, '{}', {}, LIMITS);
    // No error: it stopped reading at maxBodyBytes instead of waiting for the time limit.
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(20 * 1024);
    expect(isSuccess(result)).toBe(true);
  });

  it('cuts a complete 100 KB body to maxBodyBytes', async () => {
    const target = await startServer((_req, res) => res.end('b'.repeat(100 * 1024)));
    const result = await postBytes(agent, `http://receiver.test:${target.port}/`, '{}', {}, LIMITS);
    expect(result.status).toBe(200);
    expect(result.body).toBe('b'.repeat(20 * 1024));
  });

  it('connects to the address the lookup answered (the resolver is what routes the connection)', async () => {
    // 127.0.0.2 is loopback on Linux; nothing but the fake resolver maps pinned.test to it.
    const target = await startServer((_req, res) => res.end('pinned'), '127.0.0.2');
    const pinnedResolve = fakeResolver({ 'pinned.test': ['127.0.0.2'] });
    const pinnedAgent = agentFor({ allowPrivate: true, resolve: pinnedResolve });
    const result = await postBytes(pinnedAgent, `http://pinned.test:${target.port}/`, 'x', {}, LIMITS);
    expect(result).toMatchObject({ status: 200, body: 'pinned' });
    expect(target.connections).toBe(1);
    // Once by postBytes's own check of the attempt, once by the connection's lookup.
    expect(pinnedResolve.calls).toEqual(['pinned.test', 'pinned.test']);
  });

  it('checks the name before every attempt, also one that would reuse a kept-alive connection', async () => {
    const target = await startServer((_req, res) => res.end('warm'));
    // Resolves for the first attempt's check and its connection, then no longer (as after the
    // name was pointed elsewhere).
    const resolve = fakeResolver({ 'warm.test': (call) => (call <= 2 ? ['127.0.0.1'] : []) });
    const agent = agentFor({ allowPrivate: true, resolve });
    const url = `http://warm.test:${target.port}/`;
    expect(await postBytes(agent, url, 'x', {}, LIMITS)).toMatchObject({ status: 200, body: 'warm' });
    // Until undici has the connection back as idle, a request would open another one.
    await until(() => {
      const pool = agent.stats[`http://warm.test:${target.port}`];
      return pool !== undefined && 'free' in pool && pool.free === 1;
    });
    // Within a second of the first check's answer, the next attempt is sent on that answer.
    expect(await postBytes(agent, url, 'x', {}, LIMITS)).toMatchObject({ status: 200, body: 'warm' });
    expect(target.connections).toBe(1);
    expect(resolve.calls).toEqual(['warm.test', 'warm.test']);
    // Over a second later the name is looked up again, and no longer resolves: nothing is sent,
    // though the connection may still be kept alive.
    await new Promise((resume) => setTimeout(resume, 1100));
    const third = await postBytes(agent, url, 'x', {}, LIMITS);
    expect(third).toEqual({ error: 'host does not resolve', durationMs: expect.any(Number) });
    expect(resolve.calls).toEqual(['warm.test', 'warm.test', 'warm.test']);
    expect(target.requests).toHaveLength(2);
  });

  it('has a new connection check the name itself, whatever answer its attempt reused', async () => {
    // Every answer closes its connection, so the next attempt needs a new one.
    const target = await startServer((_req, res) => {
      res.setHeader('connection', 'close');
      res.end('closing');
    });
    // Allowed for the first attempt's check and its connection; then the name answers something
    // that is no address at all.
    const resolve = fakeResolver({ 'moved.test': (call) => (call <= 2 ? ['127.0.0.1'] : ['not-an-address']) });
    const agent = agentFor({ allowPrivate: true, resolve });
    const url = `http://moved.test:${target.port}/`;
    expect(await postBytes(agent, url, 'x', {}, LIMITS)).toMatchObject({ status: 200, body: 'closing' });
    await until(() => {
      const pool = agent.stats[`http://moved.test:${target.port}`];
      return pool !== undefined && 'connected' in pool && pool.connected === 0;
    });
    // Within a second: whether the attempt reuses the first check's answer or looks the name up,
    // no request may leave on a new connection to what the name answers now.
    const second = await postBytes(agent, url, 'x', {}, LIMITS);
    expect(second.error).toMatch(/^address not allowed: /);
    expect(resolve.calls).toEqual(['moved.test', 'moved.test', 'moved.test']);
    expect(target.requests).toHaveLength(1);
  });

  it('lets attempts to one name that start while its check is under way share that check', async () => {
    const target = await startServer((_req, res) => res.end('shared'));
    // The first lookup answers only when released; every later one (a connection's) at once.
    const { resolve, calls, release } = lookupsHeld(1);
    const agent = agentFor({ allowPrivate: true, resolve });
    const url = `http://shared.test:${target.port}/`;
    const attempts = Array.from({ length: 5 }, () => postBytes(agent, url, 'x', {}, LIMITS));
    expect(calls).toEqual(['shared.test']);
    release(0);
    for (const result of await Promise.all(attempts)) expect(result).toMatchObject({ status: 200, body: 'shared' });
    expect(target.requests).toHaveLength(5);
    // One check for the five attempts, and one lookup for the five connections they opened together.
    expect(target.connections).toBe(5);
    expect(calls).toEqual(['shared.test', 'shared.test']);
  });

  it('has connections opened while a lookup of their name is under way share it', async () => {
    const target = await startServer((_req, res) => res.end('cold'));
    // The attempts' check and the first connection's lookup both answer only when released.
    const { resolve, calls, release } = lookupsHeld(2);
    const agent = agentFor({ allowPrivate: true, resolve });
    const url = `http://cold.test:${target.port}/`;
    const attempts = Array.from({ length: 5 }, () => postBytes(agent, url, 'x', {}, LIMITS));
    release(0);
    // The five requests are with undici, each on a connection of its own that waits for its address.
    await until(() => agent.stats[`http://cold.test:${target.port}`]?.pending === 5);
    expect(calls).toEqual(['cold.test', 'cold.test']);
    expect(target.connections).toBe(0);
    release(1);
    for (const result of await Promise.all(attempts)) expect(result).toMatchObject({ status: 200, body: 'cold' });
    expect(target.connections).toBe(5);
    expect(calls).toEqual(['cold.test', 'cold.test']);
  });

  it('gives every connection that shared a lookup its refusal, and opens none', async () => {
    const target = await startServer((_req, res) => res.end('must not be reached'));
    // The attempts' check allows the name; the lookup their connections share then answers
    // something that is no address.
    const resolve = fakeResolver({ 'turned.test': (call) => (call === 1 ? ['127.0.0.1'] : ['not-an-address']) });
    const agent = agentFor({ allowPrivate: true, resolve });
    const url = `http://turned.test:${target.port}/`;
    const results = await Promise.all(Array.from({ length: 5 }, () => postBytes(agent, url, 'x', {}, LIMITS)));
    for (const result of results) expect(result.error).toMatch(/^address not allowed: /);
    expect(resolve.calls).toEqual(['turned.test', 'turned.test']);
    expect(await connectionsBefore(target)).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it('shares a check under way only with attempts that start within 0.1 s of it', async () => {
    const target = await startServer((_req, res) => res.end('late'));
    // The first lookup hangs until released, as one whose packet was lost would.
    const { resolve, calls, release } = lookupsHeld(1);
    const agent = agentFor({ allowPrivate: true, resolve });
    const url = `http://slow.test:${target.port}/`;
    const first = postBytes(agent, url, 'x', {}, LIMITS);
    await new Promise((resume) => setTimeout(resume, 150));
    // The first check is still under way, but started over 0.1 s ago: this attempt makes its own.
    const second = postBytes(agent, url, 'x', {}, LIMITS);
    expect(calls).toEqual(['slow.test', 'slow.test']);
    expect(await second).toMatchObject({ status: 200, body: 'late' });
    release(0);
    expect(await first).toMatchObject({ status: 200, body: 'late' });
  });

  it('gives every attempt that shared a check its refusal', async () => {
    const target = await startServer((_req, res) => res.end('must not be reached'));
    const resolve = fakeResolver({ 'inside.test': ['10.0.0.7'] });
    const agent = agentFor({ allowPrivate: false, resolve });
    const url = `http://inside.test:${target.port}/`;
    const results = await Promise.all(Array.from({ length: 3 }, () => postBytes(agent, url, '{}', {}, LIMITS)));
    for (const result of results) expect(result.error).toBe('address not allowed: 10.0.0.7 is a private address');
    expect(resolve.calls).toEqual(['inside.test']);
    expect(target.requests).toHaveLength(0);
  });

  it('allows IP-literal hosts', async () => {
    const target = await startServer((_req, res) => res.end('literal'));
    const result = await postBytes(agent, `http://127.0.0.1:${target.port}/`, '{}', {}, LIMITS);
    expect(result).toMatchObject({ status: 200, body: 'literal' });
  });

  it('reports a name that does not resolve', async () => {
    const result = await postBytes(agent, 'http://nowhere.test:1/', '{}', {}, LIMITS);
    expect(result).toEqual({ error: 'host does not resolve', durationMs: expect.any(Number) });
  });

  it('reports a TLS failure (https to a plain HTTP server)', async () => {
    const target = await startServer((_req, res) => res.end('plain'));
    const result = await postBytes(agent, `https://receiver.test:${target.port}/`, '{}', {}, LIMITS);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/^TLS error: [^\n]+$/);
  });

  it('reports a malformed URL without throwing', async () => {
    const result = await postBytes(agent, 'not a url', '{}', {}, LIMITS);
    expect(result.error).toBe('invalid URL');
    expect(result.status).toBeUndefined();
  });
});

describe('postBytes with the strict policy', () => {
  it('refuses a name that resolves to a loopback address, without connecting', async () => {
    const target = await startServer((_req, res) => res.end('must not be reached'));
    const agent = agentFor({ allowPrivate: false, resolve: fakeResolver({ 'receiver.test': ['127.0.0.1'] }) });
    const result = await postBytes(agent, `http://receiver.test:${target.port}/`, '{}', {}, LIMITS);
    expect(result).toEqual({
      error: 'address not allowed: 127.0.0.1 is a loopback address',
      durationMs: expect.any(Number),
    });
    expect(await connectionsBefore(target)).toBe(0);
  });

  it('refuses when any resolved address is non-public, without connecting', async () => {
    const target = await startServer((_req, res) => res.end('must not be reached'));
    const resolve = fakeResolver({ 'mixed.test': ['93.184.216.34', '10.0.0.1'] });
    const agent = agentFor({ allowPrivate: false, resolve });
    const result = await postBytes(
      agent,
      `http://mixed.test:${target.port}/`,
      '{}',
      {},
      {
        timeoutMs: 300,
        maxBodyBytes: 1024,
      },
    );
    expect(result.error).toBe('address not allowed: 10.0.0.1 is a private address');
    expect(resolve.calls).toEqual(['mixed.test']);
    expect(await connectionsBefore(target)).toBe(0);
  });

  it('refuses IP-literal hosts before connecting (postBytes and the agent itself)', async () => {
    const target = await startServer((_req, res) => res.end('must not be reached'));
    const resolve = fakeResolver({});
    const agent = agentFor({ allowPrivate: false, resolve });

    const loopback = await postBytes(agent, `http://127.0.0.1:${target.port}/`, '{}', {}, LIMITS);
    expect(loopback.error).toBe('address not allowed: 127.0.0.1 is a loopback address');
    const mapped = await postBytes(agent, `http://[::ffff:127.0.0.1]:${target.port}/`, '{}', {}, LIMITS);
    expect(mapped.error).toMatch(/^address not allowed: .*loopback/);
    const publicLiteral = await postBytes(agent, 'https://93.184.216.34/', '{}', {}, LIMITS);
    expect(publicLiteral.error).toBe('address not allowed: the host must be a name, not an IP address (93.184.216.34)');

    // Used directly (not through postBytes) the agent refuses too.
    await expect(
      request(`http://127.0.0.1:${target.port}/`, { dispatcher: agent, method: 'POST', body: '{}' }),
    ).rejects.toThrow(/address not allowed: 127\.0\.0\.1 is a loopback address/);

    expect(resolve.calls).toEqual([]);
    expect(await connectionsBefore(target)).toBe(0);
  });

  it('cannot be DNS-rebound to a local address: every connection uses the address it checked', async () => {
    const target = await startServer((_req, res) => res.end('must not be reached'));
    // Public on the first two lookups, loopback afterwards. 93.184.216.34 is unreachable here (or at least
    // not our server): the attempt times out or fails, and must never land on 127.0.0.1.
    const resolve = fakeResolver({ 'rebind.test': (call) => (call <= 2 ? ['93.184.216.34'] : ['127.0.0.1']) });
    const agent = agentFor({ allowPrivate: false, resolve }, { connectTimeoutMs: 250 });
    const url = `http://rebind.test:${target.port}/`;
    const limits = { timeoutMs: 300, maxBodyBytes: 1024 };

    const first = await postBytes(agent, url, '{}', {}, limits);
    expect(first.status).toBeUndefined();
    expect(first.error).toBeDefined();
    expect(first.error).not.toMatch(/^address not allowed/);

    // The next attempt looks the name up again and refuses the rebound answer.
    const second = await postBytes(agent, url, '{}', {}, limits);
    expect(second.error).toBe('address not allowed: 127.0.0.1 is a loopback address');
    // Public for the attempt's own check, loopback for the connection's lookup just after it: the
    // connection is refused, it does not go to whatever the name answers last.
    const raced = fakeResolver({ 'rebind.test': (call) => (call === 1 ? ['93.184.216.34'] : ['127.0.0.1']) });
    const racedAgent = agentFor({ allowPrivate: false, resolve: raced }, { connectTimeoutMs: 250 });
    const third = await postBytes(racedAgent, url, '{}', {}, limits);
    expect(third.error).toBe('address not allowed: 127.0.0.1 is a loopback address');
    expect(raced.calls).toEqual(['rebind.test', 'rebind.test']);

    expect(resolve.calls).toEqual(['rebind.test', 'rebind.test', 'rebind.test']);
    expect(await connectionsBefore(target)).toBe(0);
    expect(target.requests).toHaveLength(0);
  });
});
