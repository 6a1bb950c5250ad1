import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleInsightRefreshes } from '../../src/modules/insights/index.ts';
import type { Platform } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount } from '../helpers/sandbox-accounts.ts';

/**
 * A worker takes the time-critical jobs due (a post to publish) before the bulk ones due
 * (reading the insights history of accounts just connected), whatever the order they were
 * queued in (docs/architecture.md, "Jobs").
 */

let sandbox: TestSandbox;
let t: TestApp;
let owner: TestOwner;

beforeAll(async () => {
  sandbox = await startSandbox();
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    platforms: sandbox.platforms,
    listen: true,
  });
  owner = await t.createOwner();
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

/** The account's calls to the platform's insights since `since`. */
async function insightCalls(platform: Platform, account: SandboxAccount, since: Date) {
  const { data } = await sandbox.calls(platform, account.sandboxUser, since);
  return data.filter((c) => c.path.includes('insights'));
}

describe('job priorities', () => {
  it('publishes a post due now before the insights history queued ahead of it', async () => {
    const readers: [Platform, SandboxAccount][] = [];
    for (const platform of ['instagram', 'threads', 'instagram', 'threads', 'instagram', 'threads'] as const) {
      readers.push([platform, await connectSandboxAccount(t, sandbox, owner, platform, `prio_${readers.length}`)]);
    }
    const publisher = await connectSandboxAccount(t, sandbox, owner, 'threads', 'prio_publisher');
    // The schedule queues every new account's history reading and first refresh, as it does each minute.
    expect(await scheduleInsightRefreshes({ db: t.database.db })).toBeGreaterThanOrEqual(2 * 7);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/posts',
      headers: auth(owner.key),
      payload: { account_ids: [publisher.id], text: 'Due now, behind a backlog' },
    });
    expect(created.statusCode, created.body).toBe(201);

    // One job at a time, so the order the worker takes them in is the order of the platform's
    // calls. (The connections read each profile, a Threads follower count included, before.)
    const started = new Date();
    await t.startWorker({ platforms: sandbox.platforms, concurrency: 1 });
    const post = await eventually(async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/posts/${created.json().id}`,
        headers: auth(owner.key),
      });
      const body: { status: string; targets: { attempts: number }[] } = res.json();
      return body.status === 'published' ? body : undefined;
    }, 60);
    expect(post.targets.map((target) => target.attempts)).toEqual([1]);

    const { data: publisherCalls } = await sandbox.calls('threads', publisher.sandboxUser, started);
    const containerCreated = publisherCalls.find((c) => c.method === 'POST' && c.path.endsWith('/threads'));
    expect(containerCreated).toBeDefined();
    // The bulk work was not dropped: each account's history is read, after the post's first call.
    for (const [platform, account] of readers) {
      const calls = await eventually(async () => {
        const found = await insightCalls(platform, account, started);
        return found.length > 0 ? found : undefined;
      }, 60);
      for (const call of calls)
        expect(Date.parse(call.at)).toBeGreaterThanOrEqual(Date.parse(containerCreated?.at ?? ''));
    }
  });
});
