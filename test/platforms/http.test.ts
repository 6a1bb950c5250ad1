/**
 * One call to a platform (callPlatform): bounded as a whole, headers and body, by its adapter's
 * timeout, and a call that outlives it is a passing failure that names the bound.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, callPlatform, parseJson } from '../../src/platforms/http.ts';
import { PlatformError } from '../../src/platforms/types.ts';

let base = '';
const held: ServerResponse[] = [];
const server = createServer((request, response) => {
  if (request.url === '/silent') {
    held.push(response); // never answered
    return;
  }
  if (request.url === '/stalls') {
    // The head at once, then half of the body, and nothing more.
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"id":');
    held.push(response);
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"id":"17895695668004550"}');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a platform call', () => {
  it('answered in time is returned, parsed, and counted ok', async () => {
    const counted: CallResult[] = [];
    const answer = await callPlatform(
      'threads',
      { method: 'GET', url: `${base}/answers` },
      { timeoutMs: 1_000, countCall: (_platform, result) => counted.push(result) },
    );
    expect(answer).toMatchObject({ status: 200, body: { id: '17895695668004550' } });
    expect(counted).toEqual(['ok']);
  });

  it.each([
    { what: 'with no answer at all', path: '/silent' },
    { what: 'whose body stops half-way', path: '/stalls' },
  ])('$what fails as a passing failure at its bound, counted unreachable', async ({ path }) => {
    const counted: CallResult[] = [];
    const started = Date.now();
    const failed = await callPlatform(
      'threads',
      { method: 'GET', url: `${base}${path}` },
      { timeoutMs: 300, countCall: (_platform, result) => counted.push(result) },
    ).catch((error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(failed).toBeInstanceOf(PlatformError);
    expect(failed).toMatchObject({
      kind: 'transient',
      message: 'threads could not be reached: no answer within 300 ms',
    });
    expect((failed as PlatformError).passing).toBe(true);
    expect(counted).toEqual(['unreachable']);
  });
});

describe("a platform's JSON answer", () => {
  it.each([
    { text: '{"user_id":17841405793187219}', parsed: { user_id: '17841405793187219' } },
    {
      text: '{"ids": [ 17841405793187219, -7359072883478464001 ]}',
      parsed: { ids: ['17841405793187219', '-7359072883478464001'] },
    },
    { text: '17841405793187219', parsed: '17841405793187219' },
    { text: '{"n":9007199254740993}', parsed: { n: '9007199254740993' } },
    {
      text: '{"issued_at":1767225600,"max":9007199254740991}',
      parsed: { issued_at: 1767225600, max: 9007199254740991 },
    },
    {
      text: '{"id":"17895695668004550","text":"call 1234567890123456789"}',
      parsed: { id: '17895695668004550', text: 'call 1234567890123456789' },
    },
    { text: '{"ratio":0.12345678901234567}', parsed: { ratio: 0.12345678901234566 } },
  ])(
    '$text keeps integers beyond 2^53 as their digits, and everything else as JSON.parse reads it',
    ({ text, parsed }) => {
      expect(parseJson(text)).toEqual(parsed);
    },
  );
});
