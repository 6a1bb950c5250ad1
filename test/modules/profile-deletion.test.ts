import { and, eq, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { completeProfileDeletion } from '../../src/modules/profiles/service.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { platformError, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import {
  accounts,
  apiKeys,
  connectLinks,
  events,
  idempotencyKeys,
  posts,
  postTargets,
  profiles,
  webhookDeliveries,
  webhookEndpoints,
} from '../helpers/tables.ts';

/**
 * What deleting a profile does to each module's data (docs/api-conventions.md, "Deleting a
 * profile"): keys and bound endpoints at once; posts, connect links and accounts in the
 * background job; then the profile and profile.deleted, only after every module's step.
 */

let t: TestApp;
let owner: TestOwner;
/** An endpoint of the owner bound to no profile: it hears every profile's events. */
let unboundEndpointId: string;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  owner = await t.createOwner();
  await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: 'https://app.example.test' },
  });
  const unbound = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: 'http://127.0.0.1:9/unbound', events: ['account.disconnected', 'profile.deleted'] },
  });
  unboundEndpointId = unbound.json().id;
});
afterAll(() => t.close());

let made = 0;

/** A profile with something in every module that keeps data per profile. */
async function populatedProfile() {
  made += 1;
  const profile = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/profiles',
      headers: auth(owner.key),
      payload: { name: `Client ${made}`, external_id: `client-${made}` },
    })
  ).json();
  const profileKey = await t.createProfileKey(owner.ownerId, profile.id);
  const endpoint = (
    await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: auth(profileKey),
      payload: { url: 'http://127.0.0.1:9/bound', events: ['account.connected'] },
    })
  ).json();
  // An answer kept for the profile key's Idempotency-Key.
  const test = await t.app.inject({
    method: 'POST',
    url: `/v1/webhooks/${endpoint.id}/test`,
    headers: { ...auth(profileKey), 'idempotency-key': `kept-${made}` },
  });
  expect(test.statusCode).toBe(202);
  const link = await t.app.inject({
    method: 'POST',
    url: `/v1/profiles/${profile.id}/connect-links`,
    headers: auth(owner.key),
    payload: { redirect_url: 'https://app.example.test/back' },
  });
  expect(link.statusCode).toBe(201);
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId: profile.id,
      platform: 'threads',
      tokens: { accessToken: `token-${made}`, expiresAt: null, platformUserId: `user-${made}`, scopes: [] },
      profile: { id: `user-${made}`, username: `user${made}`, name: null, avatarUrl: null, followersCount: null },
    }),
  );
  // An event of the profile, delivered to the unbound endpoint too.
  const disconnected = await t.app.inject({
    method: 'DELETE',
    url: `/v1/accounts/${account.id}`,
    headers: auth(owner.key),
  });
  expect(disconnected.statusCode).toBe(200);
  const at = new Date();
  const postId = newId('post');
  await t.database.db.insert(posts).values({
    id: postId,
    ownerId: owner.ownerId,
    profileId: profile.id,
    status: 'published',
    scheduledAt: at,
    createdAt: at,
    updatedAt: at,
  });
  await t.database.db.insert(postTargets).values({
    id: newId('postTarget'),
    postId,
    accountId: account.id,
    platform: 'threads',
    status: 'published',
    createdAt: at,
    updatedAt: at,
  });
  return { profileId: profile.id as string, profileKey, endpointId: endpoint.id as string, accountId: account.id };
}

async function rowsOf(profileId: string) {
  const db = t.database.db;
  const n = async (query: Promise<unknown[]>) => (await query).length;
  return {
    profile: await n(db.select().from(profiles).where(eq(profiles.id, profileId))),
    keys: await n(db.select().from(apiKeys).where(eq(apiKeys.profileId, profileId))),
    endpoints: await n(db.select().from(webhookEndpoints).where(eq(webhookEndpoints.profileId, profileId))),
    links: await n(db.select().from(connectLinks).where(eq(connectLinks.profileId, profileId))),
    accounts: await n(db.select().from(accounts).where(eq(accounts.profileId, profileId))),
    posts: await n(db.select().from(posts).where(eq(posts.profileId, profileId))),
  };
}

/** The types of the events the unbound endpoint has deliveries of, for this profile's events. */
async function unboundDeliveries(profileId: string) {
  const rows = await t.database.db
    .select({ type: events.type })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, unboundEndpointId), eq(events.profileId, profileId)));
  return rows.map((r) => r.type).sort();
}

/** Deliveries to the unbound endpoint whose event is no longer recorded: nothing could send them. */
async function deliveriesOfDeletedEvents() {
  return await t.database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, unboundEndpointId), isNull(events.id)));
}

async function eventTypes(profileId: string) {
  const rows = await t.database.db.select({ type: events.type }).from(events).where(eq(events.profileId, profileId));
  return rows.map((r) => r.type).sort();
}

async function deletedEvents(profileId: string) {
  return await t.database.db
    .select()
    .from(events)
    .where(and(eq(events.profileId, profileId), eq(events.type, 'profile.deleted')));
}

describe('deleting a profile', () => {
  it("stops its keys and bound endpoints at once, then deletes every module's data, then the profile", async () => {
    const p = await populatedProfile();
    const [keyRow] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.profileId, p.profileId));
    const kept = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.apiKeyId, keyRow?.id ?? ''));
    expect(kept).toHaveLength(1);
    const reportLink = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${p.profileId}/report-links`,
      headers: auth(owner.key),
      payload: {},
    });
    expect(reportLink.statusCode, reportLink.body).toBe(201);
    const reportLinksOf = () =>
      t.database.pool.query('select id from report_links where profile_id = $1', [p.profileId]);
    const schedule = await t.app.inject({
      method: 'PUT',
      url: `/v1/profiles/${p.profileId}/report-schedule`,
      headers: auth(owner.key),
      payload: { frequency: 'monthly', day: 1, recipients: ['client@example.test'] },
    });
    expect(schedule.statusCode, schedule.body).toBe(200);
    const send = await t.app.inject({
      method: 'POST',
      url: `/v1/profiles/${p.profileId}/report-sends`,
      headers: auth(owner.key),
      payload: {},
    });
    expect(send.statusCode, send.body).toBe(202);
    const reportRowsOf = async () => {
      const { rows } = await t.database.pool.query<{ schedules: number; sends: number }>(
        `select (select count(*)::int from report_schedules where profile_id = $1) as schedules,
           (select count(*)::int from report_sends where profile_id = $1) as sends`,
        [p.profileId],
      );
      return rows[0];
    };

    const res = await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${p.profileId}`, headers: auth(owner.key) });
    expect(res.statusCode).toBe(202);
    // The link opens nothing from then on; its row goes with the profile's data.
    expect((await t.app.inject({ method: 'GET', url: new URL(reportLink.json().url).pathname })).statusCode).toBe(404);
    // Two links: the one made, and the e-mail's. The schedule stops at once; the e-mail is data.
    expect((await reportLinksOf()).rows).toHaveLength(2);
    expect(await reportRowsOf()).toEqual({ schedules: 0, sends: 1 });

    // At once: the keys (with their kept answers) and the bound endpoints (with their deliveries).
    expect(await rowsOf(p.profileId)).toEqual({ profile: 1, keys: 0, endpoints: 0, links: 1, accounts: 1, posts: 1 });
    expect(
      await t.database.db
        .select()
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.apiKeyId, keyRow?.id ?? '')),
    ).toEqual([]);
    expect(
      await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, p.endpointId)),
    ).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth(p.profileKey) })).statusCode).toBe(
      401,
    );
    expect(await deletedEvents(p.profileId)).toEqual([]);

    expect(await unboundDeliveries(p.profileId)).toEqual(['account.disconnected']);

    // The background job: every module's data, then the profile and the event.
    expect(await completeProfileDeletion(t.deletionContext(), p.profileId)).toBe('deleted');
    // The profile's events (account names in them) go with it; only the report of the deletion is left.
    expect(await eventTypes(p.profileId)).toEqual(['profile.deleted']);
    expect(await unboundDeliveries(p.profileId)).toEqual(['profile.deleted']);
    // The deliveries of the events that went, went with them.
    expect(await deliveriesOfDeletedEvents()).toEqual([]);
    expect(await rowsOf(p.profileId)).toEqual({ profile: 0, keys: 0, endpoints: 0, links: 0, accounts: 0, posts: 0 });
    expect((await reportLinksOf()).rows).toEqual([]);
    expect(await reportRowsOf()).toEqual({ schedules: 0, sends: 0 });
    expect(await t.database.db.select().from(postTargets).where(eq(postTargets.accountId, p.accountId))).toEqual([]);
    expect(await deletedEvents(p.profileId)).toHaveLength(1);
  });

  it('fails, keeps the profile and sends no profile.deleted while data of it is left behind; a later run finishes', async () => {
    const p = await populatedProfile();
    // A table no module's deletion step knows of: what a module that forgot to register would leave.
    await t.database.db.execute(sql`create table forgotten_rows (profile_id text not null references profiles (id))`);
    await t.database.db.execute(sql`insert into forgotten_rows values (${p.profileId})`);
    try {
      await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${p.profileId}`, headers: auth(owner.key) });
      await expect(completeProfileDeletion(t.deletionContext(), p.profileId)).rejects.toThrow();
      // The modules' own steps ran; the profile stays (marked deleted, invisible) and nothing is reported.
      expect(await rowsOf(p.profileId)).toEqual({ profile: 1, keys: 0, endpoints: 0, links: 0, accounts: 0, posts: 0 });
      expect(await deletedEvents(p.profileId)).toEqual([]);
      const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, p.profileId));
      expect(row?.deletedAt).not.toBeNull();
    } finally {
      await t.database.db.execute(sql`drop table forgotten_rows`);
    }
    // The job runs again (graphile-worker retries a failed job): it finishes, and reports once.
    expect(await completeProfileDeletion(t.deletionContext(), p.profileId)).toBe('deleted');
    expect(await rowsOf(p.profileId)).toEqual({ profile: 0, keys: 0, endpoints: 0, links: 0, accounts: 0, posts: 0 });
    expect(await deletedEvents(p.profileId)).toHaveLength(1);
  });
});

/** pino's levels, as its JSON lines write them. */
const INFO = 30;
const WARN = 40;

/** A real pino logger whose JSON lines are kept for the test to read. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe("deleting a profile's accounts", () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  /** Connects `username` on `platform` through the sandbox and stores it in `profileId`, as the connect flow does. */
  async function connected(platform: Platform, username: string, profileId: string) {
    const tokens = await sandbox.connect(platform, username);
    const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    const profile = await sandbox.adapter(platform).profile(credentials);
    await t.database.db.transaction((tx) =>
      saveConnectedAccount(tx, t.secretKey, { ownerId: owner.ownerId, profileId, platform, tokens, profile }),
    );
    return credentials;
  }

  it("revokes each account's platform access where the platform offers it, logs the rest, then deletes them", async () => {
    const profileId = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name: 'Revoked client' },
      })
    ).json().id;
    const tiktok = await connected('tiktok', 'revoked_on_deletion', profileId);
    await connected('instagram', 'kept_on_instagram', profileId);
    const { log, lines } = capturedLog();

    await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${profileId}`, headers: auth(owner.key) });
    expect(
      await completeProfileDeletion({ ...t.deletionContext(), platforms: sandbox.platforms, log }, profileId),
    ).toBe('deleted');

    // TikTok: POST /v2/oauth/revoke/ was made, and the token no longer works there.
    const activity = await sandbox.control('GET', '/activity/tiktok/revoked_on_deletion');
    expect(activity.body.data.map((a: { action: string }) => a.action)).toEqual(['revoke']);
    expect((await platformError(sandbox.adapter('tiktok').profile(tiktok))).kind).toBe('token_expired');
    // Instagram API with Instagram Login has no revocation: said in the log, the account deleted all the same.
    const byPlatform = (platform: string) => lines.filter((l) => l.platform === platform).map((l) => [l.level, l.msg]);
    expect(byPlatform('tiktok')).toEqual([[INFO, 'platform access revoked']]);
    expect(byPlatform('instagram')).toEqual([[INFO, 'the platform offers no revocation with the token held']]);
    expect(await rowsOf(profileId)).toEqual({ profile: 0, keys: 0, endpoints: 0, links: 0, accounts: 0, posts: 0 });
  });

  it('deletes the accounts when the platform cannot be reached, and says so in the log', async () => {
    const profileId = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name: 'Unreachable client' },
      })
    ).json().id;
    await connected('tiktok', 'unreachable_on_deletion', profileId);
    const { log, lines } = capturedLog();
    await t.app.inject({ method: 'DELETE', url: `/v1/profiles/${profileId}`, headers: auth(owner.key) });
    // The test app's own adapters point at an address nothing listens on.
    expect(await completeProfileDeletion({ ...t.deletionContext(), log }, profileId)).toBe('deleted');
    expect(lines.filter((l) => l.level === WARN).map((l) => [l.platform, l.kind, l.msg])).toEqual([
      ['tiktok', 'transient', 'revoking platform access failed; the account is deleted with its tokens all the same'],
    ]);
    expect(await rowsOf(profileId)).toEqual({ profile: 0, keys: 0, endpoints: 0, links: 0, accounts: 0, posts: 0 });
    const activity = await sandbox.control('GET', '/activity/tiktok/unreachable_on_deletion');
    expect(activity.body.data).toEqual([]);
  });
});
