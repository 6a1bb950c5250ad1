import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { noteAccountFailure } from '../../src/modules/accounts/access.ts';
import { credentialsOf } from '../../src/modules/accounts/connections.ts';
import { type Platform, PlatformError } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { readyContainersQuickly, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount } from '../helpers/sandbox-accounts.ts';
import { accounts, events, postTargets } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * Scheduled posts of an expired account (docs/posts.md, "Publishing", "An expired account"):
 * the target waits for a reconnection, making no platform call, for
 * ACCOUNT_RECONNECT_GRACE_SECONDS (3 days by default); a reconnection through a reconnect link
 * publishes it at once; the grace time over, it fails with `account_not_connected`. A
 * disconnected account's targets fail at once, and so do an expired one's with a grace time of 0.
 * Against the sandbox, with a worker.
 */

const BACK = 'https://app.example.com/connected';
const GRACE_MS = 3 * 86_400_000;

let sandbox: TestSandbox;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox();
  await readyContainersQuickly(sandbox);
  receiver = await startReceiver();
});
afterAll(async () => {
  resetClock();
  await receiver.close();
  await sandbox.close();
});

/** One app on its own database, with an owner whose webhook gets the posts' events and reconnections, and a worker. */
async function startApp(env: Record<string, string> = {}) {
  const t = await startTestApp(
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '100000', ...env },
    undefined,
    {
      platforms: sandbox.platforms,
    },
  );
  const owner = await t.createOwner();
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['post.published', 'post.failed', 'account.connected'] },
  });
  expect(hook.statusCode).toBe(201);
  const origin = await t.app.inject({
    method: 'POST',
    url: '/v1/connect/redirect-origins',
    headers: auth(owner.key),
    payload: { origin: 'https://app.example.com' },
  });
  expect(origin.statusCode).toBeLessThan(300);
  await t.startWorker({ platforms: sandbox.platforms });
  return { t, owner };
}

/** What a test of one app works with. */
interface Ctx {
  t: TestApp;
  owner: TestOwner;
}

let users = 0;

async function connected(c: Ctx, platform: Platform = 'threads'): Promise<SandboxAccount> {
  users += 1;
  return await connectSandboxAccount(c.t, sandbox, c.owner, platform, `expiring_${platform}_${users}`);
}

/** A post on the account due in a minute (a post cannot be made for an account that is not connected). */
async function postDueSoon(c: Ctx, accountId: string, text: string) {
  const res = await c.t.app.inject({
    method: 'POST',
    url: '/v1/posts',
    headers: auth(c.owner.key),
    payload: { account_ids: [accountId], text, scheduled_at: new Date(now().getTime() + 60_000).toISOString() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function getPost(c: Ctx, id: string) {
  const res = await c.t.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: auth(c.owner.key) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The post once every target has finished (published, failed or cancelled). */
async function finished(c: Ctx, id: string) {
  return await eventually(async () => {
    const p = await getPost(c, id);
    return p.targets.every((x: { status: string }) => ['published', 'failed', 'cancelled'].includes(x.status))
      ? p
      : undefined;
  });
}

/** The post once its target waits for its account. */
async function waitingForAccount(c: Ctx, id: string) {
  return await eventually(async () => {
    const p = await getPost(c, id);
    return p.targets[0].waiting_reason === 'account_expired' ? p : undefined;
  });
}

async function targetRow(c: Ctx, id: string) {
  const [row] = await c.t.database.db.select().from(postTargets).where(eq(postTargets.id, id));
  if (!row) throw new Error(`no target ${id}`);
  return row;
}

async function accountStatus(c: Ctx, id: string) {
  const [row] = await c.t.database.db.select().from(accounts).where(eq(accounts.id, id));
  return row?.status;
}

/** The sandbox's token of the account ends; the service is not told. */
async function expireOnPlatform(account: SandboxAccount): Promise<void> {
  const res = await sandbox.control('POST', '/tokens/expire', { platform: 'threads', username: account.sandboxUser });
  expect(res.status).toBe(200);
}

/** The account expires as the service finds out in production: the platform refuses its token. */
async function expire(c: Ctx, account: SandboxAccount): Promise<void> {
  await expireOnPlatform(account);
  const [row] = await c.t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
  if (!row) throw new Error(`no account ${account.id}`);
  const error = await sandbox
    .adapter('threads')
    .profile(credentialsOf(c.t.secretKey, row))
    .then(
      () => null,
      (e: unknown) => e,
    );
  if (!(error instanceof PlatformError)) throw new Error(`the sandbox still took the token (${String(error)})`);
  await c.t.database.db.transaction((tx) => noteAccountFailure(tx, account.id, error, undefined));
  expect(await accountStatus(c, account.id)).toBe('expired');
}

/** Reconnects the account as its user would: a reconnect link, the sandbox's permission page, our callback. */
async function reconnect(c: Ctx, account: SandboxAccount): Promise<void> {
  const link = await c.t.app.inject({
    method: 'POST',
    url: `/v1/accounts/${account.id}/reconnect-links`,
    headers: auth(c.owner.key),
    payload: { redirect_url: BACK },
  });
  expect(link.statusCode, link.body).toBe(201);
  const path = new URL(link.json().url).pathname;
  const start = await c.t.app.inject({ method: 'GET', url: `${path}/start/threads` });
  expect(start.statusCode).toBe(303);
  const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
  const redirect = await sandbox.decide(String(start.headers.location), { username: account.sandboxUser });
  const done = await c.t.app.inject({
    method: 'GET',
    url: `${redirect.pathname}${redirect.search}`,
    headers: { cookie },
  });
  expect(done.statusCode).toBe(303);
  const back = new URL(String(done.headers.location));
  expect(`${back.origin}${back.pathname}`).toBe(BACK);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ status: 'connected', account_ids: account.id });
  expect(await accountStatus(c, account.id)).toBe('connected');
}

/** The platform calls made with the user's tokens so far. */
/**
 * The calls publishing makes on the account (its quota read, a container's creation and its
 * publication). Reads the service's other jobs make (a comment poll begun before the account
 * expired) are theirs, not a publication's.
 */
async function publishingCallCount(account: SandboxAccount): Promise<number> {
  const { data } = await sandbox.calls('threads', account.sandboxUser);
  return data.filter((call) => call.method === 'POST' || call.path.endsWith('/threads_publishing_limit')).length;
}

async function publishes(account: SandboxAccount) {
  const res = await sandbox.control('GET', `/activity/threads/${account.sandboxUser}`);
  return (res.body.data as { action: string }[]).filter((a) => a.action === 'publish');
}

/** The events of `type` recorded about the post. */
async function eventsAbout(c: Ctx, postId: string, type: 'post.published' | 'post.failed') {
  return await c.t.database.db
    .select()
    .from(events)
    .where(and(eq(events.type, type), sql`${events.data}->>'post_id' = ${postId}`));
}

/** The events about the post the receiver got, as parsed envelopes, once there are `n`. */
async function delivered(postId: string, n = 1) {
  return await eventually(async () => {
    const found = receiver.received
      .map((r) => JSON.parse(r.body.toString('utf8')))
      .filter((e) => e.data.post_id === postId);
    return found.length >= n ? found : undefined;
  });
}

describe('with the default grace time', () => {
  let c: Ctx;
  beforeAll(async () => {
    c = await startApp();
  });
  afterAll(async () => {
    await c.t.close();
  });

  it('waits for the reconnection of an expired account, making no publishing call, then publishes once the account is reconnected', async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'Waits for its account');
    await expire(c, account);
    const callsBefore = await publishingCallCount(account);

    const began = now().getTime() + 60_000;
    await moveTime(c.t.database.pool, 61_000);
    const waiting = await waitingForAccount(c, created.id);
    expect(waiting.status).toBe('publishing');
    expect(waiting.targets[0]).toMatchObject({
      status: 'publishing',
      waiting_reason: 'account_expired',
      attempts: 1,
      error: null,
      platform_post_id: null,
    });
    // The list shows it the same way.
    const list = await c.t.app.inject({ method: 'GET', url: '/v1/posts', headers: auth(c.owner.key) });
    const listed = list.json().data.find((p: { id: string }) => p.id === created.id);
    expect(listed.targets[0].waiting_reason).toBe('account_expired');

    // It waits 3 days from when it began to, and its next job is due then.
    const row = await targetRow(c, created.targets[0].id);
    const until = row.accountWaitUntil?.getTime() ?? 0;
    expect(until).toBeGreaterThanOrEqual(began + 259_200_000);
    expect(until).toBeLessThanOrEqual(now().getTime() + 259_200_000);
    const { rows } = await c.t.database.pool.query<{ run_at: Date }>(
      'select run_at from graphile_worker.jobs where key = $1',
      [`publish_target:${created.targets[0].id}`],
    );
    // Queued on the database's clock, which moveTime does not move: 3 days from now there.
    expect(Math.abs((rows[0]?.run_at.getTime() ?? 0) - (Date.now() + 259_200_000))).toBeLessThan(60_000);
    expect(await publishingCallCount(account)).toBe(callsBefore);
    expect(await publishes(account)).toHaveLength(0);

    await reconnect(c, account);
    const post = await finished(c, created.id);
    expect(post.status).toBe('published');
    expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1, error: null, waiting_reason: null });
    // The reconnection's event went to the webhook too, from the statement that queued the target.
    const reconnected = await eventually(async () => {
      const found = receiver.received
        .map((r) => JSON.parse(r.body.toString('utf8')))
        .filter((e) => e.type === 'account.connected' && e.data.account?.id === account.id && e.data.reconnected);
      return found.length > 0 ? found : undefined;
    });
    expect(reconnected).toHaveLength(1);
    expect(await publishes(account)).toHaveLength(1);
    expect((await targetRow(c, created.targets[0].id)).accountWaitUntil).toBeNull();
    const [event] = await delivered(created.id);
    expect(event).toMatchObject({
      type: 'post.published',
      data: { post_id: created.id, account_id: account.id, permalink: post.targets[0].permalink },
    });
    expect(await eventsAbout(c, created.id, 'post.published')).toHaveLength(1);
    expect(await eventsAbout(c, created.id, 'post.failed')).toHaveLength(0);
  });

  it("leaves the job to run again when the wait's transaction fails at its commit: the job is not ended with a wait that never happened", async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'Its wait refused');
    await expire(c, account);
    const targetId: string = created.targets[0].id;
    // The database refuses the first commit of this target's wait (a deferred check, run at the
    // commit; counted by a sequence, which a refused transaction does not roll back).
    await c.t.database.pool.query(`
      create table refuse_wait_of (target_id text primary key);
      create sequence wait_commits;
      create function refuse_first_wait() returns trigger language plpgsql as $$
      begin
        -- Nested, so that only this target's waits draw from the sequence.
        if new.waiting_reason = 'account_expired' and exists (select from refuse_wait_of where target_id = new.id) then
          if nextval('wait_commits') = 1 then
            raise exception 'commit refused by the test';
          end if;
        end if;
        return null;
      end $$;
      create constraint trigger refuse_first_wait after update on post_targets deferrable initially deferred
        for each row execute function refuse_first_wait();`);
    await c.t.database.pool.query('insert into refuse_wait_of values ($1)', [targetId]);
    try {
      await moveTime(c.t.database.pool, 61_000);
      for (let i = 0; i < 8; i++) {
        await new Promise((r) => setTimeout(r, 500));
        console.log(
          'POLL',
          i,
          JSON.stringify(
            (
              await c.t.database.pool.query(
                'select id, key, locked_by is not null as locked, attempts, left(last_error, 60) as e, run_at from graphile_worker._private_jobs order by id',
              )
            ).rows,
          ),
          JSON.stringify((await c.t.database.pool.query('select last_value from wait_commits')).rows),
        );
      }
      // The run failed at the commit, and graphile-worker recorded the failure: the job, unlocked,
      // runs again after its backoff (a job left locked never would), and makes the wait.
      await waitingForAccount(c, created.id);
      console.log(
        'JOBS',
        JSON.stringify(
          (
            await c.t.database.pool.query(
              'select id, key, locked_by, attempts, last_error, run_at from graphile_worker._private_jobs order by id',
            )
          ).rows,
        ),
      );
      // Two waits were committed: the first refused, the second made.
      const commits = await c.t.database.pool.query<{ last_value: string; is_called: boolean }>(
        'select last_value, is_called from wait_commits',
      );
      expect(commits.rows).toEqual([{ last_value: '2', is_called: true }]);
      expect(await targetRow(c, targetId)).toMatchObject({ waitingReason: 'account_expired' });
    } finally {
      await c.t.database.pool.query(
        'drop trigger refuse_first_wait on post_targets; drop function refuse_first_wait(); drop sequence wait_commits; drop table refuse_wait_of',
      );
    }
  });

  it('marks the account expired when the platform refuses its token during a step, and the target waits for its reconnection', async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'Expired on the platform only');
    await expireOnPlatform(account);
    await moveTime(c.t.database.pool, 61_000);
    const waiting = await waitingForAccount(c, created.id);
    expect(waiting.targets[0]).toMatchObject({ status: 'publishing', error: null });
    expect(await accountStatus(c, account.id)).toBe('expired');
    expect(await publishes(account)).toHaveLength(0);

    await reconnect(c, account);
    expect((await finished(c, created.id)).targets[0]).toMatchObject({ status: 'published', attempts: 1 });
    expect(await publishes(account)).toHaveLength(1);
  });

  it('keeps a reconnection made while a call with the old token was on its way: the refusal of that token ends nothing', async () => {
    const account = await connected(c);
    // The account's first comment poll, due at the minute's scheduling after its connection, is
    // put a day off: meeting the ended token in the window below, it would rightly expire the
    // account, and that window is the held publishing call's alone.
    await c.t.database.pool.query(
      `insert into comment_sync_state (account_id, next_poll_at) values ($1, now() + interval '1 day')
       on conflict (account_id) do update set next_poll_at = excluded.next_poll_at`,
      [account.id],
    );
    const created = await postDueSoon(c, account.id, 'Reconnected mid-call');
    // The try's first call (the publishing quota) is held before the sandbox reads its token.
    const held = sandbox.hold(/publishing_limit/);
    await moveTime(c.t.database.pool, 61_000);
    await held.arrived;
    // Meanwhile the old token ends on the platform and the client reconnects the account. (Another
    // job meeting the old token in this window, an insights refresh say, may rightly expire the old
    // connection first: what is asserted is that the new one is never ended.)
    await expireOnPlatform(account);
    await reconnect(c, account);
    const [reconnected] = await c.t.database.db
      .select({ connectedAt: accounts.connectedAt })
      .from(accounts)
      .where(eq(accounts.id, account.id));
    held.release();

    // The old token's refusal comes back; the account keeps its new connection and the post goes out with it.
    const post = await finished(c, created.id);
    expect(post.targets[0]).toMatchObject({ status: 'published', error: null });
    expect(await accountStatus(c, account.id)).toBe('connected');
    const newConnectionEnded = await c.t.database.db
      .select()
      .from(events)
      .where(
        and(
          eq(events.type, 'account.expired'),
          sql`${events.data}->'account'->>'id' = ${account.id}`,
          sql`(${events.data}->'account'->>'connected_at')::timestamptz >= ${reconnected?.connectedAt}`,
        ),
      );
    expect(newConnectionEnded).toEqual([]);
    expect(await publishes(account)).toHaveLength(1);
  });

  it('waits in its step when the account expires while the platform processes the container, then publishes that container once', async () => {
    const account = await connected(c);
    await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 86_400 });
    try {
      const created = await postDueSoon(c, account.id, 'Expired while processing');
      await moveTime(c.t.database.pool, 61_000);
      await eventually(async () => {
        const target = (await getPost(c, created.id)).targets[0];
        return target.waiting_reason?.includes('processing') ? target : undefined;
      });
      await expireOnPlatform(account);
      // The next poll (at most a minute later) meets the expired token. A poll running while
      // time moves queues its next one unmoved, so time is moved until a poll has met it.
      await eventually(async () => {
        await moveTime(c.t.database.pool, 61_000);
        await new Promise((r) => setTimeout(r, 500));
        const target = (await getPost(c, created.id)).targets[0];
        return target.waiting_reason === 'account_expired' ? target : undefined;
      }, 30);
      expect(await accountStatus(c, account.id)).toBe('expired');
      const row = await targetRow(c, created.targets[0].id);
      expect(row.step).toBe('processing');
      expect(row.containerId).not.toBeNull();

      await readyContainersQuickly(sandbox);
      await reconnect(c, account);
      const post = await finished(c, created.id);
      expect(post.targets[0]).toMatchObject({ status: 'published', attempts: 1 });
      expect(await publishes(account)).toHaveLength(1);
      // The container made before the expiry is the one published.
      expect((await targetRow(c, created.targets[0].id)).containerId).toBe(row.containerId);
    } finally {
      await readyContainersQuickly(sandbox);
    }
  });

  it('fails a waiting target at once when its account is disconnected', async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'Then disconnected');
    await expire(c, account);
    await moveTime(c.t.database.pool, 61_000);
    await waitingForAccount(c, created.id);
    const res = await c.t.app.inject({
      method: 'DELETE',
      url: `/v1/accounts/${account.id}`,
      headers: auth(c.owner.key),
    });
    expect(res.statusCode).toBe(200);
    const post = await finished(c, created.id);
    expect(post.targets[0]).toMatchObject({
      status: 'failed',
      waiting_reason: null,
      error: {
        code: 'account_not_connected',
        message: `Account ${account.id} is disconnected; reconnect it, then retry the post.`,
        platform_code: null,
      },
    });
    expect(await eventsAbout(c, created.id, 'post.failed')).toHaveLength(1);
  });

  it("fails a disconnected account's target at once when its time comes, as it did", async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'Disconnected before its time');
    const res = await c.t.app.inject({
      method: 'DELETE',
      url: `/v1/accounts/${account.id}`,
      headers: auth(c.owner.key),
    });
    expect(res.statusCode).toBe(200);
    await moveTime(c.t.database.pool, 61_000);
    const post = await finished(c, created.id);
    expect(post.status).toBe('failed');
    expect(post.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: {
        code: 'account_not_connected',
        message: `Account ${account.id} is disconnected; reconnect it, then retry the post.`,
        platform_code: null,
      },
    });
    const [event] = await delivered(created.id);
    expect(event).toMatchObject({ type: 'post.failed', data: { error_code: 'account_not_connected' } });
    expect(await eventsAbout(c, created.id, 'post.failed')).toHaveLength(1);
    expect(await publishes(account)).toHaveLength(0);
  });

  // Last: it moves the clock by days.
  it('fails the target with account_not_connected, and post.failed once, when the grace time passes without a reconnection', async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'Never reconnected');
    await expire(c, account);
    const callsBefore = await publishingCallCount(account);
    await moveTime(c.t.database.pool, 61_000);
    await waitingForAccount(c, created.id);
    const until = (await targetRow(c, created.targets[0].id)).accountWaitUntil;
    if (until === null) throw new Error('no account_wait_until');

    // A day before its end, it still waits.
    await moveTime(c.t.database.pool, GRACE_MS - 86_400_000);
    expect((await getPost(c, created.id)).targets[0].waiting_reason).toBe('account_expired');

    await moveTime(c.t.database.pool, 86_400_000 + 1000);
    const post = await finished(c, created.id);
    expect(post.status).toBe('failed');
    expect(post.targets[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      waiting_reason: null,
      error: {
        code: 'account_not_connected',
        message: `Account ${account.id} is expired; the post waited for it to be reconnected until ${until.toISOString()}. Reconnect it, then retry the post.`,
        platform_code: null,
      },
    });
    const [event] = await delivered(created.id);
    expect(event).toMatchObject({
      type: 'post.failed',
      data: { post_id: created.id, account_id: account.id, error_code: 'account_not_connected' },
    });
    expect(await eventsAbout(c, created.id, 'post.failed')).toHaveLength(1);
    expect(await publishingCallCount(account)).toBe(callsBefore);
    expect((await targetRow(c, created.targets[0].id)).accountWaitUntil).toBeNull();
  });
});

describe('with ACCOUNT_RECONNECT_GRACE_SECONDS=0', () => {
  let c: Ctx;
  beforeAll(async () => {
    c = await startApp({ ACCOUNT_RECONNECT_GRACE_SECONDS: '0' });
  });
  afterAll(async () => {
    await c.t.close();
  });

  it("fails an expired account's target at once when its time comes", async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'No grace');
    await expire(c, account);
    await moveTime(c.t.database.pool, 61_000);
    const post = await finished(c, created.id);
    expect(post.targets[0]).toMatchObject({
      status: 'failed',
      error: {
        code: 'account_not_connected',
        message: `Account ${account.id} is expired; reconnect it, then retry the post.`,
        platform_code: null,
      },
    });
    expect(await eventsAbout(c, created.id, 'post.failed')).toHaveLength(1);
    expect(await publishes(account)).toHaveLength(0);
  });

  it('fails the target with token_expired when the platform refuses the token during a step', async () => {
    const account = await connected(c);
    const created = await postDueSoon(c, account.id, 'No grace either');
    await expireOnPlatform(account);
    await moveTime(c.t.database.pool, 61_000);
    const post = await finished(c, created.id);
    expect(post.targets[0]).toMatchObject({ status: 'failed', error: { code: 'token_expired' } });
    expect(await accountStatus(c, account.id)).toBe('expired');
  });
});
