import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleInsightRefreshes } from '../../src/modules/insights/index.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { readyContainersQuickly, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount } from '../helpers/sandbox-accounts.ts';

/**
 * What a worker does first when much is due at once (docs/architecture.md, "Jobs"): a post due
 * now goes before routine upkeep queued ahead of it, and bulk work (insights, comment polls)
 * runs on its own few slots, so a backlog of it never holds up a post.
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;

// A fresh app and sandbox each: each test starts its own worker on a queue nobody else fills.
beforeEach(async () => {
  sandbox = await startSandbox();
  await readyContainersQuickly(sandbox);
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    platforms: sandbox.platforms,
    listen: true,
  });
  owner = await t.createOwner();
});
afterEach(async () => {
  await t.close();
  await sandbox.close();
});

/** A Threads text post due now, through the API. */
async function postNow(account: SandboxAccount): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(owner.key),
    payload: { account_ids: [account.id], text: 'Due now, behind a backlog' },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

async function published(postId: string): Promise<{ targets: { attempts: number }[] }> {
  return await eventually(async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/posts/${postId}`, headers: auth(owner.key) });
    const body: { status: string; targets: { attempts: number }[] } = res.json();
    return body.status === 'published' ? body : undefined;
  }, 60);
}

/** When the sandbox saw the account's first container created (Threads: POST /{user-id}/threads) since `since`. */
async function containerCreatedAt(account: SandboxAccount, since: Date): Promise<number> {
  const { data } = await sandbox.calls('threads', account.sandboxUser, since);
  const call = data.find((c) => c.method === 'POST' && c.path.endsWith('/threads'));
  if (!call) throw new Error(`no container created for ${account.sandboxUser}`);
  return Date.parse(call.at);
}

async function insightCalls(platform: Platform, account: SandboxAccount, since: Date) {
  const { data } = await sandbox.calls(platform, account.sandboxUser, since);
  return data.filter((c) => c.path.includes('insights'));
}

describe('job priorities', () => {
  it('publishes a post due now before the subscriptions to comment notices queued ahead of it', async () => {
    const subscribers: SandboxAccount[] = [];
    // Each connection queues its account's subscription, a routine job, left here to the worker.
    for (let i = 0; i < 6; i++) {
      subscribers.push(
        await connectSandboxAccount(t, sandbox, owner, 'instagram', `prio_sub_${i}`, { subscribe: false }),
      );
    }
    const publisher = await connectSandboxAccount(t, sandbox, owner, 'threads', 'prio_publisher');
    const postId = await postNow(publisher);

    // One job at a time in the main pool, so the order it takes them in is the order of the calls.
    const started = new Date();
    await t.startWorker({ platforms: sandbox.platforms, concurrency: 1 });
    expect((await published(postId)).targets.map((target) => target.attempts)).toEqual([1]);
    const created = await containerCreatedAt(publisher, started);
    const subscribedAt: number[] = [];
    for (const account of subscribers) {
      const subscription = await eventually(async () => {
        const { data } = await sandbox.calls('instagram', account.sandboxUser, started);
        return data.find((c) => c.method === 'POST' && c.path.endsWith('/me/subscribed_apps'));
      }, 30);
      subscribedAt.push(Date.parse(subscription.at));
    }
    // The worker locks two due jobs at a time (its local queue), the two first by priority but in
    // no order between them: the post's first step and one subscription. Every other waits.
    expect(subscribedAt.filter((at) => at < created).length).toBeLessThanOrEqual(1);
  });

  it('publishes a post due now while bulk work holds every slot of its own', async () => {
    const readers: [Platform, SandboxAccount][] = [];
    for (const platform of ['instagram', 'threads', 'instagram', 'threads'] as const) {
      readers.push([platform, await connectSandboxAccount(t, sandbox, owner, platform, `prio_${readers.length}`)]);
    }
    const publisher = await connectSandboxAccount(t, sandbox, owner, 'threads', 'prio_publisher');
    // The schedule queues every new account's history reading and first refresh, as it does each minute.
    expect(await scheduleInsightRefreshes({ db: t.database.db })).toBe(2 * 5);
    const postId = await postNow(publisher);

    // The first insights call a bulk job makes hangs until released: that job keeps its slot.
    const held = sandbox.hold(/insights/);
    const started = new Date();
    await t.startWorker({ platforms: sandbox.platforms, concurrency: 1, bulkConcurrency: 1 });
    await held.arrived;
    expect((await published(postId)).targets.map((target) => target.attempts)).toEqual([1]);
    // Meanwhile no other bulk job ran: the held call is the only one, and it is not answered yet.
    for (const [platform, account] of [...readers, ['threads', publisher] as const]) {
      expect(await insightCalls(platform, account, started)).toEqual([]);
    }

    held.release();
    // The bulk work goes on: each account's history is read.
    for (const [platform, account] of readers) {
      await eventually(
        async () => ((await insightCalls(platform, account, started)).length > 0 ? true : undefined),
        60,
      );
    }
  });
});
