import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { signingSecrets } from '../../src/modules/webhooks/service.ts';
import { decrypt } from '../../src/secrets.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { webhookEndpoints } from '../helpers/tables.ts';

let t: TestApp;
let owner: TestOwner;
let clientProfileId: string;
let clientKey: string;

const HOOK = 'https://hooks.example.test/switchboard';

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createOwner();
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: auth(owner.key),
    payload: { name: 'Client', external_id: 'client-7' },
  });
  clientProfileId = res.json().id;
  clientKey = await t.createProfileKey(owner.ownerId, clientProfileId);
});
afterAll(() => t.close());
afterEach(() => resetClock());

function create(body: Record<string, unknown>, key = owner.key, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { ...auth(key), ...headers }, payload: body });
}

async function storedCount(ownerId = owner.ownerId) {
  return (await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.ownerId, ownerId))).length;
}

describe('creating webhook endpoints', () => {
  it('answers 201 with the endpoint and a whsec_ secret shown once, stored only encrypted', async () => {
    const res = await create({ url: HOOK, events: ['account.connected', 'profile.deleted'] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      url: HOOK,
      events: ['account.connected', 'profile.deleted'],
      profile_id: null,
      active: true,
    });
    expect(body.id).toMatch(/^we_/);
    // `whsec_` and the standard, padded base64 of 32 random bytes: one string for both signature
    // schemes, which Standard Webhooks libraries decode (they refuse base64url's `-` and `_`).
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const [row] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, body.id));
    expect(JSON.stringify(row)).not.toContain(body.secret);
    expect(decrypt(t.secretKey, row?.secretSealed as string)).toBe(body.secret);

    const get = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${body.id}`, headers: auth(owner.key) });
    expect(get.statusCode).toBe(200);
    expect(get.json()).not.toHaveProperty('secret');
    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth(owner.key) });
    expect(list.body).not.toContain(body.secret);
    expect(list.json().data.map((e: { id: string }) => e.id)).toContain(body.id);
  });

  it('binds to a profile named by external_id, stored as its id', async () => {
    const res = await create({ url: HOOK, events: ['comment.created'], profile_id: 'client-7' });
    expect(res.statusCode).toBe(201);
    expect(res.json().profile_id).toBe(clientProfileId);
  });

  it('answers an unknown profile with 404 profile_not_found', async () => {
    const res = await create({ url: HOOK, events: ['comment.created'], profile_id: 'nobody' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('profile_not_found');
  });

  it.each<[unknown, string]>([
    [[], 'an empty list'],
    [['post.exploded'], 'an unknown type'],
    [['post.published', 'post.published'], 'a repeated type'],
    ['post.published', 'a string, not a list'],
  ])('refuses events as %s (%s) with 400 validation_failed', async (events) => {
    const before = await storedCount();
    const res = await create({ url: HOOK, events });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details[0].field).toMatch(/^body\.events/);
    expect(await storedCount()).toBe(before);
  });

  it.each([
    ['http://hooks.example.test/x', /https/],
    ['https://hooks.example.test:8443/x', /443/],
    ['https://private.example.test/x', /10\.0\.0\.5/],
    ['https://loopback.example.test/x', /127\.0\.0\.1/],
    ['https://metadata.example.test/latest', /169\.254\.169\.254/],
    ['https://v6-loopback.example.test/x', /::1/],
    ['https://mapped.example.test/x', /127\.0\.0\.1|::ffff/],
    ['https://mixed.example.test/x', /10\.0\.0\.1/],
    ['https://127.0.0.1/x', /127\.0\.0\.1/],
    ['https://[::1]/x', /::1/],
    ['https://10.0.0.1/x', /10\.0\.0\.1/],
    ['https://169.254.169.254/x', /169\.254\.169\.254/],
    ['https://93.184.216.34/x', /a name, not an IP address/],
    ['https://nowhere.example.test/x', /resolve/],
    ['not a url', /./],
  ])('refuses %s with 422 invalid_webhook_url and the reason, storing nothing', async (url, reason) => {
    const before = await storedCount();
    const res = await create({ url, events: ['post.published'] });
    expect(res.statusCode).toBe(422);
    const error = res.json().error;
    expect(error.code).toBe('invalid_webhook_url');
    expect(error.details.reason).toMatch(reason);
    expect(error.message).toContain(error.details.reason);
    expect(await storedCount()).toBe(before);
  });

  it('refuses an Idempotency-Key: the answer holds a secret shown once', async () => {
    const res = await create({ url: HOOK, events: ['post.published'] }, owner.key, { 'idempotency-key': 'k' });
    expect(res.json().error.code).toBe('idempotency_key_not_supported');
  });
});

describe('the limit of 10 endpoints per owner', () => {
  it('answers the 11th with 422 webhook_limit_reached, also when requests race', async () => {
    const o = await t.createOwner();
    const results = await Promise.all(
      Array.from({ length: 14 }, () => create({ url: HOOK, events: ['post.published'] }, o.key)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.statusCode === 422);
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r.json().error.code).toBe('webhook_limit_reached');
    expect(await storedCount(o.ownerId)).toBe(10);

    const one = results.find((r) => r.statusCode === 201)?.json().id as string;
    await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${one}`, headers: auth(o.key) });
    expect((await create({ url: HOOK, events: ['post.published'] }, o.key)).statusCode).toBe(201);
  });
});

describe('profile keys and the profile header', () => {
  it("creates endpoints bound to the key's profile and sees only those", async () => {
    const unbound = (await create({ url: HOOK, events: ['post.failed'] })).json();
    const mine = await create({ url: HOOK, events: ['post.failed'] }, clientKey);
    expect(mine.statusCode).toBe(201);
    expect(mine.json().profile_id).toBe(clientProfileId);

    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth(clientKey) });
    const ids = list.json().data.map((e: { id: string; profile_id: string }) => e.profile_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([clientProfileId]));

    for (const [method, url, payload] of [
      ['GET', `/v1/webhooks/${unbound.id}`, undefined],
      ['PATCH', `/v1/webhooks/${unbound.id}`, { active: false }],
      ['DELETE', `/v1/webhooks/${unbound.id}`, undefined],
      ['POST', `/v1/webhooks/${unbound.id}/rotate-secret`, undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: auth(clientKey), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('webhook_not_found');
    }
    const after = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${unbound.id}`, headers: auth(owner.key) });
    expect(after.json()).toMatchObject({ active: true });
  });

  it('refuses to bind to another profile or to unbind: 403 profile_mismatch', async () => {
    const other = await create({ url: HOOK, events: ['post.failed'], profile_id: owner.defaultProfileId }, clientKey);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('profile_mismatch');
    const mine = (await create({ url: HOOK, events: ['post.failed'] }, clientKey)).json();
    const unbind = await t.app.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${mine.id}`,
      headers: auth(clientKey),
      payload: { profile_id: null },
    });
    expect(unbind.json().error.code).toBe('profile_mismatch');
    // Naming its own profile, by id or external_id, is fine.
    const own = await create({ url: HOOK, events: ['post.failed'], profile_id: 'client-7' }, clientKey);
    expect(own.statusCode).toBe(201);
  });

  it("treats an owner key with a Service-Profile header like that profile's key", async () => {
    const scoped = await create({ url: HOOK, events: ['post.failed'] }, owner.key, { 'service-profile': 'client-7' });
    expect(scoped.json().profile_id).toBe(clientProfileId);
    const list = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth(owner.key, 'client-7') });
    for (const e of list.json().data) expect(e.profile_id).toBe(clientProfileId);
  });
});

describe('updating, deleting and rotating', () => {
  it('updates url, events, binding and active; a bad URL changes nothing', async () => {
    const e = (await create({ url: HOOK, events: ['post.published'] })).json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${e.id}`,
      headers: auth(owner.key),
      payload: { url: 'https://other.example.test/in', events: ['post.failed'], profile_id: 'client-7', active: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      url: 'https://other.example.test/in',
      events: ['post.failed'],
      profile_id: clientProfileId,
      active: false,
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${e.id}`,
      headers: auth(owner.key),
      payload: { url: 'https://private.example.test/in', active: true },
    });
    expect(bad.statusCode).toBe(422);
    const after = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${e.id}`, headers: auth(owner.key) });
    expect(after.json()).toMatchObject({ url: 'https://other.example.test/in', active: false });
    const unbind = await t.app.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${e.id}`,
      headers: auth(owner.key),
      payload: { profile_id: null },
    });
    expect(unbind.json().profile_id).toBeNull();
  });

  it('deletes an endpoint (204); it is then 404 webhook_not_found', async () => {
    const e = (await create({ url: HOOK, events: ['post.published'] })).json();
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${e.id}`, headers: auth(owner.key) });
    expect(del.statusCode).toBe(204);
    const get = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${e.id}`, headers: auth(owner.key) });
    expect(get.json().error.code).toBe('webhook_not_found');
  });

  it('rotates the secret: a new one shown once, the old one still signing for 24 hours', async () => {
    const e = (await create({ url: HOOK, events: ['post.published'] })).json();
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/webhooks/${e.id}/rotate-secret`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(e.secret);
    const row = async (): Promise<typeof webhookEndpoints.$inferSelect> => {
      const [found] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, e.id));
      if (!found) throw new Error('endpoint gone');
      return found;
    };
    expect(signingSecrets(t.secretKey, await row())).toEqual([rotated.secret, e.secret]);
    advanceClock(24 * 60 * 60 * 1000 + 1000);
    expect(signingSecrets(t.secretKey, await row())).toEqual([rotated.secret]);
  });

  it('deletes the endpoints bound to a profile when the profile is deleted', async () => {
    const p = (
      await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name: 'Going' } })
    ).json();
    const bound = (await create({ url: HOOK, events: ['post.published'], profile_id: p.id })).json();
    await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${p.id}`, headers: auth(owner.key) });
    const get = await t.app.inject({ method: 'GET', url: `/v1/webhooks/${bound.id}`, headers: auth(owner.key) });
    expect(get.statusCode).toBe(404);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_URLS=true', () => {
  it('also allows http, other ports and loopback or private hosts', async () => {
    const dev = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    try {
      const o = await dev.createOwner();
      for (const url of [
        'http://localhost:3000/hook',
        'http://127.0.0.1:8080/x',
        'https://private.example.test:8443/y',
      ]) {
        const res = await dev.app.inject({
          method: 'POST',
          url: '/v1/webhooks',
          headers: auth(o.key),
          payload: { url, events: ['webhook.test'] },
        });
        expect(res.statusCode, url).toBe(201);
      }
      const stillBad = await dev.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: auth(o.key),
        payload: { url: 'ftp://localhost/x', events: ['webhook.test'] },
      });
      expect(stillBad.statusCode).toBe(422);
    } finally {
      await dev.close();
    }
  });
});
