import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { lockPost } from '../../src/modules/posts/post-status.ts';
import { loadStarting } from '../../src/modules/posts/publishing/start.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { posts, postTargets } from '../helpers/tables.ts';

/**
 * The read a target's job run starts with (loadStarting), which starts a first try due now in
 * the same statement, and reads any other target without acting on it or locking its post.
 */

let t: TestApp;
let owner: TestOwner;
let accountId: string;
const RETRY_WINDOW_MS = 600_000;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  owner = await t.createOwner();
  const { account } = await t.database.db.transaction((tx) =>
    saveConnectedAccount(tx, t.secretKey, {
      ownerId: owner.ownerId,
      profileId: owner.defaultProfileId,
      platform: 'threads',
      tokens: {
        accessToken: 'token-start',
        expiresAt: null,
        platformUserId: 'start-1',
        scopes: ['threads_basic', 'threads_content_publish'],
      },
      profile: { id: 'start-1', username: 'starting', name: null, avatarUrl: null, followersCount: null },
    }),
  );
  accountId = account.id;
});
afterAll(() => t.close());

/** A post of one target on the Threads account, scheduled an hour on (no worker runs here); its post's and target's ids. */
async function scheduledPost(): Promise<{ postId: string; targetId: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(owner.key),
    payload: { account_ids: [accountId], text: 'Now', scheduled_at: new Date(Date.now() + 3_600_000).toISOString() },
  });
  expect(res.statusCode, res.body).toBe(201);
  const postId: string = res.json().id;
  const [target] = await t.database.db.select().from(postTargets).where(eq(postTargets.postId, postId));
  if (target === undefined) throw new Error('the post has no target');
  return { postId, targetId: target.id };
}

/** The post's time moved to a minute ago: due. */
async function due(postId: string): Promise<void> {
  await t.database.db
    .update(posts)
    .set({ scheduledAt: new Date(Date.now() - 60_000) })
    .where(eq(posts.id, postId));
}

async function stored(postId: string, targetId: string) {
  const [post] = await t.database.db.select().from(posts).where(eq(posts.id, postId));
  const [target] = await t.database.db.select().from(postTargets).where(eq(postTargets.id, targetId));
  if (post === undefined || target === undefined) throw new Error('gone');
  return { post, target };
}

const deps = () => ({ db: t.database.db, publishRetryWindowMs: RETRY_WINDOW_MS });

describe('a target job run read', () => {
  it('starts a first try due now: the target publishing at its quota step, tried once, its post publishing; answered with the post and the account', async () => {
    const { postId, targetId } = await scheduledPost();
    await due(postId);
    const before = Date.now();
    const read = await loadStarting(deps(), targetId);
    expect(read?.started).toBe(true);
    const { post, target } = await stored(postId, targetId);
    expect({ status: target.status, step: target.step, attempts: target.attempts, polls: target.polls }).toEqual({
      status: 'publishing',
      step: 'quota',
      attempts: 1,
      polls: 0,
    });
    expect(target.retryUntil?.getTime()).toBeGreaterThanOrEqual(before + RETRY_WINDOW_MS);
    expect(post.status).toBe('publishing');
    // Answered as started, with the post as read (its time) and the target's account.
    expect(read?.target).toEqual(target);
    expect(read?.post.id).toBe(postId);
    expect(read?.post.scheduledAt).toEqual(post.scheduledAt);
    expect(read?.account?.id).toBe(accountId);
    // Its next read finds it started, and starts nothing again.
    const again = await loadStarting(deps(), targetId);
    expect(again?.started).toBe(false);
    expect(again?.target).toEqual(target);
  });

  it('starts nothing not due yet: the target and its post stay scheduled, answered as read', async () => {
    const { postId, targetId } = await scheduledPost();
    const read = await loadStarting(deps(), targetId);
    expect(read?.started).toBe(false);
    const { post, target } = await stored(postId, targetId);
    expect([target.status, target.attempts, post.status]).toEqual(['scheduled', 0, 'scheduled']);
    expect(read?.target).toEqual(target);
    expect(read?.post).toEqual(post);
  });

  it('leaves to its caller, as read, a due target tried before, one with an earlier try’s container, and one published ahead (YouTube)', async () => {
    const cases = [
      { attempts: 1, containerId: null },
      { attempts: 0, containerId: 'container-of-before' },
      { attempts: 0, containerId: null, platform: 'youtube' as const },
    ];
    for (const change of cases) {
      const { postId, targetId } = await scheduledPost();
      await t.database.db.update(postTargets).set(change).where(eq(postTargets.id, targetId));
      await due(postId);
      const read = await loadStarting(deps(), targetId);
      expect(read?.started, JSON.stringify(change)).toBe(false);
      const { post, target } = await stored(postId, targetId);
      expect([target.status, target.attempts, post.status], JSON.stringify(change)).toEqual([
        'scheduled',
        change.attempts,
        'scheduled',
      ]);
      expect(read?.target).toEqual(target);
    }
  });

  it('reads a target already started without waiting for its post’s lock, which an edit may hold', async () => {
    const { postId, targetId } = await scheduledPost();
    await due(postId);
    expect((await loadStarting(deps(), targetId))?.started).toBe(true);
    // Another transaction holds the post's lock while the target's next run reads it: the read
    // must not wait for it (were it to, this test would time out).
    await t.database.db.transaction(async (tx) => {
      await lockPost(tx, postId);
      const read = await loadStarting(deps(), targetId);
      expect(read?.started).toBe(false);
      expect(read?.target.status).toBe('publishing');
    });
  });

  it('starts nothing when its post is moved later while the read waits for the post’s lock: left to its caller, as read', async () => {
    const { postId, targetId } = await scheduledPost();
    await due(postId);
    const later = new Date(Date.now() + 3_600_000);
    let reading: ReturnType<typeof loadStarting> | undefined;
    await t.database.db.transaction(async (tx) => {
      // An edit holds the post's lock and moves it an hour on; the run's read begins meanwhile,
      // and the edit commits once the read waits for the lock.
      await lockPost(tx, postId);
      await tx.update(posts).set({ scheduledAt: later }).where(eq(posts.id, postId));
      reading = loadStarting(deps(), targetId);
      await eventually(async () => {
        const { rows } = await t.database.pool.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
        );
        return (rows[0]?.n ?? 0) > 0 ? true : undefined;
      });
    });
    // The read then finds the post changed, and moves nothing.
    const read = await reading;
    expect(read?.started).toBe(false);
    const { post, target } = await stored(postId, targetId);
    expect([target.status, target.attempts, post.status]).toEqual(['scheduled', 0, 'scheduled']);
    expect(post.scheduledAt).toEqual(later);
    // The target as the statement's snapshot showed it, before the edit: its caller's own start is conditional.
    expect(read?.target).toEqual(target);
  });

  it('answers null for a target that is not there', async () => {
    expect(await loadStarting(deps(), 'target_00000000000000000000000000')).toBeNull();
  });
});
