import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { deleteOldConnectLinks } from '../../src/modules/connect/service.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile } from '../helpers/media-files.ts';
import { connectAttempts, connectLinks, connectRedirectOrigins } from '../helpers/tables.ts';

let t: TestApp;
let owner: TestOwner;

async function post(url: string, payload: unknown, key = owner.key) {
  return await t.app.inject({ method: 'POST', url, headers: auth(key), payload: payload as Record<string, unknown> });
}

async function originsOf(ownerId: string) {
  return await t.database.db.select().from(connectRedirectOrigins).where(eq(connectRedirectOrigins.ownerId, ownerId));
}

async function linksOf(ownerId: string) {
  return await t.database.db.select().from(connectLinks).where(eq(connectLinks.ownerId, ownerId));
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  owner = await t.createOwner('Agency');
});
afterEach(() => resetClock());
afterAll(() => t.close());

describe('redirect origins', () => {
  it('registers an origin normalised, and answers the same entry when registered again', async () => {
    const first = await post('/v1/connect/redirect-origins', { origin: 'https://App.Example.com:443/' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ origin: 'https://app.example.com' });
    expect(first.json().id).toMatch(/^ro_/);
    const again = await post('/v1/connect/redirect-origins', { origin: 'https://app.example.com' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const local = await post('/v1/connect/redirect-origins', { origin: 'http://localhost:3000' });
    expect(local.statusCode).toBe(201);
    expect(local.json().origin).toBe('http://localhost:3000');
    const list = await t.app.inject({ method: 'GET', url: '/v1/connect/redirect-origins', headers: auth(owner.key) });
    expect(list.json()).toEqual({ data: [first.json(), local.json()], next_cursor: null });
  });

  it('refuses anything but a scheme, host and optional port, storing nothing', async () => {
    const before = await originsOf(owner.ownerId);
    for (const origin of [
      'https://app.example.com/callback',
      'https://app.example.com?x=1',
      'https://app.example.com/#top',
      'https://user:pw@app.example.com',
      'http://app.example.com',
      'ftp://app.example.com',
      'javascript:alert(1)',
      'app.example.com',
      '',
    ]) {
      const res = await post('/v1/connect/redirect-origins', { origin });
      expect(res.statusCode, origin).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect(await originsOf(owner.ownerId)).toEqual(before);
  });

  it('refuses a host that is no host name or IP address, a port of 0 and http outside localhost, naming body.origin', async () => {
    const before = await originsOf(owner.ownerId);
    const refusals: [origin: string, message: string][] = [
      ['https://*.example.com', 'must have a host name of letters, digits and hyphens (no wildcard), or an IP address'],
      [
        'https://%2A.example.com',
        'must have a host name of letters, digits and hyphens (no wildcard), or an IP address',
      ],
      [
        'https://app..example.com',
        'must have a host name of letters, digits and hyphens (no wildcard), or an IP address',
      ],
      [
        'https://-app.example.com',
        'must have a host name of letters, digits and hyphens (no wildcard), or an IP address',
      ],
      [
        'https://app_1.example.com',
        'must have a host name of letters, digits and hyphens (no wildcard), or an IP address',
      ],
      [
        'https://app.example.com.',
        'must have a host name of letters, digits and hyphens (no wildcard), or an IP address',
      ],
      [
        `https://${'a'.repeat(64)}.example.com`,
        'must have a host name of letters, digits and hyphens (no wildcard), or an IP address',
      ],
      ['https://app.example.com:0', 'must have a port from 1 to 65535'],
      ['https://app.example.com:65536', 'must be an absolute URL'],
      ['http://10.0.0.1', 'must use https (http only for localhost)'],
      ['http://[::2]', 'must use https (http only for localhost)'],
      ['http://localhost.example.com', 'must use https (http only for localhost)'],
    ];
    for (const [origin, message] of refusals) {
      const res = await post('/v1/connect/redirect-origins', { origin });
      expect(res.statusCode, origin).toBe(400);
      expect(res.json().error, origin).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'body.origin', message }],
      });
    }
    expect(await originsOf(owner.ownerId)).toEqual(before);
  });

  it('takes host names, IP addresses and ports 1 to 65535; http for localhost, *.localhost, 127.x.x.x and [::1]', async () => {
    const accepted: [origin: string, stored: string][] = [
      ['https://Bücher.example', 'https://xn--bcher-kva.example'],
      ['https://203.0.113.7:8443', 'https://203.0.113.7:8443'],
      ['https://[2001:db8::1]', 'https://[2001:db8::1]'],
      ['https://app.example.com:1', 'https://app.example.com:1'],
      ['https://app.example.com:65535', 'https://app.example.com:65535'],
      ['http://localhost:3001', 'http://localhost:3001'],
      ['http://app.localhost:5173', 'http://app.localhost:5173'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['http://[::1]:5173', 'http://[::1]:5173'],
    ];
    for (const [origin, stored] of accepted) {
      const res = await post('/v1/connect/redirect-origins', { origin });
      expect(res.statusCode, `${origin}: ${res.body}`).toBe(201);
      expect(res.json().origin).toBe(stored);
    }
  });

  it('checks a redirect_url as it checks an origin: what cannot be registered cannot be named', async () => {
    const origins = [
      'https://*.example.com',
      'https://app.example.com:0',
      'http://10.0.0.1',
      'https://app..example.com',
      'http://[::1]:4000',
      'http://127.0.0.2:4000',
      'https://checked.example.com',
    ];
    for (const origin of origins) {
      const registered = await post('/v1/connect/redirect-origins', { origin });
      const link = await post(`/v1/profiles/${owner.defaultProfileId}/connect-links`, {
        redirect_url: `${origin}/back`,
      });
      const where = `${origin}: origin ${registered.statusCode}, link ${link.statusCode} ${link.body}`;
      if (registered.statusCode === 400) {
        expect(link.statusCode, where).toBe(400);
        expect(link.json().error.details, where).toEqual([
          { field: 'body.redirect_url', message: registered.json().error.details[0].message },
        ]);
      } else {
        expect(registered.statusCode, where).toBe(201);
        expect(link.statusCode, where).toBe(201);
      }
    }
  });

  it('deletes an origin; an unknown or foreign one is 404', async () => {
    const other = await t.createOwner('Other agency');
    const mine = (await post('/v1/connect/redirect-origins', { origin: 'https://delete-me.example.com' })).json();
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/v1/connect/redirect-origins/${mine.id}`,
      headers: auth(other.key),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('redirect_origin_not_found');
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/connect/redirect-origins/${mine.id}`,
      headers: auth(owner.key),
    });
    expect(res.statusCode).toBe(204);
    expect((await originsOf(owner.ownerId)).map((o) => o.id)).not.toContain(mine.id);
    for (const id of [mine.id, 'ro_nope']) {
      const gone = await t.app.inject({
        method: 'DELETE',
        url: `/v1/connect/redirect-origins/${id}`,
        headers: auth(owner.key),
      });
      expect(gone.statusCode).toBe(404);
    }
  });

  it('holds at most 50 origins per owner', async () => {
    const busy = await t.createOwner('Busy agency');
    for (let i = 0; i < 50; i += 1) {
      expect(
        (await post('/v1/connect/redirect-origins', { origin: `https://a${i}.example.com` }, busy.key)).statusCode,
      ).toBe(201);
    }
    const res = await post('/v1/connect/redirect-origins', { origin: 'https://one-more.example.com' }, busy.key);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('redirect_origin_limit_reached');
    expect(await originsOf(busy.ownerId)).toHaveLength(50);
  });
});

describe('connect settings', () => {
  it('sets, reads and resets the brand name', async () => {
    const fresh = await t.createOwner('Fresh agency');
    const read = () => t.app.inject({ method: 'GET', url: '/v1/connect/settings', headers: auth(fresh.key) });
    expect((await read()).json()).toEqual({ brand_name: null, logo: null, updated_at: null });
    const patch = (payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: '/v1/connect/settings',
        headers: auth(fresh.key),
        payload: payload as Record<string, unknown>,
      });
    const set = await patch({ brand_name: 'Ada & <Co>' });
    expect(set.statusCode).toBe(200);
    expect(set.json().brand_name).toBe('Ada & <Co>');
    expect((await read()).json()).toEqual(set.json());
    for (const bad of [
      { brand_name: '' },
      { brand_name: '   ' },
      { brand_name: 'a\u0000b' },
      { brand_name: 'x'.repeat(101) },
      { other: 1 },
    ]) {
      const res = await patch(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await read()).json().brand_name).toBe('Ada & <Co>');
    expect((await patch({ brand_name: null })).json().brand_name).toBeNull();
  });

  it('takes a logo as the body, keeps it as a PNG of at most 512 by 512, and gives it back', async () => {
    const fresh = await t.createOwner('Logo agency');
    const put = (body: Buffer, type: string, key = fresh.key) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/connect/settings/logo',
        headers: { ...auth(key), 'content-type': type },
        payload: body,
      });
    const getLogo = (key = fresh.key) =>
      t.app.inject({ method: 'GET', url: '/v1/connect/settings/logo', headers: auth(key) });
    const none = await getLogo();
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('logo_not_found');

    const set = await put(await imageFile('jpeg', { width: 1024, height: 600 }), 'image/jpeg');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ brand_name: null, logo: { width: 512, height: 300 } });
    const logo = await getLogo();
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(await sharp(logo.rawPayload).metadata()).toMatchObject({ format: 'png', width: 512, height: 300 });
    // A small one is not enlarged; WebP and PNG are taken too.
    expect((await put(await imageFile('webp', { width: 40, height: 20 }), 'image/webp')).json().logo).toMatchObject({
      width: 40,
      height: 20,
    });
    const small = await put(await imageFile('png', { width: 64, height: 48 }), 'image/png; charset=binary');
    expect(small.json().logo).toMatchObject({ width: 64, height: 48 });

    // Refused, changing nothing: another type, bytes that are no image, too large, a profile key.
    const refusals: [Promise<{ statusCode: number; json(): { error: { code: string } } }>, number, string][] = [
      [put(await imageFile('gif'), 'image/gif'), 415, 'unsupported_media_type'],
      [put(Buffer.from('{"logo":1}'), 'application/json'), 415, 'unsupported_media_type'],
      [put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'), 422, 'invalid_image'],
      // Images of other formats, named as one taken: only PNG, JPEG and WebP are decoded.
      [
        put(
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50"/></svg>',
          ),
          'image/png',
        ),
        422,
        'invalid_image',
      ],
      [put(await imageFile('gif'), 'image/png'), 422, 'invalid_image'],
      [
        t.app.inject({ method: 'PUT', url: '/v1/connect/settings/logo', headers: auth(fresh.key) }),
        400,
        'validation_failed',
      ],
      [put(Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'image/png'), 413, 'payload_too_large'],
    ];
    for (const [answer, status, code] of refusals) {
      const res = await answer;
      expect(res.statusCode, code).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    const profileKey = await t.createProfileKey(fresh.ownerId, fresh.defaultProfileId);
    const byProfileKey = await put(await imageFile('png'), 'image/png', profileKey);
    expect(byProfileKey.statusCode).toBe(403);
    expect(byProfileKey.json().error.code).toBe('owner_key_required');
    expect(await sharp((await getLogo()).rawPayload).metadata()).toMatchObject({ width: 64, height: 48 });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/v1/connect/settings/logo',
      headers: auth(fresh.key),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().logo).toBeNull();
    expect((await getLogo()).statusCode).toBe(404);
  });

  it("keeps each owner's logo its own", async () => {
    const first = await t.createOwner('First with a logo');
    const second = await t.createOwner('Second without');
    const set = await t.app.inject({
      method: 'PUT',
      url: '/v1/connect/settings/logo',
      headers: { ...auth(first.key), 'content-type': 'image/jpeg' },
      payload: await imageFile('jpeg', { width: 30, height: 10 }),
    });
    expect(set.statusCode).toBe(200);
    const other = await t.app.inject({ method: 'GET', url: '/v1/connect/settings/logo', headers: auth(second.key) });
    expect(other.statusCode).toBe(404);
    const settings = await t.app.inject({ method: 'GET', url: '/v1/connect/settings', headers: auth(second.key) });
    expect(settings.json().logo).toBeNull();
    // A JPEG named as a PNG is taken: its bytes say what it is.
    const named = await t.app.inject({
      method: 'PUT',
      url: '/v1/connect/settings/logo',
      headers: { ...auth(second.key), 'content-type': 'image/png' },
      payload: await imageFile('jpeg', { width: 20, height: 20 }),
    });
    expect(named.json().logo).toMatchObject({ width: 20, height: 20 });
  });
});

describe('creating a connect link', () => {
  let profileId: string;
  beforeAll(async () => {
    await post('/v1/connect/redirect-origins', { origin: 'https://app.example.com' });
    profileId = (await post('/v1/profiles', { name: 'Client', external_id: 'client-7' })).json().id;
  });

  it('answers url, profile_id (the id, also when named by external_id) and expires_at 30 minutes on', async () => {
    const before = Date.now();
    const res = await post('/v1/profiles/client-7/connect-links', {
      redirect_url: 'https://app.example.com/back?tab=accounts',
      state: 'xyz',
      platforms: ['instagram', 'tiktok'],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'profile_id', 'url']);
    expect(body.profile_id).toBe(profileId);
    const expiresIn = Date.parse(body.expires_at) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000 + 5000);
    const url = new URL(body.url);
    expect(`${url.protocol}//${url.host}`).toBe('http://localhost');
    const token = url.pathname.replace('/connect/', '');
    // 43 base64url characters: 256 bits.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = (await linksOf(owner.ownerId)).filter((l) => l.state === 'xyz');
    expect(stored).toMatchObject({
      profileId,
      redirectUrl: 'https://app.example.com/back?tab=accounts',
      platforms: ['instagram', 'tiktok'],
    });
    // Only the hash is kept.
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('makes a different token every time', async () => {
    const urls = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      urls.add(
        (await post(`/v1/profiles/${profileId}/connect-links`, { redirect_url: 'https://app.example.com/' })).json()
          .url,
      );
    }
    expect(urls.size).toBe(20);
  });

  it('uses PUBLIC_URL for the link when set', async () => {
    const other = await startTestApp({ PUBLIC_URL: 'https://connect.agency.test' });
    try {
      const o = await other.createOwner();
      await other.app.inject({
        method: 'POST',
        url: '/v1/connect/redirect-origins',
        headers: auth(o.key),
        payload: { origin: 'https://app.example.com' },
      });
      const res = await other.app.inject({
        method: 'POST',
        url: `/v1/profiles/${o.defaultProfileId}/connect-links`,
        headers: auth(o.key),
        payload: { redirect_url: 'https://app.example.com/back' },
      });
      expect(res.json().url).toMatch(/^https:\/\/connect\.agency\.test\/connect\/[A-Za-z0-9_-]{43}$/);
    } finally {
      await other.close();
    }
  });

  it('refuses a redirect_url outside the registered origins with 422, look-alikes included', async () => {
    const before = await linksOf(owner.ownerId);
    for (const redirect_url of [
      'https://app.example.com.evil.test/back',
      'https://evil.test/https://app.example.com/',
      'https://evil.test/?next=https://app.example.com',
      'https://sub.app.example.com/back',
      'https://app.example.com:8443/back',
      'https://app.example.co/back',
      'https://xn--pp-xla.example.com/back',
    ]) {
      const res = await post(`/v1/profiles/${profileId}/connect-links`, { redirect_url });
      expect(res.statusCode, redirect_url).toBe(422);
      expect(res.json().error.code).toBe('redirect_origin_not_registered');
    }
    expect(await linksOf(owner.ownerId)).toEqual(before);
  });

  it('refuses malformed redirect URLs, credentials and fragments with 400', async () => {
    for (const redirect_url of [
      'https://app.example.com@evil.test/',
      'https://user:pw@app.example.com/',
      'http://app.example.com/back',
      'javascript://app.example.com/%0aalert(1)',
      '//app.example.com/back',
      '/back',
      'https://app.example.com/back#frag',
    ]) {
      const res = await post(`/v1/profiles/${profileId}/connect-links`, { redirect_url });
      expect(res.statusCode, redirect_url).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it('validates the body: redirect_url required, platforms known and not repeated', async () => {
    for (const payload of [
      {},
      { redirect_url: 'https://app.example.com/', platforms: ['myspace'] },
      { redirect_url: 'https://app.example.com/', platforms: [] },
      { redirect_url: 'https://app.example.com/', platforms: ['instagram', 'instagram'] },
      { redirect_url: 'https://app.example.com/', state: 7 },
      { redirect_url: 'https://app.example.com/', extra: true },
    ]) {
      const res = await post(`/v1/profiles/${profileId}/connect-links`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it('answers 404 profile_not_found for an unknown profile, or another owner\u2019s', async () => {
    const other = await t.createOwner('Someone else');
    for (const [ref, key] of [
      ['no-such-client', owner.key],
      [profileId, other.key],
    ] as const) {
      const res = await post(`/v1/profiles/${ref}/connect-links`, { redirect_url: 'https://app.example.com/' }, key);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('profile_not_found');
    }
  });

  it('lets a profile key create links for its own profile only', async () => {
    const key = await t.createProfileKey(owner.ownerId, profileId);
    const own = await post(
      `/v1/profiles/${profileId}/connect-links`,
      { redirect_url: 'https://app.example.com/' },
      key,
    );
    expect(own.statusCode).toBe(201);
    const other = await post(
      `/v1/profiles/${owner.defaultProfileId}/connect-links`,
      { redirect_url: 'https://app.example.com/' },
      key,
    );
    expect(other.statusCode).toBe(404);
  });

  it('answers 422 platform_not_available for a platform without credentials', async () => {
    const live = await startTestApp({
      PLATFORMS: 'live',
      INSTAGRAM_CLIENT_ID: 'id',
      INSTAGRAM_CLIENT_SECRET: 'secret',
    });
    try {
      const o = await live.createOwner();
      await live.app.inject({
        method: 'POST',
        url: '/v1/connect/redirect-origins',
        headers: auth(o.key),
        payload: { origin: 'https://app.example.com' },
      });
      const create = (platforms?: string[]) =>
        live.app.inject({
          method: 'POST',
          url: `/v1/profiles/${o.defaultProfileId}/connect-links`,
          headers: auth(o.key),
          payload: { redirect_url: 'https://app.example.com/', ...(platforms ? { platforms } : {}) },
        });
      const res = await create(['instagram', 'threads']);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('platform_not_available');
      expect(res.json().error.message).toContain('threads');
      expect((await create(['instagram'])).statusCode).toBe(201);
      // Without a list the page offers only what is available.
      const page = await live.app.inject({ method: 'GET', url: new URL((await create()).json().url).pathname });
      expect([...page.body.matchAll(/\/start\/([a-z]+)"/g)].map((m) => m[1])).toEqual(['instagram']);
      // Nor does a callback for a platform without credentials reach an adapter.
      const callback = await live.app.inject({ method: 'GET', url: '/connect/callback/threads?code=c&state=s' });
      expect(callback.statusCode).toBe(404);
      expect(callback.headers['content-type']).toContain('text/html');
    } finally {
      await live.close();
    }
  });

  it('refuses a 21st trip with one link, starting nothing', async () => {
    const res = await post(`/v1/profiles/${profileId}/connect-links`, { redirect_url: 'https://app.example.com/' });
    const path = new URL(res.json().url).pathname;
    for (let i = 0; i < 20; i += 1) {
      expect((await t.app.inject({ method: 'GET', url: `${path}/start/threads` })).statusCode).toBe(303);
    }
    const refused = await t.app.inject({ method: 'GET', url: `${path}/start/threads` });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.body).toContain('Too many tries');
  });

  it('deletes links (and their trips) a day after they expired', async () => {
    const res = await post(`/v1/profiles/${profileId}/connect-links`, {
      redirect_url: 'https://app.example.com/',
      state: 'to-be-deleted',
    });
    await t.app.inject({ method: 'GET', url: `${new URL(res.json().url).pathname}/start/threads` });
    const kept = (await linksOf(owner.ownerId)).length;
    const trips = (await t.database.db.select().from(connectAttempts)).length;
    advanceClock(30 * 60_000 + 23 * 60 * 60_000);
    expect(await deleteOldConnectLinks(t.database.db)).toBe(0);
    advanceClock(2 * 60 * 60_000);
    expect(await deleteOldConnectLinks(t.database.db)).toBeGreaterThan(0);
    const left = await linksOf(owner.ownerId);
    expect(left.some((l) => l.state === 'to-be-deleted')).toBe(false);
    expect(left.length).toBeLessThan(kept);
    expect((await t.database.db.select().from(connectAttempts)).length).toBeLessThan(trips);
  });

  it('redirects with expired once the link is 30 minutes old', async () => {
    const res = await post(`/v1/profiles/${profileId}/connect-links`, {
      redirect_url: 'https://app.example.com/back',
      state: 'old',
    });
    const path = new URL(res.json().url).pathname;
    advanceClock(29 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    advanceClock(60_000);
    const late = await t.app.inject({ method: 'GET', url: path });
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toBe('https://app.example.com/back?status=error&error=expired&state=old#');
  });
});
