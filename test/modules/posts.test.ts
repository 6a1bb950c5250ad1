import { eq } from 'drizzle-orm';
import { makeWorkerUtils } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { imageFile, multipartUpload, videoFile } from '../helpers/media-files.ts';
import { accounts, posts, postTargets } from '../helpers/tables.ts';

/**
 * The posts API without publishing (no worker runs here): creation with every check, the
 * stored post, targets and jobs, listing, PATCH, DELETE and retry rules, idempotency, and the
 * account move rule (docs/posts.md).
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(() => t.close());

/** The scopes each platform's publishing needs (docs/platforms.md, "Scopes by action"), plus the basic one. */
const PUBLISH_SCOPES: Record<Platform, string[]> = {
  instagram: ['instagram_business_basic', 'instagram_business_content_publish'],
  threads: ['threads_basic', 'threads_content_publish'],
  tiktok: ['user.info.basic', 'video.publish'],
  facebook: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement'],
  linkedin: ['r_basicprofile', 'rw_organization_admin', 'w_organization_social'],
  youtube: ['https://www.googleapis.com/auth/youtube.force-ssl', 'https://www.googleapis.com/auth/youtube.upload'],
  x: ['tweet.read', 'tweet.write', 'users.read', 'offline.access'],
  google_business: ['https://www.googleapis.com/auth/business.manage'],
  pinterest: ['user_accounts:read', 'boards:read', 'boards:write', 'pins:read', 'pins:write'],
  bluesky: ['atproto', 'transition:generic'],
};

let made = 0;

async function account(
  owner: TestOwner,
  profileId: string,
  platform: Platform,
  options: { scopes?: string[]; status?: 'expired' | 'disconnected' } = {},
): Promise<string> {
  made += 1;
  const platformUserId = `user-${made}`;
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId,
      platform,
      tokens: {
        accessToken: `token-${made}`,
        expiresAt: null,
        platformUserId,
        scopes: options.scopes ?? PUBLISH_SCOPES[platform],
      },
      profile: { id: platformUserId, username: `user${made}`, name: null, avatarUrl: null, followersCount: null },
    }),
  );
  if (options.status)
    await t.database.db.update(accounts).set({ status: options.status }).where(eq(accounts.id, account.id));
  return account.id;
}

async function profile(owner: TestOwner, name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(owner.key), payload: { name } });
  return res.json().id;
}

function post(key: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: { ...auth(key), ...headers },
    payload: payload as Record<string, unknown>,
  });
}

/** A medium uploaded with `key` (into its profile, or the Service-Profile header's). */
async function upload(key: string, bytes: Buffer, profileHeader?: string): Promise<string> {
  const { payload, headers } = multipartUpload(bytes, { filename: 'upload.bin' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(key, profileHeader), ...headers },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function storedPosts(ownerId: string) {
  return await t.database.db.select().from(posts).where(eq(posts.ownerId, ownerId));
}

async function publishJobs(targetIds: string[]) {
  const rows = await t.database.pool.query<{ key: string; run_at: Date }>(
    `select key, run_at from graphile_worker.jobs
     where task_identifier = 'publish_target' and key = any($1) order by key`,
    [targetIds.map((id) => `publish_target:${id}`)],
  );
  return rows.rows;
}

describe('creating a post', () => {
  it("answers 201 with the post in its accounts' profile, one scheduled target per account, and a job per target at its time", async () => {
    const o = await t.createOwner();
    const client = await profile(o, 'Client');
    const threads = await account(o, client, 'threads');
    const facebook = await account(o, client, 'facebook');
    const scheduledAt = '2099-01-02T03:04:05.000Z';
    const res = await post(o.key, {
      account_ids: [threads, facebook],
      text: 'Hello from Switchboard',
      scheduled_at: scheduledAt,
      platforms: { threads: { text: 'Hello, Threads', reply_control: 'accounts_you_follow' } },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const target = (accountId: string, platform: string) => ({
      id: expect.stringMatching(/^pt_[0-9a-z]{26}$/),
      account_id: accountId,
      platform,
      status: 'scheduled',
      waiting_reason: null,
      platform_post_id: null,
      permalink: null,
      published_at: null,
      attempts: 0,
      error: null,
      warning: null,
      first_comment: null,
    });
    expect(body).toEqual({
      id: expect.stringMatching(/^post_[0-9a-z]{26}$/),
      profile_id: client,
      source: 'api',
      status: 'scheduled',
      text: 'Hello from Switchboard',
      media_ids: [],
      platforms: { threads: { text: 'Hello, Threads', reply_control: 'accounts_you_follow' } },
      scheduled_at: scheduledAt,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      // No approval needed: neither the post nor its profile asked for one.
      approval: null,
      targets: [target(threads, 'threads'), target(facebook, 'facebook')],
    });
    const jobs = await publishJobs(body.targets.map((x: { id: string }) => x.id));
    // One job per target, named by it (graphile-worker's job key), so rescheduling replaces it.
    expect(jobs.map((j) => j.key)).toEqual(
      [...body.targets].sort((x, y) => (x.id < y.id ? -1 : 1)).map((x: { id: string }) => `publish_target:${x.id}`),
    );
    for (const job of jobs) {
      // Due at scheduled_at (queued relative to the database's clock, so within a few seconds).
      expect(Math.abs(job.run_at.getTime() - Date.parse(scheduledAt))).toBeLessThan(60_000);
    }
    const get = await t.app.inject({ method: 'GET', url: `/v1/posts/${body.id}`, headers: auth(o.key) });
    expect(get.json()).toEqual(body);
  });

  it('stores a draft with draft targets and no job; PATCH draft:false schedules it', async () => {
    const o = await t.createOwner();
    const threads = await account(o, o.defaultProfileId, 'threads');
    const res = await post(o.key, { account_ids: [threads], text: 'Later', draft: true });
    expect(res.statusCode).toBe(201);
    const draft = res.json();
    expect(draft.status).toBe('draft');
    expect(draft.targets.map((x: { status: string }) => x.status)).toEqual(['draft']);
    expect(await publishJobs([draft.targets[0].id])).toEqual([]);

    const scheduled = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${draft.id}`,
      headers: auth(o.key),
      payload: { draft: false, scheduled_at: inAnHour() },
    });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json().status).toBe('scheduled');
    expect(scheduled.json().targets.map((x: { status: string }) => x.status)).toEqual(['scheduled']);
    expect(await publishJobs([scheduled.json().targets[0].id])).toHaveLength(1);
  });

  it('lists every problem in details and answers the gravest code, storing nothing', async () => {
    const o = await t.createOwner();
    const clientA = await profile(o, 'A');
    const clientB = await profile(o, 'B');
    const inA = await account(o, clientA, 'threads');
    const expiredInB = await account(o, clientB, 'threads', { status: 'expired' });
    const unknown = 'acc_01jd00000000000000000000zz';
    const res = await post(o.key, { account_ids: [inA, expiredInB, unknown], text: 'x'.repeat(501) });
    expect(res.statusCode).toBe(404);
    const { error } = res.json();
    expect(error.code).toBe('account_not_found');
    expect(error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'account_not_found', field: 'account_ids[2]', account_id: unknown }),
        expect.objectContaining({ code: 'mixed_profiles', field: 'account_ids' }),
        expect.objectContaining({ code: 'account_not_connected', field: 'account_ids[1]', account_id: expiredInB }),
        expect.objectContaining({ code: 'validation_failed', field: 'text' }),
      ]),
    );
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('answers 400 mixed_profiles for accounts of two profiles', async () => {
    const o = await t.createOwner();
    const a = await account(o, await profile(o, 'A'), 'threads');
    const b = await account(o, await profile(o, 'B'), 'threads');
    const res = await post(o.key, { account_ids: [a, b], text: 'Hello' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('mixed_profiles');
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('answers 422 account_not_connected for an expired or disconnected account', async () => {
    const o = await t.createOwner();
    for (const status of ['expired', 'disconnected'] as const) {
      const id = await account(o, o.defaultProfileId, 'threads', { status });
      const res = await post(o.key, { account_ids: [id], text: 'Hello' });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('account_not_connected');
    }
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('answers 422 permission_missing naming the publishing permission', async () => {
    const o = await t.createOwner();
    const id = await account(o, o.defaultProfileId, 'threads', { scopes: ['threads_basic', 'threads_read_replies'] });
    const res = await post(o.key, { account_ids: [id], text: 'Hello' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('permission_missing');
    expect(res.json().error.details[0].message).toContain('threads_content_publish');
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('counts Threads text as Threads does: 500 characters, an emoji as its UTF-8 bytes', async () => {
    const o = await t.createOwner();
    const id = await account(o, o.defaultProfileId, 'threads');
    // 🚀 is 4 bytes in UTF-8: 125 of them are 500, 126 are 504.
    expect(
      (await post(o.key, { account_ids: [id], text: '🚀'.repeat(125), scheduled_at: inAnHour() })).statusCode,
    ).toBe(201);
    expect((await post(o.key, { account_ids: [id], text: 'a'.repeat(500), scheduled_at: inAnHour() })).statusCode).toBe(
      201,
    );
    for (const text of ['🚀'.repeat(126), 'a'.repeat(501)]) {
      const res = await post(o.key, { account_ids: [id], text });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details).toEqual([expect.objectContaining({ code: 'validation_failed', field: 'text' })]);
    }
    // A Threads text of its own is what Threads counts.
    const own = await post(o.key, {
      account_ids: [id],
      text: 'a'.repeat(600),
      platforms: { threads: { text: 'short' } },
    });
    expect(own.statusCode).toBe(201);
  });

  it('refuses posts that break a platform rule before any media exist: Instagram and TikTok need media, Facebook text or media', async () => {
    const o = await t.createOwner();
    const instagram = await account(o, o.defaultProfileId, 'instagram');
    const tiktok = await account(o, o.defaultProfileId, 'tiktok');
    const facebook = await account(o, o.defaultProfileId, 'facebook');
    for (const ids of [[instagram], [tiktok]]) {
      const res = await post(o.key, { account_ids: ids, text: 'Text only' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const empty = await post(o.key, { account_ids: [facebook] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('validation_failed');
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('refuses options for a platform none of the accounts is on, and a time in the past', async () => {
    const o = await t.createOwner();
    const id = await account(o, o.defaultProfileId, 'threads');
    const options = await post(o.key, {
      account_ids: [id],
      text: 'Hi',
      platforms: { facebook: { link: 'https://example.com' } },
    });
    expect(options.statusCode).toBe(400);
    expect(options.json().error.details).toEqual([expect.objectContaining({ field: 'platforms.facebook' })]);
    const past = await post(o.key, { account_ids: [id], text: 'Hi', scheduled_at: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details).toEqual([expect.objectContaining({ field: 'scheduled_at' })]);
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('answers 404 account_not_found for an account of another owner or, for a profile key, of another profile', async () => {
    const o = await t.createOwner();
    const other = await t.createOwner();
    const theirs = await account(other, other.defaultProfileId, 'threads');
    expect((await post(o.key, { account_ids: [theirs], text: 'Hi' })).json().error.code).toBe('account_not_found');
    const client = await profile(o, 'Client');
    const inDefault = await account(o, o.defaultProfileId, 'threads');
    const profileKey = await t.createProfileKey(o.ownerId, client);
    const res = await post(profileKey, { account_ids: [inDefault], text: 'Hi' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('account_not_found');
    expect(await storedPosts(o.ownerId)).toEqual([]);
  });

  it('answers a retry with the same Idempotency-Key with the first answer, creating nothing more', async () => {
    const o = await t.createOwner();
    const id = await account(o, o.defaultProfileId, 'threads');
    const payload = { account_ids: [id], text: 'Once', scheduled_at: inAnHour() };
    const first = await post(o.key, payload, { 'idempotency-key': 'post-once-1' });
    const second = await post(o.key, payload, { 'idempotency-key': 'post-once-1' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await storedPosts(o.ownerId)).toHaveLength(1);
  });
});

describe('posts with media', () => {
  it("answers 400 media_profile_mismatch for media of another profile than the accounts'", async () => {
    const o = await t.createOwner();
    const client = await profile(o, 'Client');
    const threads = await account(o, client, 'threads');
    const inDefault = await upload(o.key, await imageFile('jpeg'));
    const res = await post(o.key, { account_ids: [threads], text: 'Hi', media_ids: [inDefault] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('media_profile_mismatch');
    expect(res.json().error.details).toEqual([
      expect.objectContaining({ code: 'media_profile_mismatch', field: 'media_ids[0]', media_id: inDefault }),
    ]);
    const inClient = await upload(o.key, await imageFile('jpeg'), client);
    expect((await post(o.key, { account_ids: [threads], text: 'Hi', media_ids: [inClient] })).statusCode).toBe(201);
    expect(await storedPosts(o.ownerId)).toHaveLength(1);
  });

  it("checks Instagram's and TikTok's rules on the media: carousel size, a reel's video, TikTok's privacy level", async () => {
    const o = await t.createOwner();
    const instagram = await account(o, o.defaultProfileId, 'instagram');
    const tiktok = await account(o, o.defaultProfileId, 'tiktok');
    const images: string[] = [];
    for (let i = 0; i < 11; i += 1) images.push(await upload(o.key, await imageFile('jpeg')));
    const video = await upload(o.key, await videoFile('mp4', { seconds: 5 }));
    const eleven = await post(o.key, { account_ids: [instagram], media_ids: images });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error.details).toEqual([
      expect.objectContaining({ code: 'validation_failed', field: 'media_ids' }),
    ]);
    expect(
      (await post(o.key, { account_ids: [instagram], media_ids: images.slice(0, 10), scheduled_at: inAnHour() }))
        .statusCode,
    ).toBe(201);
    const reelOfImage = await post(o.key, {
      account_ids: [instagram],
      media_ids: [images[0]],
      platforms: { instagram: { type: 'reel' } },
    });
    expect(reelOfImage.statusCode).toBe(400);
    const noPrivacy = await post(o.key, { account_ids: [tiktok], media_ids: [video] });
    expect(noPrivacy.statusCode).toBe(400);
    expect(noPrivacy.json().error.details).toEqual([
      expect.objectContaining({ code: 'validation_failed', field: 'platforms.tiktok.privacy_level' }),
    ]);
    const withPrivacy = await post(o.key, {
      account_ids: [tiktok],
      media_ids: [video],
      platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
      scheduled_at: inAnHour(),
    });
    expect(withPrivacy.statusCode).toBe(201);
  });

  it("takes TikTok's commercial content disclosure as two booleans, and refuses branded content that is private", async () => {
    const o = await t.createOwner();
    const tiktok = await account(o, o.defaultProfileId, 'tiktok');
    const video = await upload(o.key, await videoFile('mp4', { seconds: 5 }));
    const disclosed = await post(o.key, {
      account_ids: [tiktok],
      media_ids: [video],
      platforms: {
        tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE', brand_content_toggle: true, brand_organic_toggle: false },
      },
      scheduled_at: inAnHour(),
    });
    expect(disclosed.statusCode, disclosed.body).toBe(201);
    expect(disclosed.json().platforms).toEqual({
      tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE', brand_content_toggle: true, brand_organic_toggle: false },
    });

    const notBoolean = await post(o.key, {
      account_ids: [tiktok],
      media_ids: [video],
      platforms: { tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE', brand_organic_toggle: 'yes' } },
    });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json().error.code).toBe('validation_failed');
    expect(notBoolean.json().error.details).toEqual([
      expect.objectContaining({ field: expect.stringMatching(/platforms\.tiktok\.brand_organic_toggle$/) }),
    ]);

    // TikTok's Content Sharing Guidelines: "Branded content visibility cannot be set to private."
    const privateBranded = await post(o.key, {
      account_ids: [tiktok],
      media_ids: [video],
      platforms: { tiktok: { privacy_level: 'SELF_ONLY', brand_content_toggle: true } },
    });
    expect(privateBranded.statusCode).toBe(400);
    expect(privateBranded.json().error.code).toBe('validation_failed');
    expect(privateBranded.json().error.details).toEqual([
      {
        code: 'validation_failed',
        field: 'platforms.tiktok.brand_content_toggle',
        message: expect.stringContaining('Branded content visibility cannot be set to private.'),
      },
    ]);
    expect(await storedPosts(o.ownerId)).toHaveLength(1);
  });

  it('refuses deleting a medium a waiting post uses (409 media_in_use), and allows it once the post is cancelled', async () => {
    const o = await t.createOwner();
    const threads = await account(o, o.defaultProfileId, 'threads');
    const media = await upload(o.key, await imageFile('png'));
    const created = (
      await post(o.key, { account_ids: [threads], media_ids: [media], scheduled_at: inAnHour() })
    ).json();
    const del = () => t.app.inject({ method: 'DELETE', url: `/v1/media/${media}`, headers: auth(o.key) });
    const refused = await del();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('media_in_use');
    await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(o.key) });
    expect((await del()).statusCode).toBe(204);
  });
});

describe('listing posts', () => {
  it('lists newest first with filters and pages, scoped to the caller', async () => {
    const o = await t.createOwner();
    const client = await profile(o, 'Client');
    const threads = await account(o, client, 'threads');
    const other = await account(o, o.defaultProfileId, 'threads');
    const ids: string[] = [];
    for (const [i, when] of ['2099-01-01T00:00:00Z', '2099-02-01T00:00:00Z', '2099-03-01T00:00:00Z'].entries()) {
      ids.push((await post(o.key, { account_ids: [threads], text: `Post ${i}`, scheduled_at: when })).json().id);
    }
    const elsewhere = (await post(o.key, { account_ids: [other], text: 'Default', scheduled_at: inAnHour() })).json()
      .id;
    const list = async (query: string, key = o.key) =>
      (await t.app.inject({ method: 'GET', url: `/v1/posts${query}`, headers: auth(key) })).json();

    expect((await list('')).data.map((p: { id: string }) => p.id)).toEqual([elsewhere, ids[2], ids[1], ids[0]]);
    expect((await list(`?account_id=${threads}`)).data.map((p: { id: string }) => p.id)).toEqual([
      ids[2],
      ids[1],
      ids[0],
    ]);
    expect(
      (await list('?from=2099-01-15T00:00:00Z&to=2099-02-01T00:00:00Z')).data.map((p: { id: string }) => p.id),
    ).toEqual([ids[1]]);
    expect((await list('?status=cancelled')).data).toEqual([]);
    const page1 = await list('?limit=2');
    expect(page1.data.map((p: { id: string }) => p.id)).toEqual([elsewhere, ids[2]]);
    const page2 = await list(`?limit=2&cursor=${page1.next_cursor}`);
    expect(page2.data.map((p: { id: string }) => p.id)).toEqual([ids[1], ids[0]]);
    expect(page2.next_cursor).toBeNull();

    const profileKey = await t.createProfileKey(o.ownerId, client);
    expect((await list('', profileKey)).data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1], ids[0]]);
    const hidden = await t.app.inject({ method: 'GET', url: `/v1/posts/${elsewhere}`, headers: auth(profileKey) });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('post_not_found');
  });
});

describe('changing, cancelling and retrying', () => {
  it('changes a post while nothing has started, re-checking it; 409 post_not_editable once a target started', async () => {
    const o = await t.createOwner();
    const id = await account(o, o.defaultProfileId, 'threads');
    const created = (await post(o.key, { account_ids: [id], text: 'Before', scheduled_at: inAnHour() })).json();
    const patch = (payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: `/v1/posts/${created.id}`,
        headers: auth(o.key),
        payload: payload as object,
      });

    const bad = await patch({ text: 'x'.repeat(501) });
    expect(bad.statusCode).toBe(400);
    expect((await storedPosts(o.ownerId))[0]?.text).toBe('Before');

    const later = '2099-05-05T05:05:05.000Z';
    const changed = await patch({ text: 'After', scheduled_at: later });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ text: 'After', scheduled_at: later, status: 'scheduled' });
    const [job] = await publishJobs([changed.json().targets[0].id]);
    expect(Math.abs((job?.run_at.getTime() ?? 0) - Date.parse(later))).toBeLessThan(60_000);

    await t.database.db.update(postTargets).set({ status: 'publishing' }).where(eq(postTargets.postId, created.id));
    const refused = await patch({ text: 'Too late' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('post_not_editable');
    expect((await storedPosts(o.ownerId))[0]?.text).toBe('After');
  });

  it('cancels waiting targets, keeps published ones, and answers 409 post_not_cancellable when nothing is left', async () => {
    const o = await t.createOwner();
    const a = await account(o, o.defaultProfileId, 'threads');
    const b = await account(o, o.defaultProfileId, 'threads');
    const created = (await post(o.key, { account_ids: [a, b], text: 'Hi', scheduled_at: inAnHour() })).json();
    const published = created.targets[0].id;
    await t.database.db
      .update(postTargets)
      .set({ status: 'published', platformPostId: '1789', publishedAt: new Date() })
      .where(eq(postTargets.id, published));
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(o.key) });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('published');
    expect(res.json().targets.map((x: { status: string }) => x.status)).toEqual(['published', 'cancelled']);
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(o.key) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('post_not_cancellable');
  });

  it('queues failed targets again on retry, and answers 409 post_not_retryable when none failed', async () => {
    const o = await t.createOwner();
    const id = await account(o, o.defaultProfileId, 'threads');
    const created = (await post(o.key, { account_ids: [id], text: 'Hi', scheduled_at: inAnHour() })).json();
    const retry = () => t.app.inject({ method: 'POST', url: `/v1/posts/${created.id}/retry`, headers: auth(o.key) });
    const refused = await retry();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('post_not_retryable');

    const targetId = created.targets[0].id;
    const { rows } = await t.database.pool.query<{ id: string }>('select id from graphile_worker.jobs where key = $1', [
      `publish_target:${targetId}`,
    ]);
    const utils = await makeWorkerUtils({ pgPool: t.database.pool });
    await utils.completeJobs(rows.map((r) => r.id)).finally(() => utils.release());
    await t.database.db
      .update(postTargets)
      .set({ status: 'failed', attempts: 1, error: { code: 'transient', message: 'down', platform_code: null } })
      .where(eq(postTargets.id, targetId));
    const res = await retry();
    expect(res.statusCode).toBe(200);
    expect(res.json().targets[0]).toMatchObject({ status: 'scheduled', error: null, attempts: 1 });
    expect(await publishJobs([targetId])).toHaveLength(1);

    // An account that is no longer connected cannot be retried.
    await t.database.db.update(postTargets).set({ status: 'failed' }).where(eq(postTargets.id, targetId));
    await t.database.db.update(accounts).set({ status: 'expired' }).where(eq(accounts.id, id));
    const expired = await retry();
    expect(expired.statusCode).toBe(422);
    expect(expired.json().error.code).toBe('account_not_connected');
  });
});

describe('moving an account', () => {
  it('keeps a draft in its profile: scheduling it after its account moved is refused', async () => {
    const o = await t.createOwner();
    const client = await profile(o, 'Client');
    const other = await profile(o, 'Other');
    const id = await account(o, client, 'threads');
    const draft = (await post(o.key, { account_ids: [id], text: 'Draft', draft: true })).json();
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/accounts/${id}/move`,
      headers: auth(o.key),
      payload: { profile_id: other },
    });
    expect(moved.statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${draft.id}`,
      headers: auth(o.key),
      payload: { draft: false },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('mixed_profiles');
    const after = await t.app.inject({ method: 'GET', url: `/v1/posts/${draft.id}`, headers: auth(o.key) });
    expect(after.json()).toMatchObject({ profile_id: client, status: 'draft' });
  });
  it('is refused with 409 account_has_scheduled_posts while a post waits, allowed once it is cancelled; the post stays in its profile', async () => {
    const o = await t.createOwner();
    const client = await profile(o, 'Client');
    const other = await profile(o, 'Other');
    const id = await account(o, client, 'threads');
    const created = (await post(o.key, { account_ids: [id], text: 'Hi', scheduled_at: inAnHour() })).json();
    const move = () =>
      t.app.inject({
        method: 'POST',
        url: `/v1/accounts/${id}/move`,
        headers: auth(o.key),
        payload: { profile_id: other },
      });
    const refused = await move();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('account_has_scheduled_posts');
    await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(o.key) });
    const moved = await move();
    expect(moved.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/v1/posts/${created.id}`, headers: auth(o.key) });
    expect(after.json().profile_id).toBe(client);
  });
});
