import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { deleteExpiredIdempotencyKeys } from '../../src/http/idempotency.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { idempotencyKeys, profiles } from '../helpers/tables.ts';

let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createOwner();
});
afterAll(() => t.close());
afterEach(() => resetClock());

function post(body: Record<string, unknown>, idempotencyKey: string, key = owner.key) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: { ...auth(key), 'idempotency-key': idempotencyKey },
    payload: body,
  });
}

async function profilesNamed(name: string) {
  return await t.database.db.select().from(profiles).where(eq(profiles.name, name));
}

describe('Idempotency-Key on POST', () => {
  it('answers a retry with the first answer, marked replayed, and creates one profile', async () => {
    const first = await post({ name: 'Once only' }, 'retry-1');
    const second = await post({ name: 'Once only' }, 'retry-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await profilesNamed('Once only')).toHaveLength(1);
  });

  it('creates one profile when identical requests with one key race', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => post({ name: 'Raced key' }, 'race-key')));
    const created = results.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().error.code).toBe('idempotency_request_in_progress');
    }
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect(await profilesNamed('Raced key')).toHaveLength(1);
  });

  it('refuses the same key with a different request: 422 idempotency_key_reused, nothing created', async () => {
    await post({ name: 'First body' }, 'reused');
    const res = await post({ name: 'Second body' }, 'reused');
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('idempotency_key_reused');
    expect(await profilesNamed('Second body')).toHaveLength(0);
  });

  it('keeps keys apart per API key', async () => {
    const other = await t.createOwner();
    const mine = await post({ name: 'Shared key name' }, 'shared');
    const theirs = await post({ name: 'Shared key name' }, 'shared', other.key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not spend a key on a request that fails validation', async () => {
    const bad = await post({ name: '' }, 'after-fix');
    expect(bad.statusCode).toBe(400);
    const good = await post({ name: 'Fixed' }, 'after-fix');
    expect(good.statusCode).toBe(201);
  });

  it('replays a stored client error as well', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: { ...auth(owner.key, owner.defaultProfileId), 'idempotency-key': 'error-kept' },
      payload: { name: 'Scoped' },
    });
    expect(first.statusCode).toBe(400);
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: { ...auth(owner.key, owner.defaultProfileId), 'idempotency-key': 'error-kept' },
      payload: { name: 'Scoped' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().error.code).toBe('profile_header_not_allowed');
  });

  it('forgets a key after 24 hours, and the periodic job deletes it', async () => {
    await post({ name: 'Day one' }, 'daily');
    advanceClock(25 * 60 * 60 * 1000);
    const res = await post({ name: 'Day two' }, 'daily');
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    advanceClock(25 * 60 * 60 * 1000);
    expect(await deleteExpiredIdempotencyKeys(t.database.db)).toBeGreaterThan(0);
    const left = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'daily'));
    expect(left).toEqual([]);
  });

  it('rejects a malformed key', async () => {
    const res = await post({ name: 'Bad key' }, 'x'.repeat(300));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: 'header.idempotency-key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  });

  it('is refused on API key creation, whose answer holds a secret shown once', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${owner.defaultProfileId}/api-keys`,
      headers: { ...auth(owner.key), 'idempotency-key': 'k1' },
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('idempotency_key_not_supported');
  });
});
