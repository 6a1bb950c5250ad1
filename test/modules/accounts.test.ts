import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { endAccountAccess } from '../../src/modules/accounts/access.ts';
import { credentialsOf, saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import type { Account } from '../../src/modules/accounts/tables.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { accounts, events, posts, postTargets } from '../helpers/tables.ts';

const DAY = 86_400_000;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Agency extends TestOwner {
  /** A client profile (external_id `client-a`) with its own profile key. */
  clientId: string;
  clientKey: string;
  /** A second client profile (external_id `client-b`). */
  otherClientId: string;
}

async function newProfile(owner: TestOwner, name: string, externalId: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: auth(owner.key),
    payload: { name, external_id: externalId },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** A fresh owner for each test that counts accounts, so tests never see each other's. */
async function agency(): Promise<Agency> {
  const owner = await t.createOwner();
  const clientId = await newProfile(owner, 'Client A', 'client-a');
  return {
    ...owner,
    clientId,
    clientKey: await t.createProfileKey(owner.ownerId, clientId),
    otherClientId: await newProfile(owner, 'Client B', 'client-b'),
  };
}

let accountsMade = 0;

/** Connects a platform account into `profileId`, as the connect flow stores one. */
async function connect(ownerId: string, profileId: string, platform: Platform = 'instagram'): Promise<Account> {
  accountsMade += 1;
  const n = accountsMade;
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId,
      profileId,
      platform,
      tokens: {
        accessToken: `access-token-${n}`,
        expiresAt: new Date(Date.now() + 60 * DAY),
        refreshToken: `refresh-token-${n}`,
        refreshExpiresAt: new Date(Date.now() + 365 * DAY),
        platformUserId: `${platform}-user-${n}`,
        scopes: ['basic', 'content_publish'],
      },
      profile: {
        id: `${platform}-user-${n}`,
        username: `user${n}`,
        name: `User ${n}`,
        avatarUrl: null,
        followersCount: null,
      },
    }),
  );
  return account;
}

async function stored(id: string): Promise<Account> {
  const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, id));
  if (!row) throw new Error(`no account ${id}`);
  return row;
}

async function eventsAbout(accountId: string) {
  return await t.database.db.select().from(events).where(sql`${events.data}->'account'->>'id' = ${accountId}`);
}

interface AccountBody {
  id: string;
  profile_id: string;
  platform: string;
  platform_user_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  status: string;
  permissions: string[];
  notices: 'subscribed' | 'polling_only' | null;
  notices_error: string | null;
  connected_at: string;
  created_at: string;
  updated_at: string;
  posts_at_risk: { count: number; next_scheduled_at: string | null } | null;
}

/** The stored account as docs/connect.md says the API shows it (written out here, not read from the renderer). */
function documented(a: Account): AccountBody {
  return {
    id: a.id,
    profile_id: a.profileId,
    platform: a.platform,
    platform_user_id: a.platformUserId,
    username: a.username,
    display_name: a.displayName,
    avatar_url: a.avatarUrl,
    status: a.status,
    permissions: a.scopes,
    // Not subscribed yet, or tried again after a failure: polled only; TikTok has no notices.
    notices: a.commentNotices === 'subscribed' ? 'subscribed' : a.platform === 'tiktok' ? null : 'polling_only',
    notices_error: a.commentNoticesError,
    connected_at: a.connectedAt.toISOString(),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
    // These tests' accounts have no posts: none at risk once access ends.
    posts_at_risk: a.status === 'connected' ? null : { count: 0, next_scheduled_at: null },
  };
}

async function list(key: string, query = '', profile?: string): Promise<AccountBody[]> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/accounts${query}`, headers: auth(key, profile) });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

function request(method: 'GET' | 'DELETE', id: string, key: string, profile?: string) {
  return t.app.inject({ method, url: `/v1/accounts/${id}`, headers: auth(key, profile) });
}

function move(id: string, body: unknown, key: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/accounts/${id}/move`,
    headers: { ...auth(key), ...headers },
    // biome-ignore lint/suspicious/noExplicitAny: the bad-body tests send shapes the schema refuses
    payload: body as any,
  });
}

/** A post in `profileId` with one target on the account, in `status`. */
async function postOn(a: Agency, profileId: string, accountId: string, status: string): Promise<string> {
  const at = new Date();
  const postId = newId('post');
  await t.database.db
    .insert(posts)
    .values({ id: postId, ownerId: a.ownerId, profileId, scheduledAt: at, createdAt: at, updatedAt: at });
  await t.database.db.insert(postTargets).values({
    id: newId('postTarget'),
    postId,
    accountId,
    platform: 'threads',
    status: status as 'scheduled',
    createdAt: at,
    updatedAt: at,
  });
  return postId;
}

describe('listing accounts', () => {
  it("shows an owner key every profile's accounts, oldest first, without tokens", async () => {
    const a = await agency();
    const first = await connect(a.ownerId, a.defaultProfileId, 'threads');
    const second = await connect(a.ownerId, a.clientId, 'instagram');
    const res = await t.app.inject({ method: 'GET', url: '/v1/accounts', headers: auth(a.key) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next_cursor).toBeNull();
    expect(body.data.map((x: AccountBody) => x.id)).toEqual([first.id, second.id]);
    expect(body.data[1]).toEqual({
      id: second.id,
      profile_id: a.clientId,
      platform: 'instagram',
      platform_user_id: second.platformUserId,
      username: second.username,
      display_name: second.displayName,
      avatar_url: null,
      status: 'connected',
      permissions: ['basic', 'content_publish'],
      // Just connected: the subscription to its comment notices is queued.
      notices: 'polling_only',
      notices_error: null,
      connected_at: second.connectedAt.toISOString(),
      created_at: second.createdAt.toISOString(),
      updated_at: second.updatedAt.toISOString(),
      posts_at_risk: null,
    });
    expect(second.id).toMatch(/^acc_/);
    expect(res.body).not.toContain('token');
  });

  it('shows only one profile with a Service-Profile header (id or external_id) or a profile key', async () => {
    const a = await agency();
    await connect(a.ownerId, a.defaultProfileId);
    const client = await connect(a.ownerId, a.clientId);
    await connect(a.ownerId, a.otherClientId);
    for (const [key, header] of [
      [a.key, a.clientId],
      [a.key, 'client-a'],
      [a.clientKey, undefined],
      [a.clientKey, 'client-a'],
    ] as const) {
      expect((await list(key, '', header)).map((x) => x.id)).toEqual([client.id]);
    }
  });

  it('filters by platform and by status', async () => {
    const a = await agency();
    const insta = await connect(a.ownerId, a.clientId, 'instagram');
    const threads = await connect(a.ownerId, a.clientId, 'threads');
    const tiktok = await connect(a.ownerId, a.clientId, 'tiktok');
    await t.database.db.transaction((tx) => endAccountAccess(tx, threads.id, 'expired', 'token ran out'));
    expect((await request('DELETE', tiktok.id, a.key)).statusCode).toBe(200);

    expect((await list(a.key, '?platform=threads')).map((x) => x.id)).toEqual([threads.id]);
    expect((await list(a.key, '?status=connected')).map((x) => x.id)).toEqual([insta.id]);
    expect((await list(a.key, '?status=expired')).map((x) => x.id)).toEqual([threads.id]);
    expect((await list(a.key, '?status=disconnected')).map((x) => x.id)).toEqual([tiktok.id]);
    expect(await list(a.key, '?platform=instagram&status=expired')).toEqual([]);
    expect(await list(a.key, '?platform=facebook')).toEqual([]);

    for (const query of ['?platform=myspace', '?status=gone', '?sort=name']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/accounts${query}`, headers: auth(a.key) });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it('pages through every account exactly once', async () => {
    const a = await agency();
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) made.push((await connect(a.ownerId, a.clientId)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const res = await t.app.inject({ method: 'GET', url: `/v1/accounts${query}`, headers: auth(a.key) });
      const body: { data: AccountBody[]; next_cursor: string | null } = res.json();
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data.map((x) => x.id));
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(made);
  });

  it("shows another owner none of this owner's accounts", async () => {
    const a = await agency();
    const b = await agency();
    const mine = await connect(a.ownerId, a.clientId);
    const theirs = await connect(b.ownerId, b.clientId);
    expect((await list(b.key)).map((x) => x.id)).toEqual([theirs.id]);
    expect((await list(b.clientKey)).map((x) => x.id)).toEqual([theirs.id]);
    expect((await list(a.key)).map((x) => x.id)).toEqual([mine.id]);
  });

  it('hides the accounts of a profile being deleted, at once', async () => {
    const a = await agency();
    const kept = await connect(a.ownerId, a.clientId);
    const doomed = await connect(a.ownerId, a.otherClientId);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${a.otherClientId}`, headers: auth(a.key) });
    expect(del.statusCode).toBe(202);
    expect((await list(a.key)).map((x) => x.id)).toEqual([kept.id]);
    expect((await request('GET', doomed.id, a.key)).statusCode).toBe(404);
    expect((await request('DELETE', doomed.id, a.key)).statusCode).toBe(404);
    expect((await stored(doomed.id)).status).toBe('connected');
  });
});

describe('getting an account', () => {
  it('answers the account the caller sees', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    for (const [key, header] of [
      [a.key, undefined],
      [a.key, 'client-a'],
      [a.clientKey, undefined],
    ] as const) {
      const res = await request('GET', account.id, key, header);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(documented(account));
    }
  });

  it('answers 404 account_not_found for an account the caller does not see, or an id naming nothing', async () => {
    const a = await agency();
    const b = await agency();
    const inDefault = await connect(a.ownerId, a.defaultProfileId);
    const inClient = await connect(a.ownerId, a.clientId);
    const cases: [string, string, string | undefined][] = [
      [inClient.id, b.key, undefined],
      [inClient.id, b.clientKey, undefined],
      [inDefault.id, a.clientKey, undefined],
      [inDefault.id, a.key, 'client-a'],
      [inClient.id, a.key, 'client-b'],
      ['acc_01m7yz2jsceh7ssvnprgwt5vtd', a.key, undefined],
      ['not-an-account', a.key, undefined],
      [a.clientId, a.key, undefined],
    ];
    for (const [id, key, header] of cases) {
      const res = await request('GET', id, key, header);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code).toBe('account_not_found');
    }
  });
});

describe('disconnecting an account', () => {
  it('makes it disconnected, deletes its tokens and sends account.disconnected once', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    expect(account.accessTokenSealed).not.toBeNull();
    expect(account.refreshTokenSealed).not.toBeNull();

    const res = await request('DELETE', account.id, a.key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: account.id, profile_id: a.clientId, status: 'disconnected' });

    const row = await stored(account.id);
    expect(row).toMatchObject({
      status: 'disconnected',
      accessTokenSealed: null,
      refreshTokenSealed: null,
      tokenExpiresAt: null,
      refreshExpiresAt: null,
      refreshRetryAt: null,
      refreshFailures: 0,
    });
    expect(() => credentialsOf(t.secretKey, row)).toThrow(/disconnected/);

    const sent = await eventsAbout(account.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'account.disconnected', ownerId: a.ownerId, profileId: a.clientId });
    expect(sent[0]?.data).toEqual({
      account: body,
      posts_at_risk: { count: 0, next_scheduled_at: null, post_ids: [] },
    });

    // Disconnecting again answers the same and reports nothing new.
    const again = await request('DELETE', account.id, a.key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    expect(await eventsAbout(account.id)).toHaveLength(1);
    expect((await list(a.key, '?status=disconnected')).map((x) => x.id)).toEqual([account.id]);
  });

  it('disconnects an expired account too', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    await t.database.db.transaction((tx) => endAccountAccess(tx, account.id, 'expired', 'token ran out'));
    const res = await request('DELETE', account.id, a.clientKey);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('disconnected');
    expect((await eventsAbout(account.id)).map((e) => e.type)).toEqual(['account.expired', 'account.disconnected']);
  });

  it("lets a profile key disconnect only its profile's accounts", async () => {
    const a = await agency();
    const b = await agency();
    const other = await connect(a.ownerId, a.otherClientId);
    for (const [key, header] of [
      [a.clientKey, undefined],
      [a.key, 'client-a'],
      [b.key, undefined],
    ] as const) {
      const res = await request('DELETE', other.id, key, header);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('account_not_found');
    }
    expect(await stored(other.id)).toEqual(other);
    expect(await eventsAbout(other.id)).toEqual([]);

    const own = await connect(a.ownerId, a.clientId);
    expect((await request('DELETE', own.id, a.clientKey)).json().status).toBe('disconnected');
  });
});

describe('moving an account', () => {
  it('moves it to a profile named by id or external_id, with no event', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);

    const res = await move(account.id, { profile_id: a.otherClientId }, a.key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: account.id, profile_id: a.otherClientId, status: 'connected' });
    expect(new Date(body.updated_at).getTime()).toBeGreaterThan(account.updatedAt.getTime());
    expect((await stored(account.id)).profileId).toBe(a.otherClientId);
    expect(await list(a.key, '', 'client-a')).toEqual([]);
    expect((await list(a.key, '', 'client-b')).map((x) => x.id)).toEqual([account.id]);

    const back = await move(account.id, { profile_id: 'client-a' }, a.key);
    expect(back.statusCode).toBe(200);
    expect(back.json().profile_id).toBe(a.clientId);
    expect((await list(a.clientKey)).map((x) => x.id)).toEqual([account.id]);
    expect(await eventsAbout(account.id)).toEqual([]);
  });

  it('changes nothing when the account is already in that profile', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    const res = await move(account.id, { profile_id: 'client-a' }, a.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(documented(account));
    expect(await stored(account.id)).toEqual(account);
  });

  it('answers 404 profile_not_found for a profile the owner does not have, changing nothing', async () => {
    const a = await agency();
    const b = await agency();
    const account = await connect(a.ownerId, a.clientId);
    for (const ref of ['no-such-client', 'prf_01m7yz2jsceh7ssvnprgwt5vtd', b.clientId]) {
      const res = await move(account.id, { profile_id: ref }, a.key);
      expect(res.statusCode, ref).toBe(404);
      expect(res.json().error.code).toBe('profile_not_found');
    }
    expect(await stored(account.id)).toEqual(account);
  });

  it('answers 404 account_not_found for an account the caller does not see', async () => {
    const a = await agency();
    const b = await agency();
    const account = await connect(a.ownerId, a.clientId);
    for (const [key, headers] of [
      [b.key, {}],
      [a.key, { 'service-profile': 'client-b' }],
    ] as const) {
      const res = await move(account.id, { profile_id: b.clientId }, key, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('account_not_found');
    }
    const unknown = await move('acc_01m7yz2jsceh7ssvnprgwt5vtd', { profile_id: a.otherClientId }, a.key);
    expect(unknown.json().error.code).toBe('account_not_found');
    expect(await stored(account.id)).toEqual(account);
  });

  it('lets an owner key with the Service-Profile header of the account move it', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    const res = await move(account.id, { profile_id: 'client-b' }, a.key, { 'service-profile': 'client-a' });
    expect(res.statusCode).toBe(200);
    expect(res.json().profile_id).toBe(a.otherClientId);
  });

  it('answers a profile key with 403 owner_key_required', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    const res = await move(account.id, { profile_id: a.otherClientId }, a.clientKey);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('owner_key_required');
    expect(await stored(account.id)).toEqual(account);
  });

  for (const status of ['scheduled', 'publishing']) {
    it(`refuses with 409 account_has_scheduled_posts while a post target is ${status}, changing nothing`, async () => {
      const a = await agency();
      const account = await connect(a.ownerId, a.clientId);
      await postOn(a, a.clientId, account.id, 'published');
      await postOn(a, a.clientId, account.id, status);
      const res = await move(account.id, { profile_id: a.otherClientId }, a.key);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('account_has_scheduled_posts');
      expect(await stored(account.id)).toEqual(account);
    });
  }

  it('moves an account whose posts are all done; the posts stay in the old profile', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    const published = await postOn(a, a.clientId, account.id, 'published');
    const failed = await postOn(a, a.clientId, account.id, 'failed');
    // Another account's waiting post does not hold this one back.
    const neighbour = await connect(a.ownerId, a.clientId);
    await postOn(a, a.clientId, neighbour.id, 'scheduled');

    const res = await move(account.id, { profile_id: a.otherClientId }, a.key);
    expect(res.statusCode).toBe(200);
    expect(res.json().profile_id).toBe(a.otherClientId);
    const rows = await t.database.db.select().from(posts).where(eq(posts.ownerId, a.ownerId));
    expect(rows.map((p) => p.id)).toEqual(expect.arrayContaining([published, failed]));
    expect(rows.map((p) => p.profileId)).toEqual([a.clientId, a.clientId, a.clientId]);
    const targets = await t.database.db.select().from(postTargets).where(eq(postTargets.accountId, account.id));
    expect(targets.map((x) => x.status).sort()).toEqual(['failed', 'published']);
  });

  it('answers a bad body with 400 validation_failed', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    for (const body of [{}, { profile_id: '' }, { profile_id: 7 }, { profile_id: a.otherClientId, extra: true }]) {
      const res = await move(account.id, body, a.key);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect(await stored(account.id)).toEqual(account);
  });

  it('replays the first answer for a retry with the same Idempotency-Key', async () => {
    const a = await agency();
    const account = await connect(a.ownerId, a.clientId);
    const headers = { 'idempotency-key': 'move-once' };
    const first = await move(account.id, { profile_id: 'client-b' }, a.key, headers);
    expect(first.statusCode).toBe(200);
    // Moved back in between: the retry must not move it again.
    expect((await move(account.id, { profile_id: 'client-a' }, a.key)).statusCode).toBe(200);
    const retry = await move(account.id, { profile_id: 'client-b' }, a.key, headers);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await stored(account.id)).profileId).toBe(a.clientId);
  });
});
