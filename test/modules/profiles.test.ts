import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hearingChanges } from '../../src/http/read-cache.ts';
import { completeProfileDeletion } from '../../src/modules/profiles/service.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { events, profiles } from '../helpers/tables.ts';

let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createOwner();
});
afterAll(() => t.close());

type ProfileBody = { id: string; name: string; external_id: string | null; is_default: boolean };

async function create(body: Record<string, unknown>, key = owner.key) {
  return await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(key), payload: body });
}

async function listAll(key: string, query = ''): Promise<ProfileBody[]> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/profiles${query}`, headers: auth(key) });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe('creating and reading profiles', () => {
  it('creates a profile (201) that is then listed after the default profile', async () => {
    const o = await t.createOwner();
    const res = await create({ name: 'Acme Bakery', external_id: 'acme-42' }, o.key);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ name: 'Acme Bakery', external_id: 'acme-42', is_default: false });
    expect(body.id).toMatch(/^prf_[0-9a-z]{26}$/);
    const list = await listAll(o.key);
    expect(list.map((p) => p.id)).toEqual([o.defaultProfileId, body.id]);
    expect(list[0]).toMatchObject({ is_default: true, name: 'Default' });
  });

  it('returns the existing profile (200, unchanged) for an external_id that exists', async () => {
    const first = await create({ name: 'Blue Cafe', external_id: 'blue' });
    const again = await create({ name: 'Another name', external_id: 'blue' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  it('creates exactly one profile under concurrent identical requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => create({ name: 'Race', external_id: 'race-1' })),
    );
    const ids = new Set(results.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(11);
    const rows = await t.database.db.select().from(profiles).where(eq(profiles.externalId, 'race-1'));
    expect(rows).toHaveLength(1);
  });

  it('gets a profile by id and by external_id', async () => {
    const created = (await create({ name: 'Green', external_id: 'green' })).json();
    for (const ref of [created.id, 'green']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/profiles/${ref}`, headers: auth(owner.key) });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(created.id);
    }
  });

  it('accepts URL-encoded external_ids in the path and header', async () => {
    const created = (await create({ name: 'Slash', external_id: 'client/7?x#y' })).json();
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${encodeURIComponent('client/7?x#y')}`,
      headers: auth(owner.key),
    });
    expect(res.json().id).toBe(created.id);
  });

  it('filters the list by external_id', async () => {
    await create({ name: 'Filter me', external_id: 'filter-1' });
    const list = await listAll(owner.key, '?external_id=filter-1');
    expect(list.map((p) => p.external_id)).toEqual(['filter-1']);
    expect(await listAll(owner.key, '?external_id=nobody')).toEqual([]);
  });

  it('answers an unknown profile with 404 profile_not_found', async () => {
    for (const ref of ['prf_01m7yz2jsceh7ssvnprgwt5vtd', 'no-such-client']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/profiles/${ref}`, headers: auth(owner.key) });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('profile_not_found');
    }
  });

  it('refuses an external_id shaped like a profile id, so references are never ambiguous', async () => {
    const res = await create({ name: 'Sneaky', external_id: 'prf_01m7yz2jsceh7ssvnprgwt5vtd' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe('body.external_id');
  });
});

describe('the cached profile list', () => {
  it('follows changes made outside this code (raw SQL), through the database trigger', async () => {
    const o = await t.createOwner();
    const made = (await create({ name: 'Before' }, o.key)).json();
    expect((await listAll(o.key)).map((p) => p.name)).toEqual(['Default', 'Before']);
    await t.database.pool.query('update profiles set name = $1 where id = $2', ['After', made.id]);
    const names = await eventually(async () => {
      const list = (await listAll(o.key)).map((p) => p.name);
      return list.includes('After') ? list : undefined;
    });
    expect(names).toEqual(['Default', 'After']);
  });

  it('shows a caller its own change at once', async () => {
    const o = await t.createOwner();
    expect(await listAll(o.key)).toHaveLength(1);
    const made = (await create({ name: 'Fresh' }, o.key)).json();
    expect((await listAll(o.key)).map((p) => p.id)).toEqual([o.defaultProfileId, made.id]);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/profiles/${made.id}`,
      headers: auth(o.key),
      payload: { name: 'Renamed' },
    });
    expect((await listAll(o.key)).map((p) => p.name)).toEqual(['Default', 'Renamed']);
    await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${made.id}`, headers: auth(o.key) });
    expect((await listAll(o.key)).map((p) => p.id)).toEqual([o.defaultProfileId]);
  });
});

describe('the list kept by each process', () => {
  it('answers a page it keeps with the bytes and headers of its first answer', async () => {
    // The read cache keeps pages only while it hears the database's changes.
    await eventually(async () => (hearingChanges() ? true : undefined));
    const o = await t.createOwner();
    const made = (await create({ name: 'Zoë & Søn <"studio">', external_id: 'client-7' }, o.key)).json();
    const get = () => t.app.inject({ method: 'GET', url: '/v1/profiles?limit=2', headers: auth(o.key) });
    const first = await get();
    const again = await get();
    for (const res of [first, again]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    // The schema's fields only, the name as given (UTF-8), the times as the API writes them.
    expect(again.json()).toEqual({
      data: [
        expect.objectContaining({ id: o.defaultProfileId, is_default: true }),
        {
          id: made.id,
          name: 'Zoë & Søn <"studio">',
          external_id: 'client-7',
          is_default: false,
          post_approval_required: false,
          created_at: made.created_at,
          updated_at: made.updated_at,
        },
      ],
      next_cursor: null,
    });
    const head = await t.app.inject({ method: 'HEAD', url: '/v1/profiles?limit=2', headers: auth(o.key) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('keeps a page filtered by an external_id apart from the page with no filter, whatever the external_id', async () => {
    const o = await t.createOwner();
    const named = (await create({ name: 'Named', external_id: 'undefined' }, o.key)).json();
    await create({ name: 'Other' }, o.key);
    const filtered = await listAll(o.key, '?external_id=undefined');
    expect(filtered.map((p) => p.id)).toEqual([named.id]);
    expect((await listAll(o.key)).map((p) => p.name)).toEqual(['Default', 'Named', 'Other']);
    expect((await listAll(o.key, '?external_id=null')).map((p) => p.id)).toEqual([]);
  });

  it('keeps each caller’s page apart: under a Service-Profile header, that profile only', async () => {
    const o = await t.createOwner();
    const other = (await create({ name: 'Other client', external_id: 'other-client' }, o.key)).json();
    const both = [o.defaultProfileId, other.id];
    expect((await listAll(o.key)).map((p) => p.id)).toEqual(both);
    const scoped = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(o.key, 'other-client') });
    expect(scoped.json().data.map((p: ProfileBody) => p.id)).toEqual([other.id]);
    expect((await listAll(o.key)).map((p) => p.id)).toEqual(both);
  });
});

describe('pagination', () => {
  it('walks every profile exactly once, oldest first, while others are being created', async () => {
    const o = await t.createOwner();
    const made: string[] = [o.defaultProfileId];
    for (let i = 0; i < 7; i += 1) made.push((await create({ name: `P${i}` }, o.key)).json().id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
      const res = await t.app.inject({ method: 'GET', url: `/v1/profiles${query}`, headers: auth(o.key) });
      const body: { data: ProfileBody[]; next_cursor: string | null } = res.json();
      expect(body.data.length).toBeLessThanOrEqual(3);
      seen.push(...body.data.map((p) => p.id));
      cursor = body.next_cursor;
      pages += 1;
      // A profile created mid-walk is newer than every cursor: it appears at the end, never twice.
      if (pages === 1) made.push((await create({ name: 'Mid-walk' }, o.key)).json().id);
    } while (cursor);
    expect(seen).toEqual(made);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('defaults to 50 per page and gives next_cursor null on the last page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(owner.key) });
    expect(res.json().next_cursor).toBeNull();
  });
});

describe('updating profiles', () => {
  it('changes the name and the external_id, and the old external_id stops resolving', async () => {
    const created = (await create({ name: 'Old', external_id: 'old-ext' })).json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v1/profiles/old-ext',
      headers: auth(owner.key),
      payload: { name: 'New', external_id: 'new-ext' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, name: 'New', external_id: 'new-ext' });
    const old = await t.app.inject({ method: 'GET', url: '/v1/profiles/old-ext', headers: auth(owner.key) });
    expect(old.statusCode).toBe(404);
    const viaHeader = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(owner.key, 'old-ext') });
    expect(viaHeader.json().error.code).toBe('profile_not_found');
  });

  it('answers 409 external_id_taken for an external_id another profile has, and changes nothing', async () => {
    await create({ name: 'Holder', external_id: 'taken' });
    const other = (await create({ name: 'Other', external_id: 'other' })).json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/profiles/${other.id}`,
      headers: auth(owner.key),
      payload: { name: 'Changed', external_id: 'taken' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('external_id_taken');
    const after = await t.app.inject({ method: 'GET', url: `/v1/profiles/${other.id}`, headers: auth(owner.key) });
    expect(after.json()).toMatchObject({ name: 'Other', external_id: 'other' });
  });

  it('lets only one of two racing PATCHes take an external_id', async () => {
    const a = (await create({ name: 'A' })).json();
    const b = (await create({ name: 'B' })).json();
    const results = await Promise.all(
      [a, b].map((p) =>
        t.app.inject({
          method: 'PATCH',
          url: `/v1/profiles/${p.id}`,
          headers: auth(owner.key),
          payload: { external_id: 'contested' },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('removes the external_id with null', async () => {
    const created = (await create({ name: 'Drop ext', external_id: 'drop-me' })).json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/profiles/${created.id}`,
      headers: auth(owner.key),
      payload: { external_id: null },
    });
    expect(res.json().external_id).toBeNull();
  });
});

describe('deleting profiles', () => {
  it('refuses to delete the default profile with 409 default_profile', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${owner.defaultProfileId}`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('default_profile');
  });

  it('answers 202, revokes access at once, then deletes the data and emits profile.deleted', async () => {
    const created = (await create({ name: 'Leaving', external_id: 'leaving' })).json();
    const key = await t.createProfileKey(owner.ownerId, created.id);
    // Warm the key and header caches, so the test shows they are forgotten.
    expect((await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(key) })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(owner.key, 'leaving') })).statusCode,
    ).toBe(200);

    const res = await t.app.inject({ method: 'DELETE', url: '/v1/profiles/leaving', headers: auth(owner.key) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ id: created.id, status: 'deletion_pending' });

    const get = await t.app.inject({ method: 'GET', url: `/v1/profiles/${created.id}`, headers: auth(owner.key) });
    expect(get.json().error.code).toBe('profile_not_found');
    const header = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(owner.key, created.id) });
    expect(header.json().error.code).toBe('profile_not_found');
    expect((await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(key) })).statusCode).toBe(401);
    expect((await listAll(owner.key)).map((p) => p.id)).not.toContain(created.id);
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${created.id}`, headers: auth(owner.key) });
    expect(again.statusCode).toBe(404);
    // The external_id is free again for a new profile.
    expect((await create({ name: 'New client', external_id: 'leaving' })).statusCode).toBe(201);

    await t.startWorker();
    const [event] = await eventually(async () => {
      const rows = await t.database.db.select().from(events).where(eq(events.profileId, created.id));
      return rows.length > 0 ? rows : undefined;
    });
    expect(event).toMatchObject({
      type: 'profile.deleted',
      ownerId: owner.ownerId,
      profileId: created.id,
      data: { profile: { id: created.id, name: 'Leaving', external_id: 'leaving' } },
    });
    const remaining = await t.database.db.select().from(profiles).where(eq(profiles.id, created.id));
    expect(remaining).toEqual([]);
    // A job run again (a worker died after its commit) neither deletes nor reports twice.
    expect(await completeProfileDeletion(t.deletionContext(), created.id)).toBe('nothing_to_do');
    const reported = await t.database.db.select().from(events).where(eq(events.profileId, created.id));
    expect(reported).toHaveLength(1);
  });
});

describe('the Service-Profile header on profile routes', () => {
  it('limits the list and reads to that profile', async () => {
    const scoped = (await create({ name: 'Scoped', external_id: 'scoped' })).json();
    const list = await listAll(owner.key, '');
    expect(list.length).toBeGreaterThan(1);
    const res = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: auth(owner.key, 'scoped') });
    expect(res.json().data.map((p: ProfileBody) => p.id)).toEqual([scoped.id]);
    const other = await t.app.inject({
      method: 'GET',
      url: `/v1/profiles/${owner.defaultProfileId}`,
      headers: auth(owner.key, 'scoped'),
    });
    expect(other.statusCode).toBe(404);
  });

  it('refuses to create a profile under a profile header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key, owner.defaultProfileId),
      payload: { name: 'Nested' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('profile_header_not_allowed');
  });
});
