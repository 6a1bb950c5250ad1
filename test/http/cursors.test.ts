import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';

/**
 * docs/api-conventions.md, "Pagination": cursors are passed back unchanged, and a cursor
 * the API did not produce is `400 validation_failed` on `query.cursor`, on every list.
 */

let t: TestApp;
let owner: TestOwner;
let webhookId: string;
/** Each list with at least three items, by the path that lists them. */
const lists: string[] = [];

function cursorOf(after: string): string {
  return Buffer.from(JSON.stringify({ after })).toString('base64url');
}

async function get(url: string) {
  return await t.app.inject({ method: 'GET', url, headers: auth(owner.key) });
}

async function post(url: string, payload?: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: auth(owner.key),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  owner = await t.createOwner();
  for (let i = 0; i < 3; i += 1) {
    await post('/v1/profiles', { name: `Client ${i}` });
    await post(`/v1/profiles/${owner.defaultProfileId}/api-keys`, { name: `key ${i}` });
    await post('/v1/connect/redirect-origins', { origin: `https://app${i}.example.test` });
    webhookId = (await post('/v1/webhooks', { url: `http://127.0.0.1:9/hook${i}`, events: ['post.published'] })).id;
    await t.database.db.transaction((tx) =>
      saveConnectedAccount(tx, t.secretKey, {
        ownerId: owner.ownerId,
        profileId: owner.defaultProfileId,
        platform: 'threads',
        tokens: { accessToken: `token-${i}`, expiresAt: null, platformUserId: `user-${i}`, scopes: ['threads_basic'] },
        profile: { id: `user-${i}`, username: `user${i}`, name: null, avatarUrl: null, followersCount: null },
      }),
    );
  }
  // Three deliveries on the last endpoint (nothing listens there; no worker runs).
  for (let i = 0; i < 3; i += 1) await post(`/v1/webhooks/${webhookId}/test`);
  lists.push(
    '/v1/profiles',
    `/v1/profiles/${owner.defaultProfileId}/api-keys`,
    '/v1/accounts',
    '/v1/connect/redirect-origins',
    '/v1/webhooks',
    `/v1/webhooks/${webhookId}/deliveries`,
  );
});
afterAll(() => t.close());

/** Walks a list one item a page; returns the items and the cursors it was given. */
async function walk(list: string): Promise<{ ids: string[]; cursors: string[] }> {
  const ids: string[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(`${list}?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page: { data: { id: string }[]; next_cursor: string | null } = res.json();
    ids.push(...page.data.map((item) => item.id));
    cursor = page.next_cursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { ids, cursors };
}

function expectCursorRefused(res: Awaited<ReturnType<typeof get>>) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  expect(res.json().error).toEqual({
    code: 'validation_failed',
    message: 'The request does not match the schema; see details.',
    request_id: res.headers['request-id'],
    details: [{ field: 'query.cursor', message: 'is not a cursor this API returned' }],
  });
}

describe('cursors', () => {
  it('page through every list with the cursors the API returns, each item once', async () => {
    for (const list of lists) {
      const { ids } = await walk(list);
      const all = (await get(`${list}?limit=100`)).json().data.map((item: { id: string }) => item.id);
      expect(all.length, list).toBeGreaterThanOrEqual(3);
      expect(ids, list).toEqual(all);
    }
  });

  it("refuse another list's cursor: each list takes only positions of what it lists", async () => {
    const cursorsByList = new Map<string, string>();
    for (const list of lists) cursorsByList.set(list, (await walk(list)).cursors[0] as string);
    for (const list of lists) {
      for (const [other, cursor] of cursorsByList) {
        if (other !== list) expectCursorRefused(await get(`${list}?cursor=${cursor}`));
      }
    }
  });

  it('refuse a made-up position, NUL inside the cursor, or other JSON', async () => {
    const forged = [
      cursorOf('zzz'),
      cursorOf('prf_\u0000'),
      cursorOf('we_\u0000'),
      cursorOf(''),
      cursorOf(`${'2026-01-01T00:00:00.000Z'}|\u0000`),
      Buffer.from(JSON.stringify({ after: 7 })).toString('base64url'),
      Buffer.from(JSON.stringify(['prf_01jd0000000000000000000000'])).toString('base64url'),
      Buffer.from('not json').toString('base64url'),
      'bm9wZQ',
    ];
    for (const list of lists) {
      for (const cursor of forged) expectCursorRefused(await get(`${list}?cursor=${cursor}`));
    }
  });

  it('refuse a returned cursor with characters added or changed', async () => {
    for (const list of lists) {
      const [cursor] = (await walk(list)).cursors;
      if (!cursor) throw new Error(`${list} gave no cursor`);
      // Base64url decoding skips characters outside its alphabet, so these decode alike.
      expectCursorRefused(await get(`${list}?cursor=${cursor}.`));
      expectCursorRefused(await get(`${list}?cursor=${cursor}%20`));
      expectCursorRefused(await get(`${list}?cursor=${cursor}AA`));
    }
  });

  it('refuse a deliveries cursor whose time is out of range or not a real instant', async () => {
    const list = `/v1/webhooks/${webhookId}/deliveries`;
    const uuid = '0196a3b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b';
    for (const at of [
      '-200000-01-01T00:00:00.000Z',
      '+200000-01-01T00:00:00.000Z',
      '2026-02-30T00:00:00.000Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01',
      '0',
    ]) {
      expectCursorRefused(await get(`${list}?cursor=${cursorOf(`${at}|${uuid}`)}`));
    }
    expectCursorRefused(await get(`${list}?cursor=${cursorOf(`2026-01-01T00:00:00.000Z|${uuid}|x`)}`));
    expectCursorRefused(await get(`${list}?cursor=${cursorOf(`2026-01-01T00:00:00.000Z|${uuid.toUpperCase()}`)}`));
  });
});
