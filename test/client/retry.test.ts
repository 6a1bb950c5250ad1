import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.ts';

/**
 * The client's retries on 429 against a small real HTTP server that answers as the test says:
 * Retry-After as an HTTP date, the bound on retries, the cap on the wait, and a wait cut short.
 */

interface Received {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
  at: number;
}

type Answer = (index: number, response: ServerResponse) => void;

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server on 127.0.0.1 that records each request and answers it with `answer(index)`. */
async function serve(answer: Answer): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const key = request.headers['idempotency-key'];
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      idempotencyKey: Array.isArray(key) ? key[0] : key,
      body: Buffer.concat(chunks).toString('utf8'),
      at,
    });
    answer(received.length - 1, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push({ close: () => server.close() });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

const rateLimited = { error: { code: 'rate_limited', message: 'Too many requests.', request_id: 'req_test' } };
const emptyPage = { data: [], next_cursor: null };

describe("the client's retries on 429", () => {
  it('waits until the HTTP date a Retry-After names, then succeeds', async () => {
    // Two to three seconds ahead, on a whole second (an HTTP date has no fractions).
    const until = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const { url, received } = await serve((index, response) => {
      if (index === 0) json(response, 429, rateLimited, { 'retry-after': until.toUTCString() });
      else json(response, 200, emptyPage);
    });
    const client = createClient({ baseUrl: url, apiKey: 'sb_owner_test' });

    const { data, response } = await client.GET('/v1/profiles');
    expect(response.status).toBe(200);
    expect(data).toEqual(emptyPage);
    expect(received.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/v1/profiles'],
      ['GET', '/v1/profiles'],
    ]);
    // Not before the date (less a little: a timer may fire a few milliseconds early).
    expect(received[1]?.at).toBeGreaterThanOrEqual(until.getTime() - 100);
  });

  it('gives up after the bound: the last 429 is the answer, every attempt with the same key and body', async () => {
    const { url, received } = await serve((_index, response) =>
      json(response, 429, rateLimited, { 'retry-after': '0' }),
    );

    const bounded = createClient({ baseUrl: url, apiKey: 'sb_owner_test', retries: { max: 2 } });
    const { data, error, response } = await bounded.POST('/v1/profiles', { body: { name: 'Acme' } });
    expect(response.status).toBe(429);
    expect(data).toBeUndefined();
    expect(error?.error.code).toBe('rate_limited');
    // The first attempt and two retries.
    expect(received.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/v1/profiles', '{"name":"Acme"}'],
      ['POST', '/v1/profiles', '{"name":"Acme"}'],
      ['POST', '/v1/profiles', '{"name":"Acme"}'],
    ]);
    const keys = new Set(received.map((r) => r.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);

    // By default: three retries.
    const byDefault = createClient({ baseUrl: url, apiKey: 'sb_owner_test' });
    expect((await byDefault.GET('/v1/profiles')).response.status).toBe(429);
    expect(received).toHaveLength(3 + 4);
  });

  it('sends a multipart body again, whole, after a 429', async () => {
    const { url, received } = await serve((index, response) => {
      if (index === 0) json(response, 429, rateLimited, { 'retry-after': '0' });
      else json(response, 201, { id: 'media_1' });
    });
    const client = createClient({ baseUrl: url, apiKey: 'sb_owner_test' });
    const { response } = await client.POST('/v1/media', {
      body: { file: 'photo.jpg' },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', new Blob(['not really a photo'], { type: 'image/jpeg' }), 'photo.jpg');
        return form;
      },
    });
    expect(response.status).toBe(201);
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.body).toContain('filename="photo.jpg"');
      expect(request.body).toContain('not really a photo');
    }
    expect(received[1]?.idempotencyKey).toBe(received[0]?.idempotencyKey);
  });

  it('answers a 429 whose Retry-After is beyond the cap at once, without waiting', async () => {
    const { url, received } = await serve((_index, response) =>
      json(response, 429, rateLimited, { 'retry-after': '300' }),
    );
    const client = createClient({ baseUrl: url, apiKey: 'sb_owner_test', retries: { maxWaitMs: 60_000 } });
    const { error, response } = await client.GET('/v1/profiles');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('300');
    expect(error?.error.code).toBe('rate_limited');
    expect(received).toHaveLength(1);
  });

  it('stops waiting when the request is aborted', async () => {
    const { url, received } = await serve((_index, response) =>
      json(response, 429, rateLimited, { 'retry-after': '30' }),
    );
    const client = createClient({ baseUrl: url, apiKey: 'sb_owner_test' });
    const controller = new AbortController();
    const pending = client.GET('/v1/profiles', { signal: controller.signal });
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('the caller gave up'));
    await expect(pending).rejects.toThrow('the caller gave up');
    expect(received).toHaveLength(1);
  });

  it('sends the key and the profile on every request, and an Idempotency-Key only where the POST takes one', async () => {
    const seenHeaders: Record<string, string | undefined>[] = [];
    const { url } = await serve((_index, response) => json(response, 201, {}));
    const client = createClient({
      baseUrl: url,
      apiKey: 'sb_owner_test',
      profile: 'acme-42',
      fetch: (request) => {
        seenHeaders.push({
          authorization: request.headers.get('authorization') ?? undefined,
          profile: request.headers.get('service-profile') ?? undefined,
          key: request.headers.get('idempotency-key') ?? undefined,
        });
        return fetch(request);
      },
    });
    await client.POST('/v1/posts', { body: { account_ids: ['acc_1'], text: 'Hello' } });
    await client.POST('/v1/webhooks', { body: { url: 'https://hooks.example.com/x', events: ['post.published'] } });
    await client.POST('/v1/posts', {
      params: { header: { 'idempotency-key': 'mine-1' } },
      body: { account_ids: ['acc_1'], text: 'Hello' },
    });
    await client.GET('/v1/posts');
    expect(seenHeaders).toEqual([
      { authorization: 'Bearer sb_owner_test', profile: 'acme-42', key: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      { authorization: 'Bearer sb_owner_test', profile: 'acme-42', key: undefined },
      { authorization: 'Bearer sb_owner_test', profile: 'acme-42', key: 'mine-1' },
      { authorization: 'Bearer sb_owner_test', profile: 'acme-42', key: undefined },
    ]);
  });
});
