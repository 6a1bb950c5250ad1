import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { apiKeys } from '../helpers/tables.ts';

let t: TestApp;
let owner: TestOwner;
let profileId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createOwner();
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: auth(owner.key),
    payload: { name: 'Keys client', external_id: 'keys-client' },
  });
  profileId = res.json().id;
});
afterAll(() => t.close());

async function createKeyOverApi(ref: string, body?: Record<string, unknown>) {
  return await t.app.inject({
    method: 'POST',
    url: `/v1/profiles/${ref}/api-keys`,
    headers: auth(owner.key),
    ...(body ? { payload: body } : {}),
  });
}

describe('profile API keys over the API', () => {
  it('creates a key (201) shown once, with a prefix telling its kind, and stores only its hash', async () => {
    const res = await createKeyOverApi('keys-client', { name: 'reporting tool' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ profile_id: profileId, name: 'reporting tool' });
    expect(body.key).toMatch(/^sb_profile_[A-Za-z0-9_-]{43}$/);
    expect(body.key.startsWith(body.key_start)).toBe(true);
    expect(body.id).toMatch(/^key_/);

    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, body.id));
    expect(row?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    const everything = await t.database.pool.query('select row_to_json(k)::text as r from api_keys k');
    expect(everything.rows.map((r: { r: string }) => r.r).join('\n')).not.toContain(body.key);
  });

  it('creates a key without a body', async () => {
    const res = await createKeyOverApi(profileId);
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBeNull();
  });

  it('gives a key that authenticates as its profile: no header needed, another profile refused', async () => {
    const key = (await createKeyOverApi(profileId)).json().key;
    // Profile management is owner-only: a 403 owner_key_required proves the key authenticated.
    const own = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(key) });
    expect(own.json().error.code).toBe('owner_key_required');
    const byExternalId = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(key, 'keys-client') });
    expect(byExternalId.json().error.code).toBe('owner_key_required');
    for (const other of [owner.defaultProfileId, 'someone-else']) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(key, other) });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('profile_mismatch');
    }
  });

  it('lists keys without the keys themselves, paginated', async () => {
    const fresh = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name: 'List keys' },
      })
    ).json();
    const created = [];
    for (let i = 0; i < 3; i += 1) created.push((await createKeyOverApi(fresh.id, { name: `k${i}` })).json());
    const first = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${fresh.id}/api-keys?limit=2`,
      headers: auth(owner.key),
    });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.data).toHaveLength(2);
    const second = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${fresh.id}/api-keys?limit=2&cursor=${page1.next_cursor}`,
      headers: auth(owner.key),
    });
    const page2 = second.json();
    expect(page2.next_cursor).toBeNull();
    const listed = [...page1.data, ...page2.data];
    expect(listed.map((k: { id: string }) => k.id)).toEqual(created.map((k) => k.id));
    for (const k of listed) expect(k).not.toHaveProperty('key');
    expect(first.body).not.toContain(created[0].key);
  });

  it('deletes a key (204) and the key stops working at once', async () => {
    const created = (await createKeyOverApi(profileId)).json();
    expect((await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(created.key) })).statusCode).toBe(
      403,
    );
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/api-keys/${created.id}`,
      headers: auth(owner.key),
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const after = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(created.key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthorized');
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/api-keys/${created.id}`,
      headers: auth(owner.key),
    });
    expect(again.json().error.code).toBe('api_key_not_found');
  });

  it('does not delete a key through another profile of the same owner', async () => {
    const created = (await createKeyOverApi(profileId)).json();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${owner.defaultProfileId}/api-keys/${created.id}`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(created.key) })).statusCode).toBe(
      403,
    );
  });
});

describe('the Authorization header', () => {
  it.each([
    ['no header', {}],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['an unknown key', { authorization: 'Bearer sb_owner_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a key with spaces inside', { authorization: 'Bearer sb owner' }],
  ])('answers %s with 401 unauthorized', async (_label, headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });

  it('accepts the scheme in any case', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/profiles',
      headers: { authorization: `bearer ${owner.key}` },
    });
    expect(res.statusCode).toBe(200);
  });
});
