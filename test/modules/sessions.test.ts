/**
 * Dashboard sessions over HTTP: an API key exchanged for a cookie, what the cookie may do,
 * the CSRF token every change needs, and when a session ends.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { deleteEndedSessions } from '../../src/modules/api-keys/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { dashboardSessions, profiles } from '../helpers/tables.ts';

let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createOwner();
});

afterEach(() => resetClock());

afterAll(async () => {
  await t.close();
});

interface SignedIn {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: Record<string, unknown>;
}

async function signIn(key: string): Promise<SignedIn> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/session', headers: auth(key) });
  expect(res.statusCode, res.body).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  const token = /^sb_session=([^;]+)/.exec(setCookie)?.[1];
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { cookie: `sb_session=${token}`, csrf: res.json().csrf_token, setCookie, body: res.json() };
}

function withCookie(session: SignedIn, csrf = true): Record<string, string> {
  return { cookie: session.cookie, ...(csrf ? { 'x-csrf-token': session.csrf } : {}) };
}

async function profileNames(ownerId: string): Promise<string[]> {
  const rows = await t.database.db.select({ name: profiles.name }).from(profiles).where(eq(profiles.ownerId, ownerId));
  return rows.map((r) => r.name).sort();
}

describe('POST /v1/session', () => {
  it('exchanges an owner key for an HttpOnly, SameSite=Strict cookie, not Secure on an http PUBLIC_URL', async () => {
    const session = await signIn(owner.key);
    const attributes = session.setCookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=strict');
    expect(attributes).toContain('path=/');
    expect(attributes).toContain('max-age=43200');
    expect(attributes).not.toContain('secure');
    expect(session.body).toMatchObject({
      key_kind: 'owner',
      profile_id: null,
      idle_timeout_seconds: 3600,
    });
    expect(String(session.body.id)).toMatch(/^ses_/);
    // The key itself is in neither the cookie nor the answer.
    expect(session.setCookie).not.toContain(owner.key);
    expect(JSON.stringify(session.body)).not.toContain(owner.key);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await startTestApp({ PUBLIC_URL: 'https://switchboard.example.test' });
    try {
      const o = await secure.createOwner();
      const res = await secure.app.inject({ method: 'POST', url: '/v1/session', headers: auth(o.key) });
      expect(res.statusCode).toBe(201);
      const attributes = String(res.headers['set-cookie'])
        .split(';')
        .map((a) => a.trim().toLowerCase());
      expect(attributes).toContain('secure');
    } finally {
      await secure.close();
    }
  });

  it('needs a key: a session cookie cannot make another session, and a wrong key makes none', async () => {
    const session = await signIn(owner.key);
    const byCookie = await t.app.inject({ method: 'POST', url: '/v1/session', headers: withCookie(session) });
    expect(byCookie.statusCode).toBe(401);
    expect(byCookie.json().error.code).toBe('unauthorized');
    const wrong = await t.app.inject({ method: 'POST', url: '/v1/session', headers: auth('sb_owner_nope') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });
});

describe('a session cookie on /v1', () => {
  it('reads as its key, and GET /v1/session gives the same CSRF token again', async () => {
    const session = await signIn(owner.key);
    const list = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: withCookie(session, false) });
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0].id).toBe(owner.defaultProfileId);
    const again = await t.app.inject({ method: 'GET', url: '/v1/session', headers: withCookie(session, false) });
    expect(again.statusCode).toBe(200);
    expect(again.json().csrf_token).toBe(session.csrf);
    expect(again.json().id).toBe(session.body.id);
  });

  it('changes nothing without the CSRF token, or with a wrong one', async () => {
    const session = await signIn(owner.key);
    const before = await profileNames(owner.ownerId);
    for (const headers of [
      withCookie(session, false),
      { ...withCookie(session, false), 'x-csrf-token': 'x'.repeat(43) },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers, payload: { name: 'Forged' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('csrf_token_invalid');
    }
    expect(await profileNames(owner.ownerId)).toEqual(before);
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: withCookie(session),
      payload: { name: 'Made from the dashboard' },
    });
    expect(made.statusCode).toBe(201);
    expect(await profileNames(owner.ownerId)).toContain('Made from the dashboard');
  });

  it("another session's CSRF token does not do", async () => {
    const mine = await signIn(owner.key);
    const theirs = await signIn(owner.key);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: { cookie: mine.cookie, 'x-csrf-token': theirs.csrf },
      payload: { name: 'Crossed' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('keeps a profile key session in its profile, without the owner-only endpoints', async () => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 'Client with a key' },
    });
    const profileId = other.json().id as string;
    const profileKey = await t.createProfileKey(owner.ownerId, profileId);
    const session = await signIn(profileKey);
    expect(session.body).toMatchObject({ key_kind: 'profile', profile_id: profileId });
    const ownerOnly = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: withCookie(session, false) });
    expect(ownerOnly.statusCode).toBe(403);
    expect(ownerOnly.json().error.code).toBe('owner_key_required');
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/v1/accounts',
      headers: { ...withCookie(session, false), 'service-profile': owner.defaultProfileId },
    });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error.code).toBe('profile_mismatch');
    const own = await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: withCookie(session, false) });
    expect(own.statusCode).toBe(200);
  });

  it('is ignored when an Authorization header is sent: the header alone decides', async () => {
    const session = await signIn(owner.key);
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/profiles',
      headers: { ...withCookie(session), authorization: 'Bearer sb_owner_wrong' },
    });
    expect(res.statusCode).toBe(401);
    const byKey = await t.app.inject({ method: 'GET', url: '/v1/session', headers: auth(owner.key) });
    expect(byKey.statusCode).toBe(404);
    expect(byKey.json().error.code).toBe('session_not_found');
  });
});

describe('the end of a session', () => {
  it('signs out: the cookie is cleared and stops working', async () => {
    const session = await signIn(owner.key);
    const noToken = await t.app.inject({ method: 'DELETE', url: '/v1/session', headers: withCookie(session, false) });
    expect(noToken.statusCode).toBe(403);
    const out = await t.app.inject({ method: 'DELETE', url: '/v1/session', headers: withCookie(session) });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^sb_session=;/);
    const after = await t.app.inject({ method: 'GET', url: '/v1/profiles', headers: withCookie(session, false) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('session_ended');
  });

  it('ends after 60 idle minutes, and a request within them keeps it going', async () => {
    const session = await signIn(owner.key);
    advanceClock(59 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: '/v1/session', headers: withCookie(session) })).statusCode).toBe(
      200,
    );
    advanceClock(59 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: '/v1/session', headers: withCookie(session) })).statusCode).toBe(
      200,
    );
    advanceClock(60 * 60_000);
    const idle = await t.app.inject({ method: 'GET', url: '/v1/session', headers: withCookie(session) });
    expect(idle.statusCode).toBe(401);
    expect(idle.json().error.code).toBe('session_ended');
  });

  it('ends 12 hours after sign-in however busy', async () => {
    const session = await signIn(owner.key);
    for (let hour = 0; hour < 11; hour += 1) {
      advanceClock(55 * 60_000);
      expect(
        (await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: withCookie(session) })).statusCode,
      ).toBe(200);
    }
    // 10 h 5 min so far, then 11 h and 11 h 55 min: still open; past 12 h it ends though used 10 minutes ago.
    for (let step = 0; step < 2; step += 1) {
      advanceClock(55 * 60_000);
      expect(
        (await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: withCookie(session) })).statusCode,
      ).toBe(200);
    }
    advanceClock(10 * 60_000);
    const late = await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: withCookie(session) });
    expect(late.statusCode).toBe(401);
    expect(late.json().error.code).toBe('session_ended');
  });

  it('ends when its key is deleted, and the clean-up removes sessions past a limit', async () => {
    const other = await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: 'Key to revoke' },
    });
    const profileId = other.json().id as string;
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${profileId}/api-keys`,
      headers: auth(owner.key),
    });
    const session = await signIn(created.json().key);
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}/api-keys/${created.json().id}`,
      headers: auth(owner.key),
    });
    const res = await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: withCookie(session) });
    expect(res.statusCode).toBe(401);

    const idle = await signIn(owner.key);
    const idleId = idle.body.id as string;
    advanceClock(61 * 60_000);
    expect(await deleteEndedSessions(t.database.db)).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .select({ id: dashboardSessions.id })
      .from(dashboardSessions)
      .where(eq(dashboardSessions.id, idleId));
    expect(left).toEqual([]);
  });
});
