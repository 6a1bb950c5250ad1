import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphClient } from '../../src/platforms/graph.ts';

/** A real HTTP server that answers `answer(url)` as JSON and remembers every path it was asked for. */
async function jsonServer(
  answer: (url: string) => unknown,
): Promise<{ server: Server; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    asked.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer(request.url ?? '')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, asked };
}

function client(baseUrl: string): GraphClient {
  return new GraphClient(
    'instagram',
    baseUrl,
    'v25.0',
    { clientId: 'id', clientSecret: 'secret', hostUrl: (host) => `https://${host}` },
    () => new Date(),
  );
}

describe('graph paging: paging.next is followed on our own host only', () => {
  let lookalike: Awaited<ReturnType<typeof jsonServer>>;
  let graph: Awaited<ReturnType<typeof jsonServer>>;
  /** What the fake Graph host answers for the second page's `next`. */
  let nextOf: (port: number) => string;

  beforeAll(async () => {
    lookalike = await jsonServer(() => ({ data: ['stolen'] }));
    graph = await jsonServer((url) =>
      url.includes('after=2') ? { data: ['second'] } : { data: ['first'], paging: { next: nextOf(lookalike.port) } },
    );
  });
  afterAll(() => {
    lookalike.server.close();
    graph.server.close();
  });

  it('a next URL whose text starts with our base but whose host is another gets no request, nor the token', async () => {
    const base = `http://127.0.0.1:${graph.port}`;
    // Parsed, this is host 127.0.0.1:<look-alike port> with user info "127.0.0.1:<our port>".
    nextOf = (port) => `${base}@127.0.0.1:${port}/v25.0/17841405793187219/media?after=2&access_token=user-token`;
    const items = await client(base).getAll('/17841405793187219/media', 'user-token', {}, 10);
    expect(items).toEqual(['first']);
    expect(lookalike.asked).toEqual([]);
  });

  it('sandbox mode: a next URL whose path only starts like our base path gets no request', async () => {
    // Sandbox mode: the base has a path, and `/sandbox/graph.instagram.com.evil.test` is not under it.
    const base = `http://127.0.0.1:${graph.port}/sandbox/graph.instagram.com`;
    nextOf = () =>
      `http://127.0.0.1:${graph.port}/sandbox/graph.instagram.com.evil.test/v25.0/1/media?after=2&access_token=t`;
    graph.asked.length = 0;
    const items = await client(base).getAll('/1/media', 't', {}, 10);
    expect(items).toEqual(['first']);
    expect(graph.asked).toEqual(['/sandbox/graph.instagram.com/v25.0/1/media?access_token=t']);
  });

  it('a next URL under our base is followed', async () => {
    const base = `http://127.0.0.1:${graph.port}/sandbox/graph.instagram.com`;
    nextOf = () => `${base}/v25.0/1/media?after=2&access_token=t`;
    expect(await client(base).getAll('/1/media', 't', {}, 10)).toEqual(['first', 'second']);
  });
});
