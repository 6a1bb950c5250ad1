import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Db } from '../../src/db/connection.ts';
import type { StatementPart } from '../../src/db/prepared.ts';
import { transition } from '../../src/jobs/workflow.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import type { NewEvent } from '../../src/modules/events/index.ts';
import {
  lockPost,
  moveTargetIfPostAt,
  moveTargetOfPost,
  refreshPostStatus,
} from '../../src/modules/posts/post-status.ts';
import { loadTarget } from '../../src/modules/posts/publishing/run.ts';
import type { PostTarget } from '../../src/modules/posts/tables.ts';
import { targetStates } from '../../src/modules/posts/target-workflow.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { events, posts, postTargets, webhookDeliveries } from '../helpers/tables.ts';

/**
 * A target's move made in one statement with its post's lock, the post's status and the move's
 * event (moveTargetOfPost): what a transaction of lockPost, transition, refreshPostStatus and emit
 * does, exact when another transaction of the same post changes its targets meanwhile.
 */

let t: TestApp;
let owner: TestOwner;
let made = 0;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  owner = await t.createOwner();
  // Subscribed, so that an event recorded is also a delivery (no worker runs: none is attempted).
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: 'http://127.0.0.1:9/hook', events: ['post.failed', 'post.published'] },
  });
  expect(hook.statusCode, hook.body).toBe(201);
});
afterAll(() => t.close());

async function account(platform: Platform, scopes: string[]): Promise<string> {
  made += 1;
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId: owner.defaultProfileId,
      platform,
      tokens: { accessToken: `token-${made}`, expiresAt: null, platformUserId: `moves-${made}`, scopes },
      profile: { id: `moves-${made}`, username: `moves${made}`, name: null, avatarUrl: null, followersCount: null },
    }),
  );
  return account.id;
}

/** A post on these accounts whose targets are all publishing (their containers processing). */
async function postPublishing(accountIds: string[]): Promise<{ postId: string; targets: PostTarget[] }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(owner.key),
    payload: {
      account_ids: accountIds,
      text: 'In several places',
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const postId: string = res.json().id;
  await t.database.db
    .update(postTargets)
    .set({ status: 'publishing', step: 'processing', containerId: 'container' })
    .where(eq(postTargets.postId, postId));
  await t.database.db.update(posts).set({ status: 'publishing' }).where(eq(posts.id, postId));
  return { postId, targets: await t.database.db.select().from(postTargets).where(eq(postTargets.postId, postId)) };
}

/** A post on a Threads and a Facebook account, both its targets publishing. */
async function postPublishingTwice(): Promise<{ postId: string; a: string; b: string }> {
  const threads = await account('threads', ['threads_basic', 'threads_content_publish']);
  const facebook = await account('facebook', ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement']);
  const { postId, targets } = await postPublishing([threads, facebook]);
  const a = targets.find((r) => r.accountId === threads)?.id;
  const b = targets.find((r) => r.accountId === facebook)?.id;
  if (a === undefined || b === undefined) throw new Error('the post has not its two targets');
  return { postId, a, b };
}

function failedEvent(postId: string, targetId: string): NewEvent {
  return {
    ownerId: owner.ownerId,
    profileId: owner.defaultProfileId,
    type: 'post.failed',
    data: { post_id: postId, target_id: targetId, error_code: 'container_failed' },
  };
}

const failure = { code: 'container_failed', message: 'The container failed.', platform_code: null };

/** A post with two targets publishing, target A as read now, and the owner's deliveries so far. */
async function targetARead() {
  const { postId, a } = await postPublishingTwice();
  const before = (await stored(postId, a)).deliveries;
  const seen = await loadTarget(t.database.db, a);
  if (seen === null) throw new Error('target A is gone');
  return { postId, a, before, seen };
}

/** Nothing was done: the post still publishing, target A as it was, no event of it, no delivery. */
async function expectNothingDone(postId: string, a: string, deliveries: number, target: string): Promise<void> {
  expect(await stored(postId, a)).toEqual({ postStatus: 'publishing', target, events: 0, deliveries });
}

/** The move that fails a target (on condition `when`, if given), with its `post.failed`. */
function failing(postId: string, target: PostTarget, when?: StatementPart) {
  return {
    target,
    name: 'fail' as const,
    options: { set: { error: failure }, ...(when === undefined ? {} : { when }) },
    events: [failedEvent(postId, target.id)],
  };
}

/** The post's and the target's statuses, the target's `post.failed` events, and the owner's deliveries (of any event). */
async function stored(postId: string, targetId: string) {
  const [post] = await t.database.db.select().from(posts).where(eq(posts.id, postId));
  const [target] = await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
  const failed = await t.database.db
    .select({ data: events.data })
    .from(events)
    .where(and(eq(events.ownerId, owner.ownerId), eq(events.type, 'post.failed')));
  const deliveries = await t.database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.ownerId, owner.ownerId));
  return {
    postStatus: post?.status,
    target: target?.status,
    events: failed.filter((e) => (e.data as { target_id?: string }).target_id === targetId).length,
    deliveries: deliveries.length,
  };
}

describe("a target's move in one statement with its post's lock and status", () => {
  it("waits for another transaction of the post, and computes the post's status from the targets as that one left them", async () => {
    const { postId, a, b } = await postPublishingTwice();
    const before = (await stored(postId, a)).deliveries;
    let locked!: (pid: number) => void;
    const holding = new Promise<number>((resolve) => {
      locked = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Another run publishes target B under the post's lock, and holds it.
    const other = t.database.db.transaction(async (tx) => {
      await lockPost(tx, postId);
      await transition(tx, targetStates, b, 'publish', { set: { platformPostId: 'on-facebook' } });
      await refreshPostStatus(tx, postId);
      const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
      locked(rows[0]?.pid ?? 0);
      await released;
    });
    const holder = await holding;
    const target = (await loadTarget(t.database.db, a))?.target;
    if (target === undefined) throw new Error('target A is gone');
    const move = moveTargetOfPost(t.database.db, {
      target,
      name: 'fail',
      options: { set: { error: failure } },
      events: [failedEvent(postId, a)],
    });
    try {
      // The move's statement waits for the post's lock before B's publication is committed.
      await eventually(async () => {
        const { rows } = await t.database.pool.query(
          `select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid)) and query like '%post_lock%'`,
          [holder],
        );
        return rows.length > 0 ? true : undefined;
      });
    } finally {
      release();
      await other;
    }
    const moved = await move;
    expect(moved?.status).toBe('failed');
    // docs/posts.md: failed beside published is partially_published (B as committed, not as the
    // move's statement first read it, publishing, which would leave the post publishing).
    expect(await stored(postId, a)).toEqual({
      postStatus: 'partially_published',
      target: 'failed',
      events: 1,
      deliveries: before + 1,
    });
  });

  it("does nothing, and records no event, when the post's time changed since the time the move was decided on", async () => {
    const { postId, a, before, seen } = await targetARead();
    // The post moved after the read: the move must not rest on the read.
    const later = new Date(seen.post.scheduledAt.getTime() + 3_600_000);
    await t.database.db.update(posts).set({ scheduledAt: later }).where(eq(posts.id, postId));
    const move = failing(postId, seen.target);
    expect(await moveTargetIfPostAt(t.database.db, move, seen.post.scheduledAt)).toBeNull();
    await expectNothingDone(postId, a, before, 'publishing');

    const moved = await moveTargetIfPostAt(t.database.db, move, later);
    expect(moved).toMatchObject({ id: a, status: 'failed', error: failure });
    // Target B still publishing: the post is too (docs/posts.md).
    expect(await stored(postId, a)).toEqual({
      postStatus: 'publishing',
      target: 'failed',
      events: 1,
      deliveries: before + 1,
    });
  });

  it('does nothing, and records no event, when the target is not as read where its state alone does not say so', async () => {
    const { postId, a, before, seen } = await targetARead();
    // Started and retried since it was read: in the same state, with another count of tries.
    await t.database.db
      .update(postTargets)
      .set({ attempts: seen.target.attempts + 1 })
      .where(eq(postTargets.id, a));
    const move = failing(postId, seen.target, {
      shape: 'test: attempts as read',
      sql: eq(postTargets.attempts, sql.placeholder('test_attempts')),
      values: { test_attempts: seen.target.attempts },
    });
    expect(await moveTargetIfPostAt(t.database.db, move, seen.post.scheduledAt)).toBeNull();
    await expectNothingDone(postId, a, before, 'publishing');
  });

  it('does nothing, and records no event, for a target not in a state the move allows', async () => {
    const { postId, a, before } = await targetARead();
    await t.database.db.update(postTargets).set({ status: 'cancelled', step: null }).where(eq(postTargets.id, a));
    const seen = await loadTarget(t.database.db, a);
    if (seen === null) throw new Error('target A is gone');
    const moved = await moveTargetOfPost(t.database.db, failing(postId, seen.target));
    expect(moved).toBeNull();
    await expectNothingDone(postId, a, before, 'cancelled');
  });

  it('moves every target of a post whose targets are all moved at once, and the post ends as its targets do', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await account('threads', ['threads_basic', 'threads_content_publish']));
    const { postId, targets } = await postPublishing(ids);
    const moved = await Promise.all(
      targets.map((target) =>
        moveTargetOfPost(t.database.db, {
          target,
          name: 'fail',
          options: { set: { error: failure } },
          events: [failedEvent(postId, target.id)],
        }),
      ),
    );
    expect(moved.map((m) => m?.status)).toEqual(targets.map(() => 'failed'));
    const [post] = await t.database.db.select().from(posts).where(eq(posts.id, postId));
    // docs/posts.md: none published, some failed: failed.
    expect(post?.status).toBe('failed');
    for (const target of targets) expect((await stored(postId, target.id)).events).toBe(1);
  });

  it('is prepared once per connection, and planned for its values a few times only', async () => {
    // One connection of its own, so that its prepared statements are the ones these moves made.
    const pool = createPool(t.database.url, 1);
    try {
      const db = drizzle(pool) as Db;
      for (let i = 0; i < 8; i++) {
        const { postId, targets } = await postPublishing([
          await account('threads', ['threads_basic', 'threads_content_publish']),
        ]);
        const [target] = targets;
        if (target === undefined) throw new Error('the post has no target');
        const moved = await moveTargetOfPost(db, {
          target,
          name: 'fail',
          options: { set: { error: failure } },
          events: [failedEvent(postId, target.id)],
        });
        expect(moved?.status).toBe('failed');
      }
      const { rows } = await pool.query<{ custom_plans: string; generic_plans: string }>(
        `select custom_plans, generic_plans from pg_prepared_statements where statement like '%post_lock%'`,
      );
      // One statement for the eight moves. PostgreSQL plans a prepared statement for its values
      // five times, then keeps a generic plan when it costs no more: these moves' do.
      expect(rows.map((r) => Number(r.custom_plans) + Number(r.generic_plans))).toEqual([8]);
      expect(Number(rows[0]?.generic_plans)).toBeGreaterThan(0);
    } finally {
      await pool.end();
    }
  });
});
