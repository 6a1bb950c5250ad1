import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { exchange, type RawResponse } from '../helpers/raw-http.ts';

/**
 * Requests Node's HTTP parser refuses never reach Fastify's routing; they still get the
 * documented error shape and a Request-Id (docs/api-conventions.md, "Errors"). Raw bytes
 * over a real socket, since no client library sends such requests.
 */

let t: TestApp;
let owner: TestOwner;
let port: number;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  owner = await t.createOwner();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

function expectClientError(res: RawResponse, status: number, code: string) {
  expect(res.status, res.raw).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers.connection).toBe('close');
  expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toMatchObject({ code, request_id: res.headers['request-id'] });
  expect(typeof body.error.message).toBe('string');
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

describe('requests the HTTP parser refuses', () => {
  it('answers a control character or a bare CR in a header with 400 invalid_request', async () => {
    for (const value of ['a\u0001b', 'a\rb', 'a\u007fb']) {
      const res = await exchange(port, head(['GET /v1/profiles HTTP/1.1', 'Host: localhost', `X-Note: ${value}`]));
      expectClientError(res, 400, 'invalid_request');
    }
  });

  it('answers two different Content-Lengths, or Transfer-Encoding with Content-Length, with 400', async () => {
    const auth = `Authorization: Bearer ${owner.key}`;
    const twoLengths = head([
      'POST /v1/profiles HTTP/1.1',
      'Host: localhost',
      auth,
      'Content-Type: application/json',
      'Content-Length: 12',
      'Content-Length: 13',
    ]);
    expectClientError(await exchange(port, `${twoLengths}{"name":"x"}`), 400, 'invalid_request');
    const smuggled = head([
      'POST /v1/profiles HTTP/1.1',
      'Host: localhost',
      auth,
      'Content-Type: application/json',
      'Content-Length: 12',
      'Transfer-Encoding: chunked',
    ]);
    expectClientError(await exchange(port, `${smuggled}c\r\n{"name":"x"}\r\n0\r\n\r\n`), 400, 'invalid_request');
  });

  it('answers a bad chunk size with 400 invalid_request', async () => {
    const request = head([
      'POST /v1/profiles HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${owner.key}`,
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
    ]);
    expectClientError(await exchange(port, `${request}zz\r\n{"name":"x"}\r\n0\r\n\r\n`), 400, 'invalid_request');
  });

  it('answers a request line or headers over 16 KiB with 431 headers_too_large', async () => {
    const longLine = head([`GET /v1/profiles?x=${'a'.repeat(17 * 1024)} HTTP/1.1`, 'Host: localhost']);
    expectClientError(await exchange(port, longLine), 431, 'headers_too_large');
    const bigHeaders = head(['GET /v1/profiles HTTP/1.1', 'Host: localhost', `X-Big: ${'b'.repeat(17 * 1024)}`]);
    expectClientError(await exchange(port, bigHeaders), 431, 'headers_too_large');
  });

  it('gives each refused request its own id, and keeps serving others', async () => {
    const bad = head(['GET /v1/profiles HTTP/1.1', 'Host: localhost', 'X-Note: a\u0001b']);
    const [first, second] = [await exchange(port, bad), await exchange(port, bad)];
    expect(first.headers['request-id']).not.toBe(second.headers['request-id']);
    const ok = await exchange(
      port,
      head(['GET /v1/profiles HTTP/1.1', 'Host: localhost', `Authorization: Bearer ${owner.key}`, 'Connection: close']),
    );
    expect(ok.status).toBe(200);
  });
});
