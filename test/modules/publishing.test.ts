import { eq, sql } from 'drizzle-orm';
import { makeWorkerUtils } from 'graphile-worker';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { IllegalTransitionError, transition } from '../../src/jobs/workflow.ts';
import { credentialsOf } from '../../src/modules/accounts/connections.ts';
import { pollComments } from '../../src/modules/comments/index.ts';
import { projectUnits, publishTarget } from '../../src/modules/posts/index.ts';
import { targetStates } from '../../src/modules/posts/target-workflow.ts';
import { completeProfileDeletion } from '../../src/modules/profiles/service.ts';
import {
  createPlatforms,
  type Platform,
  PlatformError,
  type PlatformSet,
  type PublishingCapability,
} from '../../src/platforms/index.ts';
import { verifyWebhook } from '../../src/webhook-signature.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { imageFile, multipartUpload, videoFile } from '../helpers/media-files.ts';
import { growth, scrapeMetrics } from '../helpers/metrics.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount } from '../helpers/sandbox-accounts.ts';
import { verifyStandardWebhook } from '../helpers/standard-webhooks.ts';
import { accounts, commentSyncState, events, posts, postTargets } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * Publishing over HTTP against the sandbox platforms: the service serves each medium at a
 * signed URL the sandbox fetches, a worker runs the publishing jobs, and a receiver gets the
 * signed events (docs/posts.md, "Publishing").
 */

let sandbox: TestSandbox;
let t: TestApp;
let receiver: Receiver;
let owner: TestOwner;
let webhookSecret: string;
/** What the app logged (warnings and worse), a JSON line each, as an operator reads them. */
const appLog: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
  t = await startTestApp(
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '100000', PUBLISH_RETRY_WINDOW_SECONDS: '600' },
    undefined,
    {
      platforms: sandbox.platforms,
      listen: true,
      log: pino({ level: 'warn' }, { write: (line: string) => appLog.push(line) }),
    },
  );
  owner = await t.createOwner();
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['post.published', 'post.failed'] },
  });
  webhookSecret = hook.json().secret;
  // Containers ready a second after creation: polling is exercised without slowing the suite.
  await setting('container_processing_seconds', 1);
  await t.startWorker({ platforms: sandbox.platforms });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await receiver.close();
  await sandbox.close();
});

/** Sets a sandbox switch (docs/sandbox.md, settings). */
async function setting(name: string, value: unknown): Promise<void> {
  const res = await sandbox.control('PUT', `/settings/${name}`, { value });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** What the publish_target job runs with, to run its steps without a worker. */
function publishDeps(platforms: PlatformSet) {
  return {
    db: t.database.db,
    secretKey: t.secretKey,
    platforms,
    media: { db: t.database.db, secretKey: t.secretKey, config: t.config },
    publishRetryWindowMs: 600_000,
    accountReconnectGraceMs: 259_200_000,
    log: pino({ level: 'silent' }),
  };
}

/** The credentials the service holds for an account. */
async function credentialsFor(accountId: string) {
  const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw new Error(`no account ${accountId}`);
  return credentialsOf(t.secretKey, row);
}

/**
 * The sandbox's platforms whose creation of a post never ends, as a worker that died in the
 * call: before the platform received it, or after the platform made the post.
 */
function dyingInCreation(when: 'before the platform received it' | 'after the platform made it'): PlatformSet {
  return withPublishing((real) => ({
    createContainer: async (...args: Parameters<typeof real.createContainer>) => {
      if (when === 'after the platform made it') await real.createContainer(...args);
      return await new Promise<never>(() => {});
    },
  }));
}

/**
 * The sandbox's platforms with each adapter's publishing changed by `change` (a run that dies
 * after a call, a medium the platform cannot fetch), the rest as it is.
 */
function withPublishing(
  change: (real: PublishingCapability, platform: Platform) => Partial<PublishingCapability>,
  platforms: PlatformSet = sandbox.platforms,
): PlatformSet {
  return {
    ...platforms,
    adapter: (platform) => {
      const real = platforms.adapter(platform);
      return { ...real, publishing: { ...real.publishing, ...change(real.publishing, platform) } };
    },
  };
}

let users = 0;

/** A sandbox user of `platform` connected as an account of the owner (a Facebook user's first page). */
async function connected(platform: Platform, options: { member?: boolean } = {}): Promise<SandboxAccount> {
  users += 1;
  // A Bluesky user is a handle: a host name.
  const username = platform === 'bluesky' ? `pub${users}.bsky.social` : `pub_${platform}_${users}`;
  return await connectSandboxAccount(t, sandbox, owner, platform, username, options);
}

async function upload(bytes: Buffer, filename: string): Promise<string> {
  const { payload, headers } = multipartUpload(bytes, { filename });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/media',
    headers: { ...auth(owner.key), ...headers },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const image = (format: 'png' | 'jpeg') => imageFile(format);

/** The answer to creating a post, whatever it is (a refusal's status and problems). */
async function postAnswer(payload: Record<string, unknown>) {
  return await t.app.inject({ method: 'POST', url: '/v1/posts', headers: auth(owner.key), payload });
}

async function createPost(payload: Record<string, unknown>) {
  const res = await postAnswer(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function getPost(id: string) {
  return (await t.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: auth(owner.key) })).json();
}

/** The post once every target has finished (published, failed or cancelled). */
async function finished(id: string) {
  return await eventually(async () => {
    const p = await getPost(id);
    return p.targets.every((x: { status: string }) => ['published', 'failed', 'cancelled'].includes(x.status))
      ? p
      : undefined;
  });
}

/** The target's row: its state, and the containers recorded. */
async function targetRow(targetId: string) {
  const [row] = await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
  if (!row) throw new Error(`no target ${targetId}`);
  return row;
}

/** POST /v1/posts/{id}/retry as the owner: a new try of the post's failed targets, answered 200. */
async function retryPost(postId: string): Promise<void> {
  const retried = await t.app.inject({ method: 'POST', url: `/v1/posts/${postId}/retry`, headers: auth(owner.key) });
  expect(retried.statusCode, retried.body).toBe(200);
}

/** Whether the target's next publish_target job is queued (not running). */
async function dueJob(targetId: string): Promise<number | undefined> {
  const { rows } = await t.database.pool.query<{ wait_ms: number }>(
    `select greatest(0, extract(epoch from run_at - now()) * 1000)::float8 as wait_ms
       from graphile_worker.jobs where key = $1 and locked_at is null`,
    [`publish_target:${targetId}`],
  );
  return rows[0]?.wait_ms;
}

/**
 * Moves time to when the target's next step is due and lets the worker run it: the row once it
 * has settled (its next step queued, or done with publishing).
 */
async function nextStep(targetId: string) {
  const before = await targetRow(targetId);
  const wait = await eventually(() => dueJob(targetId));
  await moveTime(t.database.pool, wait + 10);
  return await eventually(async () => {
    const row = await targetRow(targetId);
    if (row.updatedAt.getTime() === before.updatedAt.getTime()) return undefined;
    return row.status !== 'publishing' || (await dueJob(targetId)) !== undefined ? row : undefined;
  });
}

/**
 * Runs `test` on a Threads post of `text` (with an image) whose container is finished, with the
 * workers stopped, so that the test's runs are the target's only ones: its first step run (the
 * quota read, the container made) and the sandbox's processing time passed, so that the target's
 * next run finds the container finished and publishes it.
 */
async function withFinishedContainer(
  text: string,
  test: (post: { account: SandboxAccount; created: { id: string }; targetId: string }) => Promise<void>,
): Promise<void> {
  const account = await connected('threads');
  const media = await upload(await image('jpeg'), `${text}.jpg`);
  await t.stopWorkers();
  try {
    const created = await createPost({ account_ids: [account.id], text, media_ids: [media] });
    const targetId: string = created.targets[0].id;
    await publishTarget(publishDeps(sandbox.platforms), targetId); // quota, container
    await moveTime(t.database.pool, 6000);
    await test({ account, created, targetId });
  } finally {
    await t.startWorker({ platforms: sandbox.platforms });
  }
}

/** The types of the events stored of a post, as written (before any delivery). */
async function storedEventTypes(postId: string): Promise<string[]> {
  const written = await t.database.db.select().from(events).where(sql`${events.data}->>'post_id' = ${postId}`);
  return written.map((e) => e.type);
}

/**
 * Moves time past the lease of a claim whose run died (two minutes from its claim or its last
 * recorded part): until then, another run of the target leaves the publish to it.
 */
async function claimLeasePasses() {
  await moveTime(t.database.pool, 120_000);
}

/** The calls the sandbox recorded of a user that read a container's status (Threads' fields), with their times. */
async function statusReads(platform: 'threads' | 'instagram', username: string, fields: string) {
  const { data } = await sandbox.calls(platform, username);
  return data.filter((c) => c.method === 'GET' && c.query.fields === fields).map((c) => new Date(c.at).getTime());
}

/** The time of day of `at` in Pacific Time (hh:mm:ss), where Google's daily quotas reset at midnight. */
function pacificTime(at: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(at);
}

/**
 * Moves time past `due` and runs a target's steps here, a minute apart: its upload made (the
 * container recorded at the first), processed and published. The row after the last step.
 */
async function uploadedAfter(platforms: PlatformSet, targetId: string, due: Date) {
  // Past `due` already (another target's steps moved the clock beyond it): a second on.
  await moveTime(t.database.pool, Math.max(due.getTime() - now().getTime(), 0) + 1000);
  await publishTarget(publishDeps(platforms), targetId); // quota, container
  let row = await targetRow(targetId);
  expect(row.containerId).not.toBeNull();
  for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) {
    await moveTime(t.database.pool, 60_000);
    await publishTarget(publishDeps(platforms), targetId);
    row = await targetRow(targetId);
  }
  return row;
}

async function activity(platform: Platform, username: string) {
  const res = await sandbox.control('GET', `/activity/${platform}/${username}`);
  return res.body.data as { action: string; target_id: string; detail: Record<string, unknown> }[];
}

/**
 * The events about `postId` the receiver got (events of earlier tests may still arrive), each
 * checked against its signature, as parsed envelopes.
 */
async function eventsOf(postId: string, n = 1) {
  return await eventually(async () => {
    const found = receiver.received.filter((r) => JSON.parse(r.body.toString('utf8')).data.post_id === postId);
    if (found.length < n) return undefined;
    return found.map((r) => {
      // Signed at the service's time, which these tests move (by two days at most).
      const options = { nowSeconds: now().getTime() / 1000, toleranceSeconds: 2 * 86_400 };
      expect(verifyWebhook(r.body, r.headers['service-signature'] as string, webhookSecret, options)).toBe(true);
      // And its Standard Webhooks headers, by the reference library, with the same secret.
      const envelope = JSON.parse(r.body.toString('utf8'));
      expect(verifyStandardWebhook(webhookSecret, r)).toEqual(envelope);
      expect(r.headers['webhook-id']).toBe(envelope.id);
      return envelope;
    });
  });
}

describe('publishing now', () => {
  it('publishes a Threads text post, sends post.published, and the sandbox got the text once', async () => {
    const account = await connected('threads');
    const created = await createPost({ account_ids: [account.id], text: 'Hello from Switchboard 🚀' });
    const post = await finished(created.id);
    const [target] = post.targets;
    expect(post.status).toBe('published');
    expect(target).toMatchObject({ status: 'published', attempts: 1, error: null, waiting_reason: null });
    const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.target_id).toBe(target.platform_post_id);
    expect(published[0]?.detail.text).toBe('Hello from Switchboard 🚀');
    expect(target.permalink).toBe(published[0]?.detail.permalink);

    const [event] = await eventsOf(created.id);
    expect(event).toEqual({
      id: expect.any(String),
      type: 'post.published',
      created_at: expect.any(String),
      profile_id: owner.defaultProfileId,
      data: {
        post_id: created.id,
        target_id: target.id,
        account_id: account.id,
        platform: 'threads',
        permalink: target.permalink,
        published_at: target.published_at,
      },
    });
  });

  it('publishes a PNG on Instagram as the JPEG Instagram requires', async () => {
    const account = await connected('instagram');
    const media = await upload(await image('png'), 'photo.png');
    const post = await finished(
      (await createPost({ account_ids: [account.id], text: 'A photo', media_ids: [media] })).id,
    );
    expect(post.targets[0].status).toBe('published');
    const [published] = (await activity('instagram', account.username)).filter((a) => a.action === 'publish');
    expect(published?.detail.image_url).toMatch(/\.jpg(\?|$)/);
    expect(published?.detail.caption).toBe('A photo');
  });

  it('publishes an Instagram carousel of two images and a reel', async () => {
    const account = await connected('instagram');
    const first = await upload(await image('jpeg'), 'a.jpg');
    const second = await upload(await image('png'), 'b.png');
    const carousel = await finished(
      (await createPost({ account_ids: [account.id], text: 'Two', media_ids: [first, second] })).id,
    );
    expect(carousel.targets[0].status).toBe('published');
    const video = await upload(await videoFile('mp4'), 'clip.mp4');
    const reel = await finished(
      (
        await createPost({
          account_ids: [account.id],
          text: 'A reel',
          media_ids: [video],
          platforms: { instagram: { type: 'reel' } },
        })
      ).id,
    );
    expect(reel.targets[0].status).toBe('published');
    const published = (await activity('instagram', account.username)).filter((a) => a.action === 'publish');
    expect(published.map((a) => a.detail.media_type)).toEqual(['CAROUSEL', 'REELS']);
  });

  it('publishes a TikTok video privately, naming it by its publish id', async () => {
    const account = await connected('tiktok');
    const video = await upload(await videoFile('mp4'), 'clip.mp4');
    const post = await finished(
      (
        await createPost({
          account_ids: [account.id],
          text: 'On TikTok',
          media_ids: [video],
          platforms: { tiktok: { privacy_level: 'SELF_ONLY', disable_duet: true, brand_organic_toggle: true } },
        })
      ).id,
    );
    expect(post.targets[0]).toMatchObject({ status: 'published', permalink: null });
    const [published] = (await activity('tiktok', account.username)).filter((a) => a.action === 'publish');
    // What TikTok received: every switch said out loud, the commercial content disclosure included.
    expect(published?.detail.options).toEqual({
      privacy_level: 'SELF_ONLY',
      disable_comment: false,
      disable_duet: true,
      disable_stitch: false,
      brand_content_toggle: false,
      brand_organic_toggle: true,
    });
    // Not public: TikTok gives no post id, so the publish id names the post.
    expect(post.targets[0].platform_post_id).toBe(published?.detail.publish_id);
  });

  it('publishes a Facebook page post with a photo and a link', async () => {
    const account = await connected('facebook');
    const media = await upload(await image('jpeg'), 'page.jpg');
    const post = await finished(
      (
        await createPost({
          account_ids: [account.id],
          text: 'On the page',
          media_ids: [media],
          platforms: { facebook: { link: 'https://shop.example.com/autumn' } },
        })
      ).id,
    );
    expect(post.targets[0].status).toBe('published');
  });

  it("writes Instagram's first comment on the new post once it is published", async () => {
    const account = await connected('instagram');
    const media = await upload(await image('jpeg'), 'first.jpg');
    const created = await createPost({
      account_ids: [account.id],
      text: 'With a first comment',
      media_ids: [media],
      platforms: { instagram: { first_comment: '#first #comment' } },
    });
    const target = await eventually(async () => {
      const x = (await getPost(created.id)).targets[0];
      return x.first_comment.status === 'pending' ? undefined : x;
    });
    expect(target.status).toBe('published');
    const comments = (await activity('instagram', account.username)).filter((a) => a.action === 'comment');
    expect(comments).toHaveLength(1);
    expect(target.first_comment).toEqual({
      status: 'posted',
      platform_comment_id: expect.any(String),
      error: null,
    });
    expect(JSON.stringify(comments[0])).toContain('#first #comment');
    expect(JSON.stringify(comments[0])).toContain(target.platform_post_id);
  });

  it('publishes a Threads carousel of three images', async () => {
    const account = await connected('threads');
    const media = [
      await upload(await image('jpeg'), '1.jpg'),
      await upload(await image('png'), '2.png'),
      await upload(await image('jpeg'), '3.jpg'),
    ];
    const post = await finished((await createPost({ account_ids: [account.id], text: 'Three', media_ids: media })).id);
    expect(post.targets[0].status).toBe('published');
    const [published] = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
    expect(published?.detail.media_urls).toHaveLength(3);
  });

  it("keeps a public TikTok post publishing, saying why, until TikTok's moderation gives its public id", async () => {
    const account = await connected('tiktok');
    const video = await upload(await videoFile('mp4'), 'public.mp4');
    const created = await createPost({
      account_ids: [account.id],
      text: 'For everyone',
      media_ids: [video],
      platforms: { tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' } },
    });
    const moderating = await eventually(async () => {
      const x = (await getPost(created.id)).targets[0];
      return x.waiting_reason?.includes('moderation') ? x : undefined;
    });
    expect(moderating.status).toBe('publishing');
    expect(moderating.platform_post_id).toBeNull();
    await moveTime(t.database.pool, 31_000);
    const post = await finished(created.id);
    expect(post.targets[0].status).toBe('published');
    expect(post.targets[0].permalink).toMatch(/^https:\/\/www\.tiktok\.com\/@[^/]+\/video\/\d+$/);
  });

  it('answers TikTok refusing an app it has not audited, posting to a public account, with a clear failure and post.failed', async () => {
    const account = await connected('tiktok');
    await setting('tiktok_client_audit', 'unaudited');
    try {
      const video = await upload(await videoFile('mp4'), 'clip.mp4');
      // Private viewing (SELF_ONLY) is not enough: "Unaudited clients can only post to a private account".
      const created = await createPost({
        account_ids: [account.id],
        media_ids: [video],
        platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
      });
      const post = await finished(created.id);
      expect(post.status).toBe('failed');
      expect(post.targets[0].error).toMatchObject({
        code: 'invalid_request',
        platform_code: 'unaudited_client_can_only_post_to_private_accounts',
      });
      const [event] = await eventsOf(created.id);
      expect(event.type).toBe('post.failed');
      expect(event.data).toEqual({
        post_id: created.id,
        target_id: post.targets[0].id,
        account_id: account.id,
        platform: 'tiktok',
        error_code: 'invalid_request',
        error_message: post.targets[0].error.message,
      });
      expect((await activity('tiktok', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
    } finally {
      await setting('tiktok_client_audit', 'audited');
    }
  });

  it('publishes, under an app TikTok has not audited, a SELF_ONLY video on a private account', async () => {
    const account = await connected('tiktok');
    const made = await sandbox.control('POST', '/users', {
      platform: 'tiktok',
      username: account.username,
      private: true,
    });
    expect(made.body.private).toBe(true);
    await setting('tiktok_client_audit', 'unaudited');
    try {
      const video = await upload(await videoFile('mp4'), 'private.mp4');
      const created = await createPost({
        account_ids: [account.id],
        text: 'Only me, for now',
        media_ids: [video],
        platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
      });
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', permalink: null, error: null });
      const [published] = (await activity('tiktok', account.username)).filter((a) => a.action === 'publish');
      expect(published?.detail).toMatchObject({ text: 'Only me, for now', options: { privacy_level: 'SELF_ONLY' } });
      const [event] = await eventsOf(created.id);
      expect(event.type).toBe('post.published');
    } finally {
      await setting('tiktok_client_audit', 'audited');
    }
  });
});

describe('metrics', () => {
  it('counts targets published and failed by platform, their lateness, the platform calls, and the accounts by status', async () => {
    const account = await connected('threads');
    const before = await scrapeMetrics(t);
    await finished((await createPost({ account_ids: [account.id], text: 'Counted' })).id);
    await sandbox.control('POST', '/faults', {
      platform: 'threads',
      username: account.username,
      error: 'invalid_request',
      trigger: 'publish',
    });
    const refused = await finished((await createPost({ account_ids: [account.id], text: 'Refused' })).id);
    expect(refused.status).toBe('failed');
    const after = await scrapeMetrics(t);
    const grew = growth(before, after);
    expect(grew('switchboard_publish_targets_total{platform="threads",outcome="published"}')).toBe(1);
    expect(grew('switchboard_publish_targets_total{platform="threads",outcome="failed"}')).toBe(1);
    // Published now, its container ready a second later: late by seconds, not minutes.
    expect(grew('switchboard_publish_lateness_seconds_count{platform="threads"}')).toBe(1);
    expect(grew('switchboard_publish_lateness_seconds_bucket{platform="threads",le="60"}')).toBe(1);
    // Each post: a container, then its publication; the refused publication is a 4xx.
    expect(grew('switchboard_platform_calls_total{platform="threads",result="ok"}')).toBeGreaterThanOrEqual(3);
    expect(grew('switchboard_platform_calls_total{platform="threads",result="client_error"}')).toBeGreaterThanOrEqual(
      1,
    );
    const [{ n }] = (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${accounts} where platform = 'threads' and status = 'connected'`,
      )
    ).rows as [{ n: number }];
    expect(after.get('switchboard_accounts{platform="threads",status="connected"}')).toBe(n);
    expect(n).toBeGreaterThan(0);
  });
});

describe('TikTok video lengths', () => {
  it("fails a video longer than the TikTok account may post (creator_info's max_video_post_duration_sec) with validation_failed, sending nothing", async () => {
    const account = await connected('tiktok');
    await setting('tiktok_max_video_post_duration_sec', 10);
    try {
      const video = await upload(await videoFile('mp4', { seconds: 20 }), 'long.mp4');
      const created = await createPost({
        account_ids: [account.id],
        text: 'Twenty seconds',
        media_ids: [video],
        platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
      });
      const post = await finished(created.id);
      expect(post.status).toBe('failed');
      expect(post.targets[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
        error: {
          code: 'validation_failed',
          message: expect.stringContaining('the video lasts 20 s; this TikTok account may post videos of at most 10 s'),
          platform_code: null,
        },
      });
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({
        type: 'post.failed',
        data: { error_code: 'validation_failed', error_message: post.targets[0].error.message },
      });
      const calls = await sandbox.calls('tiktok', account.username);
      expect(calls.data.map((c) => c.path)).not.toContain('/open.tiktokapis.com/v2/post/publish/video/init/');
      expect((await activity('tiktok', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
    } finally {
      await setting('tiktok_max_video_post_duration_sec', 600);
    }
  });
});

describe('scheduled posts, failures and quotas', () => {
  it('publishes a scheduled post when its time comes', async () => {
    const account = await connected('threads');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Tomorrow',
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const scheduledAt = Date.parse(created.scheduled_at);
    const jobOf = async () => {
      const { rows } = await t.database.pool.query<{ id: string; run_at: Date }>(
        'select id, run_at from graphile_worker.jobs where key = $1',
        [`publish_target:${created.targets[0].id}`],
      );
      return rows[0];
    };
    const queued = await jobOf();
    // Due at scheduled_at (queued relative to the database's clock, so within a few seconds).
    expect(Math.abs((queued?.run_at.getTime() ?? 0) - scheduledAt)).toBeLessThan(60_000);
    // The job run a day early (the service's clock not moved) publishes nothing: it queues
    // itself again for the post's time.
    const utils = await makeWorkerUtils({ pgPool: t.database.pool });
    await utils.rescheduleJobs([queued?.id ?? ''], { runAt: new Date() }).finally(() => utils.release());
    const requeued = await eventually(async () => {
      const job = await jobOf();
      return job !== undefined && job.id !== queued?.id ? job : undefined;
    });
    expect(Math.abs(requeued.run_at.getTime() - scheduledAt)).toBeLessThan(60_000);
    expect((await getPost(created.id)).targets[0].status).toBe('scheduled');
    await moveTime(t.database.pool, 86_400_000 + 1000);
    expect((await finished(created.id)).targets[0].status).toBe('published');
  });

  it("retries a passing failure and then publishes: after a server error, once the claim's two minutes have passed", async () => {
    const account = await connected('threads');
    await sandbox.control('POST', '/faults', {
      platform: 'threads',
      username: account.username,
      error: 'transient',
      trigger: 'publish',
    });
    const created = await createPost({ account_ids: [account.id], text: 'Despite a hiccup' });
    const waiting = await eventually(async () => {
      const target = (await getPost(created.id)).targets[0];
      return target.waiting_reason?.startsWith('Retrying') ? target : undefined;
    });
    expect(waiting.status).toBe('publishing');
    // Threads answered 500: the post may still be being made, so it is asked about once the
    // publish's claim has passed, not at the retry 30 s on.
    await moveTime(t.database.pool, 31_000);
    await eventually(async () => ((await dueJob(waiting.id)) ?? 0) > 60_000 || undefined);
    expect((await getPost(created.id)).targets[0].status).toBe('publishing');
    await moveTime(t.database.pool, 90_000);
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1 });
    expect((await activity('threads', account.username)).filter((a) => a.action === 'publish')).toHaveLength(1);
  });

  it('fails at once when the platform refuses the post, and retry publishes it', async () => {
    const account = await connected('threads');
    await sandbox.control('POST', '/faults', {
      platform: 'threads',
      username: account.username,
      error: 'invalid_request',
      trigger: 'publish',
    });
    const created = await createPost({ account_ids: [account.id], text: 'Refused once' });
    const failed = await finished(created.id);
    expect(failed.status).toBe('failed');
    expect(failed.targets[0].error.code).toBe('invalid_request');
    const [event] = await eventsOf(created.id);
    expect(event.type).toBe('post.failed');

    await retryPost(created.id);
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 2, error: null });
  });

  it("fails at once, with Instagram's own words, when Instagram suspects spam (code 4, which otherwise means wait)", async () => {
    const account = await connected('instagram');
    const message = 'We restrict certain activity to protect our community. Tell us if you think we made a mistake.';
    await sandbox.control('POST', '/faults', {
      platform: 'instagram',
      username: account.username,
      error: 'custom',
      trigger: 'publish',
      status: 400,
      body: { error: { message, type: 'OAuthException', code: 4, error_subcode: 2207051, is_transient: false } },
    });
    const media = await upload(await image('jpeg'), 'spam.jpg');
    const created = await createPost({ account_ids: [account.id], media_ids: [media] });
    const failed = await finished(created.id);
    expect(failed.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'invalid_request', message, platform_code: '4' },
    });
  });

  it('marks the account expired when the token has expired, and the target waits for its reconnection', async () => {
    const account = await connected('threads');
    await sandbox.control('POST', '/tokens/expire', { platform: 'threads', username: account.username });
    const created = await createPost({ account_ids: [account.id], text: 'Too late' });
    const waiting = await eventually(async () => {
      const target = (await getPost(created.id)).targets[0];
      return target.waiting_reason === 'account_expired' ? target : undefined;
    });
    expect(waiting).toMatchObject({ status: 'publishing', error: null });
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.status).toBe('expired');
    expect((await activity('threads', account.username)).filter((a) => a.action === 'publish')).toHaveLength(0);
    // Not left waiting for the rest of the suite (test/modules/expired-account-publishing.test.ts goes on).
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/v1/posts/${created.id}`,
      headers: auth(owner.key),
    });
    expect(cancelled.statusCode).toBe(200);
  });

  /** An Instagram post of one image, made while its account's quota is spent: once its target waits for it. */
  async function waitingForQuota(fileName: string) {
    const account = await connected('instagram');
    await setting('instagram_publish_quota', 0);
    const media = await upload(await image('jpeg'), fileName);
    const created = await createPost({ account_ids: [account.id], media_ids: [media] });
    const waiting = await eventually(async () => {
      const target = (await getPost(created.id)).targets[0];
      return target.waiting_reason?.includes('quota') ? target : undefined;
    });
    return { media, created, waiting };
  }

  it('waits for a spent Instagram quota instead of failing, and publishes once it frees', async () => {
    try {
      const { created, waiting } = await waitingForQuota('quota.jpg');
      expect(waiting.status).toBe('publishing');
      await setting('instagram_publish_quota', 100);
      await moveTime(t.database.pool, 10 * 60_000 + 1000);
      expect((await finished(created.id)).targets[0].status).toBe('published');
    } finally {
      await setting('instagram_publish_quota', 100);
    }
  });

  it('a medium gone before the upload: the spent quota is waited for first, then the target fails with media_unavailable', async () => {
    try {
      const { media, created } = await waitingForQuota('gone.jpg');
      // Gone from under the post (deleting it through the API is refused while a post uses it).
      await t.database.pool.query('delete from media where id = $1', [media]);
      // The next run finds the quota still spent: it waits again, its read of the media not failing it.
      await moveTime(t.database.pool, 10 * 60_000 + 1000);
      const rewaited = await eventually(async () => {
        const { rows } = await t.database.pool.query<{ count: number }>(
          'select count(*)::int as count from graphile_worker.jobs where key = $1 and run_at > now()',
          [`publish_target:${created.targets[0].id}`],
        );
        return rows[0]?.count === 1 ? (await getPost(created.id)).targets[0] : undefined;
      });
      expect(rewaited).toMatchObject({ status: 'publishing', error: null });
      expect(rewaited.waiting_reason).toMatch(/quota is spent/);
      await setting('instagram_publish_quota', 100);
      await moveTime(t.database.pool, 10 * 60_000 + 1000);
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({
        status: 'failed',
        error: { code: 'media_unavailable', message: 'A medium of the post was deleted before it was published.' },
      });
    } finally {
      await setting('instagram_publish_quota', 100);
    }
  });
});

describe('posts on several accounts', () => {
  it('publishes every target of a post on three accounts at once, with one post.published each', async () => {
    const threadsA = await connected('threads');
    const threadsB = await connected('threads');
    const instagram = await connected('instagram');
    const media = await upload(await image('jpeg'), 'three.jpg');
    const created = await createPost({
      account_ids: [threadsA.id, threadsB.id, instagram.id],
      text: 'Everywhere at once',
      media_ids: [media],
    });
    const post = await finished(created.id);
    expect(post.status).toBe('published');
    expect(post.targets.map((x: { status: string }) => x.status)).toEqual(['published', 'published', 'published']);
    const events = await eventsOf(created.id, 3);
    expect(events.map((e) => e.data.target_id).sort()).toEqual(post.targets.map((x: { id: string }) => x.id).sort());
  });
});

/** The rows of a target's publish_target jobs, its own key's or not. */
async function jobRows(targetId: string) {
  const { rows } = await t.database.pool.query<{ id: string; key: string | null; locked: boolean; wait_ms: number }>(
    `select id, key, locked_at is not null as locked, (extract(epoch from run_at - now()) * 1000)::float8 as wait_ms
       from graphile_worker._private_jobs where payload->>'target_id' = $1 order by id`,
    [targetId],
  );
  return rows;
}

/** What a change to a target does to its job (a cancellation, a reconnection): queues it under its key, `after` (SQL interval) from now. */
async function queueUnderKey(targetId: string, after: string) {
  await t.database.pool.query(
    `select graphile_worker.add_job('publish_target', json_build_object('target_id', $1::text),
       run_at => now() + $2::interval, job_key => 'publish_target:' || $1::text)`,
    [targetId, after],
  );
}

/** A Threads post of `text` on a new account, its run held in the container's creation. */
async function heldInCreation(text: string) {
  const account = await connected('threads');
  const creation = sandbox.hold(/\/threads$/);
  const created = await createPost({ account_ids: [account.id], text });
  const targetId: string = created.targets[0].id;
  await creation.arrived;
  return { account, created, targetId, creation };
}

describe("a target's job", () => {
  it('runs its next step as the same job: the job that made the container runs again to read and publish it, with no second row', async () => {
    const publication = sandbox.hold(/\/threads_publish$/);
    const { created, targetId, creation } = await heldInCreation('One job, two steps');
    const [running] = await jobRows(targetId);
    expect(running).toMatchObject({ key: `publish_target:${targetId}`, locked: true });
    creation.release();
    // The container is read once Threads' wait has passed, then published: by the same job.
    await publication.arrived;
    expect(await jobRows(targetId)).toEqual([
      { id: running?.id, key: `publish_target:${targetId}`, locked: true, wait_ms: expect.any(Number) },
    ]);
    expect((await targetRow(targetId)).step).toBe('publish');
    publication.release();
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published' });
    expect(await jobRows(targetId)).toEqual([]);
  });

  it("tells its next run in the job's payload, which any worker reads, that its target has started; one told so of a target still scheduled starts it all the same", async () => {
    const payloadOf = async (targetId: string) => {
      const { rows } = await t.database.pool.query<{ payload: unknown }>(
        'select payload from graphile_worker._private_jobs where key = $1',
        [`publish_target:${targetId}`],
      );
      return rows.map((row) => row.payload);
    };
    const publication = sandbox.hold(/\/threads_publish$/);
    const { account, created, targetId, creation } = await heldInCreation('Started, says the job');
    expect(await payloadOf(targetId)).toEqual([{ target_id: targetId }]);
    creation.release();
    await publication.arrived;
    expect(await payloadOf(targetId)).toEqual([{ target_id: targetId, started: true }]);
    publication.release();
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published', attempts: 1 });

    // A job whose hint no longer holds (queued so by hand here) finds the target scheduled.
    const later = await createPost({
      account_ids: [account.id],
      text: 'Scheduled, though the job says started',
      scheduled_at: new Date(now().getTime() + 86_400_000).toISOString(),
    });
    const laterTarget: string = later.targets[0].id;
    await t.database.pool.query(
      `select graphile_worker.add_job('publish_target', json_build_object('target_id', $1::text, 'started', true),
         run_at => now() + interval '1 day', job_key => 'publish_target:' || $1::text)`,
      [laterTarget],
    );
    expect(await payloadOf(laterTarget)).toEqual([{ target_id: laterTarget, started: true }]);
    await moveTime(t.database.pool, 86_400_000 + 1000);
    expect((await finished(later.id)).targets[0]).toMatchObject({ status: 'published', attempts: 1 });
    const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
    expect(published.map((a) => a.detail.text).sort()).toEqual([
      'Scheduled, though the job says started',
      'Started, says the job',
    ]);
  });

  it("is moved to its next step in the statement of the target's move: while the job's row is held, the target's move waits with it", async () => {
    const { created, targetId, creation } = await heldInCreation('Moved together');
    const holder = await t.database.pool.connect();
    try {
      await holder.query('begin');
      const held = await holder.query('select id from graphile_worker._private_jobs where key = $1 for update', [
        `publish_target:${targetId}`,
      ]);
      expect(held.rowCount).toBe(1);
      creation.release();
      // The run has made the container and records it: its statement (the target's move, whose
      // text pg_stat_activity shows cut short) waits for the job's row...
      await eventually(async () => {
        const { rows } = await t.database.pool.query(
          `select 1 from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query like 'with "moved" as (update "post_targets"%'`,
        );
        return rows.length > 0 ? true : undefined;
      });
      // ...so the container is not recorded either, until the job can be moved with it.
      expect(await targetRow(targetId)).toMatchObject({ step: 'quota', containerId: null });
    } finally {
      await holder.query('commit');
      holder.release();
    }
    const recorded = await eventually(async () => {
      const row = await targetRow(targetId);
      return row.step === 'quota' ? undefined : row;
    });
    expect(recorded).toMatchObject({ step: 'processing', containerId: expect.any(String) });
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published' });
    expect(await jobRows(targetId)).toEqual([]);
  });

  it('whose key a later change took during its run (queued for an hour on) is done, and the change stands', async () => {
    const { account, created, targetId, creation } = await heldInCreation('Queued twice');
    await queueUnderKey(targetId, '1 hour');
    const [running, queued] = await jobRows(targetId);
    // graphile-worker's add_job takes the key from the running job and queues a new one.
    expect(running).toMatchObject({ key: null, locked: true });
    expect(queued).toMatchObject({ key: `publish_target:${targetId}`, locked: false });
    creation.release();
    // The run's own job is deleted as it completes; the change's job keeps its hour.
    const rows = await eventually(async () => {
      const now = await jobRows(targetId);
      return now.length === 1 ? now : undefined;
    });
    expect(rows[0]).toMatchObject({ id: queued?.id, key: `publish_target:${targetId}`, locked: false });
    expect(rows[0]?.wait_ms).toBeGreaterThan(55 * 60_000);
    expect((await targetRow(targetId)).step).toBe('processing');
    await moveTime(t.database.pool, 3_600_000);
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published' });
    const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
    expect(published.map((a) => a.detail.text)).toEqual(['Queued twice']);
    expect(await jobRows(targetId)).toEqual([]);
  });

  it("whose key a change took during its run, due sooner than the run's next step, runs then: the change is not undone", async () => {
    const account = await connected('threads');
    await setting('threads_publish_quota', 0);
    try {
      const quotaRead = sandbox.hold(/\/threads_publishing_limit$/);
      const created = await createPost({ account_ids: [account.id], text: 'Changed meanwhile' });
      const targetId: string = created.targets[0].id;
      await quotaRead.arrived;
      // A change queues the target's job for now (as a cancellation or a reconnection does)
      // while the run, finding the quota spent, is about to wait 10 minutes.
      await queueUnderKey(targetId, '0 seconds');
      quotaRead.release();
      // The job queued by the change runs at once, and reads the quota again.
      await eventually(async () => {
        const { data } = await sandbox.calls('threads', account.username);
        const reads = data.filter((c) => c.path.endsWith('/threads_publishing_limit'));
        return reads.length >= 2 ? reads : undefined;
      });
      // That job may start, and its read arrive, before the first run has its answer: each run
      // records why the target waits only once its read is answered.
      const waiting = await eventually(async () => (await targetRow(targetId)).waitingReason ?? undefined);
      expect(waiting).toMatch(/quota is spent/);
      const cancelled = await t.app.inject({
        method: 'DELETE',
        url: `/v1/posts/${created.id}`,
        headers: auth(owner.key),
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    } finally {
      await setting('threads_publish_quota', 250);
    }
  });

  it('deleted under its run has its next step queued anew as the run ends: the post is published', async () => {
    const { created, targetId, creation } = await heldInCreation('Job gone');
    await t.database.pool.query(`delete from graphile_worker._private_jobs where key = $1`, [
      `publish_target:${targetId}`,
    ]);
    creation.release();
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published' });
  });

  it('unlocked under its run on its last attempt, which can run no more, has its next step queued anew: the post is published', async () => {
    const { created, targetId, creation } = await heldInCreation('Last attempt');
    const unlocked = await t.database.pool.query(
      `update graphile_worker._private_jobs set locked_by = null, locked_at = null, attempts = max_attempts
        where key = $1 and locked_by is not null`,
      [`publish_target:${targetId}`],
    );
    expect(unlocked.rowCount).toBe(1);
    creation.release();
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published' });
  });

  it('unlocked under its run (its worker taken for dead after a database restart) is kept, not deleted, and runs again: the post is published, once', async () => {
    const { account, created, targetId, creation } = await heldInCreation('Unlocked under its run');
    // As another worker process unlocks the jobs of one whose lock it found free (its connection
    // lost in a restart). Due later here, so that no worker takes the job again before the run ends.
    const unlocked = await t.database.pool.query(
      `update graphile_worker._private_jobs set locked_by = null, locked_at = null, run_at = now() + interval '1 hour'
        where key = $1 and locked_by is not null`,
      [`publish_target:${targetId}`],
    );
    expect(unlocked.rowCount).toBe(1);
    // The run makes the container and ends; the job, no longer its process's, is kept for its
    // next run (here an hour on, as the test unlocked it) instead of being deleted.
    creation.release();
    await eventually(async () => ((await targetRow(targetId)).step === 'processing' ? true : undefined));
    await moveTime(t.database.pool, 3_600_000);
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', error: null });
    const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
    expect(published.map((a) => a.detail.text)).toEqual(['Unlocked under its run']);
  });
});

describe('what cannot be taken back', () => {
  it('answers 409 post_not_cancellable for a TikTok video TikTok already has, which then publishes', async () => {
    const account = await connected('tiktok');
    const video = await upload(await videoFile('mp4'), 'kept.mp4');
    const created = await createPost({
      account_ids: [account.id],
      media_ids: [video],
      platforms: { tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' } },
    });
    await eventually(async () => {
      const x = (await getPost(created.id)).targets[0];
      return x.waiting_reason?.includes('moderation') ? x : undefined;
    });
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(owner.key) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('post_not_cancellable');
    await moveTime(t.database.pool, 31_000);
    expect((await finished(created.id)).targets[0].status).toBe('published');
  });

  it('fails a TikTok target with outcome_unknown, never sending the video twice, when the creation call fails in passing', async () => {
    const account = await connected('tiktok');
    await sandbox.control('POST', '/faults', {
      platform: 'tiktok',
      username: account.username,
      error: 'transient',
      trigger: 'publish',
    });
    const video = await upload(await videoFile('mp4'), 'doubt.mp4');
    const created = await createPost({
      account_ids: [account.id],
      media_ids: [video],
      platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
    });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(post.targets[0].error.code).toBe('outcome_unknown');
    expect((await activity('tiktok', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
  });

  it('fails with post.failed once passing failures outlast the retry window', async () => {
    const account = await connected('threads');
    for (let i = 0; i < 3; i += 1) {
      const fault = await sandbox.control('POST', '/faults', {
        platform: 'threads',
        username: account.username,
        error: 'transient',
      });
      expect(fault.status).toBe(201);
    }
    const created = await createPost({ account_ids: [account.id], text: 'Never gets through' });
    await eventually(async () => {
      const x = (await getPost(created.id)).targets[0];
      return x.status === 'publishing' && x.waiting_reason !== null ? x : undefined;
    });
    // PUBLISH_RETRY_WINDOW_SECONDS is 600 here: the next passing failure is the last.
    await moveTime(t.database.pool, 601_000);
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(post.targets[0].error.code).toBe('transient');
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({ type: 'post.failed', data: { error_code: 'transient' } });
    expect((await activity('threads', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
  });
});

/**
 * Where creating the post is its publication (LinkedIn, X), a creation that fails in passing may
 * have reached the platform: the target ends outcome_unknown, and nothing is sent again.
 */
async function expectOutcomeUnknownOnPassingFailure(platform: 'linkedin' | 'x'): Promise<void> {
  const account = await connected(platform);
  await sandbox.control('POST', '/faults', {
    platform,
    username: account.username,
    error: 'transient',
    trigger: 'publish',
  });
  const created = await createPost({ account_ids: [account.id], text: 'Maybe posted' });
  const post = await finished(created.id);
  expect(post.targets[0]).toMatchObject({ status: 'failed', attempts: 1 });
  expect(post.targets[0].error.code).toBe('outcome_unknown');
  expect((await activity(platform, account.username)).filter((a) => a.action === 'publish')).toEqual([]);
}

/**
 * Where a post's media are uploaded before it (LinkedIn, X), an upload that fails in passing
 * posted nothing: the step is retried, and the post published once.
 */
async function expectUploadRetriedOnPassingFailure(platform: 'linkedin' | 'x'): Promise<void> {
  const account = await connected(platform);
  const photo = await upload(await image('jpeg'), 'retried.jpg');
  await sandbox.control('POST', '/faults', { platform, username: account.username, error: 'transient' });
  const created = await createPost({ account_ids: [account.id], text: 'Uploaded again', media_ids: [photo] });
  const waiting = await eventually(async () => {
    const target = (await getPost(created.id)).targets[0];
    return target.waiting_reason?.startsWith('Retrying') ? target : undefined;
  });
  expect(waiting).toMatchObject({ status: 'publishing', platform_post_id: null });
  await moveTime(t.database.pool, 31_000);
  const post = await finished(created.id);
  expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
  const published = (await activity(platform, account.username)).filter((a) => a.action === 'publish');
  expect(published).toHaveLength(1);
  expect(published[0]?.detail).toMatchObject({ text: 'Uploaded again', type: 'IMAGE' });
}

describe("LinkedIn organization pages and the member's own profile", () => {
  it('publishes text and several images as one MultiImage post, with post.published and the feed link', async () => {
    const account = await connected('linkedin');
    const first = await upload(await image('png'), 'one.png');
    const second = await upload(await image('jpeg'), 'two.jpg');
    const text = 'Our results (Q3) are in: 50% up_today #growth';
    const created = await createPost({ account_ids: [account.id], text, media_ids: [first, second] });
    const post = await finished(created.id);
    const [target] = post.targets;
    expect(target).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect(target.platform_post_id).toMatch(/^urn:li:share:\d+$/);
    expect(target.permalink).toBe(`https://www.linkedin.com/feed/update/${target.platform_post_id}`);
    const published = (await activity('linkedin', account.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    // LinkedIn shows the text whole: the service escaped what Little Text Format reserves.
    expect(published[0]?.detail).toMatchObject({ text, type: 'MULTI_IMAGE', cut_short: false });
    expect(published[0]?.detail.media_urls).toHaveLength(2);
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { platform: 'linkedin', permalink: target.permalink },
    });
  });

  it('retries a passing failure of an image upload, made before the post, and then publishes once', async () => {
    // The next call for the organization (the image's initializeUpload) fails in passing.
    await expectUploadRetriedOnPassingFailure('linkedin');
  });

  it('publishes a video: uploaded in the ranges LinkedIn gives, read until AVAILABLE, then the post naming it', async () => {
    const account = await connected('linkedin');
    const clip = await upload(await videoFile('mp4', { seconds: 4 }), 'film.mp4');
    const created = await createPost({ account_ids: [account.id], text: 'Our film', media_ids: [clip] });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect(post.targets[0].platform_post_id).toMatch(/^urn:li:share:\d+$/);
    const published = (await activity('linkedin', account.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({ text: 'Our film', type: 'VIDEO' });
  });

  it("publishes as the member's own profile: an image post and a video post, each authored urn:li:person, the media owned by the member", async () => {
    const account = await connected('linkedin', { member: true });
    const { body: member } = await sandbox.control('GET', `/users/linkedin/${account.username}`);
    const photo = await upload(await image('jpeg'), 'me.jpg');
    const clip = await upload(await videoFile('mp4', { seconds: 4 }), 'me.mp4');
    const withPhoto = await createPost({ account_ids: [account.id], text: 'A photo of mine', media_ids: [photo] });
    const withClip = await createPost({ account_ids: [account.id], text: 'A film of mine', media_ids: [clip] });
    for (const created of [withPhoto, withClip]) {
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
      expect(post.targets[0].platform_post_id).toMatch(/^urn:li:share:\d+$/);
    }
    const published = (await activity('linkedin', account.username)).filter((a) => a.action === 'publish');
    const byText = new Map(published.map((a) => [a.detail.text, a.detail]));
    expect(byText.get('A photo of mine')).toMatchObject({ author: `urn:li:person:${member.id}`, type: 'IMAGE' });
    expect(byText.get('A film of mine')).toMatchObject({ author: `urn:li:person:${member.id}`, type: 'VIDEO' });
  });

  it('refuses a LinkedIn video shorter than 3 seconds before storing the post', async () => {
    const account = await connected('linkedin');
    const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'short.mp4');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [account.id], text: 'Too short', media_ids: [clip] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details).toContainEqual(
      expect.objectContaining({
        code: 'validation_failed',
        field: 'media_ids',
        message: 'a LinkedIn video lasts 3 to 1800 seconds (this video: 2 s)',
      }),
    );
  });

  it('publishes a PDF as a document post with its title; every other platform refuses a document before anything is stored', async () => {
    const linkedinAccount = await connected('linkedin');
    const threadsAccount = await connected('threads');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const { payload, headers } = multipartUpload(pdf, { filename: 'report.pdf' });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/v1/media',
      headers: { ...auth(owner.key), ...headers },
      payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json().type).toBe('document');
    const documentId = uploaded.json().id;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [threadsAccount.id], text: 'A report', media_ids: [documentId] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual([
      {
        code: 'validation_failed',
        field: 'media_ids[0]',
        message: 'Threads publishes no documents (a PDF); only LinkedIn does.',
      },
    ]);
    const created = await createPost({
      account_ids: [linkedinAccount.id],
      text: 'Our report',
      media_ids: [documentId],
      platforms: { linkedin: { document_title: 'Q3 report' } },
    });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
    const published = (await activity('linkedin', linkedinAccount.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({
      text: 'Our report',
      type: 'DOCUMENT',
      options: { title: 'Q3 report' },
    });
  });

  it('fails with container_failed, posting nothing, when LinkedIn cannot process an image', async () => {
    const account = await connected('linkedin');
    const huge = await upload(await imageFile('png', { width: 6_100, height: 6_000 }), 'huge.png');
    const created = await createPost({ account_ids: [account.id], text: 'Too many pixels', media_ids: [huge] });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'failed', platform_post_id: null });
    expect(post.targets[0].error).toMatchObject({
      code: 'container_failed',
      message:
        "LinkedIn could not process the post's medium: LinkedIn could not process the image (PROCESSING_FAILED).",
    });
    expect((await activity('linkedin', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
  });

  it('fails with outcome_unknown, never posting twice, when the post creation fails in passing', async () => {
    await expectOutcomeUnknownOnPassingFailure('linkedin');
  });
});

describe('X', () => {
  it('publishes a text post and a reply to it, with post.published and the link under the username', async () => {
    const account = await connected('x');
    const created = await createPost({ account_ids: [account.id], text: 'Hello X — see https://example.com/launch' });
    const [target] = (await finished(created.id)).targets;
    expect(target).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect(target.platform_post_id).toMatch(/^\d+$/);
    expect(target.permalink).toBe(`https://x.com/${account.username}/status/${target.platform_post_id}`);
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({ type: 'post.published', data: { platform: 'x', permalink: target.permalink } });

    const reply = await createPost({
      account_ids: [account.id],
      text: 'And a reply',
      platforms: { x: { reply_to: target.platform_post_id } },
    });
    expect((await finished(reply.id)).targets[0]).toMatchObject({ status: 'published' });
    const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    expect(published.map((a) => a.detail.options)).toEqual([{ reply_to: null }, { reply_to: target.platform_post_id }]);
  });

  it('fails with outcome_unknown, never posting twice, when the creation fails in passing (X takes no idempotency key)', async () => {
    await expectOutcomeUnknownOnPassingFailure('x');
    // X was asked whether it made the post: its timeline from a minute before the creation was sent.
    const { data } = await sandbox.calls('x', `pub_x_${users}`);
    const sent = data.filter((c) => c.method === 'POST' && c.path.endsWith('/2/tweets'));
    const reads = data.filter((c) => c.method === 'GET' && /\/2\/users\/\d+\/tweets$/.test(c.path));
    expect(sent).toHaveLength(1);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.query).toMatchObject({ max_results: '100', 'tweet.fields': 'referenced_tweets,created_at' });
    expect(reads[0]?.query.start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const before = Date.parse(sent[0]?.at ?? '') - Date.parse(reads[0]?.query.start_time ?? '');
    // A minute, to the second, before the creation began (which came a moment before X received it).
    expect(before).toBeGreaterThanOrEqual(60_000);
    expect(before).toBeLessThan(90_000);
  });

  it("a post whose creation answer never came (the call timed out) is read back from X's timeline once X made it: published once, with its link", async () => {
    const account = await connected('x');
    await t.stopWorkers();
    // Platforms that wait 5 seconds for an answer, so the held post's answer is lost.
    const impatient = createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: sandbox.url },
      { timeoutMs: 5_000 },
    );
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Lost & found <once>' });
      const targetId: string = created.targets[0].id;
      const post = sandbox.hold(/\/2\/tweets$/, { afterBody: true });
      const timeline = sandbox.hold(/\/2\/users\/\d+\/tweets$/);
      const read = (async () => {
        // X makes the post only once the service, its answer lost, reads the timeline.
        await timeline.arrived;
        post.release();
        await eventually(async () =>
          (await activity('x', account.username)).some((a) => a.action === 'publish') ? true : undefined,
        );
        timeline.release();
      })();
      await publishTarget(publishDeps(impatient), targetId);
      await read;
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['Lost & found <once>']);
      const [target] = (await getPost(created.id)).targets;
      expect(target).toMatchObject({
        status: 'published',
        error: null,
        attempts: 1,
        platform_post_id: published[0]?.target_id,
        permalink: `https://x.com/${account.username}/status/${published[0]?.target_id}`,
      });
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("a post whose run died during its creation is found on X's timeline by the next run and recorded: published once", async () => {
    const account = await connected('x');
    await t.stopWorkers();
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Made before the crash' });
      const targetId: string = created.targets[0].id;
      // X makes the post; the run dies before its answer is seen, as a worker that died.
      const dying = dyingInCreation('after the platform made it');
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () =>
        (await activity('x', account.username)).some((a) => a.action === 'publish') ? true : undefined,
      );
      expect((await targetRow(targetId)).step).toBe('creating');
      // The job runs again, as graphile-worker runs a job whose worker died.
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['Made before the crash']);
      const [target] = (await getPost(created.id)).targets;
      expect(target).toMatchObject({
        status: 'published',
        error: null,
        platform_post_id: published[0]?.target_id,
        permalink: `https://x.com/${account.username}/status/${published[0]?.target_id}`,
      });
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a post whose run died during its creation, which X does not show, ends outcome_unknown and is never sent by the service', async () => {
    const account = await connected('x');
    await t.stopWorkers();
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Never reached X' });
      const targetId: string = created.targets[0].id;
      // The run dies as its creation is sent, before X received it.
      const dying = dyingInCreation('before the platform received it');
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () => ((await targetRow(targetId)).step === 'creating' ? true : undefined));
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const [target] = (await getPost(created.id)).targets;
      expect(target).toMatchObject({ status: 'failed' });
      expect(target.error).toMatchObject({ code: 'outcome_unknown' });
      expect(target.error.message).toBe(
        'Creating the post on X was interrupted, and X publishes what it received by itself; check the account, then retry the post if it is not there.',
      );
      expect((await activity('x', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
      // X was asked, once, what the account posted since a minute before the creation began.
      const { data } = await sandbox.calls('x', account.username);
      const reads = data.filter((c) => c.method === 'GET' && /\/2\/users\/\d+\/tweets$/.test(c.path));
      expect(reads.map((c) => Object.keys(c.query).sort())).toEqual([['max_results', 'start_time', 'tweet.fields']]);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("a creation in doubt is never recorded as another target's post of the same text: outcome_unknown, one post on X", async () => {
    const account = await connected('x');
    const earlier = await createPost({ account_ids: [account.id], text: 'Same words' });
    const [published] = (await finished(earlier.id)).targets;
    expect(published.status).toBe('published');
    await t.stopWorkers();
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Same words' });
      const targetId: string = created.targets[0].id;
      // X received nothing (it would have refused the same text anyway); the run dies.
      const dying = dyingInCreation('before the platform received it');
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () => ((await targetRow(targetId)).step === 'creating' ? true : undefined));
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const [target] = (await getPost(created.id)).targets;
      expect(target).toMatchObject({ status: 'failed', platform_post_id: null });
      expect(target.error).toMatchObject({ code: 'outcome_unknown' });
      const posts = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(posts.map((a) => a.target_id)).toEqual([published.platform_post_id]);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a reply whose run died during its creation is found by what it replies to and recorded once', async () => {
    const account = await connected('x');
    const first = await createPost({ account_ids: [account.id], text: 'Question?' });
    const [asked] = (await finished(first.id)).targets;
    await t.stopWorkers();
    try {
      const created = await createPost({
        account_ids: [account.id],
        text: 'Answer.',
        platforms: { x: { reply_to: asked.platform_post_id } },
      });
      const targetId: string = created.targets[0].id;
      const dying = dyingInCreation('after the platform made it');
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () =>
        (await activity('x', account.username)).filter((a) => a.action === 'publish').length === 2 ? true : undefined,
      );
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const posts = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(posts.map((a) => a.detail.options)).toEqual([{ reply_to: null }, { reply_to: asked.platform_post_id }]);
      const [target] = (await getPost(created.id)).targets;
      expect(target).toMatchObject({ status: 'published', platform_post_id: posts[1]?.target_id });
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("fails with unsupported and X's reason when the owner's app plan lacks the endpoint", async () => {
    const account = await connected('x');
    await sandbox.control('POST', '/faults', {
      platform: 'x',
      username: account.username,
      error: 'custom',
      trigger: 'publish',
      status: 403,
      body: {
        title: 'Client Forbidden',
        detail:
          'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
        reason: 'client-not-enrolled',
        type: 'https://api.twitter.com/2/problems/client-forbidden',
      },
    });
    const created = await createPost({ account_ids: [account.id], text: 'Plan too small' });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'failed' });
    expect(post.targets[0].error).toMatchObject({ code: 'unsupported', platform_code: 'client-not-enrolled' });
    expect(post.targets[0].error.message).toMatch(/plan/);
  });

  it('publishes two images in one post, each uploaded first', async () => {
    const account = await connected('x');
    const first = await upload(await image('png'), 'one.png');
    const second = await upload(await image('jpeg'), 'two.jpg');
    const created = await createPost({ account_ids: [account.id], text: 'Two photos', media_ids: [first, second] });
    const [target] = (await finished(created.id)).targets;
    expect(target).toMatchObject({ status: 'published', error: null });
    const [published] = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    expect(published?.detail).toMatchObject({ text: 'Two photos', type: 'IMAGE' });
    expect(published?.detail.media_urls).toHaveLength(2);
  });

  it('publishes a video: uploaded to X in segments before the post, read until processed, then the post naming it', async () => {
    const account = await connected('x');
    const bytes = await videoFile('mp4', { seconds: 4 });
    const clip = await upload(bytes, 'film.mp4');
    const created = await createPost({ account_ids: [account.id], text: 'Our film', media_ids: [clip] });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
    const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({ text: 'Our film', type: 'VIDEO' });
    const [medium] = (published[0]?.detail.media ?? []) as Record<string, unknown>[];
    expect(medium).toMatchObject({
      media_category: 'tweet_video',
      media_type: 'video/mp4',
      total_bytes: bytes.length,
      segments: [bytes.length],
    });
    // Its status was read (STATUS) before the post named it.
    const { data } = await sandbox.calls('x', account.username);
    const paths = data.map(
      (c) => `${c.method} ${c.path.replace('/api.x.com', '')}${c.query.command ? `?command=${c.query.command}` : ''}`,
    );
    const id = medium?.id as string;
    // The account's comment polls (GET /2/tweets/search/recent) may come meanwhile: not publishing calls.
    expect(paths.filter((p) => p.includes('/2/media/') || p === 'POST /2/tweets')).toEqual([
      'POST /2/media/upload/initialize',
      `POST /2/media/upload/${id}/append`,
      `POST /2/media/upload/${id}/finalize`,
      'GET /2/media/upload?command=STATUS',
      'POST /2/tweets',
    ]);
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { platform: 'x', permalink: post.targets[0].permalink },
    });
  });

  it('publishes an animated GIF alone: uploaded in segments as tweet_gif, read until processed, then the post', async () => {
    const account = await connected('x');
    const bytes = await imageFile('gif', { width: 40, height: 30 });
    const gif = await upload(bytes, 'dance.gif');
    const created = await createPost({ account_ids: [account.id], media_ids: [gif] });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
    const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({ text: '', type: 'GIF' });
    expect(published[0]?.detail.media).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        media_category: 'tweet_gif',
        media_type: 'image/gif',
        total_bytes: bytes.length,
        segments: [bytes.length],
      },
    ]);
  });

  it("reads a video's processing again no sooner than X's check_after_secs asks", async () => {
    const account = await connected('x');
    const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'slow.mp4');
    // The sandbox processes it for a minute: its first read (2 s after the upload) answers
    // pending with check_after_secs 58, longer than the service's own 5 s.
    await setting('container_processing_seconds', 60);
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Slow', media_ids: [clip] });
      const targetId: string = created.targets[0].id;
      await eventually(async () => ((await targetRow(targetId)).itemContainerIds !== null ? true : undefined));
      const read = await nextStep(targetId);
      expect(read).toMatchObject({ status: 'publishing', polls: 1 });
      const wait = (await dueJob(targetId)) ?? 0;
      expect(wait).toBeGreaterThan(50_000);
      expect(wait).toBeLessThanOrEqual(58_000);
      const done = await nextStep(targetId);
      expect(done.status).toBe('published');
    } finally {
      await setting('container_processing_seconds', 1);
    }
  });

  it('retries a passing failure of an image upload, made before the post, and then publishes once (not outcome_unknown)', async () => {
    // The next call with the account's token (the image's upload) fails in passing.
    await expectUploadRetriedOnPassingFailure('x');
  });

  it("fails with container_failed and X's reason, posting nothing, when X cannot process the video", async () => {
    const account = await connected('x');
    const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'broken.mp4');
    await setting('x_media_processing', 'fails');
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Never shown', media_ids: [clip] });
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'failed', platform_post_id: null });
      expect(post.targets[0].error).toMatchObject({
        code: 'container_failed',
        message: "X could not process the post's medium: processing failed: Unsupported video format (InvalidMedia).",
      });
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({ type: 'post.failed', data: { error_code: 'container_failed' } });
    } finally {
      await setting('x_media_processing', 'succeeds');
    }
    expect((await activity('x', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
  });

  it('a run that dies after uploading the video, before recording it, uploads it again and posts once', async () => {
    await t.stopWorkers();
    let worker = false;
    try {
      const account = await connected('x');
      const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'again.mp4');
      const created = await createPost({ account_ids: [account.id], text: 'Once', media_ids: [clip] });
      const targetId: string = created.targets[0].id;
      const dying = withPublishing((real) => ({
        // The upload is done on X; the run dies before the service records it.
        createCarouselItems: async (credentials, request) => {
          await real.createCarouselItems?.(credentials, request);
          return await new Promise<string[]>(() => {});
        },
      }));
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () =>
        (await sandbox.calls('x', account.username)).data.some((c) => c.path.endsWith('/finalize')) ? true : undefined,
      );
      expect((await targetRow(targetId)).itemContainerIds).toBeNull();
      // The job runs again, as graphile-worker runs a job whose worker died.
      await t.startWorker({ platforms: sandbox.platforms });
      worker = true;
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
      const finalized = (await sandbox.calls('x', account.username)).data
        .map((c) => /\/2\/media\/upload\/(\d+)\/finalize$/.exec(c.path)?.[1])
        .filter((id) => id !== undefined);
      // Uploaded twice, posted once, naming the second upload (the first is left to expire on X).
      expect(finalized).toHaveLength(2);
      expect(((published[0]?.detail.media ?? []) as { id: string }[]).map((m) => m.id)).toEqual([finalized[1]]);
    } finally {
      if (!worker) await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('refuses before storing a video X does not take: two media with a video, a video over 140 seconds', async () => {
    const account = await connected('x');
    const clip = await upload(await videoFile('mp4', { seconds: 141 }), 'long.mp4');
    const photo = await upload(await image('png'), 'beside.png');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [account.id], text: 'Too much', media_ids: [clip, photo] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details).toEqual([
      { code: 'validation_failed', field: 'media_ids', message: 'an X post has one video alone, or 1 to 4 images' },
      {
        code: 'validation_failed',
        field: 'media_ids',
        message: 'an X video lasts 0.5 to 140 seconds (this video: 141 s)',
      },
    ]);
  });

  /** A PNG of 1,500 x 1,500 pixels of three bytes, stored without compression: 6.4 MiB. */
  async function bigPng(): Promise<Buffer> {
    const pixels = Buffer.alloc(1500 * 1500 * 3, 0x7f);
    return await sharp(pixels, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  }

  it('refuses before storing a still image alone over 5 MB, which X refuses at its upload (a GIF alone may have 15)', async () => {
    const account = await connected('x');
    const photo = await upload(await bigPng(), 'big.png');
    const res = await postAnswer({ account_ids: [account.id], text: 'Too big', media_ids: [photo] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      {
        code: 'validation_failed',
        field: 'media_ids[0]',
        message: 'an X image has at most 5 MB (a PNG) (this one: 6.4 MB)',
      },
    ]);
    expect((await activity('x', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
  });

  it('publishes a poll given in platforms.x, and refuses one past its bounds before storing', async () => {
    const account = await connected('x');
    const poll = { options: ['Tea', 'Coffee'], duration_minutes: 60 };
    const created = await createPost({ account_ids: [account.id], text: 'Which?', platforms: { x: { poll } } });
    expect((await finished(created.id)).targets[0]).toMatchObject({ status: 'published' });
    const [published] = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    expect(published?.detail.options).toEqual({ reply_to: null, poll });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: {
        account_ids: [account.id],
        text: 'Which?',
        platforms: { x: { poll: { ...poll, duration_minutes: 4 } } },
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('validation_failed');
  });

  it("publishes a thread as one post: three posts each replying to the one before, one post.published with the first post's link", async () => {
    const account = await connected('x');
    const created = await createPost({
      account_ids: [account.id],
      text: 'A thread, 1/3',
      platforms: { x: { thread: [{ text: 'A thread, 2/3' }, { text: 'A thread, 3/3' }] } },
    });
    const [target] = (await finished(created.id)).targets;
    expect(target).toMatchObject({ status: 'published', attempts: 1, error: null });
    const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    expect(published.map((a) => a.detail.text)).toEqual(['A thread, 1/3', 'A thread, 2/3', 'A thread, 3/3']);
    const ids = published.map((a) => a.target_id);
    expect(published.map((a) => a.detail.options)).toEqual([
      { reply_to: null },
      { reply_to: ids[0] },
      { reply_to: ids[1] },
    ]);
    expect(target.platform_post_id).toBe(ids[0]);
    expect(target.permalink).toBe(`https://x.com/${account.username}/status/${ids[0]}`);
    const events = await eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual(['post.published']);
    expect(events[0]).toMatchObject({ data: { platform: 'x', permalink: target.permalink } });
  });

  /**
   * A three-post thread's target, and platforms whose thread publishing runs `afterSecond` after
   * each post is recorded, the second post's first (a crash: it never returns; a passing failure:
   * it sets one). `record` stands in for the recording of a container (the default records it).
   */
  async function threadStoppedAfterSecond(
    afterSecond: () => Promise<void>,
    record = async (made: string, save: (made: string) => Promise<void>) => save(made),
    thread: Record<string, unknown>[] = [{ text: 'Two' }, { text: 'Three' }],
    platforms: PlatformSet = sandbox.platforms,
  ) {
    const account = await connected('x');
    const created = await createPost({ account_ids: [account.id], text: 'One', platforms: { x: { thread } } });
    const targetId: string = created.targets[0].id;
    let recorded = 1;
    const stopping = withPublishing(
      (real) => ({
        publishContainer: (credentials, containerId, progress) =>
          real.publishContainer(
            credentials,
            containerId,
            progress && {
              ...progress,
              record: async (made) => {
                await record(made, progress.record);
                // Only a post newly recorded counts (not the mark of a reply being sent, nor its clearing).
                const count = (JSON.parse(made) as { posts: string[] }).posts.length;
                if (count > recorded) {
                  recorded = count;
                  await afterSecond();
                }
              },
            },
          ),
      }),
      platforms,
    );
    return { account, postId: created.id as string, targetId, stopping };
  }

  it('a thread whose run dies after its second post of three resumes with the third only: each post once', async () => {
    await t.stopWorkers();
    try {
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(() => new Promise(() => {}));
      // The run never ends, as a worker that died: its second post is made and recorded. X has
      // the second post before the record names it (the record first marks it being sent), so
      // the wait is for the record itself.
      void publishTarget(publishDeps(stopping), targetId);
      await eventually(async () => {
        const made = JSON.parse((await targetRow(targetId)).containerId ?? '{}') as {
          posts?: string[];
          sending?: number;
        };
        return made.posts?.length === 2 && made.sending === undefined ? true : undefined;
      });
      expect((await activity('x', account.username)).filter((a) => a.action === 'publish')).toHaveLength(2);
      // The job runs again, as graphile-worker runs a job whose worker died, once the claim's lease has passed.
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const [target] = (await getPost(postId)).targets;
      expect(target).toMatchObject({ status: 'published' });
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two', 'Three']);
      expect(published[2]?.detail.options).toEqual({ reply_to: published[1]?.target_id });
      expect(target.platform_post_id).toBe(published[0]?.target_id);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  /** The account's media uploads and posts on X, in the order the sandbox received them. */
  async function xCalls(username: string): Promise<string[]> {
    const { data } = await sandbox.calls('x', username);
    return data
      .map((c) => `${c.method} ${c.path.replace('/api.x.com', '')}`)
      .filter((p) => p.startsWith('POST /2/media/upload') || p === 'POST /2/tweets')
      .map((p) => p.replace(/\/upload\/\d+\//, '/upload/{id}/'));
  }

  it('publishes a thread whose later posts carry their own media: uploaded before the first post, each reply naming its own', async () => {
    const account = await connected('x');
    const first = await upload(await image('png'), 'first.png');
    const second = await upload(await image('jpeg'), 'second.jpg');
    const third = await upload(await imageFile('webp'), 'third.webp');
    const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'clip.mp4');
    const created = await createPost({
      account_ids: [account.id],
      text: 'One',
      media_ids: [first],
      platforms: {
        x: {
          thread: [{ text: 'Two', media_ids: [second, third] }, { text: 'Three', media_ids: [clip] }, { text: 'Four' }],
        },
      },
    });
    const [target] = (await finished(created.id)).targets;
    expect(target).toMatchObject({ status: 'published', attempts: 1, error: null });
    const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
    // Each post with its own media, as X received them (the sandbox's record of each upload).
    expect(
      published.map((a) => [
        a.detail.text,
        a.detail.type,
        ((a.detail.media ?? []) as Record<string, unknown>[]).map((m) => m.media_category),
      ]),
    ).toEqual([
      ['One', 'IMAGE', ['tweet_image']],
      ['Two', 'IMAGE', ['tweet_image', 'tweet_image']],
      ['Three', 'VIDEO', ['tweet_video']],
      ['Four', 'TEXT', []],
    ]);
    const ids = published.map((a) => a.target_id);
    expect(published.map((a) => a.detail.options)).toEqual([
      { reply_to: null },
      { reply_to: ids[0] },
      { reply_to: ids[1] },
      { reply_to: ids[2] },
    ]);
    expect(target.platform_post_id).toBe(ids[0]);
    // Every medium uploaded once, all before the first post.
    expect(await xCalls(account.username)).toEqual([
      'POST /2/media/upload',
      'POST /2/media/upload',
      'POST /2/media/upload',
      'POST /2/media/upload/initialize',
      'POST /2/media/upload/{id}/append',
      'POST /2/media/upload/{id}/finalize',
      'POST /2/tweets',
      'POST /2/tweets',
      'POST /2/tweets',
      'POST /2/tweets',
    ]);
  });

  it('a thread with media whose run dies after its second post resumes with the third and its media, uploading nothing again', async () => {
    await t.stopWorkers();
    try {
      const photo = await upload(await image('png'), 'second.png');
      const other = await upload(await image('jpeg'), 'third.jpg');
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(
        () => new Promise(() => {}),
        undefined,
        [
          { text: 'Two', media_ids: [photo] },
          { text: 'Three', media_ids: [other] },
        ],
      );
      // The steps as the jobs would run them: the uploads, then the first post, then the rest
      // of the thread, whose run never ends once the second post is recorded.
      void (async () => {
        for (let step = 0; step < 5; step += 1) await publishTarget(publishDeps(stopping), targetId);
      })();
      await eventually(async () => {
        const made = JSON.parse((await targetRow(targetId)).containerId ?? '{}') as {
          posts?: string[];
          sending?: number;
        };
        return made.posts?.length === 2 && made.sending === undefined ? true : undefined;
      });
      // The job runs again, as graphile-worker runs a job whose worker died, once the claim's lease has passed.
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ status: 'published' });
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => [a.detail.text, (a.detail.media_urls as unknown[]).length])).toEqual([
        ['One', 0],
        ['Two', 1],
        ['Three', 1],
      ]);
      expect(await xCalls(account.username)).toEqual([
        'POST /2/media/upload',
        'POST /2/media/upload',
        'POST /2/tweets',
        'POST /2/tweets',
        'POST /2/tweets',
      ]);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("refuses before storing a thread post's media X does not take, or the library does not have, each at its place", async () => {
    const account = await connected('x');
    const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'beside.mp4');
    const photo = await upload(await image('png'), 'beside.png');
    const big = await upload(await bigPng(), 'big.png');
    const res = await postAnswer({
      account_ids: [account.id],
      text: 'One',
      platforms: {
        x: {
          thread: [
            { text: 'Two', media_ids: [clip, photo] },
            { text: 'Three', media_ids: [big] },
            { text: 'Four', media_ids: ['media_none'] },
          ],
        },
      },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.details).toEqual([
      {
        code: 'media_not_found',
        field: 'platforms.x.thread[2].media_ids[0]',
        media_id: 'media_none',
        message: 'No medium "media_none".',
      },
      {
        code: 'validation_failed',
        field: 'platforms.x.thread[0].media_ids',
        message: 'an X post has one video alone, or 1 to 4 images',
      },
      {
        code: 'validation_failed',
        field: 'platforms.x.thread[1].media_ids[0]',
        message: 'an X image has at most 5 MB (a PNG) (this one: 6.4 MB)',
      },
    ]);
    expect((await activity('x', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
  });

  it("keeps a thread post's medium while the post waits: deleting it is refused (409 media_in_use)", async () => {
    const account = await connected('x');
    const photo = await upload(await image('png'), 'kept.png');
    const created = await createPost({
      account_ids: [account.id],
      text: 'One',
      scheduled_at: new Date(now().getTime() + 3_600_000).toISOString(),
      platforms: { x: { thread: [{ text: 'Two', media_ids: [photo] }] } },
    });
    const del = () => t.app.inject({ method: 'DELETE', url: `/v1/media/${photo}`, headers: auth(owner.key) });
    const refused = await del();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('media_in_use');
    expect(refused.json().error.message).toContain(created.id);
    await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(owner.key) });
    expect((await del()).statusCode).toBe(204);
  });

  it("a thread whose run dies after X answered its third post, before recording it, finds that post on X's timeline and records it: published, each post once", async () => {
    await t.stopWorkers();
    try {
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(
        async () => {},
        // The third post's answer is never recorded: the run dies there, as a worker that died.
        async (made, save) => (JSON.parse(made).posts?.length === 3 ? new Promise(() => {}) : save(made)),
      );
      void publishTarget(publishDeps(stopping), targetId);
      await eventually(async () =>
        (await activity('x', account.username)).filter((a) => a.action === 'publish').length === 3 ? true : undefined,
      );
      // The job runs again, as graphile-worker runs a job whose worker died, once the claim's lease has passed.
      await claimLeasePasses();
      const mark = (await sandbox.calls('x', account.username)).count;
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const [target] = (await getPost(postId)).targets;
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two', 'Three']);
      expect(target).toMatchObject({ status: 'published', error: null, platform_post_id: published[0]?.target_id });
      expect(JSON.parse((await targetRow(targetId)).containerId ?? '{}')).toEqual({
        posts: published.map((a) => a.target_id),
        of: 3,
      });
      // Read as X documents the user's posts since the second, with what each replies to.
      const data = await sandbox.callsAfter('x', account.username, mark);
      const reads = data.filter(
        (c) => c.method === 'GET' && c.path.endsWith(`/2/users/${account.platformUserId}/tweets`),
      );
      expect(reads.map((c) => c.query)).toEqual([
        {
          since_id: published[1]?.target_id,
          max_results: '100',
          'tweet.fields': 'referenced_tweets,conversation_id',
        },
      ]);
      expect(data.filter((c) => c.method === 'POST' && c.path.endsWith('/2/tweets'))).toEqual([]);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("a thread whose third post's answer never came (the call timed out) reads it back once X made it: recorded, the thread published, each post once", async () => {
    await t.stopWorkers();
    // Platforms that wait 5 seconds for an answer, so the held post's answer is lost.
    const impatient = createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: sandbox.url },
      { timeoutMs: 5_000 },
    );
    try {
      let read: Promise<void> | undefined;
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(
        async () => {
          // Once the second post is recorded, the third is held at X until the service, its
          // answer lost, reads the timeline; the read waits until X has made the post.
          if (read !== undefined) return;
          const post = sandbox.hold(/\/2\/tweets$/, { afterBody: true });
          const timeline = sandbox.hold(/\/2\/users\/\d+\/tweets$/);
          read = (async () => {
            await timeline.arrived;
            post.release();
            await eventually(async () =>
              (await activity('x', account.username)).filter((a) => a.action === 'publish').length === 3
                ? true
                : undefined,
            );
            timeline.release();
          })();
        },
        undefined,
        undefined,
        impatient,
      );
      await publishTarget(publishDeps(stopping), targetId);
      await read;
      const [target] = (await getPost(postId)).targets;
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two', 'Three']);
      expect(target).toMatchObject({ status: 'published', error: null, platform_post_id: published[0]?.target_id });
      expect(JSON.parse((await targetRow(targetId)).containerId ?? '{}')).toEqual({
        posts: published.map((a) => a.target_id),
        of: 3,
      });
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("a thread whose run dies after marking its third post as being sent, but before sending it, ends outcome_unknown (X does not show it, which is no proof) however often its try's runs stop; the owner's retry sends it once", async () => {
    await t.stopWorkers();
    try {
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(
        async () => {},
        // The mark of the third post being sent is recorded, and the run dies before sending it.
        async (made, save) => {
          const { posts, sending } = JSON.parse(made) as { posts: string[]; sending?: number };
          if (posts.length === 2 && sending === 1) {
            await save(made);
            await new Promise(() => {});
          }
          await save(made);
        },
      );
      void publishTarget(publishDeps(stopping), targetId);
      // The mark of the third post (not the second's, which the run passes on its way).
      await eventually(async () => {
        const made = JSON.parse((await targetRow(targetId)).containerId ?? '{}') as {
          posts?: string[];
          sending?: number;
        };
        // Marked by the first try.
        return made.posts?.length === 2 && made.sending === 1 ? true : undefined;
      });
      // The run after it finds the mark and X not showing the post, and dies before recording
      // its failure; the one after that (the same try) must not take the mark as gone.
      let threw: () => void = () => {};
      const failed = new Promise<void>((resolve) => {
        threw = resolve;
      });
      const dyingOnFailure = withPublishing((real) => ({
        publishContainer: (credentials, containerId, progress) =>
          real.publishContainer(credentials, containerId, progress).catch(() => {
            threw();
            return new Promise(() => {});
          }),
      }));
      await claimLeasePasses();
      void publishTarget(publishDeps(dyingOnFailure), targetId);
      await failed;
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const [target] = (await getPost(postId)).targets;
      expect(target).toMatchObject({ status: 'failed' });
      expect(target.error.code).toBe('outcome_unknown');
      const published = (await activity('x', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two']);
      // The owner, having checked the account, asks for a new try: the thread goes on.
      await retryPost(postId);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ status: 'published', attempts: 2 });
      expect(
        (await activity('x', account.username)).filter((a) => a.action === 'publish').map((a) => a.detail.text),
      ).toEqual(['One', 'Two', 'Three']);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a thread whose third post X refuses for its rate limit is retried with the third only: each post once', async () => {
    await t.stopWorkers();
    try {
      let username = '';
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(async () => {
        await sandbox.control('POST', '/faults', {
          platform: 'x',
          username,
          error: 'rate_limited',
          trigger: 'publish',
        });
      });
      username = account.username;
      await publishTarget(publishDeps(stopping), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ status: 'publishing' });
      expect((await activity('x', username)).filter((a) => a.action === 'publish')).toHaveLength(2);
      await moveTime(t.database.pool, 16 * 60_000);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ status: 'published' });
      const published = (await activity('x', username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two', 'Three']);
      expect(published[2]?.detail.options).toEqual({ reply_to: published[1]?.target_id });
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a thread whose third post fails in passing ends outcome_unknown, its third post never sent again by the service', async () => {
    await t.stopWorkers();
    try {
      let username = '';
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(async () => {
        await sandbox.control('POST', '/faults', { platform: 'x', username, error: 'transient', trigger: 'publish' });
      });
      username = account.username;
      await publishTarget(publishDeps(stopping), targetId);
      const [target] = (await getPost(postId)).targets;
      expect(target).toMatchObject({ status: 'failed' });
      expect(target.error.code).toBe('outcome_unknown');
      const published = (await activity('x', username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two']);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a thread whose posts are all made but whose link read fails in passing is retried, not outcome_unknown', async () => {
    await t.stopWorkers();
    try {
      let username = '';
      let records = 0;
      const { account, postId, targetId, stopping } = await threadStoppedAfterSecond(async () => {
        records += 1;
        if (records === 2) {
          await sandbox.control('POST', '/faults', { platform: 'x', username, error: 'transient', trigger: 'call' });
        }
      });
      username = account.username;
      await publishTarget(publishDeps(stopping), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ status: 'publishing' });
      // The read failed with X's server error: the claim is kept for its two minutes.
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const [target] = (await getPost(postId)).targets;
      expect(target).toMatchObject({ status: 'published' });
      const published = (await activity('x', username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['One', 'Two', 'Three']);
      expect(target.permalink).toBe(`https://x.com/${username}/status/${published[0]?.target_id}`);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("refuses before storing a thread post over 280 as X weighs it, naming the post's path", async () => {
    const account = await connected('x');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: {
        account_ids: [account.id],
        text: 'Fine',
        platforms: { x: { thread: [{ text: 'Also fine' }, { text: '漢'.repeat(141) }] } },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(['platforms.x.thread[1].text']);
    const list = await t.app.inject({ method: 'GET', url: '/v1/posts', headers: auth(owner.key) });
    expect(list.json().data.some((p: { text: string }) => p.text === 'Fine')).toBe(false);
  });

  it('refuses before storing a text over 280 as X weighs it', async () => {
    const account = await connected('x');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [account.id], text: '漢'.repeat(141) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
  });
});

describe('Pinterest boards', () => {
  /** The ids of the boards of the Pinterest user an account acts as, by name. */
  async function boardsOf(account: SandboxAccount): Promise<Record<string, string>> {
    const { body } = await sandbox.control('GET', `/users/pinterest/${account.username}`);
    return Object.fromEntries((body.pages as { id: string; name: string }[]).map((b) => [b.name, b.id]));
  }

  /** A pin posted (POST /v1/posts) with no worker running, while Pinterest has these faults waiting for the account's calls. */
  async function pinUnderFaults(
    account: SandboxAccount,
    faults: { error: string; trigger: 'call' | 'refresh' }[],
    post: Record<string, unknown>,
  ) {
    return await withoutWorker(async () => {
      for (const { error, trigger } of faults) {
        const fault = await sandbox.control('POST', '/faults', {
          platform: 'pinterest',
          username: account.sandboxUser,
          error,
          trigger,
        });
        expect(fault.status).toBe(201);
      }
      return await postAnswer({ account_ids: [account.id], ...post });
    });
  }

  /** What Pinterest's activity says was pinned for the user (on its boards). */
  async function pinned(account: SandboxAccount) {
    return (await activity('pinterest', account.username)).filter((a) => a.action === 'publish');
  }

  it('pins an image on the chosen board with its title, link and alt text, and sends post.published with the pin link', async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const photo = await upload(await image('jpeg'), 'pasta.jpg');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Weeknight pasta',
      media_ids: [photo],
      platforms: {
        pinterest: {
          board_id: boards.Recipes,
          title: 'Quick pasta',
          link: 'https://recipes.example/pasta',
          alt_text: 'A bowl of pasta',
        },
      },
    });
    const [target] = (await finished(created.id)).targets;
    expect(target).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect(target.permalink).toBe(`https://www.pinterest.com/pin/${target.platform_post_id}/`);
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { platform: 'pinterest', permalink: target.permalink },
    });
    const [pin] = await pinned(account);
    expect(pin?.target_id).toBe(target.platform_post_id);
    expect(pin?.detail).toMatchObject({
      text: 'Weeknight pasta',
      type: 'IMAGE',
      options: {
        board_id: boards.Recipes,
        title: 'Quick pasta',
        link: 'https://recipes.example/pasta',
        alt_text: 'A bowl of pasta',
      },
    });
  });

  it('pins a video: registered with the media upload, its file sent, read until succeeded, then the pin naming it', async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const clip = await upload(await videoFile('mp4', { seconds: 5 }), 'clip.mp4');
    const created = await createPost({
      account_ids: [account.id],
      text: 'A short clip',
      media_ids: [clip],
      platforms: { pinterest: { board_id: boards.Ideas } },
    });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
    expect((await pinned(account)).map((a) => a.detail.type)).toEqual(['VIDEO']);
    const { data } = await sandbox.calls('pinterest', account.username);
    // Not the pin's analytics: the account's first insights refresh, due as the every-minute
    // schedule first sees an account connected within the interval, may read them once it is published.
    const paths = data
      .map((c) => `${c.method} ${c.path.replace('/api.pinterest.com', '').replace(/\/media\/\d+$/, '/media/{id}')}`)
      .filter((p) => p.includes('/v5/media') || p === 'POST /v5/pins');
    expect(paths[0]).toBe('POST /v5/media');
    expect(paths.at(-1)).toBe('POST /v5/pins');
    expect(paths.slice(1, -1).length).toBeGreaterThan(0);
    expect(paths.slice(1, -1).every((p) => p === 'GET /v5/media/{id}')).toBe(true);
  });

  it('refuses before storing a pin without a board, or with a title over 100 characters, each at its field', async () => {
    const account = await connected('pinterest');
    const photo = await upload(await image('png'), 'pin.png');
    const without = await postAnswer({ account_ids: [account.id], text: 'No board', media_ids: [photo] });
    expect(without.statusCode).toBe(400);
    expect(without.json().error.details.map((d: { field: string }) => d.field)).toEqual([
      'platforms.pinterest.board_id',
    ]);
    const long = await postAnswer({
      account_ids: [account.id],
      media_ids: [photo],
      platforms: { pinterest: { board_id: '1234567', title: 't'.repeat(101) } },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details.map((d: { field: string }) => d.field)).toContain(
      'body.platforms.pinterest.title',
    );
  });

  it('fails with outcome_unknown, pinning nothing twice, when the creation fails in passing and the board does not show the pin', async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const photo = await upload(await image('jpeg'), 'maybe.jpg');
    await sandbox.control('POST', '/faults', {
      platform: 'pinterest',
      username: account.username,
      error: 'transient',
      trigger: 'publish',
    });
    const created = await createPost({
      account_ids: [account.id],
      text: 'Maybe pinned',
      media_ids: [photo],
      platforms: { pinterest: { board_id: boards.Ideas } },
    });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(post.targets[0].error.code).toBe('outcome_unknown');
    expect(await pinned(account)).toEqual([]);
  });

  it('a run that dies after Pinterest made the pin, before recording it, finds the pin on its board and records it: published, the pin on the board once', async () => {
    await t.stopWorkers();
    let worker = false;
    try {
      const account = await connected('pinterest');
      const boards = await boardsOf(account);
      const photo = await upload(await image('jpeg'), 'once.jpg');
      const created = await createPost({
        account_ids: [account.id],
        text: 'Pinned once',
        media_ids: [photo],
        platforms: { pinterest: { board_id: boards.Ideas } },
      });
      const targetId: string = created.targets[0].id;
      // The pin is made on Pinterest; the run dies before the service records it.
      const dying = dyingInCreation('after the platform made it');
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () => ((await pinned(account)).length > 0 ? true : undefined));
      // The job runs again, as graphile-worker runs a job whose worker died.
      await t.startWorker({ platforms: sandbox.platforms });
      worker = true;
      const post = await finished(created.id);
      const pins = await pinned(account);
      expect(pins).toHaveLength(1);
      expect(post.targets[0]).toMatchObject({
        status: 'published',
        error: null,
        platform_post_id: pins[0]?.target_id,
        permalink: `https://www.pinterest.com/pin/${pins[0]?.target_id}/`,
      });
    } finally {
      if (!worker) await t.startWorker({ platforms: sandbox.platforms });
    }
  });
  /** A Pinterest user no account of the owner acts as: the ids of its boards, by name. */
  async function strangersBoards(): Promise<Record<string, string>> {
    users += 1;
    const made = await sandbox.control('POST', '/users', { platform: 'pinterest', username: `pin_stranger_${users}` });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return Object.fromEntries((made.body.pages as { id: string; name: string }[]).map((b) => [b.name, b.id]));
  }

  /**
   * The reads of the boards and the pins made that Pinterest received with the account's tokens,
   * from the `from`-th on (not the insights reads the worker's schedule makes when it will).
   */
  async function callsOf(account: SandboxAccount, from = 0): Promise<string[]> {
    const { data } = await sandbox.calls('pinterest', account.sandboxUser);
    return data
      .map((c) => `${c.method} ${c.path}`)
      .filter((c) => c === 'GET /api.pinterest.com/v5/boards' || c === 'POST /api.pinterest.com/v5/pins')
      .slice(from);
  }

  /** The app's log lines about a post, parsed. */
  function loggedAbout(postId: string) {
    return appLog.map((line) => JSON.parse(line)).filter((line) => line.post_id === postId);
  }

  /** The answer to a PATCH of a post. */
  async function patchAnswer(id: string, payload: Record<string, unknown>, key = owner.key) {
    return await t.app.inject({ method: 'PATCH', url: `/v1/posts/${id}`, headers: auth(key), payload });
  }

  /** The stored rows of a post naming `text` (none when it was refused), and of the account's targets. */
  async function storedWith(text: string, account: SandboxAccount) {
    return {
      posts: await t.database.db.select().from(posts).where(eq(posts.text, text)),
      targets: await t.database.db.select().from(postTargets).where(eq(postTargets.accountId, account.id)),
    };
  }

  /**
   * Runs `act` with no worker running: a fault the control API leaves for the account's next call
   * (or refresh) is then taken by the service's read of its boards, never by a read the worker's
   * schedules make meanwhile (the first insights of an account just connected).
   */
  async function withoutWorker<T>(act: () => Promise<T>): Promise<T> {
    await t.stopWorkers();
    try {
      return await act();
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  }

  it("takes a pin on one of the account's boards, read from Pinterest once as the post is created", async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const photo = await upload(await image('jpeg'), 'own-board.jpg');
    const before = (await callsOf(account)).length;
    const created = await createPost({
      account_ids: [account.id],
      text: 'On my own board',
      media_ids: [photo],
      draft: true,
      platforms: { pinterest: { board_id: boards.Recipes } },
    });
    expect(created.platforms).toEqual({ pinterest: { board_id: boards.Recipes } });
    expect(created.targets).toMatchObject([{ account_id: account.id, status: 'draft' }]);
    expect(await callsOf(account, before)).toEqual(['GET /api.pinterest.com/v5/boards']);
    const { data } = await sandbox.calls('pinterest', account.sandboxUser);
    expect(data.filter((c) => c.path === '/api.pinterest.com/v5/boards').at(-1)?.query).toEqual({ page_size: '250' });
    expect(loggedAbout(created.id)).toEqual([]);
  });

  it("refuses before storing a pin on another user's board, naming the option and the account, after reading the account's boards once", async () => {
    const account = await connected('pinterest');
    const theirs = await strangersBoards();
    const photo = await upload(await image('jpeg'), 'stranger-board.jpg');
    const before = (await callsOf(account)).length;
    const res = await postAnswer({
      account_ids: [account.id],
      text: "On a stranger's board",
      media_ids: [photo],
      platforms: { pinterest: { board_id: theirs.Ideas } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: "The post breaks a platform's rules. See details.",
        request_id: res.headers['request-id'],
        details: [
          {
            code: 'validation_failed',
            field: 'platforms.pinterest.board_id',
            account_id: account.id,
            message: `"${theirs.Ideas}" is not one of this account's boards on Pinterest; GET /v1/accounts/${account.id}/options/board_id lists them.`,
          },
        ],
      },
    });
    expect(await storedWith("On a stranger's board", account)).toEqual({ posts: [], targets: [] });
    expect(await callsOf(account, before)).toEqual(['GET /api.pinterest.com/v5/boards']);
    expect(await pinned(account)).toEqual([]);
  });

  it("checks the board against each Pinterest account of the post, reading each one's boards once", async () => {
    const first = await connected('pinterest');
    const second = await connected('pinterest');
    const boards = await boardsOf(first);
    const before = [(await callsOf(first)).length, (await callsOf(second)).length] as const;
    const photo = await upload(await image('png'), 'two-pinners.png');
    const res = await postAnswer({
      account_ids: [first.id, second.id],
      text: 'On two accounts',
      media_ids: [photo],
      draft: true,
      platforms: { pinterest: { board_id: boards.Ideas } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details).toEqual([
      {
        code: 'validation_failed',
        field: 'platforms.pinterest.board_id',
        account_id: second.id,
        message: `"${boards.Ideas}" is not one of this account's boards on Pinterest; GET /v1/accounts/${second.id}/options/board_id lists them.`,
      },
    ]);
    expect(await callsOf(first, before[0])).toEqual(['GET /api.pinterest.com/v5/boards']);
    expect(await callsOf(second, before[1])).toEqual(['GET /api.pinterest.com/v5/boards']);
    expect(await storedWith('On two accounts', first)).toEqual({ posts: [], targets: [] });
  });

  it("refuses a change of a pin to another user's board, changing nothing", async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const theirs = await strangersBoards();
    const photo = await upload(await image('jpeg'), 'kept.jpg');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Kept where it was',
      media_ids: [photo],
      scheduled_at: new Date(now().getTime() + 86_400_000).toISOString(),
      platforms: { pinterest: { board_id: boards.Ideas } },
    });
    const before = (await callsOf(account)).length;
    const res = await patchAnswer(created.id, {
      platforms: { pinterest: { board_id: theirs.Recipes, title: 'Moved' } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      details: [
        {
          code: 'validation_failed',
          field: 'platforms.pinterest.board_id',
          account_id: account.id,
          message: `"${theirs.Recipes}" is not one of this account's boards on Pinterest; GET /v1/accounts/${account.id}/options/board_id lists them.`,
        },
      ],
    });
    expect(await getPost(created.id)).toEqual(created);
    const [row] = await t.database.db.select().from(posts).where(eq(posts.id, created.id));
    expect(row?.platformOptions).toEqual({ pinterest: { board_id: boards.Ideas } });
    expect(await callsOf(account, before)).toEqual(['GET /api.pinterest.com/v5/boards']);
    // A change to another of its own boards is taken.
    const moved = await patchAnswer(created.id, { platforms: { pinterest: { board_id: boards.Recipes } } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().platforms).toEqual({ pinterest: { board_id: boards.Recipes } });
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/v1/posts/${created.id}`,
      headers: auth(owner.key),
    });
    expect(cancelled.statusCode).toBe(200);
  });

  it('reads the boards of the accounts another change gave the post while its own change read them, and checks them too', async () => {
    const first = await connected('pinterest');
    const second = await connected('pinterest');
    const firstBoards = await boardsOf(first);
    const secondBoards = await boardsOf(second);
    const created = await createPost({
      account_ids: [first.id],
      text: 'Changed twice at once',
      media_ids: [await upload(await image('jpeg'), 'twice.jpg')],
      draft: true,
      platforms: { pinterest: { board_id: firstBoards.Ideas } },
    });
    const before = [(await callsOf(first)).length, (await callsOf(second)).length] as const;
    // The first change's read of the first account's boards waits while another change moves the post to the second account.
    const held = sandbox.hold(/^\/api\.pinterest\.com\/v5\/boards$/);
    const onFirstBoard = patchAnswer(created.id, { platforms: { pinterest: { board_id: firstBoards.Recipes } } });
    await held.arrived;
    const moved = await patchAnswer(created.id, {
      account_ids: [second.id],
      platforms: { pinterest: { board_id: secondBoards.Ideas } },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    held.release();
    const res = await onFirstBoard;
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details).toEqual([
      {
        code: 'validation_failed',
        field: 'platforms.pinterest.board_id',
        account_id: second.id,
        message: `"${firstBoards.Recipes}" is not one of this account's boards on Pinterest; GET /v1/accounts/${second.id}/options/board_id lists them.`,
      },
    ]);
    expect(await getPost(created.id)).toEqual(moved.json());
    expect(await callsOf(first, before[0])).toEqual(['GET /api.pinterest.com/v5/boards']);
    // Once for the change that moved the post, once for the change checked after it.
    expect(await callsOf(second, before[1])).toEqual([
      'GET /api.pinterest.com/v5/boards',
      'GET /api.pinterest.com/v5/boards',
    ]);
  });

  it('stores a pin whose boards Pinterest refuses to list for now (rate limited), logging it; its publication then fails as Pinterest refuses the board', async () => {
    const account = await connected('pinterest');
    const theirs = await strangersBoards();
    const photo = await upload(await image('jpeg'), 'unchecked.jpg');
    const res = await pinUnderFaults(account, [{ error: 'rate_limited', trigger: 'call' }], {
      text: 'Stored unchecked',
      media_ids: [photo],
      platforms: { pinterest: { board_id: theirs.Recipes } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(loggedAbout(created.id)).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: res.headers['request-id'],
        msg: "a post's listed option value was stored unchecked: the platform refused to list the account's values",
        post_id: created.id,
        account_id: account.id,
        platform: 'pinterest',
        option: 'board_id',
        value: theirs.Recipes,
        reason: 'refused',
        kind: 'rate_limited',
      }),
    ]);
    // The account is as it was: a rate limit says nothing of its access.
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.status).toBe('connected');
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'invalid_request', platform_code: '404' },
    });
    expect(await pinned(account)).toEqual([]);
    expect(await callsOf(account)).toEqual(['GET /api.pinterest.com/v5/boards', 'POST /api.pinterest.com/v5/pins']);
  });

  it('refreshes a token Pinterest refuses as expired while reading the boards, and checks the board with the boards read again', async () => {
    const account = await connected('pinterest');
    const theirs = await strangersBoards();
    const photo = await upload(await image('jpeg'), 'refreshed.jpg');
    const before = (await callsOf(account)).length;
    const res = await pinUnderFaults(account, [{ error: 'token_expired', trigger: 'call' }], {
      text: 'After a refresh',
      media_ids: [photo],
      draft: true,
      platforms: { pinterest: { board_id: theirs.Ideas } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(['platforms.pinterest.board_id']);
    expect(await callsOf(account, before)).toEqual([
      'GET /api.pinterest.com/v5/boards',
      'GET /api.pinterest.com/v5/boards',
    ]);
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.status).toBe('connected');
  });

  it('refuses a pin on an account whose token Pinterest refuses and will not refresh while reading its boards: the account is expired, nothing stored', async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const photo = await upload(await image('jpeg'), 'ended.jpg');
    const res = await pinUnderFaults(
      account,
      [
        { error: 'token_expired', trigger: 'call' },
        { error: 'token_expired', trigger: 'refresh' },
      ],
      { text: 'Access ended', media_ids: [photo], platforms: { pinterest: { board_id: boards.Ideas } } },
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'account_not_connected',
      details: [{ code: 'account_not_connected', field: 'account_ids[0]', account_id: account.id }],
    });
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.status).toBe('expired');
    expect(await storedWith('Access ended', account)).toEqual({ posts: [], targets: [] });
  });

  it('refuses a pin on an account Pinterest refuses the boards of for a missing permission, which the account then lacks', async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const photo = await upload(await image('jpeg'), 'forbidden.jpg');
    const res = await pinUnderFaults(account, [{ error: 'permission_missing', trigger: 'call' }], {
      text: 'Without the permission',
      media_ids: [photo],
      platforms: { pinterest: { board_id: boards.Ideas } },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toEqual([
      {
        code: 'permission_missing',
        field: 'account_ids[0]',
        account_id: account.id,
        message: `Account ${account.id} lacks the permission to publish: boards:read, boards:write, pins:read, pins:write.`,
      },
    ]);
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.scopes).toEqual(['user_accounts:read']);
    expect(await storedWith('Without the permission', account)).toEqual({ posts: [], targets: [] });
  });

  it("reads no boards as an account the caller does not see: another owner's post naming it is 404 account_not_found", async () => {
    const account = await connected('pinterest');
    const boards = await boardsOf(account);
    const stranger = await t.createOwner('Stranger');
    const before = (await callsOf(account)).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(stranger.key),
      payload: { account_ids: [account.id], text: 'Not mine', platforms: { pinterest: { board_id: boards.Ideas } } },
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error.code).toBe('account_not_found');
    expect(await callsOf(account, before)).toEqual([]);
  });
});

describe('Bluesky videos', () => {
  it('publishes a video: sent to the video service, its job read until processed, then the post naming its blob', async () => {
    const account = await connected('bluesky');
    const clip = await upload(await videoFile('mp4', { seconds: 5 }), 'clip.mp4');
    const created = await createPost({
      account_ids: [account.id],
      text: 'A short clip',
      media_ids: [clip],
      platforms: { bluesky: { alt_texts: ['Waves on the shore'] } },
    });
    const post = await finished(created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
    const published = (await activity('bluesky', account.username)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail.record).toMatchObject({
      text: 'A short clip',
      embed: {
        $type: 'app.bsky.embed.video',
        video: { $type: 'blob', mimeType: 'video/mp4' },
        alt: 'Waves on the shore',
      },
    });
    expect(post.targets[0].permalink).toMatch(
      /^https:\/\/bsky\.app\/profile\/did:plc:[a-z2-7]{24}\/post\/[a-z2-7]{13}$/,
    );
  });

  it("a video Bluesky fails to process fails the post with Bluesky's reason in post.failed, nothing posted", async () => {
    const account = await connected('bluesky');
    const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'broken.mp4');
    await setting('bluesky_video_processing', 'fails');
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Never shown', media_ids: [clip] });
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({
        status: 'failed',
        error: { code: 'container_failed', message: expect.stringContaining('Bluesky could not process the video') },
      });
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({
        type: 'post.failed',
        data: { platform: 'bluesky', error_code: 'container_failed' },
      });
      expect((await activity('bluesky', account.username)).filter((a) => a.action === 'publish')).toEqual([]);
    } finally {
      await setting('bluesky_video_processing', 'succeeds');
    }
  });

  it('a run that dies after sending the video, before recording it, sends it again and posts it once', async () => {
    await t.stopWorkers();
    let worker = false;
    try {
      const account = await connected('bluesky');
      const clip = await upload(await videoFile('mp4', { seconds: 2 }), 'again.mp4');
      const created = await createPost({ account_ids: [account.id], text: 'Once', media_ids: [clip] });
      const targetId: string = created.targets[0].id;
      const uploads = () =>
        sandbox
          .requests()
          .filter(
            (r) =>
              r.startsWith('POST /video.bsky.app/xrpc/app.bsky.video.uploadVideo') &&
              r.includes(`did=${encodeURIComponent(account.platformUserId)}`),
          ).length;
      const dying = withPublishing((real) => ({
        // The video is on Bluesky's video service; the run dies before the service records it.
        createCarouselItems: async (credentials, request) => {
          await real.createCarouselItems?.(credentials, request);
          return await new Promise<string[]>(() => {});
        },
      }));
      void publishTarget(publishDeps(dying), targetId);
      await eventually(async () => (uploads() === 1 ? true : undefined));
      expect((await targetRow(targetId)).itemContainerIds).toBeNull();
      // The job runs again, as graphile-worker runs a job whose worker died.
      await t.startWorker({ platforms: sandbox.platforms });
      worker = true;
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
      const published = (await activity('bluesky', account.username)).filter((a) => a.action === 'publish');
      expect(published.map((a) => (a.detail.record as { embed: { $type: string } }).embed.$type)).toEqual([
        'app.bsky.embed.video',
      ]);
      // Sent twice (Bluesky answers the second with the first's video), posted once.
      expect(uploads()).toBe(2);
    } finally {
      if (!worker) await t.startWorker({ platforms: sandbox.platforms });
    }
  });
});

describe('YouTube channels', () => {
  it('uploads a video through the resumable protocol, its session recorded before any byte, follows its processing, and sends post.published with the watch URL', async () => {
    const account = await connected('youtube');
    const video = await upload(await videoFile('mp4'), 'clip.mp4');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Behind the scenes',
      media_ids: [video],
      platforms: { youtube: { title: 'Our studio', made_for_kids: false, privacy: 'unlisted', category_id: '22' } },
    });
    const targetId = created.targets[0].id;
    const made = await eventually(async () => {
      const row = await targetRow(targetId);
      return row.containerId !== null ? row : undefined;
    });
    expect(JSON.parse(made.containerId as string).session).toContain('/upload/youtube/v3/videos?uploadType=resumable');
    let row = made;
    for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(targetId);
    expect(row.status).toBe('published');

    const post = await getPost(created.id);
    // The account's username is the channel's handle (`@` and the sandbox channel's name).
    expect(account.username).toMatch(/^@pub_youtube_\d+\.channel1$/);
    const channel = account.username.slice(1);
    const published = (await activity('youtube', channel)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({
      text: 'Behind the scenes',
      type: 'VIDEO',
      options: {
        title: 'Our studio',
        category_id: '22',
        privacy_status: 'unlisted',
        self_declared_made_for_kids: false,
      },
    });
    expect(post.targets[0]).toMatchObject({
      status: 'published',
      platform_post_id: published[0]?.target_id,
      permalink: `https://www.youtube.com/watch?v=${published[0]?.target_id}`,
    });
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { platform: 'youtube', permalink: post.targets[0].permalink },
    });
  });

  it("a video past the Google project's daily uploads waits until midnight Pacific Time with its reason, then is uploaded", async () => {
    // A project of its own with one upload a day, as YOUTUBE_DAILY_UPLOADS=1 would give.
    const limited = withPublishing((real, p) =>
      p === 'youtube' && real.dailyUploads !== undefined
        ? { dailyUploads: { ...real.dailyUploads, project: 'one-a-day', limit: 1 } }
        : {},
    );
    await t.stopWorkers();
    await t.startWorker({ platforms: limited });
    try {
      const options = { youtube: { title: 'Our studio', made_for_kids: false } };
      const [a, b] = [await connected('youtube'), await connected('youtube')];
      const first = await createPost({
        account_ids: [a.id],
        text: 'The day’s one',
        media_ids: [await upload(await videoFile('mp4'), 'a.mp4')],
        platforms: options,
      });
      let row = await eventually(async () => {
        const target = await targetRow(first.targets[0].id);
        return target.containerId !== null ? target : undefined;
      });
      for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(row.id);
      expect(row.status).toBe('published');

      const second = await createPost({
        account_ids: [b.id],
        text: 'One too many',
        media_ids: [await upload(await videoFile('mp4'), 'b.mp4')],
        platforms: options,
      });
      const held = await eventually(async () => {
        const target = (await getPost(second.id)).targets[0];
        return target.waiting_reason?.includes('uploads') ? target : undefined;
      });
      expect(held.status).toBe('publishing');
      expect(held.waiting_reason).toMatch(
        /^The YouTube uploads of the service's project for today are spent \(1 a day\); waiting until they renew at /,
      );
      const channel = b.username.slice(1);
      expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(0);
      // The time it names is the next midnight in Pacific Time, within a day.
      const due = new Date(held.waiting_reason?.match(/renew at (\S+)\.$/)?.[1] ?? NaN);
      expect(pacificTime(due)).toBe('00:00:00');
      expect(due.getTime() - now().getTime()).toBeGreaterThan(0);
      expect(due.getTime() - now().getTime()).toBeLessThanOrEqual(86_400_000);
      // Not before it: a step of the target now still waits.
      expect(await dueJob(held.id)).toBeGreaterThan(0);

      // Past it, its steps are run here: the upload is made, processed and published.
      await t.stopWorkers();
      row = await uploadedAfter(limited, held.id, due);
      expect(row.status).toBe('published');
      expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(1);
    } finally {
      await t.stopWorkers();
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("a quotaExceeded answer closes the Google project's day: that video and another channel's wait until midnight Pacific Time, the other without calling, then both are uploaded", async () => {
    const spending = await connected('youtube');
    await sandbox.control('POST', '/faults', {
      platform: 'youtube',
      username: spending.username.slice(1).replace(/\.channel1$/, ''),
      error: 'custom',
      trigger: 'publish',
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'The request cannot be completed because you have exceeded your quota.',
          errors: [{ message: 'quota', domain: 'youtube.quota', reason: 'quotaExceeded' }],
          status: 'PERMISSION_DENIED',
        },
      },
    });
    const options = { youtube: { title: 'Our studio', made_for_kids: false } };
    const first = await createPost({
      account_ids: [spending.id],
      text: 'Refused',
      media_ids: [await upload(await videoFile('mp4'), 'a.mp4')],
      platforms: options,
    });
    // Refused for the project's quota, the video waits for the new Pacific day (longer than the
    // retry window) rather than failing; nothing reached YouTube.
    const refused = await eventually(async () => {
      const target = (await getPost(first.id)).targets[0];
      return target.waiting_reason?.includes('quota for today') ? target : undefined;
    });
    expect(refused).toMatchObject({ status: 'publishing', error: null });
    expect(refused.waiting_reason).toMatch(
      /^YouTube answered that the service's project has spent its quota for today; waiting until it renews at \S+\.$/,
    );
    const spendingChannel = spending.username.slice(1);
    expect((await activity('youtube', spendingChannel)).filter((a) => a.action === 'publish')).toHaveLength(0);
    const waiting = await connected('youtube');
    const second = await createPost({
      account_ids: [waiting.id],
      text: 'Held for the new day',
      media_ids: [await upload(await videoFile('mp4'), 'b.mp4')],
      platforms: options,
    });
    const held = await eventually(async () => {
      const target = (await getPost(second.id)).targets[0];
      return target.waiting_reason?.includes('quota for today') ? target : undefined;
    });
    expect(held.status).toBe('publishing');
    expect(held.waiting_reason).toMatch(
      /^YouTube answered that the service's project has spent its quota for today; waiting until it renews at \S+\.$/,
    );
    const channel = waiting.username.slice(1);
    expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(0);
    // Both wait for the same time, the next midnight in Pacific Time.
    const due = new Date(held.waiting_reason?.match(/renews at (\S+)\.$/)?.[1] ?? NaN);
    expect(pacificTime(due)).toBe('00:00:00');
    expect(refused.waiting_reason?.match(/renews at (\S+)\.$/)?.[1]).toBe(due.toISOString());
    // Past it, both videos are uploaded. Their steps are run here rather than by the worker,
    // whose queue then also holds every job the earlier tests left waiting for a later time.
    await t.stopWorkers();
    try {
      const row = await uploadedAfter(sandbox.platforms, held.id, due);
      expect(row.status).toBe('published');
      expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(1);
      const again = await uploadedAfter(sandbox.platforms, refused.id, due);
      expect(again.status).toBe('published');
      expect((await activity('youtube', spendingChannel)).filter((a) => a.action === 'publish')).toHaveLength(1);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  describe("the Google project's YouTube quota units", () => {
    const PROJECT = 'switchboard-sandbox';
    const pacificDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(now());
    /** The service's count of the project's units today. */
    const unitsUsed = async () =>
      (await projectUnits(t.database.db).take('youtube', PROJECT, pacificDay(), 0, 1e9)).used;
    /** The sandbox's platforms counting YouTube's units in the service's table, with these settings. */
    const counting = (daily: number, reserve: number) =>
      createPlatforms(
        {
          platforms: 'sandbox',
          platformCredentials: {},
          sandboxUrl: sandbox.url,
          youtubeDailyQuotaUnits: String(daily),
          youtubeQuotaReserveUnits: String(reserve),
        },
        { projectUnits: projectUnits(t.database.db) },
      );
    const pollDeps = (platforms: PlatformSet) => ({
      db: t.database.db,
      log: pino({ level: 'silent' }),
      platforms: () => platforms,
      secretKey: t.secretKey,
      commentPollIntervalMs: 900_000,
    });
    const options = { youtube: { title: 'Our studio', made_for_kids: false } };
    /**
     * A poll of a new channel's three videos: channels.list 1, playlistItems.list 1,
     * commentThreads.list 3 (a video each) and 1 (the channel's threads held for review).
     */
    const POLL_UNITS = 1 + 1 + 3 + 1;

    it('a comment poll that would eat into the reserve kept for publishing is not made until midnight Pacific Time, and a video still goes out', async () => {
      await t.stopWorkers();
      try {
        // Within the poll interval (15 minutes) of midnight Pacific Time the next poll would come
        // after the interval rather than at midnight: the test starts an hour later then.
        const [hours = 0, minutes = 0] = pacificTime(now()).split(':').map(Number);
        if (hours === 23 && minutes >= 30) await moveTime(t.database.pool, 3_600_000);
        const account = await connected('youtube');
        const channel = account.username.slice(1);
        const used = await unitsUsed();
        // Room above the reserve of 100 for one poll, no more.
        const platforms = counting(used + POLL_UNITS + 100, 100);
        await pollComments(pollDeps(platforms), account.id);
        expect(await unitsUsed()).toBe(used + POLL_UNITS);
        const user = channel.replace(/\.channel1$/, '');
        const mark = (await sandbox.calls('youtube', user)).count;
        const since = now();
        await pollComments(pollDeps(platforms), account.id);
        // The first poll's calls are the user's (after the connection's): the second made none.
        expect((await sandbox.calls('youtube', user)).data.slice(-POLL_UNITS).map((c) => c.path)).toEqual([
          '/www.googleapis.com/youtube/v3/channels',
          '/www.googleapis.com/youtube/v3/playlistItems',
          '/www.googleapis.com/youtube/v3/commentThreads',
          '/www.googleapis.com/youtube/v3/commentThreads',
          '/www.googleapis.com/youtube/v3/commentThreads',
          '/www.googleapis.com/youtube/v3/commentThreads',
        ]);
        expect(await sandbox.callsAfter('youtube', user, mark)).toEqual([]);
        const [state] = await t.database.db
          .select()
          .from(commentSyncState)
          .where(eq(commentSyncState.accountId, account.id));
        expect(state?.lastError).toMatch(/down to the 100 kept for publishing/);
        // The next poll is at the next midnight Pacific Time: in its first seconds (Google's wait is
        // counted in whole seconds from the refusal, the poll's record a moment later), within a day.
        const nextPoll = state?.nextPollAt ?? new Date(Number.NaN);
        expect(pacificTime(nextPoll)).toMatch(/^00:00:0\d$/);
        expect(nextPoll.getTime() - since.getTime()).toBeLessThanOrEqual(86_400_000 + 10_000);

        // The video's upload and processing reads spend the reserve.
        await t.startWorker({ platforms });
        const created = await createPost({
          account_ids: [account.id],
          text: 'Still going out',
          media_ids: [await upload(await videoFile('mp4'), 'reserve.mp4')],
          platforms: options,
        });
        let row = await eventually(async () => {
          const target = await targetRow(created.targets[0].id);
          return target.containerId !== null ? target : undefined;
        });
        for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(row.id);
        expect(row.status).toBe('published');
        expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(1);
      } finally {
        await t.stopWorkers();
        await t.startWorker({ platforms: sandbox.platforms });
      }
    });

    it("a day's units spent by comment polls make a video wait until midnight Pacific Time with its reason, then it goes out", async () => {
      await t.stopWorkers();
      try {
        const account = await connected('youtube');
        const channel = account.username.slice(1);
        const used = await unitsUsed();
        // No reserve: the polls may spend the whole day.
        const platforms = counting(used + POLL_UNITS, 0);
        await pollComments(pollDeps(platforms), account.id);
        expect(await unitsUsed()).toBe(used + POLL_UNITS);

        await t.startWorker({ platforms });
        const created = await createPost({
          account_ids: [account.id],
          text: 'After the reads',
          media_ids: [await upload(await videoFile('mp4'), 'spent.mp4')],
          platforms: options,
        });
        const held = await eventually(async () => {
          const target = (await getPost(created.id)).targets[0];
          return target.waiting_reason?.includes('quota units') ? target : undefined;
        });
        expect(held.status).toBe('publishing');
        expect(held.waiting_reason).toBe(
          `The YouTube quota units of the service's project for today are spent (${used + POLL_UNITS} a day, reads and publishing together); waiting until they renew at ${held.waiting_reason?.match(/renew at (\S+)\.$/)?.[1]}.`,
        );
        expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(0);
        const due = new Date(held.waiting_reason?.match(/renew at (\S+)\.$/)?.[1] ?? NaN);
        expect(pacificTime(due)).toBe('00:00:00');
        expect(await dueJob(held.id)).toBeGreaterThan(0);

        // Past it, the new day's units: the upload is made, processed and published.
        await t.stopWorkers();
        expect((await uploadedAfter(platforms, held.id, due)).status).toBe('published');
        expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(1);
      } finally {
        await t.stopWorkers();
        await t.startWorker({ platforms: sandbox.platforms });
      }
    });
    it("a video uploaded before the day's units ran out is read again when they renew at midnight Pacific Time, and published, not failed", async () => {
      await t.stopWorkers();
      try {
        const account = await connected('youtube');
        const channel = account.username.slice(1);
        const daily = (await unitsUsed()) + 1000;
        const platforms = counting(daily, 0);
        const created = await createPost({
          account_ids: [account.id],
          text: 'Uploaded in time',
          media_ids: [await upload(await videoFile('mp4'), 'in-time.mp4')],
          platforms: options,
        });
        const targetId: string = created.targets[0].id;
        await publishTarget(publishDeps(platforms), targetId); // quota, upload
        expect((await targetRow(targetId)).containerId).not.toBeNull();
        // Replies and moderation spend the rest of the day before its processing is read.
        await projectUnits(t.database.db).take('youtube', PROJECT, pacificDay(), daily - (await unitsUsed()), daily);
        await moveTime(t.database.pool, 60_000);
        await publishTarget(publishDeps(platforms), targetId);
        const [held] = (await getPost(created.id)).targets;
        expect(held).toMatchObject({ status: 'publishing', error: null });
        const renews = held.waiting_reason?.match(/renew at (\S+)\.$/)?.[1];
        expect(held.waiting_reason).toBe(
          `Uploaded to YouTube; the quota units of the service's project for today are spent, so it is read again when they renew at ${renews}.`,
        );
        const due = new Date(renews ?? Number.NaN);
        expect(pacificTime(due)).toBe('00:00:00');

        await moveTime(t.database.pool, due.getTime() - now().getTime() + 1000);
        let row = await targetRow(targetId);
        for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) {
          await publishTarget(publishDeps(platforms), targetId);
          row = await targetRow(targetId);
          await moveTime(t.database.pool, 60_000);
        }
        expect((await getPost(created.id)).targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null });
        expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(1);
      } finally {
        await t.stopWorkers();
        await t.startWorker({ platforms: sandbox.platforms });
      }
    });
  });

  it("an unaudited Google project's video stays private: published, the target and post.published warn that YouTube kept it private", async () => {
    const account = await connected('youtube');
    await setting('youtube_project_audit', 'unaudited');
    try {
      const created = await createPost({
        account_ids: [account.id],
        text: 'Restricted',
        media_ids: [await upload(await videoFile('mp4'), 'clip.mp4')],
        platforms: { youtube: { title: 'Our studio', made_for_kids: false, privacy: 'unlisted' } },
      });
      const targetId = created.targets[0].id;
      let row = await eventually(async () => {
        const target = await targetRow(targetId);
        return target.containerId !== null ? target : undefined;
      });
      for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(targetId);
      expect(row.status).toBe('published');
      const warning = {
        code: 'privacy_restricted',
        message:
          "YouTube keeps the video private although unlisted was asked. A Google project that has not passed YouTube's audit has every upload restricted to private: have the project audited, then change the video's privacy on YouTube.",
      };
      const target = (await getPost(created.id)).targets[0];
      expect(target).toMatchObject({ status: 'published', error: null, warning });
      expect(target.permalink).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=/);
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({ type: 'post.published', data: { permalink: target.permalink, warning } });
    } finally {
      await setting('youtube_project_audit', 'audited');
    }
  });

  it('a video published with the privacy asked has no warning', async () => {
    const account = await connected('youtube');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Open',
      media_ids: [await upload(await videoFile('mp4'), 'clip.mp4')],
      platforms: { youtube: { title: 'Our studio', made_for_kids: false, privacy: 'unlisted' } },
    });
    let row = await eventually(async () => {
      const target = await targetRow(created.targets[0].id);
      return target.containerId !== null ? target : undefined;
    });
    for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(row.id);
    expect((await getPost(created.id)).targets[0]).toMatchObject({ status: 'published', warning: null });
    const [event] = await eventsOf(created.id);
    expect(event.data.warning).toBeUndefined();
  });

  it('resumes an upload after its media URL would have expired: each read that sends bytes signs a new one', async () => {
    const account = await connected('youtube');
    // Media URLs that end after a minute (MEDIA_URL_TTL_SECONDS=60), as a deployment may set it.
    const deps = { ...publishDeps(sandbox.platforms) };
    deps.media = { ...deps.media, config: { ...t.config, mediaUrlTtlSeconds: 60 } };
    await t.stopWorkers();
    try {
      const created = await createPost({
        account_ids: [account.id],
        text: 'Sent late',
        media_ids: [await upload(await videoFile('mp4'), 'clip.mp4')],
        platforms: { youtube: { title: 'Our studio', made_for_kids: false } },
      });
      const targetId = created.targets[0].id;
      await publishTarget(deps, targetId); // the session, no byte yet
      let row = await targetRow(targetId);
      expect(row.containerId).not.toBeNull();
      // Two minutes pass before the bytes are sent: a URL signed when the session was made has ended.
      await moveTime(t.database.pool, 120_000);
      for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) {
        await publishTarget(deps, targetId);
        row = await targetRow(targetId);
        await moveTime(t.database.pool, 30_000);
      }
      expect(row).toMatchObject({ status: 'published', error: null });
      const uploads = (await activity('youtube', account.username.slice(1))).filter((a) => a.action === 'publish');
      expect(uploads).toHaveLength(1);
      expect(uploads[0]?.detail.bytes).toBe((await videoFile('mp4')).length);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('refuses a video without a title or the made-for-kids declaration before anything is stored', async () => {
    const account = await connected('youtube');
    const video = await upload(await videoFile('mp4'), 'clip.mp4');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [account.id], text: 'No title', media_ids: [video] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual([
      'platforms.youtube.title',
      'platforms.youtube.made_for_kids',
    ]);
  });
});

describe('YouTube videos scheduled on YouTube (status.publishAt)', () => {
  const options = { youtube: { title: 'Premiere', made_for_kids: false } };

  /** A public YouTube video scheduled `aheadMs` from the service's now. */
  async function scheduledVideo(aheadMs: number, youtube: Record<string, unknown> = options.youtube) {
    const account = await connected('youtube');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Out at its time',
      media_ids: [await upload(await videoFile('mp4'), 'premiere.mp4')],
      platforms: { youtube },
      scheduled_at: new Date(now().getTime() + aheadMs).toISOString(),
    });
    return { account, channel: account.username.slice(1), created, targetId: created.targets[0].id as string };
  }

  /** The target's steps run by the worker until it waits for YouTube to publish it (or stops publishing). */
  async function uploadedAhead(targetId: string) {
    let row = await targetRow(targetId);
    for (let step = 0; step < 12; step += 1) {
      row = await nextStep(targetId);
      if (row.status !== 'publishing' || row.waitingReason?.startsWith('Uploaded to YouTube as private')) break;
    }
    return row;
  }

  /**
   * The video as the sandbox's videos.list answers its channel (null: not listed), read with an
   * access token of its own: the account's stored one may have passed its hour on the moved
   * clock, whether or not the service has refreshed it yet.
   */
  async function listedVideo(account: SandboxAccount, videoId: string) {
    const { accessToken } = await sandbox.connect('youtube', account.sandboxUser);
    const res = await fetch(
      `${sandbox.url}/www.googleapis.com/youtube/v3/videos?part=status&id=${encodeURIComponent(videoId)}`,
      { headers: { authorization: `Bearer ${accessToken}` } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { status: { privacyStatus: string; publishAt?: string } }[] };
    return body.items[0] ?? null;
  }

  it('uploads a scheduled public video an hour ahead as private with publishAt at its time, says so on the target, and at its time confirms it public and sends post.published once', async () => {
    const { account, channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    const scheduledAt = Date.parse(created.scheduled_at);
    // Its first step is due an hour before its time (queued on the database's clock: within a minute).
    const firstWait = await eventually(() => dueJob(targetId));
    expect(Math.abs(now().getTime() + firstWait - (scheduledAt - 3_600_000))).toBeLessThan(60_000);

    const waiting = await uploadedAhead(targetId);
    expect(now().getTime()).toBeLessThan(scheduledAt);
    const target = (await getPost(created.id)).targets[0];
    expect(target).toMatchObject({
      status: 'publishing',
      waiting_reason: `Uploaded to YouTube as private; YouTube makes it public at ${created.scheduled_at}.`,
      permalink: null,
    });
    expect(waiting.status).toBe('publishing');
    // YouTube received it private, with the post's time as publishAt, and holds it private until then.
    const published = (await activity('youtube', channel)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({
      options: { privacy_status: 'private', publish_at: created.scheduled_at },
    });
    const videoId = published[0]?.target_id as string;
    expect(await listedVideo(account, videoId)).toMatchObject({
      status: { privacyStatus: 'private', publishAt: created.scheduled_at },
    });
    expect(receiver.received.some((r) => JSON.parse(r.body.toString('utf8')).data.post_id === created.id)).toBe(false);

    // Its next read is at its time, when YouTube has made it public.
    const done = await nextStep(targetId);
    expect(done.status).toBe('published');
    expect(now().getTime()).toBeGreaterThanOrEqual(scheduledAt);
    expect(await listedVideo(account, videoId)).toMatchObject({ status: { privacyStatus: 'public' } });
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { platform: 'youtube', permalink: `https://www.youtube.com/watch?v=${videoId}` },
    });
    // Once: a read run again finds it published and sends nothing more.
    await t.stopWorkers();
    try {
      await publishTarget(publishDeps(sandbox.platforms), targetId);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    const events = receiver.received.filter((r) => JSON.parse(r.body.toString('utf8')).data.post_id === created.id);
    expect(events).toHaveLength(1);
  });

  it('an unlisted or private scheduled video is uploaded at its time, as YouTube schedules only private-to-public', async () => {
    const { created, targetId } = await scheduledVideo(2 * 3_600_000, { ...options.youtube, privacy: 'unlisted' });
    const wait = await eventually(() => dueJob(targetId));
    expect(Math.abs(now().getTime() + wait - Date.parse(created.scheduled_at))).toBeLessThan(60_000);
  });

  it('cancelling a post whose video waits on YouTube for its time deletes the video (videos.delete), so it never goes public', async () => {
    const { account, channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    await uploadedAhead(targetId);
    const videoId = (await activity('youtube', channel)).find((a) => a.action === 'publish')?.target_id as string;
    expect(await listedVideo(account, videoId)).toMatchObject({ status: { privacyStatus: 'private' } });

    const res = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(owner.key) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().targets[0]).toMatchObject({
      status: 'cancelled',
      waiting_reason: 'Removing the upload made ahead from the platform.',
    });
    const removed = await eventually(async () => {
      const row = await targetRow(targetId);
      return row.step === null ? row : undefined;
    });
    expect(removed.status).toBe('cancelled');
    const deletes = (await activity('youtube', channel)).filter((a) => a.action === 'delete');
    expect(deletes.map((a) => a.target_id)).toEqual([videoId]);
    expect(await listedVideo(account, videoId)).toBeNull();
    // Past its time: still cancelled, no event.
    await moveTime(t.database.pool, 2 * 3_600_000);
    expect((await getPost(created.id)).status).toBe('cancelled');
    expect(receiver.received.some((r) => JSON.parse(r.body.toString('utf8')).data.post_id === created.id)).toBe(false);
  });

  it('moving the post after its upload moves publishAt on YouTube (videos.update), and it is published at the new time only', async () => {
    const { account, channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    await uploadedAhead(targetId);
    const videoId = (await activity('youtube', channel)).find((a) => a.action === 'publish')?.target_id as string;
    const later = new Date(Date.parse(created.scheduled_at) + 3 * 3_600_000).toISOString();

    // Anything but its time cannot change any more: the video is on YouTube.
    const text = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${created.id}`,
      headers: auth(owner.key),
      payload: { text: 'Another description' },
    });
    expect(text.statusCode).toBe(409);
    expect(text.json().error.code).toBe('post_not_editable');
    // Nor to a time nearer than ten minutes.
    const soon = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${created.id}`,
      headers: auth(owner.key),
      payload: { scheduled_at: new Date(now().getTime() + 5 * 60_000).toISOString() },
    });
    expect(soon.statusCode).toBe(400);
    expect(soon.json().error).toMatchObject({ code: 'validation_failed', details: [{ field: 'scheduled_at' }] });

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${created.id}`,
      headers: auth(owner.key),
      payload: { scheduled_at: later },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ scheduled_at: later, targets: [{ id: targetId, status: 'publishing' }] });
    const moved = await eventually(async () => {
      const target = (await getPost(created.id)).targets[0];
      return target.waiting_reason?.includes(later) ? target : undefined;
    });
    expect(moved.waiting_reason).toBe(`Uploaded to YouTube as private; YouTube makes it public at ${later}.`);
    const updates = (await activity('youtube', channel)).filter((a) => a.action === 'update');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ target_id: videoId, detail: { privacy_status: 'private', publish_at: later } });
    expect(await listedVideo(account, videoId)).toMatchObject({
      status: { privacyStatus: 'private', publishAt: later },
    });

    // The old time passes with the video private; at the new one it is public and published.
    const done = await nextStep(targetId);
    expect(done.status).toBe('published');
    expect(now().getTime()).toBeGreaterThanOrEqual(Date.parse(later));
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { permalink: `https://www.youtube.com/watch?v=${videoId}` },
    });
  });

  it('refuses to move an uploaded video whose time is less than five minutes away (409 post_not_editable), YouTube publishing it then', async () => {
    const { channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    await uploadedAhead(targetId);
    await moveTime(t.database.pool, Date.parse(created.scheduled_at) - 3 * 60_000 - now().getTime());
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${created.id}`,
      headers: auth(owner.key),
      payload: { scheduled_at: new Date(Date.parse(created.scheduled_at) + 3_600_000).toISOString() },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('post_not_editable');
    expect((await getPost(created.id)).scheduled_at).toBe(created.scheduled_at);
    expect((await activity('youtube', channel)).filter((a) => a.action === 'update')).toHaveLength(0);
  });

  it("a cancelled video's removal whose account expired waits for its reconnection, saying the video goes public otherwise", async () => {
    const { account, channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    await uploadedAhead(targetId);
    await t.database.db.update(accounts).set({ status: 'expired' }).where(eq(accounts.id, account.id));
    try {
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(owner.key) });
      expect(res.statusCode, res.body).toBe(200);
      const waiting = await eventually(async () => {
        const target = (await getPost(created.id)).targets[0];
        return target.waiting_reason?.startsWith('Removing the upload from YouTube needs') ? target : undefined;
      });
      expect(waiting.status).toBe('cancelled');
      expect(waiting.waiting_reason).toContain(
        `which is expired: reconnect it before ${created.scheduled_at}, or YouTube publishes the video then.`,
      );
      expect((await activity('youtube', channel)).filter((a) => a.action === 'delete')).toHaveLength(0);
    } finally {
      await t.database.db.update(accounts).set({ status: 'connected' }).where(eq(accounts.id, account.id));
    }
    // Reconnected: the next try removes it.
    const done = await nextStep(targetId);
    expect(done).toMatchObject({ status: 'cancelled', step: null });
    expect((await activity('youtube', channel)).filter((a) => a.action === 'delete')).toHaveLength(1);
  });

  it('a removal repeated after a crash (YouTube deleted the video, the record was lost) deletes nothing again and ends cancelled', async () => {
    const { channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    await uploadedAhead(targetId);
    await t.stopWorkers();
    try {
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(owner.key) });
      expect(res.statusCode, res.body).toBe(200);
      expect((await targetRow(targetId)).step).toBe('withdraw');
      // A run that removed the video and died before recording it: YouTube deleted it, the
      // target still says `withdraw`. The step run again finds it gone and ends cancelled.
      const row = await targetRow(targetId);
      const adapter = sandbox.platforms.adapter('youtube');
      const removed = await adapter.publishing.withdraw?.(await credentialsFor(row.accountId), row.containerId ?? '');
      expect(removed).toEqual({ outcome: 'withdrawn' });
      expect((await targetRow(targetId)).step).toBe('withdraw');
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    const row = await targetRow(targetId);
    expect(row).toMatchObject({ status: 'cancelled', step: null });
    expect((await activity('youtube', channel)).filter((a) => a.action === 'delete')).toHaveLength(1);
  });

  it('a post cancelled while its upload is unfinished has the upload looked at again within a minute, before its time, not half an hour later', async () => {
    await t.stopWorkers();
    let targetId = '';
    let scheduledAt = 0;
    try {
      const made = await scheduledVideo(20 * 60_000);
      targetId = made.targetId;
      scheduledAt = Date.parse(made.created.scheduled_at);
      await publishTarget(publishDeps(sandbox.platforms), targetId); // the session, no byte yet
      expect((await targetRow(targetId)).containerId).not.toBeNull();
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/v1/posts/${made.created.id}`,
        headers: auth(owner.key),
      });
      expect(res.statusCode, res.body).toBe(200);
      await publishTarget(publishDeps(sandbox.platforms), targetId); // finds the upload unfinished
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    const row = await targetRow(targetId);
    expect(row).toMatchObject({ status: 'cancelled', step: 'withdraw' });
    expect(row.waitingReason).toMatch(
      /^The upload to YouTube was unfinished when the post was cancelled; looking at it again at /,
    );
    // Its next look is a minute away (queued on the database's clock), well before the post's time.
    const wait = (await dueJob(targetId)) as number;
    expect(wait).toBeLessThanOrEqual(2 * 60_000);
    expect(now().getTime() + wait).toBeLessThan(scheduledAt);
  });

  it('a post cancelled while a run sends its video has the video deleted as soon as that run finishes the upload', async () => {
    const { channel, created, targetId } = await scheduledVideo(30 * 60_000);
    await t.stopWorkers();
    try {
      // Its steps up to the session, no byte yet.
      for (let step = 0; step < 4 && (await targetRow(targetId)).containerId === null; step += 1) {
        await publishTarget(publishDeps(sandbox.platforms), targetId);
      }
      expect((await targetRow(targetId)).containerId).not.toBeNull();
      // A run that sends the bytes, during which the post is cancelled and its removal finds the upload unfinished.
      const sending = withPublishing((real, platform) =>
        platform !== 'youtube'
          ? {}
          : {
              containerStatus: async (...args) => {
                const res = await t.app.inject({
                  method: 'DELETE',
                  url: `/v1/posts/${created.id}`,
                  headers: auth(owner.key),
                });
                expect(res.statusCode, res.body).toBe(200);
                await publishTarget(publishDeps(sandbox.platforms), targetId);
                expect((await targetRow(targetId)).waitingReason).toMatch(/^The upload to YouTube was unfinished/);
                return await real.containerStatus(...args);
              },
            },
      );
      await publishTarget(publishDeps(sending), targetId);
      expect((await activity('youtube', channel)).filter((a) => a.action === 'publish')).toHaveLength(1);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    // The removal runs at once, on the clock as it stands.
    const removed = await eventually(async () => {
      const row = await targetRow(targetId);
      return row.step === null ? row : undefined;
    });
    expect(removed.status).toBe('cancelled');
    expect((await activity('youtube', channel)).filter((a) => a.action === 'delete')).toHaveLength(1);
  });

  it("deleting the profile deletes its post's video waiting on YouTube for its time (videos.delete) before the post goes", async () => {
    const profileId = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/profiles',
        headers: auth(owner.key),
        payload: { name: 'Leaving' },
      })
    ).json().id as string;
    const key = await t.createProfileKey(owner.ownerId, profileId);
    users += 1;
    const account = await connectSandboxAccount(t, sandbox, owner, 'youtube', `pub_youtube_${users}`, { profileId });
    const channel = account.username.slice(1);
    const { payload, headers } = multipartUpload(await videoFile('mp4'), { filename: 'premiere.mp4' });
    const media = await t.app.inject({
      method: 'POST',
      url: '/v1/media',
      headers: { ...auth(key), ...headers },
      payload,
    });
    expect(media.statusCode, media.body).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(key),
      payload: {
        account_ids: [account.id],
        text: 'Out at its time',
        media_ids: [media.json().id],
        platforms: { youtube: options.youtube },
        scheduled_at: new Date(now().getTime() + 2 * 3_600_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const targetId = res.json().targets[0].id as string;
    await uploadedAhead(targetId);
    const videoId = (await activity('youtube', channel)).find((a) => a.action === 'publish')?.target_id as string;
    expect(await listedVideo(account, videoId)).toMatchObject({ status: { privacyStatus: 'private' } });

    await t.stopWorkers();
    try {
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/v1/profiles/${profileId}`,
        headers: auth(owner.key),
      });
      expect(deleted.statusCode, deleted.body).toBe(202);
      expect(await completeProfileDeletion({ ...t.deletionContext(), platforms: sandbox.platforms }, profileId)).toBe(
        'deleted',
      );
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    const deletes = (await activity('youtube', channel)).filter((a) => a.action === 'delete');
    expect(deletes.map((a) => a.target_id)).toEqual([videoId]);
  });

  it("a cancelled video's removal refused for an ended token that cannot be refreshed marks the account expired and waits for it, saying the video goes public otherwise", async () => {
    const { account, channel, created, targetId } = await scheduledVideo(2 * 3_600_000);
    const user = channel.split('.')[0] as string;
    await uploadedAhead(targetId);
    await t.stopWorkers();
    try {
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/posts/${created.id}`, headers: auth(owner.key) });
      expect(res.statusCode, res.body).toBe(200);
      // Google ends the channel's tokens: the removal's call is refused 401, and so is the refresh.
      const ended = await sandbox.control('POST', '/tokens/expire', { platform: 'youtube', username: user });
      expect(ended.status).toBe(200);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    const [expired] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(expired?.status).toBe('expired');
    const target = (await getPost(created.id)).targets[0];
    expect(target.status).toBe('cancelled');
    expect(target.waiting_reason).toContain(
      `which is expired: reconnect it before ${created.scheduled_at}, or YouTube publishes the video then.`,
    );
    // Looked at again within ten minutes, not after the expired account's three days of grace.
    expect(await dueJob(targetId)).toBeLessThanOrEqual(10 * 60_000);
    expect((await activity('youtube', channel)).filter((a) => a.action === 'delete')).toHaveLength(0);
    // Never reconnected: once the post's time has passed, the removal is given up, not tried for ever.
    await moveTime(t.database.pool, Date.parse(created.scheduled_at) + 60_000 - now().getTime());
    const ended = await eventually(async () => {
      const row = await targetRow(targetId);
      return row.step === null ? row : undefined;
    });
    expect(ended).toMatchObject({ status: 'cancelled', waitingReason: null });
    expect(await dueJob(targetId)).toBeUndefined();
  });

  it('reads repeated at its time (a crash between YouTube and the record) publish it once', async () => {
    const { created, targetId } = await scheduledVideo(2 * 3_600_000);
    await uploadedAhead(targetId);
    await t.stopWorkers();
    try {
      await moveTime(t.database.pool, 3_600_000 + 1000);
      await Promise.all([
        publishTarget(publishDeps(sandbox.platforms), targetId),
        publishTarget(publishDeps(sandbox.platforms), targetId),
      ]);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
    expect((await targetRow(targetId)).status).toBe('published');
    await eventsOf(created.id);
    const events = receiver.received.filter((r) => JSON.parse(r.body.toString('utf8')).data.post_id === created.id);
    expect(events.map((r) => JSON.parse(r.body.toString('utf8')).type)).toEqual(['post.published']);
  });
});

describe('waiting on a platform, as long and as often as it allows', () => {
  it('threads: reads a container that never finishes once a minute, then fails the target with processing_timeout once 5 minutes have passed, with post.failed; a retry makes a new container', async () => {
    const account = await connected('threads');
    await setting('container_processing_seconds', 'never');
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Never processed' });
      const targetId = created.targets[0].id;
      const made = await eventually(async () => {
        const row = await targetRow(targetId);
        return row.containerId !== null ? row : undefined;
      });
      const madeAt = (made.processingSince ?? new Date(0)).getTime();
      let row = made;
      for (let step = 0; step < 20 && row.status === 'publishing'; step += 1) {
        row = await nextStep(targetId);
        if (step === 1) {
          // A worker's restart changes nothing: the bound counts from the container's creation, as recorded.
          await t.stopWorkers();
          await t.startWorker({ platforms: sandbox.platforms });
        }
      }
      expect(row.status).toBe('failed');
      expect(row.error).toEqual({
        code: 'processing_timeout',
        message:
          'Threads was still processing the post 5 minutes after its container was made, the longest Threads asks to be polled for; retry to make a new one.',
        platform_code: null,
      });
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({
        type: 'post.failed',
        data: {
          post_id: created.id,
          target_id: targetId,
          account_id: account.id,
          platform: 'threads',
          error_code: 'processing_timeout',
          error_message: row.error?.message,
        },
      });

      // Threads' Troubleshooting page: "querying a container's status once per minute, for no more than 5 minutes".
      const reads = await statusReads('threads', account.username, 'status,error_message');
      expect(reads.length).toBeGreaterThan(1);
      expect(reads.length).toBeLessThanOrEqual(6);
      for (let i = 1; i < reads.length; i += 1) {
        expect((reads[i] as number) - (reads[i - 1] as number)).toBeGreaterThanOrEqual(60_000);
      }
      // It failed at a read made once the 5 minutes had passed, not before.
      expect((reads.at(-1) as number) - madeAt).toBeGreaterThanOrEqual(300_000);

      // The container is given up: a retry makes a new one, which Threads processes this time.
      await retryPost(created.id);
      const remade = await eventually(async () => {
        const again = await targetRow(targetId);
        return again.containerId !== null && again.containerId !== made.containerId ? again : undefined;
      });
      expect(remade).toMatchObject({ status: 'publishing', step: 'processing' });
      await setting('container_processing_seconds', 1);
      await nextStep(targetId);
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 2 });
      expect((await activity('threads', account.username)).filter((a) => a.action === 'publish')).toHaveLength(1);
    } finally {
      await setting('container_processing_seconds', 1);
    }
  });

  it('instagram: publishes a container that finishes within the 5 minutes, having read it once a minute', async () => {
    const account = await connected('instagram');
    const media = await upload(await image('jpeg'), 'slow.jpg');
    await setting('container_processing_seconds', 150);
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Slow but fine', media_ids: [media] });
      const targetId = created.targets[0].id;
      await eventually(async () => ((await targetRow(targetId)).containerId !== null ? true : undefined));
      let row = await targetRow(targetId);
      for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(targetId);
      expect(row.status).toBe('published');
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({ type: 'post.published', data: { target_id: targetId, platform: 'instagram' } });
      // Instagram's Content Publishing page: "once per minute, for no more than 5 minutes".
      const reads = await statusReads('instagram', account.username, 'status_code,status');
      expect(reads.length).toBeGreaterThan(1);
      for (let i = 1; i < reads.length; i += 1) {
        expect((reads[i] as number) - (reads[i - 1] as number)).toBeGreaterThanOrEqual(60_000);
      }
    } finally {
      await setting('container_processing_seconds', 1);
    }
  });

  it('tiktok: a video TikTok is still processing after 2 hours fails with processing_timeout, saying TikTok may still publish it', async () => {
    const account = await connected('tiktok');
    await setting('container_processing_seconds', 'never');
    try {
      const video = await upload(await videoFile('mp4'), 'stuck.mp4');
      const created = await createPost({
        account_ids: [account.id],
        media_ids: [video],
        platforms: { tiktok: { privacy_level: 'SELF_ONLY' } },
      });
      const targetId = created.targets[0].id;
      const processing = await eventually(async () => {
        const row = await targetRow(targetId);
        return row.polls > 0 ? row : undefined;
      });
      expect(processing.waitingReason).toContain('PROCESSING_DOWNLOAD');
      const since = processing.processingSince ?? new Date(0);
      // Short of 2 hours it still waits; past them, the next read ends the try.
      await moveTime(t.database.pool, since.getTime() + 2 * 3_600_000 - 120_000 - now().getTime());
      expect(await nextStep(targetId)).toMatchObject({ status: 'publishing', step: 'processing' });
      await moveTime(t.database.pool, 120_000);
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({
        status: 'failed',
        error: {
          code: 'processing_timeout',
          message:
            'TikTok was still processing the post 2 hours after it was sent, the longest the service waits; TikTok may still publish it by itself: check the account before retrying (a retry asks TikTok about the same post first).',
          platform_code: null,
        },
      });
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({
        type: 'post.failed',
        data: { target_id: targetId, error_code: 'processing_timeout' },
      });
    } finally {
      await setting('container_processing_seconds', 1);
    }
  });

  it('tiktok: a public post whose public id never comes is published without a permalink after 6 hours, not polled for ever', async () => {
    const account = await connected('tiktok');
    await setting('tiktok_moderation_seconds', 'never');
    try {
      const video = await upload(await videoFile('mp4'), 'unmoderated.mp4');
      const created = await createPost({
        account_ids: [account.id],
        text: 'Moderated for ever',
        media_ids: [video],
        platforms: { tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' } },
      });
      const targetId = created.targets[0].id;
      const moderating = await eventually(async () => {
        const x = (await getPost(created.id)).targets[0];
        return x.waiting_reason?.includes('moderation') ? x : undefined;
      });
      expect(moderating.status).toBe('publishing');
      const since = (await targetRow(targetId)).processingSince ?? new Date(0);

      // Short of the 6 hours, it still waits for the public id.
      await moveTime(t.database.pool, since.getTime() + 6 * 3_600_000 - 120_000 - now().getTime());
      const waiting = await nextStep(targetId);
      expect(waiting).toMatchObject({ status: 'publishing', platformPostId: null });
      expect(waiting.waitingReason).toContain('moderation');

      await moveTime(t.database.pool, 120_000);
      const post = await finished(created.id);
      const [target] = post.targets;
      expect(target).toMatchObject({ status: 'published', permalink: null, error: null });
      // Known by its publish_id, as a post that is not public is.
      expect(target.platform_post_id).toMatch(/^v_pub_url~v2\.\d+$/);
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({
        type: 'post.published',
        data: { target_id: targetId, platform: 'tiktok', permalink: null, published_at: target.published_at },
      });
    } finally {
      await setting('tiktok_moderation_seconds', 30);
    }
  });
});

describe('carousels wait for their items', () => {
  it.each(['instagram', 'threads'] as const)(
    "%s: makes the carousel's container only once its items, processing for 10 s, are finished, then publishes it",
    async (platform) => {
      const account = await connected(platform);
      const media = [await upload(await image('jpeg'), 'c1.jpg'), await upload(await image('jpeg'), 'c2.jpg')];
      await t.stopWorkers();
      await setting('container_processing_seconds', 10);
      try {
        const created = await createPost({ account_ids: [account.id], text: 'Slow items', media_ids: media });
        const targetId = created.targets[0].id;
        await publishTarget(publishDeps(sandbox.platforms), targetId); // quota, the items' containers
        const made = await targetRow(targetId);
        expect(made).toMatchObject({ status: 'publishing', step: 'items', containerId: null });
        expect(made.itemContainerIds).toHaveLength(2);

        // 4 s on: the items are still processing, and no carousel is asked for.
        await moveTime(t.database.pool, 4_000);
        await publishTarget(publishDeps(sandbox.platforms), targetId);
        const waiting = await targetRow(targetId);
        expect(waiting).toMatchObject({ step: 'items', containerId: null });
        expect(waiting.waitingReason).toContain('item 1 of 2');

        // 11 s on: both finished; the carousel's container is made, naming them.
        await moveTime(t.database.pool, 7_000);
        await publishTarget(publishDeps(sandbox.platforms), targetId);
        const carousel = await targetRow(targetId);
        expect(carousel).toMatchObject({ step: 'processing', containerId: expect.any(String), itemContainerIds: null });

        // The carousel's own container is processed in turn, then published.
        await moveTime(t.database.pool, 11_000);
        await publishTarget(publishDeps(sandbox.platforms), targetId);
        const post = await getPost(created.id);
        expect(post.targets[0].status).toBe('published');
        const published = (await activity(platform, account.username)).filter((a) => a.action === 'publish');
        expect(published).toHaveLength(1);
        expect(published[0]?.detail).toMatchObject({ type: 'CAROUSEL', children: made.itemContainerIds?.join(',') });
        expect(published[0]?.detail.media_urls).toHaveLength(2);
      } finally {
        await setting('container_processing_seconds', 1);
        await t.startWorker({ platforms: sandbox.platforms });
      }
    },
  );

  it('threads: items still processing once 5 minutes have passed fail the target with processing_timeout, naming the item, read once a minute, and no carousel is made', async () => {
    const account = await connected('threads');
    const media = [await upload(await image('jpeg'), 'h1.jpg'), await upload(await image('jpeg'), 'h2.jpg')];
    await setting('container_processing_seconds', 'never');
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Items that hang', media_ids: media });
      const targetId = created.targets[0].id;
      let row = await eventually(async () => {
        const made = await targetRow(targetId);
        return made.itemContainerIds !== null ? made : undefined;
      });
      const madeAt = (row.processingSince ?? new Date(0)).getTime();
      for (let step = 0; step < 20 && row.status === 'publishing'; step += 1) row = await nextStep(targetId);
      expect(row).toMatchObject({ status: 'failed', containerId: null });
      expect(row.error).toEqual({
        code: 'processing_timeout',
        message:
          'Threads was still processing item 1 of 2 of the carousel 5 minutes after its container was made, the longest Threads asks to be polled for; retry to make a new one.',
        platform_code: null,
      });
      // Each read of the items reads the first one still processing: its reads a minute apart, the
      // last once the 5 minutes had passed.
      const reads = await statusReads('threads', account.username, 'status,error_message');
      for (let i = 1; i < reads.length; i += 1) {
        expect((reads[i] as number) - (reads[i - 1] as number)).toBeGreaterThanOrEqual(60_000);
      }
      expect((reads.at(-1) as number) - madeAt).toBeGreaterThanOrEqual(300_000);
    } finally {
      await setting('container_processing_seconds', 1);
    }
  });

  it.each(['instagram', 'threads'] as const)(
    '%s: an item the platform cannot process fails the target, naming the item, and no carousel is made',
    async (platform) => {
      const account = await connected(platform);
      const media = [await upload(await image('jpeg'), 'ok.jpg'), await upload(await videoFile('mp4'), 'gone.mp4')];
      // The second item's video cannot be downloaded by the platform: its container ends ERROR.
      const unreachable = withPublishing((real, p) => {
        const createCarouselItems = real.createCarouselItems;
        if (createCarouselItems === undefined) throw new Error(`${p} makes no carousel items`);
        return {
          createCarouselItems: (credentials, request) =>
            createCarouselItems(credentials, {
              ...request,
              media: request.media.map((m) => (m.type === 'video' ? { ...m, url: 'http://127.0.0.1:9/gone.mp4' } : m)),
            }),
        };
      });
      await t.stopWorkers();
      try {
        const created = await createPost({ account_ids: [account.id], text: 'A broken item', media_ids: media });
        const targetId = created.targets[0].id;
        await publishTarget(publishDeps(unreachable), targetId);
        await moveTime(t.database.pool, 2_000);
        await publishTarget(publishDeps(sandbox.platforms), targetId);
        const post = await getPost(created.id);
        expect(post.targets[0]).toMatchObject({
          status: 'failed',
          error: { code: 'container_failed', message: expect.stringContaining('item 2 of 2 of the carousel') },
        });
        expect((await targetRow(targetId)).containerId).toBeNull();
        expect((await activity(platform, account.username)).filter((a) => a.action === 'publish')).toEqual([]);
      } finally {
        await t.startWorker({ platforms: sandbox.platforms });
      }
    },
  );
});

describe('never twice', () => {
  it("takes, on retry, the post a failed try's container became instead of publishing again", async () => {
    const account = await connected('instagram');
    const media = await upload(await image('jpeg'), 'recheck.jpg');
    await t.stopWorkers();
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Published after all', media_ids: [media] });
      const targetId = created.targets[0].id;
      await publishTarget(publishDeps(sandbox.platforms), targetId); // quota, container
      const [row] = await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
      if (!row?.containerId) throw new Error('no container was recorded');
      // The platform published it, but the answer never came back and the try failed.
      await moveTime(t.database.pool, 2000);
      const credentials = await credentialsFor(account.id);
      await sandbox.adapter('instagram').publishing.publishContainer(credentials, row.containerId);
      await t.database.db
        .update(postTargets)
        .set({ status: 'failed', step: null, error: { code: 'transient', message: 'timed out', platform_code: null } })
        .where(eq(postTargets.id, targetId));
      await retryPost(created.id);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 2 });
      const published = (await activity('instagram', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
      expect(post.targets[0].platform_post_id).toBe(published[0]?.target_id);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  /**
   * Runs a new post's target as far as a publish whose answer is lost (the process dies right
   * after the platform answered), with the workers stopped; the job has not run again yet.
   */
  async function publishAndLoseTheAnswer(payload: Record<string, unknown>) {
    const created = await createPost(payload);
    const targetId: string = created.targets[0].id;
    const crashing = withPublishing((real) => ({
      publishContainer: async (...args: Parameters<typeof real.publishContainer>) => {
        await real.publishContainer(...args);
        throw new Error('the worker died before committing');
      },
    }));
    await publishTarget(publishDeps(crashing), targetId); // quota, container
    await moveTime(t.database.pool, 2000);
    await expect(publishTarget(publishDeps(crashing), targetId)).rejects.toThrow('the worker died');
    const [row] = await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
    expect(row?.status).toBe('publishing');
    return { postId: created.id as string, targetId };
  }

  it('publishes exactly once when the run that published dies before recording it', async () => {
    const account = await connected('instagram');
    const media = await upload(await image('jpeg'), 'once.jpg');
    await t.stopWorkers();
    try {
      const { postId, targetId } = await publishAndLoseTheAnswer({
        account_ids: [account.id],
        text: 'Exactly once',
        media_ids: [media],
      });
      // The job runs again, as graphile-worker runs a job whose worker died, once the claim's lease has passed.
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(postId);
      expect(post.targets[0].status).toBe('published');
      const published = (await activity('instagram', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
      expect(post.targets[0].platform_post_id).toBe(published[0]?.target_id);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a Bluesky thread whose run dies after Bluesky wrote its posts, before recording it, is read back under its keys: published, each post once', async () => {
    const account = await connected('bluesky');
    await t.stopWorkers();
    try {
      const created = await createPost({
        account_ids: [account.id],
        text: 'One',
        platforms: { bluesky: { thread: [{ text: 'Two' }, { text: 'Three' }] } },
      });
      const targetId: string = created.targets[0].id;
      const crashing = withPublishing((real) => ({
        publishContainer: async (...args: Parameters<typeof real.publishContainer>) => {
          await real.publishContainer(...args);
          throw new Error('the worker died before committing');
        },
      }));
      await expect(publishTarget(publishDeps(crashing), targetId)).rejects.toThrow('the worker died');
      const written = () =>
        activity('bluesky', account.username).then((all) => all.filter((a) => a.action === 'publish'));
      expect((await written()).map((a) => (a.detail.record as { text: string }).text)).toEqual(['One', 'Two', 'Three']);
      // The job runs again, as graphile-worker runs a job whose worker died, once the claim's lease has passed.
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', error: null });
      const records = await written();
      expect(records.map((a) => (a.detail.record as { text: string }).text)).toEqual(['One', 'Two', 'Three']);
      expect(post.targets[0].platform_post_id).toBe(records[0]?.target_id);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('an Instagram story whose publishing run died ends outcome_unknown, on the platform once: no documented read finds a story', async () => {
    const account = await connected('instagram');
    const media = await upload(await image('jpeg'), 'story.jpg');
    await t.stopWorkers();
    try {
      const { postId, targetId } = await publishAndLoseTheAnswer({
        account_ids: [account.id],
        media_ids: [media],
        platforms: { instagram: { type: 'story' } },
      });
      const outcome = {
        status: 'failed',
        error: {
          code: 'outcome_unknown',
          message:
            "Instagram says the post was published, but Instagram documents no read of an account's stories for Instagram Login, so its id and link are unknown; check the account. A retry asks Instagram about the same container and does not publish it again.",
          platform_code: null,
        },
      };
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ ...outcome, platform_post_id: null, permalink: null });
      // A retry asks the container, finds it published, and sends nothing again.
      await retryPost(postId);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      expect((await getPost(postId)).targets[0]).toMatchObject({ ...outcome, attempts: 2 });
      const published = (await activity('instagram', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('publishes once when two runs of one target find its container finished at the same time', async () => {
    await withFinishedContainer('Raced', async ({ account, created, targetId }) => {
      // A job unlocked while its worker still ran: two runs of the same step.
      await Promise.all([
        publishTarget(publishDeps(sandbox.platforms), targetId),
        publishTarget(publishDeps(sandbox.platforms), targetId),
      ]);
      const post = await getPost(created.id);
      expect(post.targets[0].status, JSON.stringify(post.targets[0])).toBe('published');
      const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
      // Both runs have ended, and an event is written in the transaction that publishes.
      expect(await storedEventTypes(created.id)).toEqual(['post.published']);
    });
  });

  it('leaves a publish another run claimed to that run for two minutes, then asks the container and publishes it once', async () => {
    await withFinishedContainer('Claimed', async ({ account, created, targetId }) => {
      // A run found the container finished and claimed its publish; it is still making the call
      // when a second run of the target starts (a job queued again while the first one ran).
      const claim = { set: { claimedAt: now() } };
      expect(await transition(t.database.db, targetStates, targetId, 'claim', claim)).not.toBeNull();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const published = async () => (await activity('threads', account.username)).filter((a) => a.action === 'publish');
      expect(await published()).toHaveLength(0);
      expect(await targetRow(targetId)).toMatchObject({ status: 'publishing', step: 'publish' });
      // It looks again when the claim is two minutes old, not before.
      const wait = await dueJob(targetId);
      expect(wait).toBeGreaterThan(110_000);
      expect(wait).toBeLessThanOrEqual(120_000);
      await claimLeasePasses();
      // The run that claimed it never ended (its process died): the container is asked, and published.
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0].status, JSON.stringify(post.targets[0])).toBe('published');
      expect(await published()).toHaveLength(1);
      expect(post.targets[0].platform_post_id).toBe((await published())[0]?.target_id);
    });
  });

  it('a run that finds the container published by a run not yet recording it leaves the outcome to that run (a story, which no read finds)', async () => {
    const account = await connected('instagram');
    const media = await upload(await image('jpeg'), 'story-race.jpg');
    await t.stopWorkers();
    try {
      const created = await createPost({
        account_ids: [account.id],
        media_ids: [media],
        platforms: { instagram: { type: 'story' } },
      });
      const targetId = created.targets[0].id;
      await publishTarget(publishDeps(sandbox.platforms), targetId); // quota, container
      await moveTime(t.database.pool, 6000);
      // The second run has read the target (processing) and asks the container only once the
      // first run has claimed and published it; the first records it after the second has ended.
      let reading!: () => void;
      const secondReads = new Promise<void>((resolve) => {
        reading = resolve;
      });
      let published!: () => void;
      const firstPublished = new Promise<void>((resolve) => {
        published = resolve;
      });
      const second = publishTarget(
        publishDeps(
          withPublishing((real) => ({
            containerStatus: async (...args: Parameters<typeof real.containerStatus>) => {
              reading();
              await firstPublished;
              return await real.containerStatus(...args);
            },
          })),
        ),
        targetId,
      );
      await secondReads;
      await publishTarget(
        publishDeps(
          withPublishing((real) => ({
            publishContainer: async (...args: Parameters<typeof real.publishContainer>) => {
              const made = await real.publishContainer(...args);
              published();
              await second;
              return made;
            },
          })),
        ),
        targetId,
      );
      const post = await getPost(created.id);
      expect(post.targets[0], JSON.stringify(post.targets[0])).toMatchObject({ status: 'published', error: null });
      const publishes = (await activity('instagram', account.username)).filter((a) => a.action === 'publish');
      expect(publishes).toHaveLength(1);
      expect(post.targets[0].platform_post_id).toBe(publishes[0]?.target_id);
      expect(await storedEventTypes(created.id)).toEqual(['post.published']);
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it('a publish whose answer never came keeps its claim: its retry sends nothing while Threads may still be making the post, then takes the post made', async () => {
    await withFinishedContainer('Unanswered', async ({ account, created, targetId }) => {
      // Threads publishes, and its answer is lost: the call ends as a timeout does.
      const timingOut = withPublishing((real) => ({
        publishContainer: async (...args: Parameters<typeof real.publishContainer>) => {
          await real.publishContainer(...args);
          throw new PlatformError('transient', 'threads could not be reached: no answer within 15000 ms', {
            platform: 'threads',
          });
        },
      }));
      await publishTarget(publishDeps(timingOut), targetId);
      expect(await targetRow(targetId)).toMatchObject({ status: 'publishing', step: 'publish' });
      // The passing failure's retry (30 s on, less a fifth at most) finds the claim held, and
      // waits for its lease, though Threads, still making the post, shows the container finished.
      const retry = await dueJob(targetId);
      expect(retry).toBeGreaterThan(20_000);
      expect(retry).toBeLessThanOrEqual(30_000);
      await moveTime(t.database.pool, (retry ?? 0) + 10);
      const stillMaking = withPublishing(() => ({ containerStatus: async () => ({ state: 'finished' as const }) }));
      await publishTarget(publishDeps(stillMaking), targetId);
      // Its lease runs from the end of the call that went unanswered.
      expect(await dueJob(targetId)).toBeLessThanOrEqual(120_000 - (retry ?? 0));
      expect(await dueJob(targetId)).toBeGreaterThan(120_000 - (retry ?? 0) - 10_000);
      expect(await targetRow(targetId)).toMatchObject({ status: 'publishing', step: 'publish' });
      const publishes = async () =>
        (await sandbox.calls('threads', account.username)).data.filter(
          (c) => c.method === 'POST' && c.path.endsWith('/threads_publish'),
        );
      expect(await publishes()).toHaveLength(1);
      await claimLeasePasses();
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0], JSON.stringify(post.targets[0])).toMatchObject({ status: 'published', error: null });
      expect(await publishes()).toHaveLength(1);
      const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
      expect(post.targets[0].platform_post_id).toBe(published[0]?.target_id);
    });
  });

  it("a publish whose answer never came once the try's retry window leaves no retry fails with outcome_unknown, not sent again; a retry takes the post made", async () => {
    await withFinishedContainer('Unanswered late', async ({ account, created, targetId }) => {
      // Threads publishes, and its answer is lost, when the try's hour of retries has passed.
      const timingOut = withPublishing((real) => ({
        publishContainer: async (...args: Parameters<typeof real.publishContainer>) => {
          await real.publishContainer(...args);
          await moveTime(t.database.pool, 3_600_000 + 1000);
          throw new PlatformError('transient', 'threads could not be reached: no answer within 15000 ms', {
            platform: 'threads',
          });
        },
      }));
      await publishTarget(publishDeps(timingOut), targetId);
      const failed = await getPost(created.id);
      expect(failed.targets[0]).toMatchObject({ status: 'failed', error: { code: 'outcome_unknown' } });
      expect(failed.targets[0].error.message).toContain('no answer within 15000 ms');
      expect(await targetRow(targetId)).toMatchObject({ claimedAt: null });
      await retryPost(created.id);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0], JSON.stringify(post.targets[0])).toMatchObject({ status: 'published', error: null });
      const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
      expect(post.targets[0].platform_post_id).toBe(published[0]?.target_id);
    });
  });

  it("a publish the adapter refuses without an answer from the platform ends with the adapter's refusal, not in doubt", async () => {
    await withFinishedContainer('Refused here', async ({ created, targetId }) => {
      // An adapter's own refusal carries no HTTP status: it may keep the claim, but it is no doubt.
      const refusing = withPublishing(() => ({
        publishContainer: async () => {
          throw new PlatformError('invalid_request', "the thread's posts are not those its first post was made for", {
            platform: 'threads',
          });
        },
      }));
      await publishTarget(publishDeps(refusing), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0]).toMatchObject({
        status: 'failed',
        error: { code: 'invalid_request', message: "the thread's posts are not those its first post was made for" },
      });
      expect(await targetRow(targetId)).toMatchObject({ claimedAt: null });
    });
  });

  it('a publish that fails after its claim passed to another run leaves the target to that run, even once the retry window has ended', async () => {
    await withFinishedContainer('Outlived', async ({ account, created, targetId }) => {
      // The run stalls past its claim's lease and the try's retry window; meanwhile another run
      // takes the claim for a dead one's and asks the container. Then the stalled call ends
      // unanswered, having made nothing.
      const stalled = withPublishing(() => ({
        publishContainer: async () => {
          await moveTime(t.database.pool, 3_600_000 + 1000);
          const resumed = await transition(t.database.db, targetStates, targetId, 'resume', {
            set: { claimedAt: null },
          });
          expect(resumed).not.toBeNull();
          throw new PlatformError('transient', 'threads could not be reached: no answer within 15000 ms', {
            platform: 'threads',
          });
        },
      }));
      await publishTarget(publishDeps(stalled), targetId);
      expect(await targetRow(targetId)).toMatchObject({ status: 'publishing', step: 'processing', error: null });
      // The run that took it publishes the container.
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0], JSON.stringify(post.targets[0])).toMatchObject({ status: 'published', error: null });
      const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
      expect(await storedEventTypes(created.id)).toEqual(['post.published']);
    });
  });

  it("a passing failure of a run beside a publish's claim leaves the claimed row to its holder: no failure counted, looked at again when the lease ends", async () => {
    await withFinishedContainer('Beside a claim', async ({ targetId }) => {
      // This run read the target processing; while it asks the container, another run claims the
      // publish, and Threads answers this run's read with a server error.
      const claimedAt = now();
      const failing = withPublishing(() => ({
        containerStatus: async () => {
          const claim = { set: { claimedAt } };
          expect(await transition(t.database.db, targetStates, targetId, 'claim', claim)).not.toBeNull();
          throw new PlatformError('transient', 'threads answered 500: an unexpected error has occurred', {
            platform: 'threads',
            status: 500,
          });
        },
      }));
      await publishTarget(publishDeps(failing), targetId);
      expect(await targetRow(targetId)).toMatchObject({
        status: 'publishing',
        step: 'publish',
        failures: 0,
        claimedAt,
      });
      const wait = await dueJob(targetId);
      expect(wait).toBeGreaterThan(110_000);
      expect(wait).toBeLessThanOrEqual(120_000);
    });
  });

  it('a publish Threads refused for its rate limit gives its claim back: the retry asks the container at once and publishes', async () => {
    await withFinishedContainer('Refused once', async ({ account, created, targetId }) => {
      // Graph's rate limit, its wait (a minute) in the Business Use Case header.
      const fault = { platform: 'threads', username: account.username, error: 'rate_limited', trigger: 'publish' };
      expect((await sandbox.control('POST', '/faults', fault)).status).toBe(201);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      // Threads refused it (400, code 4): nothing was made, and the target is back to its container, unclaimed.
      expect(await targetRow(targetId)).toMatchObject({ status: 'publishing', step: 'processing', claimedAt: null });
      // Asked again when the rate limit allows (a minute), not when a claim's two minutes end.
      const wait = await dueJob(targetId);
      expect(wait).toBeGreaterThan(55_000);
      expect(wait).toBeLessThan(90_000);
      await moveTime(t.database.pool, (wait ?? 0) + 10);
      await publishTarget(publishDeps(sandbox.platforms), targetId);
      const post = await getPost(created.id);
      expect(post.targets[0], JSON.stringify(post.targets[0])).toMatchObject({ status: 'published', error: null });
      const published = (await activity('threads', account.username)).filter((a) => a.action === 'publish');
      expect(published).toHaveLength(1);
    });
  });

  it('refuses a move the workflow does not allow, and makes none from a state the target is not in', async () => {
    const account = await connected('threads');
    const created = await createPost({ account_ids: [account.id], text: 'Moves' });
    const targetId = created.targets[0].id;
    expect((await finished(created.id)).targets[0].status).toBe('published');
    const before = await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
    // retry is a move from failed only, and claiming one from processing only.
    await expect(transition(t.database.db, targetStates, targetId, 'retry', { from: ['published'] })).rejects.toThrow(
      IllegalTransitionError,
    );
    expect(await transition(t.database.db, targetStates, targetId, 'retry')).toBeNull();
    expect(await transition(t.database.db, targetStates, targetId, 'claim')).toBeNull();
    expect(await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId))).toEqual(before);
  });
});

describe('Google Business Profile locations', () => {
  it("publishes an update with its photo and button as a local post, follows Google's review until LIVE, and sends post.published with its searchUrl", async () => {
    const account = await connected('google_business');
    const location = `${account.username}.location1`;
    const photo = await upload(await image('jpeg'), 'bread.jpg');
    const created = await createPost({
      account_ids: [account.id],
      text: 'Fresh bread every morning',
      media_ids: [photo],
      platforms: { google_business: { call_to_action: { type: 'ORDER', url: 'https://bakery.example/order' } } },
    });
    const targetId = created.targets[0].id;
    // The create is the publication: the local post is made once, PROCESSING, and read until LIVE.
    let row = await eventually(async () => {
      const made = await targetRow(targetId);
      return made.containerId !== null ? made : undefined;
    });
    expect(row.containerId).toMatch(new RegExp(`^${account.platformUserId}/localPosts/\\d+$`));
    for (let step = 0; step < 10 && row.status === 'publishing'; step += 1) row = await nextStep(targetId);
    expect(row.status).toBe('published');
    const published = (await activity('google_business', location)).filter((a) => a.action === 'publish');
    expect(published).toHaveLength(1);
    expect(published[0]?.detail).toMatchObject({
      text: 'Fresh bread every morning',
      type: 'STANDARD',
      options: { callToAction: { actionType: 'ORDER', url: 'https://bakery.example/order' } },
    });
    expect(published[0]?.detail.media_urls).toHaveLength(1);
    const post = await getPost(created.id);
    expect(post.targets[0]).toMatchObject({
      status: 'published',
      platform_post_id: row.containerId,
      permalink: published[0]?.detail.permalink,
    });
    const [event] = await eventsOf(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { platform: 'google_business', permalink: post.targets[0].permalink },
    });
  });

  it("a run that dies after Google made the local post, before recording it, finds it among the location's posts and records it: published, the post made once", async () => {
    const account = await connected('google_business');
    const location = `${account.username}.location1`;
    await t.stopWorkers();
    try {
      const created = await createPost({ account_ids: [account.id], text: 'Open late on Fridays' });
      const targetId: string = created.targets[0].id;
      void publishTarget(publishDeps(dyingInCreation('after the platform made it')), targetId);
      await eventually(async () =>
        (await activity('google_business', location)).some((a) => a.action === 'publish') ? true : undefined,
      );
      expect((await targetRow(targetId)).step).toBe('creating');
      // The job runs again, as graphile-worker runs a job whose worker died; then Google's review is read.
      const row = await uploadedAfter(sandbox.platforms, targetId, now());
      expect(row.status).toBe('published');
      const published = (await activity('google_business', location)).filter((a) => a.action === 'publish');
      expect(published.map((a) => a.detail.text)).toEqual(['Open late on Fridays']);
      expect((await getPost(created.id)).targets[0]).toMatchObject({
        status: 'published',
        error: null,
        platform_post_id: row.containerId,
        permalink: published[0]?.detail.permalink,
      });
    } finally {
      await t.startWorker({ platforms: sandbox.platforms });
    }
  });

  it("a local post Google rejects fails with container_failed and Google's reason, in post.failed", async () => {
    const account = await connected('google_business');
    await setting('google_business_post_review', 'rejected');
    try {
      const created = await createPost({
        account_ids: [account.id],
        text: 'Two for one',
        platforms: {
          google_business: {
            type: 'offer',
            event: { title: 'Winter offer', start: '2026-12-01', end: '2026-12-31' },
            offer: { coupon_code: 'WINTER2' },
          },
        },
      });
      const post = await finished(created.id);
      expect(post.targets[0]).toMatchObject({
        status: 'failed',
        error: {
          code: 'container_failed',
          message: expect.stringContaining('Google rejected the local post (REJECTED: content policy violation)'),
        },
      });
      const [event] = await eventsOf(created.id);
      expect(event).toMatchObject({
        type: 'post.failed',
        data: { platform: 'google_business', error_code: 'container_failed' },
      });
      const published = (await activity('google_business', `${account.username}.location1`)).filter(
        (a) => a.action === 'publish',
      );
      expect(published.map((a) => a.detail.type)).toEqual(['OFFER']);
    } finally {
      await setting('google_business_post_review', 'live');
    }
  });

  it('refuses before storing an event without its schedule, and a button without its link, each at its field', async () => {
    const account = await connected('google_business');
    const res = await postAnswer({
      account_ids: [account.id],
      text: 'Tasting night',
      platforms: { google_business: { type: 'event', call_to_action: { type: 'BOOK' } } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.details.map((p: { field: string }) => p.field)).toEqual([
      'platforms.google_business.event',
      'platforms.google_business.call_to_action.url',
    ]);
  });
});
