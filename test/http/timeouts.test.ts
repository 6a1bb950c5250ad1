import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { openConnection, type RawResponse } from '../helpers/raw-http.ts';
import { profiles } from '../helpers/tables.ts';

/**
 * REQUEST_TIMEOUT_MS and HEADERS_TIMEOUT_MS (docs/settings.md): a client that stops
 * sending gets 408 request_timeout and its connection closed. With the shortest allowed
 * timeout; the tests wait for the answer, however long the machine takes to give it.
 */

let t: TestApp;
let owner: TestOwner;
let port: number;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', REQUEST_TIMEOUT_MS: '1000' });
  owner = await t.createOwner();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

function expectTimeout(res: RawResponse) {
  expect(res.status, res.raw).toBe(408);
  expect(res.headers.connection).toBe('close');
  expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(JSON.parse(res.body)).toEqual({
    error: {
      code: 'request_timeout',
      message: 'The request (headers and body) did not arrive in time.',
      request_id: res.headers['request-id'],
    },
  });
}

describe('request timeouts', () => {
  it('answers a body shorter than its Content-Length with 408 and stores nothing', async () => {
    const before = await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId));
    const connection = openConnection(port);
    connection.write(
      [
        'POST /v1/profiles HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${owner.key}`,
        'Content-Type: application/json',
        'Content-Length: 40',
        '',
        '{"name":"Never fin',
      ].join('\r\n'),
    );
    expectTimeout(await connection.response());
    expect(await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId))).toEqual(before);
  });

  it('answers headers that never end with 408', async () => {
    const connection = openConnection(port);
    connection.write(
      ['GET /v1/profiles HTTP/1.1', 'Host: localhost', `Authorization: Bearer ${owner.key}`, ''].join('\r\n'),
    );
    expectTimeout(await connection.response());
  });

  it('answers a connection that sends nothing with 408', async () => {
    const connection = openConnection(port);
    await connection.connected;
    expectTimeout(await connection.response());
  });
});
