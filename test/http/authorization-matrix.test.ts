import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { createKey } from '../../src/modules/api-keys/service.ts';
import { createMemberSession } from '../../src/modules/members/sessions.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile, multipartUpload } from '../helpers/media-files.ts';
import {
  accounts,
  apiKeys,
  auditEntries,
  comments,
  connectLinks,
  connectRedirectOrigins,
  connectSettings,
  insightManualSyncs,
  media,
  memberRoles,
  members,
  posts,
  postTargets,
  profiles,
  webhookEndpoints,
} from '../helpers/tables.ts';

/**
 * Every /v1 route, called by every kind of caller. The routes come from the OpenAPI
 * document, so a route added without an entry here fails this test.
 */

interface Fixture extends TestOwner {
  /** A non-default profile of the owner, with a profile key. */
  profileId: string;
  profileKey: string;
  /** A webhook endpoint bound to that profile. */
  webhookId: string;
  /** A connected account in that profile. */
  accountId: string;
  /** A registered redirect origin. */
  redirectOrigin: string;
  /** A medium in that profile. */
  mediaId: string;
  /** A member the owner invited. */
  memberId: string;
}

const HOOK = 'https://hooks.example.test/matrix';

async function newWebhook(owner: TestOwner, profileId: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: HOOK, events: ['post.published'], profile_id: profileId },
  });
  return res.json().id;
}

/** Deletes the fixture owner's other endpoints, so the matrix never meets the limit of 10. */
async function pruneWebhooks(f: Fixture): Promise<void> {
  await t.database.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, f.ownerId), ne(webhookEndpoints.id, f.webhookId)));
}

let accountsMade = 0;

/** A connected account of `owner` in `profileId`, stored as the connect flow stores one. */
async function newAccount(owner: TestOwner, profileId: string): Promise<string> {
  accountsMade += 1;
  const platformUserId = `matrix-user-${accountsMade}`;
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId,
      platform: 'threads',
      tokens: {
        accessToken: `token-${accountsMade}`,
        expiresAt: null,
        platformUserId,
        scopes: ['threads_basic', 'threads_content_publish'],
      },
      profile: { id: platformUserId, username: platformUserId, name: null, avatarUrl: null, followersCount: null },
    }),
  );
  return account.id;
}

/** A Pinterest account of the fixture's profile whose access expired (no platform is called for it). */
async function expiredPinterestAccount(f: Fixture): Promise<string> {
  accountsMade += 1;
  const platformUserId = `${accountsMade}00000`;
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: f.ownerId,
      profileId: f.profileId,
      platform: 'pinterest',
      tokens: { accessToken: `token-${accountsMade}`, expiresAt: null, platformUserId, scopes: ['user_accounts:read'] },
      profile: {
        id: platformUserId,
        username: `pinner${accountsMade}`,
        name: null,
        avatarUrl: null,
        followersCount: null,
      },
    }),
  );
  await t.database.db.update(accounts).set({ status: 'expired' }).where(eq(accounts.id, account.id));
  return account.id;
}

/** A post of `owner` on its fixture account, due in an hour (nothing publishes it meanwhile). */
async function newPost(f: Fixture): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(f.key),
    payload: {
      account_ids: [f.accountId],
      text: 'Matrix post',
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** The fixture profile's report schedule, set with the owner's key (a route that reads or removes one needs it). */
async function reportSchedule(f: Fixture): Promise<void> {
  const set = await t.app.inject({
    method: 'PUT',
    url: `/v1/profiles/${f.profileId}/report-schedule`,
    headers: auth(f.key),
    payload: { frequency: 'monthly', day: 1, recipients: ['client@example.test'] },
  });
  expect(set.statusCode, set.body).toBe(200);
}

/** A post published on the fixture's account, as publishing leaves one (figures not read yet). */
async function publishedPost(f: Fixture): Promise<string> {
  const id = await newPost(f);
  await t.database.db
    .update(postTargets)
    .set({ status: 'published', platformPostId: `matrix-published-${id}`, publishedAt: new Date() })
    .where(eq(postTargets.postId, id));
  await t.database.db.update(posts).set({ status: 'published' }).where(eq(posts.id, id));
  return id;
}

/** A post of `owner` that waits for its client's approval, with one approval link (its id). */
async function awaitingPost(f: Fixture): Promise<{ postId: string; linkId: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(f.key),
    payload: { account_ids: [f.accountId], text: 'Matrix approval', approval: { required: true } },
  });
  expect(res.statusCode).toBe(201);
  const postId = res.json().id as string;
  const link = await t.app.inject({ method: 'POST', url: `/v1/posts/${postId}/approval-links`, headers: auth(f.key) });
  expect(link.statusCode).toBe(201);
  return { postId, linkId: link.json().id };
}

/** A post whose one target failed, as publishing leaves one. */
async function failedPost(f: Fixture): Promise<string> {
  const id = await newPost(f);
  const error = { code: 'invalid_request', message: 'refused', platform_code: '100' };
  await t.database.db.update(postTargets).set({ status: 'failed', error }).where(eq(postTargets.postId, id));
  await t.database.db.update(posts).set({ status: 'failed' }).where(eq(posts.id, id));
  return id;
}

let commentsMade = 0;

/**
 * A comment on the fixture's Threads account, stored as intake stores one (with its platform
 * post). That account lacks threads_manage_replies, so hiding is refused before any platform
 * call; a comment by the account itself cannot be replied to, also before any call.
 */
async function newComment(f: Fixture, byAccount = false): Promise<string> {
  commentsMade += 1;
  const at = new Date();
  const postId = newId('post');
  await t.database.db.insert(posts).values({
    id: postId,
    ownerId: f.ownerId,
    profileId: f.profileId,
    status: 'published',
    source: 'platform',
    platformKey: `${f.accountId}:matrix-post-${commentsMade}`,
    scheduledAt: at,
    createdAt: at,
    updatedAt: at,
  });
  const id = newId('comment');
  await t.database.db.insert(comments).values({
    id,
    ownerId: f.ownerId,
    profileId: f.profileId,
    accountId: f.accountId,
    postId,
    platform: 'threads',
    platformCommentId: `matrix-comment-${commentsMade}`,
    platformPostId: `matrix-post-${commentsMade}`,
    authorUsername: 'someone',
    text: 'Matrix comment',
    commentedAt: at,
    byAccount,
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

let originsMade = 0;
let membersMade = 0;

/** A member `owner` invited (for the viewer role, on its whole owner), new each time. */
async function newMember(owner: TestOwner): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/members',
    headers: auth(owner.key),
    payload: { email: `invited${++membersMade}@people.example.test`, roles: [{ role: 'viewer', profile_id: null }] },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** A redirect origin of `owner`, new each time. */
/** Gives the owner an X app of its own, or removes it. */
async function setPlatformApp(owner: TestOwner, present: boolean): Promise<void> {
  await t.app.inject({
    method: present ? 'PUT' : 'DELETE',
    url: '/v1/platform-apps/x',
    headers: auth(owner.key),
    ...(present ? { payload: { client_id: `own-${owner.ownerId}`, client_secret: 'matrix-secret' } } : {}),
  });
}

async function newOrigin(owner: TestOwner): Promise<{ id: string; origin: string }> {
  originsMade += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: `https://app${originsMade}.example.test` },
  });
  return res.json();
}

interface Call {
  url: string;
  payload?: Record<string, unknown>;
  /** A body that is not JSON (a multipart upload), with its content-type header. */
  raw?: { payload: Buffer; headers: Record<string, string> };
}

/** A multipart upload of a small JPEG. */
async function imageUpload(): Promise<Call['raw']> {
  return multipartUpload(await imageFile('jpeg'));
}

/** A logo: a small PNG as the body. */
async function logoUpload(): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  return { payload: await imageFile('png'), headers: { 'content-type': 'image/png' } };
}

async function setLogo(owner: TestOwner): Promise<void> {
  const upload = await logoUpload();
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/connect/settings/logo',
    headers: { ...auth(owner.key), ...upload.headers },
    payload: upload.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A medium of `owner` in `profileId`, uploaded through the API. */
async function newMedia(owner: TestOwner, profileId: string): Promise<string> {
  const upload = multipartUpload(await imageFile('jpeg'));
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(owner.key, profileId), ...upload.headers },
    payload: upload.payload,
  });
  return res.json().id;
}

type Role = 'client' | 'viewer' | 'editor' | 'admin';

interface RouteCase {
  ownerOnly: boolean;
  /**
   * The least role a member needs (docs/members.md): `client` < `viewer` < `editor` < `admin`;
   * `owner admin` is the admin role for the whole owner.
   */
  least: Role | 'owner admin' | readonly Role[];
  success: number;
  /**
   * What the owner key gets with a Service-Profile header naming the fixture's profile, whose
   * resources the call is about: `success` (the default) where the route acts within a profile,
   * or the refusal (nothing changed) where it does not.
   */
  scopedOwner?: { status: number; code: string };
  /** A valid request on `a`'s resources; destructive routes make fresh ones each time. */
  build(a: Fixture): Promise<Call>;
  /** What owner B's key gets on that request: 404 for a path naming A's resource, or its own data. */
  otherOwner: 404 | 'own-data';
}

let t: TestApp;
let a: Fixture;
let b: Fixture;

/** The id of the owner key `createOwner` made. */
async function ownerKeyId(owner: TestOwner): Promise<string> {
  const [key] = await t.database.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.ownerId, owner.ownerId), isNull(apiKeys.profileId)))
    .orderBy(asc(apiKeys.id))
    .limit(1);
  return key?.id ?? '';
}

async function newProfile(owner: TestOwner, name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  return res.json().id;
}

async function fixture(name: string): Promise<Fixture> {
  const owner = await t.createOwner(name);
  const profileId = await newProfile(owner, `${name} client`);
  return {
    ...owner,
    profileId,
    profileKey: await t.createProfileKey(owner.ownerId, profileId),
    webhookId: await newWebhook(owner, profileId),
    accountId: await newAccount(owner, profileId),
    redirectOrigin: (await newOrigin(owner)).origin,
    mediaId: await newMedia(owner, profileId),
    memberId: await newMember(owner),
  };
}

/** The owner's own settings, of no profile: a request scoped to a profile neither reads nor changes them. */
const OWNER_LEVEL = { status: 403, code: 'owner_key_required' };

const matrix: Record<string, RouteCase> = {
  'GET /v1/webhooks': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/webhooks' }),
  },
  'POST /v1/webhooks': {
    ownerOnly: false,
    least: 'admin',
    success: 201,
    otherOwner: 404,
    build: async (f) => {
      await pruneWebhooks(f);
      return { url: '/v1/webhooks', payload: { url: HOOK, events: ['post.published'], profile_id: f.profileId } };
    },
  },
  'GET /v1/webhooks/{id}': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/webhooks/${f.webhookId}` }),
  },
  'PATCH /v1/webhooks/{id}': {
    ownerOnly: false,
    least: 'admin',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/webhooks/${f.webhookId}`, payload: { active: true } }),
  },
  'DELETE /v1/webhooks/{id}': {
    ownerOnly: false,
    least: 'admin',
    success: 204,
    otherOwner: 404,
    build: async (f) => {
      await pruneWebhooks(f);
      return { url: `/v1/webhooks/${await newWebhook(f, f.profileId)}` };
    },
  },
  'GET /v1/webhooks/{id}/deliveries': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/webhooks/${f.webhookId}/deliveries` }),
  },
  'POST /v1/webhooks/{id}/test': {
    ownerOnly: false,
    least: 'admin',
    success: 202,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/webhooks/${f.webhookId}/test` }),
  },
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend': {
    ownerOnly: false,
    least: 'admin',
    success: 202,
    otherOwner: 404,
    build: async (f) => {
      const sent = await t.app.inject({
        method: 'POST',
        url: `/v1/webhooks/${f.webhookId}/test`,
        headers: auth(f.key),
      });
      return { url: `/v1/webhooks/${f.webhookId}/deliveries/${sent.json().id}/resend` };
    },
  },
  'POST /v1/webhooks/{id}/rotate-secret': {
    ownerOnly: false,
    least: 'admin',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/webhooks/${f.webhookId}/rotate-secret` }),
  },
  'GET /v1/audit-log': {
    ownerOnly: true,
    least: 'admin',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/audit-log' }),
  },
  'POST /v1/members': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 201,
    otherOwner: 'own-data',
    build: async () => ({
      url: '/v1/members',
      payload: { email: `matrix${++membersMade}@people.example.test`, roles: [{ role: 'viewer', profile_id: null }] },
    }),
  },
  'GET /v1/members': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/members' }),
  },
  'GET /v1/members/{id}': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/members/${f.memberId}` }),
  },
  'PATCH /v1/members/{id}': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/members/${f.memberId}`, payload: { name: 'Renamed by matrix' } }),
  },
  'DELETE /v1/members/{id}': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 204,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/members/${await newMember(f)}` }),
  },
  'POST /v1/members/{id}/invitation': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/members/${await newMember(f)}/invitation` }),
  },
  'GET /v1/profiles': {
    ownerOnly: true,
    least: 'client',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/profiles' }),
  },
  'POST /v1/profiles': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: { status: 400, code: 'profile_header_not_allowed' },
    success: 201,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/profiles', payload: { name: 'Matrix made' } }),
  },
  'GET /v1/profiles/{id}': {
    ownerOnly: true,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}` }),
  },
  'PATCH /v1/profiles/{id}': {
    ownerOnly: true,
    least: 'admin',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}`, payload: { name: 'Renamed by matrix' } }),
  },
  'DELETE /v1/profiles/{id}': {
    ownerOnly: true,
    least: 'owner admin',
    // The profile it deletes is another than the header's.
    scopedOwner: { status: 404, code: 'profile_not_found' },
    success: 202,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${await newProfile(f, 'To delete')}` }),
  },
  'POST /v1/profiles/{id}/api-keys': {
    ownerOnly: true,
    least: 'admin',
    success: 201,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/api-keys`, payload: { name: 'matrix' } }),
  },
  'GET /v1/profiles/{id}/api-keys': {
    ownerOnly: true,
    least: 'admin',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/api-keys` }),
  },
  'DELETE /v1/profiles/{id}/api-keys/{keyId}': {
    ownerOnly: true,
    least: 'admin',
    success: 204,
    otherOwner: 404,
    build: async (f) => {
      const key = await createKey(t.database.db, { ownerId: f.ownerId, profileId: f.profileId });
      return { url: `/v1/profiles/${f.profileId}/api-keys/${key.id}` };
    },
  },
  'POST /v1/connect/redirect-origins': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 201,
    otherOwner: 'own-data',
    build: async () => ({
      url: '/v1/connect/redirect-origins',
      payload: { origin: `https://new${++originsMade}.test` },
    }),
  },
  'GET /v1/connect/redirect-origins': {
    ownerOnly: true,
    least: 'viewer',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/connect/redirect-origins' }),
  },
  'DELETE /v1/connect/redirect-origins/{id}': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 204,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/connect/redirect-origins/${(await newOrigin(f)).id}` }),
  },
  'GET /v1/connect/settings': {
    ownerOnly: true,
    least: 'viewer',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/connect/settings' }),
  },
  'GET /v1/connect/settings/logo': {
    ownerOnly: true,
    least: 'viewer',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async (f) => {
      // Owner B's own logo is set with the fixtures, as this changes nothing of B's.
      await setLogo(f);
      return { url: '/v1/connect/settings/logo' };
    },
  },
  'GET /v1/connect/preview': {
    ownerOnly: true,
    least: 'viewer',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/connect/preview?platforms=threads' }),
  },
  // The owner's own X app: each build leaves both owners without one (PUT answers 201) or with
  // one (DELETE answers 204), so the other owner's call acts on its own.
  'PUT /v1/platform-apps/{platform}': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 201,
    otherOwner: 'own-data',
    build: async () => {
      for (const owner of [a, b]) await setPlatformApp(owner, false);
      return { url: '/v1/platform-apps/x', payload: { client_id: 'matrix-client', client_secret: 'matrix-secret' } };
    },
  },
  'GET /v1/platform-apps': {
    ownerOnly: true,
    least: 'viewer',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/platform-apps' }),
  },
  'DELETE /v1/platform-apps/{platform}': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 204,
    otherOwner: 'own-data',
    build: async () => {
      for (const owner of [a, b]) await setPlatformApp(owner, true);
      return { url: '/v1/platform-apps/x' };
    },
  },
  'POST /v1/session': {
    ownerOnly: false,
    least: 'client',
    success: 201,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/session', payload: {} }),
  },
  // The session routes act on the session cookie (test/modules/sessions.test.ts); a caller
  // with a key has no session, which they answer with 404 session_not_found.
  'GET /v1/session': {
    ownerOnly: false,
    least: 'client',
    success: 404,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/session' }),
  },
  'DELETE /v1/session': {
    ownerOnly: false,
    least: 'client',
    success: 404,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/session' }),
  },
  'PATCH /v1/connect/settings': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/connect/settings', payload: { brand_name: 'Matrix brand' } }),
  },
  'PUT /v1/connect/settings/logo': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/connect/settings/logo', raw: await logoUpload() }),
  },
  'DELETE /v1/connect/settings/logo': {
    ownerOnly: true,
    least: 'owner admin',
    scopedOwner: OWNER_LEVEL,
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/connect/settings/logo' }),
  },
  'POST /v1/profiles/{id}/connect-links': {
    ownerOnly: false,
    least: 'editor',
    success: 201,
    otherOwner: 404,
    build: async (f) => ({
      url: `/v1/profiles/${f.profileId}/connect-links`,
      payload: { redirect_url: `${f.redirectOrigin}/back`, state: 'matrix' },
    }),
  },
  'GET /v1/accounts': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/accounts' }),
  },
  'GET /v1/accounts/{id}': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/accounts/${f.accountId}` }),
  },
  'DELETE /v1/accounts/{id}': {
    ownerOnly: false,
    least: 'admin',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/accounts/${await newAccount(f, f.profileId)}` }),
  },
  'POST /v1/accounts/{id}/move': {
    ownerOnly: true,
    least: 'owner admin',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({
      url: `/v1/accounts/${await newAccount(f, f.profileId)}/move`,
      payload: { profile_id: f.defaultProfileId },
    }),
  },
  'POST /v1/accounts/{id}/reconnect-links': {
    ownerOnly: false,
    least: 'editor',
    success: 201,
    otherOwner: 404,
    build: async (f) => ({
      url: `/v1/accounts/${f.accountId}/reconnect-links`,
      payload: { redirect_url: `${f.redirectOrigin}/back`, state: 'matrix' },
    }),
  },
  'POST /v1/posts': {
    ownerOnly: false,
    least: 'editor',
    success: 201,
    otherOwner: 404,
    build: async (f) => ({ url: '/v1/posts', payload: { account_ids: [f.accountId], text: 'Matrix post' } }),
  },
  'GET /v1/posts': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/posts' }),
  },
  'GET /v1/posts/{id}': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${await newPost(f)}` }),
  },
  'PATCH /v1/posts/{id}': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${await newPost(f)}`, payload: { text: 'Changed' } }),
  },
  'DELETE /v1/posts/{id}': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${await newPost(f)}` }),
  },
  'POST /v1/posts/{id}/approval-links': {
    ownerOnly: false,
    least: 'editor',
    success: 201,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${(await awaitingPost(f)).postId}/approval-links` }),
  },
  'POST /v1/posts/{id}/approval': {
    ownerOnly: false,
    least: ['client', 'admin'],
    success: 200,
    otherOwner: 404,
    build: async (f) => ({
      url: `/v1/posts/${(await awaitingPost(f)).postId}/approval`,
      payload: { decision: 'changes_requested', comment: 'Matrix wants changes' },
    }),
  },
  'GET /v1/posts/{id}/approval-links': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${(await awaitingPost(f)).postId}/approval-links` }),
  },
  'DELETE /v1/posts/{id}/approval-links/{link_id}': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => {
      const { postId, linkId } = await awaitingPost(f);
      return { url: `/v1/posts/${postId}/approval-links/${linkId}` };
    },
  },
  'POST /v1/posts/{id}/retry': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${await failedPost(f)}/retry` }),
  },
  'GET /v1/comments': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/comments' }),
  },
  'GET /v1/comments/{id}': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/comments/${await newComment(f)}` }),
  },
  'PATCH /v1/comments/{id}': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/comments/${await newComment(f)}`, payload: { reply_status: 'dismissed' } }),
  },
  'POST /v1/comments/{id}/reply': {
    ownerOnly: false,
    least: 'editor',
    // The account's own comment: refused after the caller's scope, before any platform call.
    success: 409,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/comments/${await newComment(f, true)}/reply`, payload: { text: 'Thanks!' } }),
  },
  'POST /v1/comments/{id}/hide': {
    ownerOnly: false,
    least: 'editor',
    // threads_manage_replies not granted: refused after the caller's scope, before any platform call.
    success: 422,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/comments/${await newComment(f)}/hide`, payload: { hidden: true } }),
  },
  'DELETE /v1/comments/{id}/replies/{reply_id}': {
    ownerOnly: false,
    least: 'editor',
    // Threads' replies cannot be deleted through the service: refused after the caller's scope, before any platform call.
    success: 422,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/comments/${await newComment(f)}/replies/${newId('commentReply')}` }),
  },
  'POST /v1/comments/sync': {
    ownerOnly: false,
    least: 'editor',
    success: 202,
    otherOwner: 404,
    // A fresh account each time: an account is synced at most once a minute.
    build: async (f) => ({ url: '/v1/comments/sync', payload: { account_ids: [await newAccount(f, f.profileId)] } }),
  },
  'GET /v1/accounts/{id}/options/{option}': {
    ownerOnly: false,
    least: 'viewer',
    // A Pinterest account whose access expired: refused after the caller's scope, before any platform call.
    success: 422,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/accounts/${await expiredPinterestAccount(f)}/options/board_id` }),
  },
  'GET /v1/accounts/{id}/insights': {
    ownerOnly: false,
    least: 'client',
    // The fixture's Threads account lacks threads_manage_insights: 200 with missing_permission.
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/accounts/${f.accountId}/insights?metrics=views` }),
  },
  'GET /v1/posts/{id}/insights': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/posts/${await publishedPost(f)}/insights` }),
  },
  'GET /v1/profiles/{id}/report': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/report` }),
  },
  'GET /v1/profiles/{id}/report.csv': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/report.csv` }),
  },
  'GET /v1/profiles/{id}/report.pdf': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/report.pdf` }),
  },
  'GET /v1/profiles/{id}/report-links': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/report-links` }),
  },
  'POST /v1/profiles/{id}/report-links': {
    ownerOnly: false,
    least: 'editor',
    success: 201,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/report-links`, payload: {} }),
  },
  'DELETE /v1/profiles/{id}/report-links/{link_id}': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => {
      const made = await t.app.inject({
        method: 'POST',
        url: `/v1/profiles/${f.profileId}/report-links`,
        headers: auth(f.key),
        payload: {},
      });
      expect(made.statusCode, made.body).toBe(201);
      return { url: `/v1/profiles/${f.profileId}/report-links/${made.json().id}` };
    },
  },
  'GET /v1/profiles/{id}/report-schedule': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => {
      await reportSchedule(f);
      return { url: `/v1/profiles/${f.profileId}/report-schedule` };
    },
  },
  'PUT /v1/profiles/{id}/report-schedule': {
    ownerOnly: false,
    least: 'editor',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({
      url: `/v1/profiles/${f.profileId}/report-schedule`,
      payload: { frequency: 'weekly', day: 2, recipients: ['client@example.test'] },
    }),
  },
  'DELETE /v1/profiles/{id}/report-schedule': {
    ownerOnly: false,
    least: 'editor',
    success: 204,
    otherOwner: 404,
    build: async (f) => {
      await reportSchedule(f);
      return { url: `/v1/profiles/${f.profileId}/report-schedule` };
    },
  },
  'GET /v1/profiles/{id}/report-sends': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/profiles/${f.profileId}/report-sends` }),
  },
  'POST /v1/profiles/{id}/report-sends': {
    ownerOnly: false,
    least: 'editor',
    success: 202,
    otherOwner: 404,
    build: async (f) => ({
      url: `/v1/profiles/${f.profileId}/report-sends`,
      payload: { recipients: ['client@example.test'] },
    }),
  },
  'POST /v1/insights/sync': {
    ownerOnly: false,
    least: 'editor',
    success: 202,
    otherOwner: 404,
    // Once per 5 minutes per owner or profile: each case starts with none made.
    build: async (f) => {
      await t.database.db.delete(insightManualSyncs).where(eq(insightManualSyncs.ownerId, f.ownerId));
      return { url: '/v1/insights/sync', payload: { account_ids: [f.accountId] } };
    },
  },
  'GET /v1/platforms': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/platforms' }),
  },
  'GET /v1/platforms/{platform}': {
    ownerOnly: false,
    least: 'client',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/platforms/threads' }),
  },
  'GET /v1/media': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/media' }),
  },
  'POST /v1/media': {
    ownerOnly: false,
    least: 'editor',
    success: 201,
    otherOwner: 'own-data',
    build: async () => ({ url: '/v1/media', raw: await imageUpload() }),
  },
  'GET /v1/media/{id}': {
    ownerOnly: false,
    least: 'viewer',
    success: 200,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/media/${f.mediaId}` }),
  },
  'DELETE /v1/media/{id}': {
    ownerOnly: false,
    least: 'editor',
    success: 204,
    otherOwner: 404,
    build: async (f) => ({ url: `/v1/media/${await newMedia(f, f.profileId)}` }),
  },
};

/** Everything stored for an owner that a call could change. */
async function snapshot(ownerId: string) {
  return {
    profiles: await t.database.db
      .select()
      .from(profiles)
      .where(eq(profiles.ownerId, ownerId))
      .orderBy(asc(profiles.id)),
    keys: await t.database.db
      .select({ id: apiKeys.id, profileId: apiKeys.profileId, name: apiKeys.name })
      .from(apiKeys)
      .where(eq(apiKeys.ownerId, ownerId))
      .orderBy(asc(apiKeys.id)),
    webhooks: await t.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.ownerId, ownerId))
      .orderBy(asc(webhookEndpoints.id)),
    accounts: await t.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.ownerId, ownerId))
      .orderBy(asc(accounts.id)),
    redirectOrigins: await t.database.db
      .select()
      .from(connectRedirectOrigins)
      .where(eq(connectRedirectOrigins.ownerId, ownerId))
      .orderBy(asc(connectRedirectOrigins.id)),
    connectSettings: await t.database.db.select().from(connectSettings).where(eq(connectSettings.ownerId, ownerId)),
    posts: await t.database.db.select().from(posts).where(eq(posts.ownerId, ownerId)).orderBy(asc(posts.id)),
    targets: await t.database.db
      .select({ target: postTargets })
      .from(postTargets)
      .innerJoin(posts, eq(posts.id, postTargets.postId))
      .where(eq(posts.ownerId, ownerId))
      .orderBy(asc(postTargets.id)),
    connectLinks: await t.database.db
      .select()
      .from(connectLinks)
      .where(eq(connectLinks.ownerId, ownerId))
      .orderBy(asc(connectLinks.id)),
    media: await t.database.db.select().from(media).where(eq(media.ownerId, ownerId)).orderBy(asc(media.id)),
    comments: await t.database.db
      .select()
      .from(comments)
      .where(eq(comments.ownerId, ownerId))
      .orderBy(asc(comments.id)),
    members: await t.database.db
      .select({ id: members.id, email: members.email, name: members.name, status: members.status })
      .from(members)
      .where(eq(members.ownerId, ownerId))
      .orderBy(asc(members.id)),
    memberRoles: await t.database.db
      .select({ memberId: memberRoles.memberId, profileId: memberRoles.profileId, role: memberRoles.role })
      .from(memberRoles)
      .innerJoin(members, eq(members.id, memberRoles.memberId))
      .where(eq(members.ownerId, ownerId))
      .orderBy(asc(memberRoles.memberId), asc(memberRoles.profileId)),
  };
}

async function call(method: string, c: Call, headers: Record<string, string>) {
  return await t.app.inject({
    method: method as 'GET',
    url: c.url,
    headers: { ...headers, ...c.raw?.headers },
    ...(c.payload ? { payload: c.payload } : {}),
    ...(c.raw ? { payload: c.raw.payload } : {}),
  });
}

const ROLES: readonly Role[] = ['client', 'viewer', 'editor', 'admin'];
const RANK: Record<Role, number> = { client: 0, viewer: 1, editor: 2, admin: 3 };

/** Owner A's members, one for each role for the whole owner and on the fixture's profile, by `role:place`. */
const roleMembers = new Map<string, string>();

/** A member of `f` with one role, active, as accepting its invitation leaves it. */
async function roleMember(f: Fixture, role: Role, ownerWide: boolean): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/members',
    headers: auth(f.key),
    payload: {
      email: `${role}.${ownerWide ? 'owner' : 'profile'}@people.example.test`,
      roles: [{ role, profile_id: ownerWide ? null : f.profileId }],
    },
  });
  expect(res.statusCode).toBe(201);
  await t.database.db.update(members).set({ status: 'active' }).where(eq(members.id, res.json().id));
  return res.json().id;
}

/** A new dashboard session of the member, as the headers its requests carry (a sign-out ends one). */
async function memberHeaders(memberId: string): Promise<Record<string, string>> {
  const session = await createMemberSession(t.database.db, memberId);
  const cookie = `sb_session=${session.token}`;
  const shown = await t.app.inject({ method: 'GET', url: '/v1/session', headers: { cookie } });
  expect(shown.statusCode).toBe(200);
  return { cookie, 'x-csrf-token': shown.json().csrf_token };
}

/**
 * What a member gets: a route it has the role for answers as the owner key does (on the
 * fixture's profile, as the owner key scoped to it: a member with roles on one profile acts in
 * it); any other, 403 role_required. The owner's own settings need the role for the whole owner.
 * Signing in with a key takes no cookie: 401.
 */
function memberAnswer(route: string, rc: RouteCase, role: Role, ownerWide: boolean): { status: number; code?: string } {
  if (route === 'POST /v1/session') return { status: 401, code: 'unauthorized' };
  // A member's requests come with its session's cookie, which these routes show and end (a key gets 404).
  if (route === 'GET /v1/session') return { status: 200 };
  if (route === 'DELETE /v1/session') return { status: 204 };
  const refused = { status: 403, code: 'role_required' };
  const reaches = (least: Role | readonly Role[]) =>
    typeof least === 'string' ? RANK[role] >= RANK[least] : least.includes(role);
  if (ownerWide) {
    const allowed = rc.least === 'owner admin' ? role === 'admin' : reaches(rc.least);
    return allowed ? { status: rc.success } : refused;
  }
  if (rc.least === 'owner admin' || rc.scopedOwner === OWNER_LEVEL) return refused;
  if (!reaches(rc.least)) return refused;
  return rc.scopedOwner ?? { status: rc.success };
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  a = await fixture('Owner A');
  b = await fixture('Owner B');
  // B's key reads its own logo where a case reads A's.
  await setLogo(b);
  for (const role of ROLES) {
    for (const ownerWide of [true, false]) {
      roleMembers.set(`${role}:${ownerWide}`, await roleMember(a, role, ownerWide));
    }
  }
});
afterAll(() => t.close());

describe('authorization matrix', () => {
  it('has an entry for every /v1 route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(Object.keys(matrix).sort());
  });

  for (const [route, rc] of Object.entries(matrix)) {
    const [method] = route.split(' ') as [string];

    describe(route, () => {
      it('answers no key and a wrong key with 401 unauthorized, changing nothing', async () => {
        const before = [await snapshot(a.ownerId), await snapshot(b.ownerId)];
        const c = await rc.build(a);
        const afterBuild = [await snapshot(a.ownerId), await snapshot(b.ownerId)];
        for (const headers of [{}, auth('sb_owner_2nRk6mQ1bW0rXzJt9fYcVd3hLsPaE8uKoGi5NjTy7Mw')]) {
          const res = await call(method, c, headers);
          expect(res.statusCode).toBe(401);
          expect(res.json().error.code).toBe('unauthorized');
        }
        expect([await snapshot(a.ownerId), await snapshot(b.ownerId)]).toEqual(afterBuild);
        expect(before[1]).toEqual(afterBuild[1]);
      });

      it(rc.ownerOnly ? 'answers a profile key with 403 owner_key_required' : 'lets a profile key in', async () => {
        const c = await rc.build(a);
        const before = await snapshot(a.ownerId);
        const res = await call(method, c, auth(a.profileKey));
        if (rc.ownerOnly) {
          expect(res.statusCode).toBe(403);
          expect(res.json().error.code).toBe('owner_key_required');
          expect(await snapshot(a.ownerId)).toEqual(before);
        } else {
          expect(res.statusCode).toBe(rc.success);
        }
      });

      it('answers a profile key naming another profile with 403 profile_mismatch', async () => {
        const c = await rc.build(a);
        const before = await snapshot(a.ownerId);
        for (const other of [a.defaultProfileId, b.profileId]) {
          const res = await call(method, c, auth(a.profileKey, other));
          expect(res.statusCode).toBe(403);
          expect(res.json().error.code).toBe('profile_mismatch');
        }
        expect(await snapshot(a.ownerId)).toEqual(before);
      });

      // A read, or a refusal (the matrix's answer on routes that need a platform it has none of), changes nothing.
      const changes = method !== 'GET' && rc.success < 300;
      it(`answers the owner key with ${rc.success}, ${changes ? 'recording the change in the audit log' : 'recording nothing'}`, async () => {
        const c = await rc.build(a);
        const otherBefore = await snapshot(b.ownerId);
        const res = await call(method, c, auth(a.key));
        expect(res.statusCode).toBe(rc.success);
        expect(await snapshot(b.ownerId)).toEqual(otherBefore);
        const recorded = await t.database.db
          .select({ ownerId: auditEntries.ownerId, operation: auditEntries.operation, actor: auditEntries.actorId })
          .from(auditEntries)
          .where(eq(auditEntries.requestId, String(res.headers['request-id'])));
        expect(recorded).toEqual(changes ? [{ ownerId: a.ownerId, operation: route, actor: await ownerKeyId(a) }] : []);
      });

      it(
        rc.scopedOwner
          ? `answers the owner key scoped to its profile with ${rc.scopedOwner.status} ${rc.scopedOwner.code}, changing nothing`
          : `answers the owner key scoped to its profile with ${rc.success}`,
        async () => {
          const c = await rc.build(a);
          const before = [await snapshot(a.ownerId), await snapshot(b.ownerId)];
          const res = await call(method, c, auth(a.key, a.profileId));
          if (rc.scopedOwner) {
            expect(res.statusCode, res.body).toBe(rc.scopedOwner.status);
            expect(res.json().error.code).toBe(rc.scopedOwner.code);
            expect([await snapshot(a.ownerId), await snapshot(b.ownerId)]).toEqual(before);
          } else {
            expect(res.statusCode, res.body).toBe(rc.success);
            expect(await snapshot(b.ownerId)).toEqual(before[1]);
          }
        },
      );

      it("answers the owner key with another owner's profile header with 404 profile_not_found", async () => {
        const c = await rc.build(a);
        const before = [await snapshot(a.ownerId), await snapshot(b.ownerId)];
        for (const other of [b.profileId, b.defaultProfileId]) {
          const res = await call(method, c, auth(a.key, other));
          expect(res.statusCode).toBe(404);
          expect(res.json().error.code).toBe('profile_not_found');
        }
        expect([await snapshot(a.ownerId), await snapshot(b.ownerId)]).toEqual(before);
      });

      for (const role of ROLES) {
        for (const ownerWide of [true, false]) {
          const expected = memberAnswer(route, rc, role, ownerWide);
          const place = ownerWide ? 'for the whole owner' : 'on the profile';
          it(`answers a member with the ${role} role ${place} with ${expected.status}${expected.code ? ` ${expected.code}, changing nothing` : ''}`, async () => {
            const c = await rc.build(a);
            const before = [await snapshot(a.ownerId), await snapshot(b.ownerId)];
            const res = await call(method, c, await memberHeaders(roleMembers.get(`${role}:${ownerWide}`) ?? ''));
            expect(res.statusCode, res.body).toBe(expected.status);
            if (expected.code !== undefined) {
              expect(res.json().error.code).toBe(expected.code);
              expect([await snapshot(a.ownerId), await snapshot(b.ownerId)]).toEqual(before);
            } else {
              expect(await snapshot(b.ownerId)).toEqual(before[1]);
            }
          });
        }
      }

      it("never shows or changes one owner's data to another owner's key", async () => {
        const c = await rc.build(a);
        const aBefore = await snapshot(a.ownerId);
        const res = await call(method, c, auth(b.key));
        expect(await snapshot(a.ownerId)).toEqual(aBefore);
        const aIds = [
          a.ownerId,
          ...aBefore.profiles.map((p) => p.id),
          ...aBefore.keys.map((k) => k.id),
          ...aBefore.webhooks.map((w) => w.id),
          ...aBefore.accounts.map((x) => x.id),
          ...aBefore.redirectOrigins.flatMap((o) => [o.id, o.origin]),
          ...aBefore.media.map((m) => m.id),
          ...aBefore.posts.map((p) => p.id),
        ];
        if (rc.otherOwner === 404) {
          expect(res.statusCode).toBe(404);
          expect([
            'profile_not_found',
            'api_key_not_found',
            'webhook_not_found',
            'account_not_found',
            'redirect_origin_not_found',
            'media_not_found',
            'post_not_found',
            'comment_not_found',
            'member_not_found',
            'report_link_not_found',
            'report_schedule_not_found',
          ]).toContain(res.json().error.code);
        } else {
          expect(res.statusCode).toBe(rc.success);
          for (const id of aIds) expect(res.body).not.toContain(id);
        }
      });
    });
  }
});
