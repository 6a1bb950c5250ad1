import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { exchange, type RawResponse } from '../helpers/raw-http.ts';
import { profiles } from '../helpers/tables.ts';

/**
 * Over a real socket, since it is Node's parser that keeps the first of two Authorization
 * headers and joins two Service-Profile headers: the API must refuse the ambiguity instead.
 */

let t: TestApp;
let owner: TestOwner;
let port: number;
let clientProfile: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  owner = await t.createOwner();
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: { authorization: `Bearer ${owner.key}` },
    payload: { name: 'Client', external_id: 'client-1' },
  });
  clientProfile = created.json().id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

function request(method: string, path: string, headerLines: string[], body?: string): Promise<RawResponse> {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost', ...headerLines, 'Connection: close'];
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return exchange(port, `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
}

function expectAmbiguous(res: RawResponse, header: string, count: number) {
  expect(res.status, res.body).toBe(400);
  expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(JSON.parse(res.body)).toEqual({
    error: {
      code: 'validation_failed',
      message: 'The request does not match the schema; see details.',
      request_id: res.headers['request-id'],
      details: [{ field: `header.${header}`, message: `must be sent once, not ${count} times` }],
    },
  });
}

describe('headers the API acts on, sent more than once', () => {
  it('refuses two Authorization headers, even when the first key is valid', async () => {
    const other = await t.createOwner('Other');
    expectAmbiguous(
      await request('GET', '/v1/profiles', [
        `Authorization: Bearer ${owner.key}`,
        `Authorization: Bearer ${other.key}`,
      ]),
      'authorization',
      2,
    );
    // Header names are case-insensitive: these are the same header too.
    expectAmbiguous(
      await request('GET', '/v1/profiles', [
        `authorization: Bearer ${owner.key}`,
        `AUTHORIZATION: Bearer ${owner.key}`,
      ]),
      'authorization',
      2,
    );
  });

  it('refuses two Service-Profile headers, also naming the same profile, and changes nothing', async () => {
    const before = await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId));
    expectAmbiguous(
      await request(
        'POST',
        `/v1/profiles/${clientProfile}/api-keys`,
        [`Authorization: Bearer ${owner.key}`, `Service-Profile: ${clientProfile}`, 'Service-Profile: client-1'],
        '{}',
      ),
      'service-profile',
      2,
    );
    expectAmbiguous(
      await request('GET', '/v1/profiles', [
        `Authorization: Bearer ${owner.key}`,
        `Service-Profile: ${clientProfile}`,
        `Service-Profile: ${clientProfile}`,
        `Service-Profile: ${clientProfile}`,
      ]),
      'service-profile',
      3,
    );
    expect(await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId))).toEqual(before);
  });

  it('refuses two Idempotency-Key headers and creates nothing', async () => {
    const before = await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId));
    expectAmbiguous(
      await request(
        'POST',
        '/v1/profiles',
        [`Authorization: Bearer ${owner.key}`, 'Idempotency-Key: first', 'Idempotency-Key: second'],
        '{"name":"Twice"}',
      ),
      'idempotency-key',
      2,
    );
    expect(await t.database.db.select().from(profiles).where(eq(profiles.ownerId, owner.ownerId))).toEqual(before);
  });

  it('takes each of them once, as before', async () => {
    const res = await request('GET', '/v1/profiles', [
      `Authorization: Bearer ${owner.key}`,
      'Service-Profile: client-1',
    ]);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body).data.map((p: { id: string }) => p.id)).toEqual([clientProfile]);
    const created = await request(
      'POST',
      '/v1/profiles',
      [`Authorization: Bearer ${owner.key}`, 'Idempotency-Key: once'],
      '{"name":"Once"}',
    );
    expect(created.status, created.body).toBe(201);
  });
});
