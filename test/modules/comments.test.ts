import { createHmac } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { credentialsOf } from '../../src/modules/accounts/connections.ts';
import { ingestNotices, pollComments, scheduleCommentPolls } from '../../src/modules/comments/index.ts';
import { type IncomingComment, storeComments } from '../../src/modules/comments/store.ts';
import { type Platform, SANDBOX_CLIENT } from '../../src/platforms/index.ts';
import { verifyWebhook } from '../../src/webhook-signature.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { noticeJobsDone, pollDeps } from '../helpers/comment-intake.ts';
import { eventually } from '../helpers/eventually.ts';
import { imageFile, multipartUpload } from '../helpers/media-files.ts';
import { growth, scrapeMetrics } from '../helpers/metrics.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount } from '../helpers/sandbox-accounts.ts';
import { verifyStandardWebhook } from '../helpers/standard-webhooks.ts';
import { accounts, commentReplies, comments, events } from '../helpers/tables.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * The comments inbox against the sandbox platforms: the sandbox sends its signed webhooks to
 * the service listening on a real port, a worker stores them, a receiver gets the signed
 * `comment.created` events (docs/comments.md).
 */

let sandbox: TestSandbox;
let t: TestApp;
let receiver: Receiver;
let owner: TestOwner;
let webhookSecret: string;

const VERIFY_TOKEN = 'verify-token-for-tests';

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
  t = await startTestApp(
    {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      RATE_LIMIT_PER_MINUTE: '100000',
      PLATFORM_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
    },
    undefined,
    { platforms: sandbox.platforms, listen: true },
  );
  owner = await t.createOwner();
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['comment.created'] },
  });
  webhookSecret = hook.json().secret;
  // As an app's developer does in Meta's dashboard: the platform checks the callback first.
  for (const platform of ['instagram', 'threads', 'facebook']) {
    const res = await sandbox.control('PUT', `/webhooks/${platform}`, {
      callback_url: `${t.url}/platform-webhooks/${platform}`,
      verify_token: VERIFY_TOKEN,
      app_secret: SANDBOX_CLIENT.clientSecret,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await t.startWorker({ platforms: sandbox.platforms });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await receiver.close();
  await sandbox.close();
});

let users = 0;

/** A sandbox user of `platform` connected as an account of the test's owner. */
async function connected(
  platform: Platform,
  options: { granted?: string[]; profileId?: string } = {},
): Promise<SandboxAccount> {
  users += 1;
  return await connectSandboxAccount(t, sandbox, owner, platform, `cmt_${platform}_${users}`, options);
}

/** A time as a Graph answer gives it: to the second. */
function toSecond(iso: string): string {
  return new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();
}

/** A new profile of the key's owner, made through the API; its id. */
async function newProfile(name: string, key = owner.key): Promise<string> {
  const created = await t.app.inject({ method: 'POST', url: '/v1/profiles', headers: auth(key), payload: { name } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

/** A comment by someone else, added on the platform (the sandbox's control API). */
async function commentOn(
  platform: Platform,
  account: SandboxAccount,
  body: { text: string; author_username?: string; commented_at?: string; parent_id?: string; post_id?: string },
) {
  const res = await sandbox.control('POST', '/comments', {
    platform,
    username: account.sandboxUser,
    author_username: body.author_username ?? 'maya.designs',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; post_id: string; text: string; commented_at: string };
}

async function list(query = '', key = owner.key, profile?: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/comments${query}`, headers: auth(key, profile) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, unknown>>;
}

interface ErrorBody {
  error: { code: string };
}

/** POST /v1/comments/{id}/<action>, as the owner unless another key is given. */
function act(id: string, action: 'reply' | 'hide', payload: Record<string, unknown>, key = owner.key) {
  return t.app.inject({ method: 'POST', url: `/v1/comments/${id}/${action}`, headers: auth(key), payload });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function getComment(id: string): Promise<any> {
  return (await t.app.inject({ method: 'GET', url: `/v1/comments/${id}`, headers: auth(owner.key) })).json();
}

function sync(accountIds: string[]) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/comments/sync',
    headers: auth(owner.key),
    payload: { account_ids: accountIds },
  });
}

/** The inbox entry of the platform comment, once the service has it. */
// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function arrived(platformCommentId: string, key = owner.key): Promise<any> {
  return await eventually(async () => {
    const [row] = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, platformCommentId));
    if (!row) return undefined;
    const res = await t.app.inject({ method: 'GET', url: `/v1/comments/${row.id}`, headers: auth(key) });
    return res.statusCode === 200 ? res.json() : undefined;
  });
}

/** The `comment.created` deliveries the receiver got for this comment, each signature checked. */
function deliveriesFor(commentId: string) {
  return receiver.received
    .map((r) => {
      const raw = r.body.toString('utf8');
      return { raw, header: r.headers['service-signature'] as string, body: JSON.parse(raw), received: r };
    })
    .filter((d) => d.body.type === 'comment.created' && d.body.data.comment_id === commentId);
}

/**
 * Runs `steps` with the workers stopped, then starts them again: for a test whose comments the
 * workers' own poll of a fresh account would otherwise read, or write, between its steps.
 */
async function withoutWorkers(steps: () => Promise<void>): Promise<void> {
  await t.stopWorkers();
  try {
    await steps();
  } finally {
    await t.startWorker({ platforms: sandbox.platforms });
  }
}

async function commentEventsFor(commentId: string) {
  const rows = await t.database.db.select().from(events).where(eq(events.type, 'comment.created'));
  return rows.filter((e) => JSON.stringify(e).includes(commentId));
}

async function activity(platform: Platform, username: string) {
  const res = await sandbox.control('GET', `/activity/${platform}/${username}`);
  expect(res.status).toBe(200);
  return res.body.data as Array<{ action: string; target_id: string; detail: Record<string, unknown> }>;
}

function signed(body: string, secret = SANDBOX_CLIENT.clientSecret) {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

describe('platform webhooks: the subscription handshake', () => {
  it('echoes hub.challenge when hub.verify_token matches PLATFORM_WEBHOOK_VERIFY_TOKEN, else 403', async () => {
    const ok = await fetch(
      `${t.url}/platform-webhooks/instagram?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${VERIFY_TOKEN}`,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(
      `${t.url}/platform-webhooks/threads?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=guess`,
    );
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as ErrorBody).error.code).toBe('invalid_verify_token');
    const tiktok = await fetch(
      `${t.url}/platform-webhooks/tiktok?hub.mode=subscribe&hub.challenge=1&hub.verify_token=${VERIFY_TOKEN}`,
    );
    expect(tiktok.status).toBe(404);
  });
});

describe('comments arrive by the platforms’ webhooks', () => {
  it('a comment added on Instagram arrives by webhook, is listed, and is delivered once as comment.created', async () => {
    const account = await connected('instagram');
    const text = 'Love this! 😍 مرحبا <script>alert(1)</script> **bold** "quoted" & more';
    const made = await commentOn('instagram', account, { text });
    const comment = await arrived(made.id);
    expect(comment).toMatchObject({
      account_id: account.id,
      platform: 'instagram',
      platform_comment_id: made.id,
      author_username: 'maya.designs',
      text,
      hidden: false,
      reply_status: 'unreplied',
      from_account: false,
      parent_id: null,
      can_reply: true,
      can_hide: true,
      replies: [],
    });
    const listed = await list(`?account_id=${account.id}`);
    expect(listed.map((c) => c.id)).toEqual([comment.id]);

    // The post it belongs to is one the API can show: made on the platform, not through us.
    const post = await t.app.inject({ method: 'GET', url: `/v1/posts/${comment.post_id}`, headers: auth(owner.key) });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({ source: 'platform', status: 'published' });
    expect(post.json().targets[0]).toMatchObject({ account_id: account.id, platform_post_id: made.post_id });

    const delivered = await eventually(async () => {
      const found = deliveriesFor(comment.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered).toHaveLength(1);
    const [event] = delivered;
    if (!event) throw new Error('no delivery');
    const options = { nowSeconds: now().getTime() / 1000, toleranceSeconds: 300 };
    expect(verifyWebhook(event.raw, event.header, webhookSecret, options)).toBe(true);
    expect(verifyStandardWebhook(webhookSecret, event.received)).toEqual(event.body);
    expect(event.received.headers['webhook-id']).toBe(event.body.id);
    expect(event.body.data).toMatchObject({
      comment_id: comment.id,
      account_id: account.id,
      post_id: comment.post_id,
      author_username: 'maya.designs',
      text,
      commented_at: comment.commented_at,
      platform: 'instagram',
    });
  });

  it('counts the notices by platform, and how long their comments took to be stored, at /metrics', async () => {
    const account = await connected('threads');
    const before = await scrapeMetrics(t);
    const made = await commentOn('threads', account, { text: 'counted' });
    await arrived(made.id);
    const grew = growth(before, await scrapeMetrics(t));
    expect(grew('switchboard_comment_notices_total{platform="threads"}')).toBe(1);
    expect(grew('switchboard_comment_notice_lag_seconds_count{platform="threads"}')).toBe(1);
    expect(grew('switchboard_comment_notice_lag_seconds_bucket{platform="threads",le="+Inf"}')).toBe(1);
  });

  it('the same notice twice, and a poll afterwards, still give one comment and one event', async () => {
    const account = await connected('threads');
    const made = await commentOn('threads', account, { text: 'same notice twice' });
    const comment = await arrived(made.id);
    const sent = await sandbox.control('GET', '/webhooks/deliveries?platform=threads&limit=50');
    const notice = (sent.body as Array<{ body: string; signature: string }>).find((d) => d.body.includes(made.id));
    if (!notice) throw new Error('the sandbox sent no notice of the comment');
    const replay = await fetch(`${t.url}/platform-webhooks/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': notice.signature },
      body: notice.body,
    });
    expect(replay.status).toBe(200);
    const synced = await sync([account.id]);
    expect(synced.statusCode, synced.body).toBe(202);
    await eventually(async () => {
      const [state] = await t.database.pool
        .query('select last_polled_at from comment_sync_state where account_id = $1', [account.id])
        .then((r) => r.rows);
      return state?.last_polled_at ? true : undefined;
    });
    await noticeJobsDone(t);
    const stored = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, made.id));
    expect(stored).toHaveLength(1);
    expect(await commentEventsFor(comment.id)).toHaveLength(1);
  });

  it('a notice with a bad or missing signature is 401 and changes nothing', async () => {
    const account = await connected('instagram');
    const body = JSON.stringify({
      object: 'instagram',
      entry: [
        {
          id: account.platformUserId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'comments',
              value: {
                id: '17865799348089039',
                from: { id: '1', username: 'forger' },
                media: { id: '1' },
                text: 'forged',
              },
            },
          ],
        },
      ],
    });
    for (const signature of [signed(body, 'not-the-app-secret'), undefined]) {
      const res = await fetch(`${t.url}/platform-webhooks/instagram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        body,
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as ErrorBody).error.code).toBe('invalid_signature');
    }
    const forged = await t.database.db
      .select()
      .from(comments)
      .where(eq(comments.platformCommentId, '17865799348089039'));
    expect(forged).toEqual([]);
  });

  it('a 25-hour-old comment is stored with no event', async () => {
    const account = await connected('facebook');
    const old = new Date(Date.now() - 25 * 3600_000);
    old.setUTCMilliseconds(0);
    const made = await commentOn('facebook', account, { text: 'from yesterday', commented_at: old.toISOString() });
    const synced = await sync([account.id]);
    expect(synced.statusCode).toBe(202);
    const comment = await arrived(made.id);
    expect(comment.commented_at).toBe(old.toISOString());
    expect(await commentEventsFor(comment.id)).toEqual([]);
  });

  it('keeps comment text byte for byte, up to the platform’s longest', async () => {
    const account = await connected('instagram');
    const long = `${'ب'.repeat(1000)}${'👍🏽'.repeat(300)}${'x'.repeat(600)}`;
    const texts = ['\u202Eright-to-left override\u202C', '<img src=x onerror=alert(1)>', long.slice(0, 2200)];
    for (const text of texts) {
      const made = await commentOn('instagram', account, { text });
      const comment = await arrived(made.id);
      expect(Buffer.from(comment.text, 'utf8').equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });
});

describe("late notices: the platform's own time decides comment.created", () => {
  for (const platform of ['instagram', 'threads', 'facebook'] as const) {
    it(`${platform}: a comment notified at once gets one comment.created, one notified 25 hours late none; both keep the platform's time`, async () => {
      const account = await connected(platform);
      const fresh = await commentOn(platform, account, { text: 'just now' });
      // As Meta sends a notice after a day and more of retries: the comment was made 25 hours
      // ago on the platform, and its notice comes now.
      const old = new Date(now().getTime() - 25 * 3600_000);
      old.setUTCMilliseconds(0);
      const late = await commentOn(platform, account, { text: 'from yesterday', commented_at: old.toISOString() });
      const freshComment = await arrived(fresh.id);
      const lateComment = await arrived(late.id);
      expect(freshComment.commented_at).toBe(toSecond(fresh.commented_at));
      expect(lateComment.commented_at).toBe(old.toISOString());
      const delivered = await eventually(async () => {
        const found = deliveriesFor(freshComment.id);
        return found.length > 0 ? found : undefined;
      });
      expect(delivered.map((d) => d.body.data.commented_at)).toEqual([toSecond(fresh.commented_at)]);
      await noticeJobsDone(t);
      expect(await commentEventsFor(freshComment.id)).toHaveLength(1);
      expect(await commentEventsFor(lateComment.id)).toEqual([]);
      // Read by a poll too, neither changes: one event, and none.
      await pollComments(pollDeps(t, sandbox.platforms), account.id);
      expect(await commentEventsFor(freshComment.id)).toHaveLength(1);
      expect(await commentEventsFor(lateComment.id)).toEqual([]);
    });
  }

  it("Instagram: with its time unreadable for now, the comment is in the inbox at once and comment.created waits for Instagram's time", async () => {
    const account = await connected('instagram');
    // Every call with the user's token is refused as over the rate limit: the notice's
    // comment cannot have its time read.
    await sandbox.control('POST', '/throttle', { platform: 'instagram', username: account.sandboxUser, seconds: 600 });
    let made: Awaited<ReturnType<typeof commentOn>>;
    try {
      made = await commentOn('instagram', account, { text: 'when was I made?' });
      const waiting = await arrived(made.id);
      expect(waiting.text).toBe('when was I made?');
      const [row] = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, made.id));
      expect(row?.timeConfirmed).toBe(false);
      expect(await commentEventsFor(waiting.id)).toEqual([]);
    } finally {
      await sandbox.control('POST', '/throttle', { platform: 'instagram', username: account.sandboxUser, seconds: 0 });
    }
    // A poll reads Instagram's time: the event is decided then, once.
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const confirmed = await arrived(made.id);
    expect(confirmed.commented_at).toBe(toSecond(made.commented_at));
    expect(await commentEventsFor(confirmed.id)).toHaveLength(1);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    expect(await commentEventsFor(confirmed.id)).toHaveLength(1);
  });

  it('a poll corrects a time stored wrongly, with no event', async () => {
    const account = await connected('threads');
    const old = new Date(now().getTime() - 2 * 86_400_000);
    old.setUTCMilliseconds(0);
    const made = await commentOn('threads', account, { text: 'two days ago', commented_at: old.toISOString() });
    const comment = await arrived(made.id);
    await noticeJobsDone(t);
    // As the service stored a late notice before it read Instagram's times: with its arrival.
    await t.database.db.update(comments).set({ commentedAt: now() }).where(eq(comments.platformCommentId, made.id));
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    expect((await arrived(made.id)).commented_at).toBe(old.toISOString());
    expect(await commentEventsFor(comment.id)).toEqual([]);
  });
});

describe('replying and hiding', () => {
  it('a reply reaches the platform, is stored, marks the comment replied, and its own notice sends no event', async () => {
    const account = await connected('instagram');
    const made = await commentOn('instagram', account, { text: 'Where can I buy this?' });
    const comment = await arrived(made.id);
    const res = await act(comment.id, 'reply', { text: 'In our shop, link in bio!' });
    expect(res.statusCode, res.body).toBe(201);
    const reply = res.json();
    expect(reply).toMatchObject({ comment_id: comment.id, text: 'In our shop, link in bio!', status: 'sent' });
    const acts = await activity('instagram', account.sandboxUser);
    expect(acts.filter((a) => a.action === 'reply')).toHaveLength(1);
    expect(acts.find((a) => a.action === 'reply')).toMatchObject({
      target_id: made.id,
      detail: { reply_id: reply.platform_comment_id, message: 'In our shop, link in bio!' },
    });

    const after = await getComment(comment.id);
    expect(after.reply_status).toBe('replied');
    expect(after.replies).toEqual([reply]);
    // The account's own reply is a comment of its own, but not in the inbox and with no event.
    const own = await eventually(async () => {
      const sent = await sandbox.control('GET', '/webhooks/deliveries?platform=instagram&limit=100');
      return (sent.body as Array<{ body: string }>).some((d) => d.body.includes(reply.platform_comment_id))
        ? true
        : undefined;
    });
    expect(own).toBe(true);
    const [ownRow] = await t.database.db
      .select()
      .from(comments)
      .where(eq(comments.platformCommentId, reply.platform_comment_id));
    expect(ownRow?.byAccount).toBe(true);
    expect((await list(`?account_id=${account.id}`)).map((c) => c.id)).toEqual([comment.id]);
    expect(await commentEventsFor(ownRow?.id ?? 'none')).toEqual([]);
  });

  it.each(['instagram', 'facebook'] as const)(
    '%s: a reply deleted through the API is deleted on the platform (DELETE /{comment-id}), and shown deleted',
    async (platform) => {
      const account = await connected(platform);
      const made = await commentOn(platform, account, { text: 'Do you deliver on Sundays?' });
      const comment = await arrived(made.id);
      const sent = await act(comment.id, 'reply', { text: 'We do, until noon' });
      expect(sent.statusCode, sent.body).toBe(201);
      const reply = sent.json();

      const res = await t.app.inject({
        method: 'DELETE',
        url: `/v1/comments/${comment.id}/replies/${reply.id}`,
        headers: auth(owner.key),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: reply.id, status: 'deleted', deleted_at: expect.any(String) });
      const deletions = (await activity(platform, account.sandboxUser)).filter((a) => a.action === 'delete_comment');
      expect(deletions).toEqual([expect.objectContaining({ target_id: reply.platform_comment_id })]);
      // The platform's notice of the reply, however late it comes, does not bring it back.
      const notice = await eventually(async () => {
        const sentNotices = await sandbox.control('GET', `/webhooks/deliveries?platform=${platform}&limit=100`);
        return (sentNotices.body as Array<{ body: string; signature: string }>).find((d) =>
          d.body.includes(reply.platform_comment_id),
        );
      });
      const late = await fetch(`${t.url}/platform-webhooks/${platform}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': notice.signature },
        body: notice.body,
      });
      expect(late.status).toBe(200);
      await noticeJobsDone(t);
      // The platform no longer lists it: a poll brings nothing back.
      await pollComments(pollDeps(t, sandbox.platforms), account.id);
      const [own] = await t.database.db
        .select()
        .from(comments)
        .where(and(eq(comments.accountId, account.id), eq(comments.platformCommentId, reply.platform_comment_id)));
      expect(own).toBeUndefined();
      expect((await getComment(comment.id)).replies).toEqual([expect.objectContaining({ status: 'deleted' })]);
    },
  );

  it('where the service cannot delete a reply (Threads), DELETE is 422 unsupported_platform and nothing is asked', async () => {
    const account = await connected('threads');
    const comment = await arrived((await commentOn('threads', account, { text: 'Nice thread' })).id);
    const sent = await act(comment.id, 'reply', { text: 'Thanks!' });
    expect(sent.statusCode, sent.body).toBe(201);
    const before = (await getComment(comment.id)).replies;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/comments/${comment.id}/replies/${sent.json().id}`,
      headers: auth(owner.key),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect((res.json() as ErrorBody).error.code).toBe('unsupported_platform');
    expect((await getComment(comment.id)).replies).toEqual(before);
    const deletions = (await activity('threads', account.sandboxUser)).filter((a) => a.action === 'delete_comment');
    expect(deletions).toEqual([]);
  });

  it('hide and unhide reach the platform', async () => {
    const account = await connected('facebook');
    const made = await commentOn('facebook', account, { text: 'spam spam spam' });
    const comment = await arrived(made.id);
    for (const hidden of [true, false]) {
      const res = await act(comment.id, 'hide', { hidden });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().hidden).toBe(hidden);
    }
    const acts = await activity('facebook', account.sandboxUser);
    expect(acts.filter((a) => a.target_id === made.id).map((a) => a.action)).toEqual(
      expect.arrayContaining(['hide', 'unhide']),
    );
    expect((await list(`?account_id=${account.id}&hidden=true`)).length).toBe(0);
  });

  it('without the permission: 422 permission_missing naming it, and no platform call', async () => {
    const account = await connected('instagram');
    const made = await commentOn('instagram', account, { text: 'can you see me?' });
    await arrived(made.id);
    // The user takes instagram_business_manage_comments back on Instagram, and the service has
    // learnt it (from a refusal): its comments stay, no action reaches the platform.
    await t.database.db
      .update(accounts)
      .set({ scopes: ['instagram_business_basic', 'instagram_business_content_publish'] })
      .where(eq(accounts.id, account.id));
    const comment = await arrived(made.id);
    expect(comment).toMatchObject({ can_reply: false, can_hide: false });
    const before = await activity('instagram', account.sandboxUser);
    for (const [path, payload] of [
      ['reply', { text: 'hello' }],
      ['hide', { hidden: true }],
    ] as const) {
      const res = await act(comment.id, path, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('permission_missing');
      expect(res.json().error.details.permission).toBe('instagram_business_manage_comments');
    }
    expect(await activity('instagram', account.sandboxUser)).toEqual(before);
  });

  it('an account whose token expired on the platform: 409 account_not_connected, and the account is marked expired', async () => {
    const account = await connected('threads');
    const made = await commentOn('threads', account, { text: 'reply to me' });
    const comment = await arrived(made.id);
    const expire = await sandbox.control('POST', '/tokens/expire', {
      platform: 'threads',
      username: account.sandboxUser,
    });
    expect(expire.status, JSON.stringify(expire.body)).toBe(200);
    const res = await act(comment.id, 'reply', { text: 'thanks' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('account_not_connected');
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row?.status).toBe('expired');
    // Now known expired: refused before any call.
    const again = await act(comment.id, 'hide', { hidden: true });
    expect(again.statusCode).toBe(409);
  });

  it('PATCH sets the inbox status only, any transition, and the list filters by it', async () => {
    const account = await connected('instagram');
    const made = await commentOn('instagram', account, { text: 'nice' });
    const comment = await arrived(made.id);
    const before = await activity('instagram', account.sandboxUser);
    for (const status of ['dismissed', 'unreplied', 'replied', 'dismissed']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/v1/comments/${comment.id}`,
        headers: auth(owner.key),
        payload: { reply_status: status },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().reply_status).toBe(status);
    }
    expect((await list(`?account_id=${account.id}&reply_status=dismissed`)).map((c) => c.id)).toEqual([comment.id]);
    expect(await list(`?account_id=${account.id}&reply_status=unreplied`)).toEqual([]);
    expect(await activity('instagram', account.sandboxUser)).toEqual(before);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/v1/comments/${comment.id}`,
      headers: auth(owner.key),
      payload: { reply_status: 'archived' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("the inbox's filters and pages", () => {
  it('each filter narrows the list, pages follow next_cursor newest first, and a profile key sees its profile only', async () => {
    const agency = await t.createOwner();
    const second = await newProfile('Second client', agency.key);
    users += 1;
    const insta = await connectSandboxAccount(t, sandbox, agency, 'instagram', `cmt_filters_${users}`);
    const threads = await connectSandboxAccount(t, sandbox, agency, 'threads', `cmt_filters_t_${users}`, {
      profileId: second,
    });
    // Written an hour apart in the last few hours: the sandbox's own comments on its users' posts
    // are all older than 21 hours, so `from` leaves them out where a test needs the exact list.
    const base = Math.floor(now().getTime() / 3_600_000) * 3_600_000 - 5 * 3_600_000;
    const at = (hours: number) => new Date(base + hours * 3_600_000).toISOString();
    const made = [];
    for (const hours of [0, 1, 2, 3]) {
      made.push(await commentOn('instagram', insta, { text: `at +${hours}h`, commented_at: at(hours) }));
    }
    const onThreads = await commentOn('threads', threads, { text: 'on threads', commented_at: at(1.5) });
    const [c0, c1, c2, c3] = await Promise.all(made.map((m) => arrived(m.id, agency.key)));
    const t15 = await arrived(onThreads.id, agency.key);
    const ids = (rows: Array<Record<string, unknown>>) => rows.map((c) => c.id);
    const recent = (query = '', key = agency.key) => list(`?from=${at(0)}${query}`, key);

    expect(ids(await list('', agency.key)).slice(0, 5)).toEqual([c3.id, c2.id, t15.id, c1.id, c0.id]);
    expect(ids(await recent())).toEqual([c3.id, c2.id, t15.id, c1.id, c0.id]);
    expect(ids(await recent('&platform=threads'))).toEqual([t15.id]);
    expect(ids(await recent(`&account_id=${insta.id}`))).toEqual([c3.id, c2.id, c1.id, c0.id]);
    expect(ids(await list(`?post_id=${c1.post_id}&from=${at(0)}`, agency.key))).toEqual(
      [c3, c2, c1, c0].filter((c) => c.post_id === c1.post_id).map((c) => c.id),
    );
    // `from` and `to` are both included.
    expect(ids(await list(`?from=${at(1)}&to=${at(2)}`, agency.key))).toEqual([c2.id, t15.id, c1.id]);
    expect(ids(await list(`?to=${at(1)}&platform=instagram`, agency.key)).slice(0, 2)).toEqual([c1.id, c0.id]);

    const hide = await act(c2.id, 'hide', { hidden: true }, agency.key);
    expect(hide.statusCode, hide.body).toBe(200);
    expect(ids(await list('?hidden=true', agency.key))).toEqual([c2.id]);
    expect(ids(await recent('&hidden=false'))).toEqual([c3.id, t15.id, c1.id, c0.id]);
    expect(ids(await recent('&hidden=false&reply_status=unreplied&platform=instagram'))).toEqual([c3.id, c1.id, c0.id]);

    // Replies asked through the API come with their comment in the list, oldest first; the others have none.
    const replied = [];
    for (const text of ['Thank you!', 'See you soon']) {
      const res = await act(c0.id, 'reply', { text }, agency.key);
      expect(res.statusCode, res.body).toBe(201);
      replied.push(res.json());
    }
    const withReplies = await recent();
    expect(withReplies.map((c) => [c.id, c.replies])).toEqual([
      [c3.id, []],
      [c2.id, []],
      [t15.id, []],
      [c1.id, []],
      [c0.id, replied],
    ]);
    expect(replied.map((r) => r.text)).toEqual(['Thank you!', 'See you soon']);

    // Pages of two: every comment once, in order, and no cursor after the last page.
    const paged: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.app.inject({
        method: 'GET',
        url: `/v1/comments?limit=2&from=${at(0)}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        headers: auth(agency.key),
      });
      expect(page.statusCode, page.body).toBe(200);
      paged.push(...page.json().data.map((c: { id: string }) => c.id));
      cursor = page.json().next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(paged).toEqual([c3.id, c2.id, t15.id, c1.id, c0.id]);

    const secondKey = await t.createProfileKey(agency.ownerId, second);
    expect(ids(await recent('', secondKey))).toEqual([t15.id]);
    expect(ids(await list(`?account_id=${insta.id}`, secondKey))).toEqual([]);
    expect(ids(await list(`?from=${at(0)}`, agency.key, second))).toEqual([t15.id]);
  });
});

describe('TikTok has no comments', () => {
  it('sync of a TikTok account answers 422 unsupported_platform', async () => {
    const account = await connected('tiktok');
    const res = await sync([account.id]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('unsupported_platform');
  });
});

describe('POST /v1/comments/sync', () => {
  it('reads at most once a minute per account: 429 sync_rate_limited with Retry-After', async () => {
    const account = await connected('instagram');
    const first = await sync([account.id]);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ account_ids: [account.id] });
    const second = await sync([account.id]);
    expect(second.statusCode).toBe(429);
    expect(second.json().error.code).toBe('sync_rate_limited');
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(60);
    await moveTime(t.database.pool, 61_000);
    expect((await sync([account.id])).statusCode).toBe(202);
  });

  it('keeps no 429 for an Idempotency-Key: the same request after the Retry-After reads the account', async () => {
    const account = await connected('instagram');
    expect((await sync([account.id])).statusCode).toBe(202);
    const keyed = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/comments/sync',
        headers: { ...auth(owner.key), 'idempotency-key': 'sync-after-the-wait' },
        payload: { account_ids: [account.id] },
      });
    const limited = await keyed();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('sync_rate_limited');
    await moveTime(t.database.pool, 61_000);
    const retried = await keyed();
    expect(retried.statusCode).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json()).toEqual({ account_ids: [account.id] });
    // That answer is the one kept now.
    const replayed = await keyed();
    expect(replayed.statusCode).toBe(202);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });
});

describe('scope and moves', () => {
  it('a moved account keeps its comments; profile keys never see another profile’s', async () => {
    const profileB = await newProfile('Client B');
    const keyB = await t.createProfileKey(owner.ownerId, profileB);
    const keyDefault = await t.createProfileKey(owner.ownerId, owner.defaultProfileId);
    const account = await connected('instagram');
    const made = await commentOn('instagram', account, { text: 'before the move' });
    const comment = await arrived(made.id);

    expect((await list(`?account_id=${account.id}`, keyB)).length).toBe(0);
    const hidden = await t.app.inject({ method: 'GET', url: `/v1/comments/${comment.id}`, headers: auth(keyB) });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('comment_not_found');

    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/accounts/${account.id}/move`,
      headers: auth(owner.key),
      payload: { profile_id: profileB },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const seen = await list(`?account_id=${account.id}`, keyB);
    expect(seen.map((c) => c.id)).toEqual([comment.id]);
    const post = await t.app.inject({ method: 'GET', url: `/v1/posts/${seen[0]?.post_id}`, headers: auth(keyB) });
    expect(post.statusCode).toBe(200);
    expect((await list(`?account_id=${account.id}`, keyDefault)).length).toBe(0);
    const gone = await t.app.inject({ method: 'GET', url: `/v1/comments/${comment.id}`, headers: auth(keyDefault) });
    expect(gone.statusCode).toBe(404);
  });
});

describe('platform failures', () => {
  it('a platform refusal is 502 platform_error with its code and message; a rate limit is 429 with Retry-After', async () => {
    const account = await connected('instagram');
    const made = await commentOn('instagram', account, { text: 'fail me' });
    const comment = await arrived(made.id);
    // The post under the comment is new to the service, so it is read from Instagram in the
    // background (describe_platform_post): a call with the account's token, which would take the
    // fault meant for the hide. It is waited for first.
    await eventually(async () => {
      const { rows } = await t.database.pool.query<{ count: number }>(
        'select count(*)::int as count from graphile_worker.jobs where key = $1',
        [`describe_platform_post:${comment.post_id}`],
      );
      return rows[0]?.count === 0 ? true : undefined;
    });
    const fault = await sandbox.control('POST', '/faults', {
      platform: 'instagram',
      username: account.sandboxUser,
      error: 'invalid_request',
    });
    expect(fault.status).toBe(201);
    const refused = await act(comment.id, 'hide', { hidden: true });
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json().error).toMatchObject({ code: 'platform_error', details: { platform: 'instagram' } });
    expect(refused.json().error.details.platform_code).toBe('100');

    const throttle = await sandbox.control('POST', '/throttle', {
      platform: 'instagram',
      username: account.sandboxUser,
      seconds: 600,
    });
    expect(throttle.status).toBe(200);
    const limited = await act(comment.id, 'reply', { text: 'later' });
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json().error.code).toBe('platform_rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await sandbox.control('POST', '/throttle', { platform: 'instagram', username: account.sandboxUser, seconds: 0 });
    const after = await getComment(comment.id);
    // Nothing changed; the refused reply is on record as such.
    expect(after).toMatchObject({ hidden: false, reply_status: 'unreplied' });
    expect(after.replies).toMatchObject([{ text: 'later', status: 'failed', platform_comment_id: null }]);
  });
});

describe('Threads replies', () => {
  it('a reply Threads is still processing is `sending`, then published by a job', async () => {
    const account = await connected('threads');
    const made = await commentOn('threads', account, { text: 'question on threads' });
    const comment = await arrived(made.id);
    const res = await act(comment.id, 'reply', { text: 'answer on threads' });
    expect(res.statusCode, res.body).toBe(201);
    // The sandbox keeps reply containers IN_PROGRESS for container_processing_seconds (5 s).
    expect(res.json()).toMatchObject({ status: 'sending', platform_comment_id: null });
    expect((await activity('threads', account.sandboxUser)).filter((a) => a.action === 'reply')).toEqual([]);
    // Threads asks a container's status to be read once a minute: 6 s on, it is not read again.
    await moveTime(t.database.pool, 6000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await getComment(comment.id)).replies[0]?.status).toBe('sending');
    await moveTime(t.database.pool, 55_000);
    const sent = await eventually(async () => {
      const got = await getComment(comment.id);
      return got.replies[0]?.status === 'sent' ? got.replies[0] : undefined;
    });
    expect(sent.platform_comment_id).toMatch(/^\d+$/);
    expect((await activity('threads', account.sandboxUser)).filter((a) => a.action === 'reply')).toHaveLength(1);
    const reads = await containerReads(account.sandboxUser);
    expect(reads).toHaveLength(2);
    expect((reads[1] as number) - (reads[0] as number)).toBeGreaterThanOrEqual(60_000);
  });

  it('a reply Threads never finishes processing is given up once 5 minutes have passed, read once a minute', async () => {
    const account = await connected('threads');
    const made = await commentOn('threads', account, { text: 'a question never answered' });
    const comment = await arrived(made.id);
    await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 'never' });
    try {
      const res = await act(comment.id, 'reply', { text: 'stuck answer' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ status: 'sending' });
      const job = `send_comment_reply:${res.json().id}`;
      // Threads' Troubleshooting page: "once per minute, for no more than 5 minutes".
      for (let minute = 1; minute <= 5; minute += 1) {
        const before = (await containerReads(account.sandboxUser)).length;
        await moveTime(t.database.pool, 61_000);
        // Read again, and (until it is given up) its next read queued before time moves on.
        await eventually(async () => {
          if ((await containerReads(account.sandboxUser)).length === before) return undefined;
          const queued = await t.database.pool.query(
            'select 1 from graphile_worker.jobs where key = $1 and locked_at is null',
            [job],
          );
          return queued.rows.length > 0 || (await getComment(comment.id)).replies[0]?.status === 'failed'
            ? true
            : undefined;
        });
      }
      const failed = await eventually(async () => {
        const got = await getComment(comment.id);
        return got.replies[0]?.status === 'failed' ? got.replies[0] : undefined;
      });
      expect(failed).toMatchObject({
        platform_comment_id: null,
        error:
          'Threads was still processing the reply 5 minutes after it was sent, the longest it asks to be polled for',
      });
      const reads = await containerReads(account.sandboxUser);
      expect(reads).toHaveLength(6);
      for (let i = 1; i < reads.length; i += 1) {
        expect((reads[i] as number) - (reads[i - 1] as number)).toBeGreaterThanOrEqual(60_000);
      }
      expect((await activity('threads', account.sandboxUser)).filter((a) => a.action === 'reply')).toEqual([]);
    } finally {
      await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 5 });
    }
  });
});

/** When the sandbox saw a Threads user's containers' status read (`fields=status,error_message`), oldest first. */
async function containerReads(username: string): Promise<number[]> {
  const { data } = await sandbox.calls('threads', username);
  return data
    .filter((c) => c.method === 'GET' && c.query.fields === 'status,error_message')
    .map((c) => new Date(c.at).getTime());
}

describe('polling', () => {
  it('reads less often while the platform reports its rate limit nearly used', async () => {
    const account = await connected('instagram');
    expect((await sandbox.control('PUT', '/settings/app_usage_percent', { value: 95 })).status).toBe(200);
    try {
      const synced = await sync([account.id]);
      expect(synced.statusCode).toBe(202);
      const state = await eventually(async () => {
        const { rows } = await t.database.pool.query(
          'select last_polled_at, next_poll_at from comment_sync_state where account_id = $1',
          [account.id],
        );
        return rows[0]?.last_polled_at ? rows[0] : undefined;
      });
      // COMMENT_POLL_INTERVAL_SECONDS is 900; at 95% usage the next read waits four intervals.
      const wait = state.next_poll_at.getTime() - state.last_polled_at.getTime();
      expect(wait).toBe(4 * 900_000);
    } finally {
      await sandbox.control('PUT', '/settings/app_usage_percent', { value: 0 });
    }
  });

  it('a post first seen through a notice gets its permalink and time from the platform', async () => {
    const account = await connected('facebook');
    const made = await commentOn('facebook', account, { text: 'on a page post' });
    const comment = await arrived(made.id);
    const post = await eventually(async () => {
      const got = (
        await t.app.inject({ method: 'GET', url: `/v1/posts/${comment.post_id}`, headers: auth(owner.key) })
      ).json();
      return got.targets[0]?.permalink ? got : undefined;
    });
    expect(post.targets[0].permalink).toMatch(/^https:\/\//);
    expect(post.targets[0].published_at).not.toBeNull();
  });
});

describe('profile deletion', () => {
  it('deletes the profile’s comments', async () => {
    const profileId = await newProfile('Leaving client');
    const account = await connected('instagram', { profileId });
    const made = await commentOn('instagram', account, { text: 'soon gone' });
    await arrived(made.id);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/profiles/${profileId}`,
      headers: auth(owner.key),
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await eventually(async () => {
      const rows = await t.database.db.select().from(comments).where(eq(comments.accountId, account.id));
      return rows.length === 0 ? true : undefined;
    });
  });
});

describe('the same comment arriving several ways at once', () => {
  it('two notices and a poll at the same moment store one comment and one event', async () => {
    const account = await connected('instagram');
    const made = await commentOn('instagram', account, { text: 'racing' });
    const notice = {
      account_platform_user_id: account.platformUserId,
      id: made.id,
      post_id: made.post_id,
      parent_id: null,
      author_id: null,
      author_username: 'maya.designs',
      text: 'racing',
      commented_at: made.commented_at,
      noticed_at: made.commented_at,
      hidden: false,
      by_account: false,
    };
    const deps = {
      db: t.database.db,
      log: pino({ level: 'silent' }),
      platforms: () => sandbox.platforms,
      secretKey: t.secretKey,
      commentPollIntervalMs: 900_000,
    };
    await Promise.all([
      ingestNotices(deps, 'instagram', [notice]),
      ingestNotices(deps, 'instagram', [notice]),
      pollComments(deps, account.id),
    ]);
    const comment = await arrived(made.id);
    const stored = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, made.id));
    expect(stored).toHaveLength(1);
    // The sandbox's own notice may still arrive: it too finds the comment stored.
    await eventually(async () => {
      const sent = await sandbox.control('GET', '/webhooks/deliveries?platform=instagram&limit=100');
      const mine = (sent.body as Array<{ body: string; status: number | null }>).find((d) => d.body.includes(made.id));
      return mine?.status === 200 ? true : undefined;
    });
    await noticeJobsDone(t);
    expect(await commentEventsFor(comment.id)).toHaveLength(1);
  });
});

describe('many notices at once', () => {
  /** Comments added on Instagram with its own notices switched off: the test sends the notices. */
  async function quietComments(made: Array<[SandboxAccount, string, string?]>) {
    await sandbox.control('DELETE', '/webhooks/instagram');
    try {
      const out = [];
      for (const [account, text, postId] of made) {
        out.push({
          account,
          ...(await commentOn('instagram', account, { text, ...(postId ? { post_id: postId } : {}) })),
        });
      }
      return out;
    } finally {
      await sandbox.control('PUT', '/webhooks/instagram', {
        callback_url: `${t.url}/platform-webhooks/instagram`,
        verify_token: VERIFY_TOKEN,
        app_secret: SANDBOX_CLIENT.clientSecret,
      });
    }
  }

  function instagramNotice(account: SandboxAccount, c: { id: string; post_id: string; text: string }) {
    return JSON.stringify({
      object: 'instagram',
      entry: [
        {
          id: account.platformUserId,
          time: Math.floor(Date.now() / 1000),
          field: 'comments',
          value: { id: c.id, from: { id: '9002', username: 'maya.designs' }, media: { id: c.post_id }, text: c.text },
        },
      ],
    });
  }

  it('a reply whose notice comes before its parent’s names the parent once that arrives; a parent deleted later is named by none', async () => {
    const account = await connected('instagram');
    const [question] = await quietComments([[account, 'Is the blue one back in stock?']]);
    if (question === undefined) throw new Error('no comment made');
    await sandbox.control('DELETE', '/webhooks/instagram');
    const answer = await commentOn('instagram', account, {
      text: 'Asking the same!',
      author_username: 'leo.k',
      post_id: question.post_id,
      parent_id: question.id,
    }).finally(() =>
      sandbox.control('PUT', '/webhooks/instagram', {
        callback_url: `${t.url}/platform-webhooks/instagram`,
        verify_token: VERIFY_TOKEN,
        app_secret: SANDBOX_CLIENT.clientSecret,
      }),
    );
    const send = async (body: string) => {
      const res = await fetch(`${t.url}/platform-webhooks/instagram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signed(body) },
        body,
      });
      expect(res.status).toBe(200);
    };
    // Instagram's notice of a reply names the comment it answers (value.parent_id).
    const answerNotice = JSON.parse(instagramNotice(account, answer)) as {
      entry: [{ value: Record<string, unknown> }];
    };
    answerNotice.entry[0].value.parent_id = question.id;
    await send(JSON.stringify(answerNotice));
    const early = await arrived(answer.id);
    expect(early.parent_id).toBeNull();

    await send(instagramNotice(account, question));
    const parent = await arrived(question.id);
    expect((await getComment(early.id)).parent_id).toBe(parent.id);
    const listed = await list(`?account_id=${account.id}`);
    expect(listed.map((c) => [c.id, c.parent_id])).toEqual(
      expect.arrayContaining([
        [early.id, parent.id],
        [parent.id, null],
      ]),
    );

    // The parent gone from the service (as an account's own reply deleted through the API is):
    // the reply still stands, answering no comment the service has.
    await t.database.db.delete(comments).where(eq(comments.id, parent.id));
    expect((await getComment(early.id)).parent_id).toBeNull();
    expect((await list(`?account_id=${account.id}`)).map((c) => [c.id, c.parent_id])).toEqual([[early.id, null]]);
  });

  it('notices of several accounts sent together are each answered 200, and each comment is stored once with Instagram’s time and one comment.created', async () => {
    const [first, second, third] = [
      await connected('instagram'),
      await connected('instagram'),
      await connected('instagram'),
    ];
    const made = await quietComments([
      [first, 'together one'],
      [second, 'together two'],
      [third, 'together three'],
      [first, 'together four'],
    ]);
    const stranger = JSON.stringify({
      object: 'instagram',
      entry: [
        {
          id: '17841400000009999',
          time: Math.floor(Date.now() / 1000),
          field: 'comments',
          value: { id: '18000000000009999', from: { id: '9003', username: 'nobody' }, media: { id: '1' }, text: 'x' },
        },
      ],
    });
    const bodies = [...made.map((c) => instagramNotice(c.account, c)), stranger];
    const answers = await Promise.all(
      bodies.map((body) =>
        fetch(`${t.url}/platform-webhooks/instagram`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signed(body) },
          body,
        }).then(async (res) => [res.status, await res.json()]),
      ),
    );
    expect(answers).toEqual(bodies.map(() => [200, { received: 1 }]));
    for (const c of made) {
      const comment = await arrived(c.id);
      expect(comment.text).toBe(c.text);
      expect(comment.account_id).toBe(c.account.id);
      expect(comment.commented_at).toBe(toSecond(c.commented_at));
      const delivered = await eventually(async () => (deliveriesFor(comment.id).length > 0 ? true : undefined));
      expect(delivered).toBe(true);
    }
    await noticeJobsDone(t);
    for (const c of made) {
      const [row] = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, c.id));
      expect(await commentEventsFor(row?.id as string)).toHaveLength(1);
    }
    const stored = await t.database.db
      .select()
      .from(comments)
      .where(eq(comments.platformCommentId, '18000000000009999'));
    expect(stored).toEqual([]);
  });

  /** What `ingest_comment_notices` carries for a comment a notice named, without its time (Instagram's). */
  function noticeOf(c: { account: SandboxAccount; id: string; post_id: string; text: string }, user?: string) {
    return {
      account_platform_user_id: user ?? c.account.platformUserId,
      id: c.id,
      post_id: c.post_id,
      parent_id: null,
      author_id: '9004',
      author_username: 'maya.designs',
      text: c.text,
      commented_at: null,
      noticed_at: new Date().toISOString(),
      hidden: false,
      by_account: false,
    };
  }

  it('one job of several users’ notices stores each user’s comments; a user no account has, or one whose read must wait, holds back no other', async () => {
    const [first, second, throttled] = [
      await connected('instagram'),
      await connected('instagram'),
      await connected('instagram'),
    ];
    // Instagram refuses the third user's calls as over its rate limit (from before its comment
    // exists, so that no poll reads it meanwhile): its time cannot be read now.
    await sandbox.control('POST', '/throttle', {
      platform: 'instagram',
      username: throttled.sandboxUser,
      seconds: 600,
    });
    let queued: Array<{ id: string; payload: { attempt: number; comments: Array<{ id: string }> } }>;
    let late: { account: SandboxAccount; id: string; post_id: string; text: string; commented_at: string };
    let made: (typeof late)[];
    try {
      made = await quietComments([
        [first, 'one job one'],
        [second, 'one job two'],
        [throttled, 'one job three'],
      ]);
      const third = made.splice(2, 1)[0];
      if (!third) throw new Error('three comments were made');
      late = third;
      const strangers = made.map((c) => ({ ...noticeOf(c, '17841400000009998'), id: `${c.id}9` }));
      await ingestNotices(pollDeps(t, sandbox.platforms), 'instagram', [
        ...strangers.slice(0, 1),
        ...made.map((c) => noticeOf(c)),
        noticeOf(late),
        ...strangers.slice(1),
      ]);
      for (const c of made) {
        const comment = await arrived(c.id);
        expect(comment.account_id).toBe(c.account.id);
        expect(comment.commented_at).toBe(toSecond(c.commented_at));
        expect(await commentEventsFor(comment.id)).toHaveLength(1);
      }
      for (const n of strangers) {
        expect(await t.database.db.select().from(comments).where(eq(comments.platformCommentId, n.id))).toEqual([]);
      }
      // The throttled user's comment is in the inbox, unconfirmed and without its event, and is
      // queued again on its own, for when Instagram lets the account call again.
      const waiting = await arrived(late.id);
      const [row] = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, late.id));
      expect(row?.timeConfirmed).toBe(false);
      expect(await commentEventsFor(waiting.id)).toEqual([]);
      queued = (
        await t.database.pool.query(
          `select j.id, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
           where t.identifier = 'ingest_comment_notices' and j.payload::text like $1`,
          [`%${late.id}%`],
        )
      ).rows;
      expect(queued.map((j) => [j.payload.attempt, j.payload.comments.map((c) => c.id)])).toEqual([[1, [late.id]]]);
    } finally {
      await sandbox.control('POST', '/throttle', {
        platform: 'instagram',
        username: throttled.sandboxUser,
        seconds: 0,
      });
    }
    const waiting = await arrived(late.id);
    await t.database.pool.query('update graphile_worker._private_jobs set run_at = now() where id = $1', [
      queued[0]?.id,
    ]);
    await eventually(async () => ((await commentEventsFor(waiting.id)).length > 0 ? true : undefined));
    expect((await arrived(late.id)).commented_at).toBe(toSecond(late.commented_at));
    expect(await commentEventsFor(waiting.id)).toHaveLength(1);
  });

  it('an account whose comments the database refuses fails only its own storing; the job’s other accounts are stored', async () => {
    // No worker meanwhile: the accounts' first polls would store the comments on their own.
    await withoutWorkers(async () => {
      const [kept, refused] = [await connected('instagram'), await connected('instagram')];
      const made = await quietComments([
        [kept, 'stored all the same'],
        [refused, 'refused by the database'],
      ]);
      await t.database.pool.query(`
        create function test_refuse_comment() returns trigger language plpgsql as $$
        begin
          if new.text = 'refused by the database' then raise exception 'refused for the test'; end if;
          return new;
        end $$;
        create trigger test_refuse_comment before insert on comments for each row execute function test_refuse_comment()`);
      try {
        await expect(
          ingestNotices(
            pollDeps(t, sandbox.platforms),
            'instagram',
            made.map((c) => noticeOf(c)),
          ),
        ).rejects.toHaveProperty('cause.message', 'refused for the test');
      } finally {
        await t.database.pool.query(
          'drop trigger test_refuse_comment on comments; drop function test_refuse_comment()',
        );
      }
      const [stored, lost] = made;
      const comment = await arrived(stored?.id as string);
      expect(comment.text).toBe('stored all the same');
      expect(await commentEventsFor(comment.id)).toHaveLength(1);
      // The job is tried again (graphile-worker retries it): the refused account's comment then comes in once.
      await ingestNotices(
        pollDeps(t, sandbox.platforms),
        'instagram',
        made.map((c) => noticeOf(c)),
      );
      expect((await arrived(lost?.id as string)).text).toBe('refused by the database');
      expect(await commentEventsFor(comment.id)).toHaveLength(1);
    });
  });

  it('one job of notices for accounts of two owners and two profiles stores each comment under its own account, owner and profile, with its own event', async () => {
    const agency = await t.createOwner();
    const second = await newProfile('A second client');
    // No worker meanwhile: the accounts' first polls would store the comments on their own.
    await withoutWorkers(async () => {
      const [inDefault, inSecond] = [await connected('instagram'), await connected('instagram', { profileId: second })];
      // The second client's Instagram user is connected by another agency too: its notice is stored for both.
      const alsoAgency = await connectSandboxAccount(t, sandbox, agency, 'instagram', inSecond.sandboxUser);
      const made = await quietComments([
        [inDefault, 'for the default profile'],
        [inSecond, 'for the second profile and the agency'],
      ]);
      // Stored together: a failure of the one transaction would be followed by each account's own (and this warning).
      const logged: { msg: string }[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
      await ingestNotices(
        { ...pollDeps(t, sandbox.platforms), log },
        'instagram',
        made.map((c) => noticeOf(c)),
      );
      expect(logged.map((l) => l.msg)).toEqual([]);
      const [first, other] = made as [(typeof made)[number], (typeof made)[number]];
      const stored = await t.database.db
        .select({
          ownerId: comments.ownerId,
          profileId: comments.profileId,
          accountId: comments.accountId,
          platformCommentId: comments.platformCommentId,
          text: comments.text,
        })
        .from(comments)
        .where(inArray(comments.platformCommentId, [first.id, other.id]));
      const byAccount = (a: { accountId: string }, b: { accountId: string }) => a.accountId.localeCompare(b.accountId);
      expect(stored.sort(byAccount)).toEqual(
        [
          {
            ownerId: owner.ownerId,
            profileId: owner.defaultProfileId,
            accountId: inDefault.id,
            platformCommentId: first.id,
            text: 'for the default profile',
          },
          {
            ownerId: owner.ownerId,
            profileId: second,
            accountId: inSecond.id,
            platformCommentId: other.id,
            text: 'for the second profile and the agency',
          },
          {
            ownerId: agency.ownerId,
            profileId: agency.defaultProfileId,
            accountId: alsoAgency.id,
            platformCommentId: other.id,
            text: 'for the second profile and the agency',
          },
        ].sort(byAccount),
      );
      // Each owner reads its own copy through the API, and each copy has one comment.created, in its owner's profile.
      const rows = await t.database.db
        .select()
        .from(comments)
        .where(inArray(comments.platformCommentId, [first.id, other.id]));
      for (const row of rows) {
        const key = row.ownerId === agency.ownerId ? agency.key : owner.key;
        const read = await t.app.inject({ method: 'GET', url: `/v1/comments/${row.id}`, headers: auth(key) });
        expect(read.statusCode, read.body).toBe(200);
        expect(read.json()).toMatchObject({ account_id: row.accountId, text: row.text });
        // Its post too, a record of the platform post in the comment's own owner and profile.
        const post = await t.app.inject({ method: 'GET', url: `/v1/posts/${read.json().post_id}`, headers: auth(key) });
        expect(post.statusCode, post.body).toBe(200);
        expect(post.json()).toMatchObject({ source: 'platform', profile_id: row.profileId });
        expect(post.json().targets).toMatchObject([
          { account_id: row.accountId, platform_post_id: row.platformPostId },
        ]);
        const created = await commentEventsFor(row.id);
        expect(created.map((e) => [e.ownerId, e.profileId])).toEqual([[row.ownerId, row.profileId]]);
      }
    });
  });

  it("one job of notices on four accounts' posts names each comment's post: published through the API, seen before, new, and published through the API before its account moved", async () => {
    const movedTo = await newProfile('A client the account moved to');
    await withoutWorkers(async () => {
      const [viaApi, seen, fresh, moved] = [
        await connected('instagram'),
        await connected('instagram'),
        await connected('instagram'),
        await connected('instagram'),
      ];
      const mediaOf = async (account: SandboxAccount) =>
        (await sandbox.control('GET', `/users/instagram/${account.sandboxUser}`)).body.posts[0].id as string;
      const [apiMedia, seenMedia, freshMedia, movedMedia] = [
        await mediaOf(viaApi),
        await mediaOf(seen),
        await mediaOf(fresh),
        await mediaOf(moved),
      ];
      /** A post the owner published through the API on the account's media. */
      const publishedThroughApi = async (account: SandboxAccount, media: string) => {
        const image = multipartUpload(await imageFile('jpeg'), { filename: 'photo.jpg' });
        const uploaded = await t.app.inject({
          method: 'POST',
          url: '/v1/media',
          headers: { ...auth(owner.key), ...image.headers },
          payload: image.payload,
        });
        expect(uploaded.statusCode, uploaded.body).toBe(201);
        const scheduled = await t.app.inject({
          method: 'POST',
          url: '/v1/posts',
          headers: auth(owner.key),
          payload: {
            account_ids: [account.id],
            text: 'Ours',
            media_ids: [uploaded.json().id],
            scheduled_at: new Date(now().getTime() + 86_400_000).toISOString(),
          },
        });
        expect(scheduled.statusCode, scheduled.body).toBe(201);
        const id = scheduled.json().id as string;
        await t.database.pool.query(
          `update post_targets set status = 'published', platform_post_id = $2, published_at = now() where post_id = $1`,
          [id, media],
        );
        await t.database.pool.query(`update posts set status = 'published' where id = $1`, [id]);
        return id;
      };
      const apiPost = await publishedThroughApi(viaApi, apiMedia);
      // A post published through the API stays in its profile when its account moves: a comment
      // on it then needs a record in the account's new profile.
      const leftBehind = await publishedThroughApi(moved, movedMedia);
      const move = await t.app.inject({
        method: 'POST',
        url: `/v1/accounts/${moved.id}/move`,
        headers: auth(owner.key),
        payload: { profile_id: movedTo },
      });
      expect(move.statusCode, move.body).toBe(200);
      // The second account's media is known from an earlier comment's notice.
      const [earlier] = await quietComments([[seen, 'the first on this post', seenMedia]]);
      if (!earlier) throw new Error('no comment');
      await ingestNotices(pollDeps(t, sandbox.platforms), 'instagram', [noticeOf(earlier)]);
      const seenPost = (await arrived(earlier.id)).post_id as string;

      const made = await quietComments([
        [viaApi, 'on the post published through the API', apiMedia],
        [seen, 'on the post seen before', seenMedia],
        [fresh, 'on a post new to the service', freshMedia],
        [moved, 'on a post published before the account moved', movedMedia],
      ]);
      await ingestNotices(
        pollDeps(t, sandbox.platforms),
        'instagram',
        made.map((c) => noticeOf(c)),
      );
      const [onApi, onSeen, onFresh, onMoved] = await Promise.all(made.map((c) => arrived(c.id)));
      expect(onApi.post_id).toBe(apiPost);
      expect(onSeen.post_id).toBe(seenPost);
      const readPost = async (id: string) => {
        const post = await t.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: auth(owner.key) });
        expect(post.statusCode, post.body).toBe(200);
        return post.json();
      };
      expect(await readPost(onFresh.post_id)).toMatchObject({
        source: 'platform',
        status: 'published',
        text: null,
        profile_id: owner.defaultProfileId,
        targets: [{ account_id: fresh.id, platform_post_id: freshMedia }],
      });
      expect(onMoved.post_id).not.toBe(leftBehind);
      expect(await readPost(onMoved.post_id)).toMatchObject({
        source: 'platform',
        profile_id: movedTo,
        targets: [{ account_id: moved.id, platform_post_id: movedMedia }],
      });
      // The platform posts' text, permalink and time are read from Instagram in the background
      // (the one seen before since its first comment); the posts published through the API need no read.
      const described = await t.database.pool.query<{ key: string }>(
        `select key from graphile_worker.jobs where task_identifier = 'describe_platform_post' and key = any($1) order by key`,
        [[apiPost, leftBehind, seenPost, onFresh.post_id, onMoved.post_id].map((id) => `describe_platform_post:${id}`)],
      );
      expect(described.rows.map((r) => r.key)).toEqual(
        [seenPost, onFresh.post_id, onMoved.post_id].map((id) => `describe_platform_post:${id}`).sort(),
      );
      // One record for each account's platform post, however often its comments arrive.
      const records = await t.database.pool.query<{ count: number }>(
        `select count(*)::int as count from posts where platform_key = any($1)`,
        [
          [
            `${seen.id}:${seenMedia}`,
            `${fresh.id}:${freshMedia}`,
            `${viaApi.id}:${apiMedia}`,
            `${moved.id}:${movedMedia}`,
          ],
        ],
      );
      expect(records.rows[0]?.count).toBe(3);
    });
  });

  it("a burst of one account's notices: its comments' times are read 50 a call, each comment stored once with Instagram's time and one comment.created; a deleted one is left out", async () => {
    const [burst, other] = [await connected('instagram'), await connected('instagram')];
    const deps = {
      db: t.database.db,
      log: pino({ level: 'silent' }),
      platforms: () => sandbox.platforms,
      secretKey: t.secretKey,
    };
    // No worker meanwhile: a poll would read the comments (and their times) on its own.
    await withoutWorkers(async () => {
      const made = await quietComments([
        ...Array.from({ length: 120 }, (_, i): [SandboxAccount, string] => [burst, `burst ${i}`]),
        [other, 'beside the burst'],
      ]);
      // The account removed one fan's comment on Instagram before the notices were read.
      const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, burst.id));
      if (!row) throw new Error('no account');
      const gone = made[7] as (typeof made)[number];
      const deletion = await fetch(
        `${sandbox.url}/graph.instagram.com/v27.0/${gone.id}?access_token=${encodeURIComponent(credentialsOf(t.secretKey, row).accessToken)}`,
        { method: 'DELETE' },
      );
      expect(deletion.status).toBe(200);
      // Earlier tests move the sandbox's clock: the calls are told apart by their place in the log.
      const logged = async (account: SandboxAccount) => (await sandbox.calls('instagram', account.sandboxUser)).data;
      const [burstBefore, otherBefore] = [(await logged(burst)).length, (await logged(other)).length];
      await ingestNotices(
        deps,
        'instagram',
        made.map((c) => noticeOf(c)),
      );
      // 120 ids to read for the burst: 50 (refused naming the deleted one, then its other 49
      // read again), 50 and 20; the other account's one by its own id.
      const reads = (await logged(burst)).slice(burstBefore);
      expect(reads.map((c) => c.query.ids?.split(',').length)).toEqual([50, 49, 50, 20]);
      const otherReads = (await logged(other)).slice(otherBefore);
      expect(otherReads.map((c) => c.path)).toEqual([`/graph.instagram.com/v27.0/${made[120]?.id}`]);
      const stored = await t.database.db.select().from(comments).where(eq(comments.accountId, burst.id));
      expect(stored.map((c) => c.platformCommentId).sort()).toEqual(
        made
          .slice(0, 120)
          .filter((c) => c.id !== gone.id)
          .map((c) => c.id)
          .sort(),
      );
      const byId = new Map(stored.map((c) => [c.platformCommentId, c]));
      for (const c of made.slice(0, 120)) {
        if (c.id === gone.id) continue;
        const comment = byId.get(c.id);
        expect(comment?.timeConfirmed).toBe(true);
        expect(comment?.commentedAt.toISOString()).toBe(toSecond(c.commented_at));
      }
      const created = await t.database.db.select().from(events).where(eq(events.type, 'comment.created'));
      const burstEvents = created.filter((e) => (e.data as { account_id: string }).account_id === burst.id);
      expect(burstEvents).toHaveLength(119);
      expect(
        new Set(burstEvents.map((e) => (e.data as { platform_comment_id: string }).platform_comment_id)).size,
      ).toBe(119);
      // The same notices again (Meta's retries): only the deleted comment, stored with no time,
      // is read again (by its own id); nothing more is stored or sent.
      const burstAgain = (await logged(burst)).length;
      await ingestNotices(
        deps,
        'instagram',
        made.map((c) => noticeOf(c)),
      );
      const readAgain = (await logged(burst)).slice(burstAgain);
      expect(readAgain.map((c) => c.path)).toEqual([`/graph.instagram.com/v27.0/${gone.id}`]);
      const after = await t.database.db.select().from(events).where(eq(events.type, 'comment.created'));
      expect(after.filter((e) => (e.data as { account_id: string }).account_id === burst.id)).toHaveLength(119);
    });
  });

  it('words an array of text would have to quote are stored byte for byte, each comment once however often it is told of', async () => {
    const account = await connected('instagram');
    // No worker meanwhile: a poll would read the comments on its own.
    await withoutWorkers(async () => {
      const words = [
        'she said "hi", then left',
        'a back\\slash, \\" and \\\\ two',
        '{braces}, commas, and {"json": [1, 2]}',
        'NULL',
        'null',
        'line one\nline two\ttabbed',
        'emoji 🎉 and ünïcödé',
        '  spaces at both ends  ',
        'a NUL here',
      ];
      const made = await quietComments(words.map((w): [SandboxAccount, string] => [account, w]));
      // Instagram's notice carries the words and the author's name; a NUL in them is kept as U+FFFD.
      const oddName = ' a "quoted", {odd} \\ name ';
      const notices = made.map((c, i) => {
        const notice = noticeOf(i === 8 ? { ...c, text: 'a NUL\u0000here' } : c);
        return i === 0 ? { ...notice, author_username: oddName } : notice;
      });
      const deps = pollDeps(t, sandbox.platforms);
      await ingestNotices(deps, 'instagram', notices);
      const expected = [...words.slice(0, 8), 'a NUL\uFFFDhere'];
      const storedOf = async () =>
        new Map(
          (await t.database.db.select().from(comments).where(eq(comments.accountId, account.id))).map((c) => [
            c.platformCommentId,
            c,
          ]),
        );
      const stored = await storedOf();
      expect(stored.size).toBe(9);
      for (const [i, c] of made.entries()) {
        expect(stored.get(c.id)).toMatchObject({
          accountId: account.id,
          platform: 'instagram',
          platformPostId: c.post_id,
          platformParentId: null,
          parentId: null,
          authorId: '9004',
          authorUsername: i === 0 ? oddName : 'maya.designs',
          text: expected[i],
          timeConfirmed: true,
          hidden: false,
          rating: null,
          editedAt: null,
          byAccount: false,
          replyStatus: 'unreplied',
        });
        expect(stored.get(c.id)?.commentedAt.toISOString()).toBe(toSecond(c.commented_at));
        const sent = await commentEventsFor(stored.get(c.id)?.id as string);
        expect(sent.map((e) => (e.data as { text: string }).text)).toEqual([expected[i]]);
      }
      // Told of again: the same rows, no second event.
      await ingestNotices(deps, 'instagram', notices);
      const again = await storedOf();
      expect([...again.values()].map((c) => c.id).sort()).toEqual([...stored.values()].map((c) => c.id).sort());
      for (const c of again.values()) expect(await commentEventsFor(c.id)).toHaveLength(1);
    });
  });

  it("a read's hidden state is taken by a stored comment, unless the comment was hidden or shown after that read", async () => {
    const account = await connected('instagram');
    // No worker meanwhile: the account's first poll would read the comment's hidden state on its own.
    await withoutWorkers(() => hiddenStateTaken(account));
  });

  async function hiddenStateTaken(account: SandboxAccount) {
    const [made] = await quietComments([[account, 'hidden through the API']]);
    if (!made) throw new Error('no comment made');
    await ingestNotices(pollDeps(t, sandbox.platforms), 'instagram', [noticeOf(made)]);
    const comment = await arrived(made.id);
    const hidden = await act(comment.id, 'hide', { hidden: true });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const [row] = await t.database.db.select().from(comments).where(eq(comments.id, comment.id));
    if (!row) throw new Error('no comment stored');
    const read: IncomingComment = {
      id: made.id,
      postId: made.post_id,
      parentId: null,
      authorId: '9004',
      authorUsername: 'maya.designs',
      text: made.text,
      createdAt: row.commentedAt,
      hidden: false,
      byAccount: false,
    };
    const storeRead = (readAt: Date) =>
      t.database.db.transaction((tx) => storeComments(tx, account.id, [read], [], { hiddenReadAt: readAt }));
    // Read (shown) before the hide: the hide is newer, and stays.
    expect(await storeRead(new Date(row.updatedAt.getTime() - 1000))).toEqual([]);
    expect((await getComment(comment.id)).hidden).toBe(true);
    // Read after it: the platform's state is taken, on the same row.
    expect(await storeRead(new Date(row.updatedAt.getTime() + 1000))).toEqual([]);
    expect((await getComment(comment.id)).hidden).toBe(false);
    expect(await t.database.db.select().from(comments).where(eq(comments.platformCommentId, made.id))).toHaveLength(1);
    expect(await commentEventsFor(comment.id)).toHaveLength(1);
  }
});

describe('odd notices', () => {
  it('a signed notice with a NUL in the text, an impossible time and a malformed id changes nothing else and crashes nothing', async () => {
    const account = await connected('instagram');
    // A comment Instagram has (its time is read from Instagram); the notice sent by hand.
    await sandbox.control('DELETE', '/webhooks/instagram');
    let made: Awaited<ReturnType<typeof commentOn>>;
    try {
      made = await commentOn('instagram', account, { text: 'nul inside', author_username: 'odd.one' });
    } finally {
      await sandbox.control('PUT', '/webhooks/instagram', {
        callback_url: `${t.url}/platform-webhooks/instagram`,
        verify_token: VERIFY_TOKEN,
        app_secret: SANDBOX_CLIENT.clientSecret,
      });
    }
    const entry = (id: string, text: string, time: number) => ({
      id: account.platformUserId,
      time,
      field: 'comments',
      value: { id, from: { id: '9001', username: 'odd.one' }, media: { id: made.post_id }, text },
    });
    const body = JSON.stringify({
      object: 'instagram',
      entry: [entry(made.id, 'nul\u0000inside', 1e20), entry('bad id with spaces', 'dropped', 1)],
    });
    const res = await fetch(`${t.url}/platform-webhooks/instagram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signed(body) },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 1 });
    const comment = await arrived(made.id);
    expect(comment.text).toBe('nul\uFFFDinside');
    // Instagram's time, to the second, as the Graph API writes times.
    expect(comment.commented_at).toBe(toSecond(made.commented_at));
  });
});

describe('the poll schedule', () => {
  it('reads a just-connected account at once, and an older one at its own phase within the interval', async () => {
    const fresh = await connected('threads');
    const older = await connected('facebook');
    // The workers' own poll of the fresh account (queued by its connection) or their schedule
    // would otherwise write its state between the delete below and this schedule.
    await withoutWorkers(() => expectPollSchedule(fresh, older));
  });
});

/** Schedules polls of a just-connected account and one connected 2 days ago, and checks each one's next poll. */
async function expectPollSchedule(fresh: { id: string }, older: { id: string }): Promise<void> {
  await t.database.db
    .update(accounts)
    .set({ connectedAt: new Date(now().getTime() - 2 * 86_400_000) })
    .where(eq(accounts.id, older.id));
  await t.database.pool.query('delete from comment_sync_state where account_id = any($1)', [[fresh.id, older.id]]);
  const before = now().getTime();
  await scheduleCommentPolls({ db: t.database.db, commentPollIntervalMs: 900_000 });
  const after = now().getTime();
  const { rows } = await t.database.pool.query(
    'select account_id, next_poll_at from comment_sync_state where account_id = any($1)',
    [[fresh.id, older.id]],
  );
  const next = new Map(rows.map((r) => [r.account_id, (r.next_poll_at as Date).getTime()]));
  // The fresh one was due at once: queued, and its next read one interval on.
  expect(next.get(fresh.id)).toBeGreaterThanOrEqual(before + 900_000);
  expect(next.get(fresh.id)).toBeLessThanOrEqual(after + 900_000);
  const jobs = await t.database.pool.query(
    `select key from graphile_worker.jobs where task_identifier = 'poll_comments' and key = any($1)`,
    [[`poll_comments:${fresh.id}`, `poll_comments:${older.id}`]],
  );
  expect(jobs.rows.map((r) => r.key)).toContain(`poll_comments:${fresh.id}`);
  expect(jobs.rows.map((r) => r.key)).not.toContain(`poll_comments:${older.id}`);
  // The older one waits for its phase: later than now, within one interval.
  expect(next.get(older.id)).toBeGreaterThanOrEqual(before);
  expect(next.get(older.id)).toBeLessThan(after + 900_000);
  expect(next.get(older.id)).not.toBe(next.get(fresh.id));
}

describe('LinkedIn: comments read by polling, answered as the organization', () => {
  /** A LinkedIn account is the member's first organization page; comments are made on its posts. */
  const organizationOf = (account: SandboxAccount) => `${account.sandboxUser}.company1`;

  async function linkedinComment(account: SandboxAccount, text: string, under?: { id: string; post_id: string }) {
    const res = await sandbox.control('POST', '/comments', {
      platform: 'linkedin',
      username: organizationOf(account),
      author_username: 'jordan.recruits',
      text,
      ...(under === undefined ? {} : { post_id: under.post_id, parent_id: under.id }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = res.body as { id: string; post_id: string };
    return { ...made, urn: `urn:li:comment:(urn:li:activity:${made.post_id},${made.id})` };
  }

  it('a comment added on LinkedIn reaches the inbox by the periodic read and is delivered as comment.created', async () => {
    const account = await connected('linkedin');
    const made = await linkedinComment(account, 'Congratulations on the launch!');
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(made.urn);
    expect(comment).toMatchObject({
      account_id: account.id,
      platform: 'linkedin',
      platform_comment_id: made.urn,
      parent_id: null,
      author_id: expect.stringMatching(/^urn:li:person:/),
      text: 'Congratulations on the launch!',
      hidden: false,
      reply_status: 'unreplied',
      from_account: false,
      can_reply: true,
      can_hide: false,
    });
    const delivered = await eventually(async () => {
      const found = deliveriesFor(comment.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.body.data).toMatchObject({ comment_id: comment.id, platform: 'linkedin' });
    // LinkedIn sends no notices: the account says its comments come by polling alone.
    const shown = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(shown.json()).toMatchObject({ notices: 'polling_only' });
  });

  it("another member's reply under a comment reaches the inbox with its parent, and is delivered as comment.created", async () => {
    const account = await connected('linkedin');
    const made = await linkedinComment(account, 'When is the next event?');
    const answer = await linkedinComment(account, 'I would like to know too', made);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const parent = await arrived(made.urn);
    const reply = await arrived(`urn:li:comment:(urn:li:activity:${made.post_id},${answer.id})`);
    expect(reply).toMatchObject({
      account_id: account.id,
      platform: 'linkedin',
      parent_id: parent.id,
      text: 'I would like to know too',
      from_account: false,
      can_reply: true,
    });
    const delivered = await eventually(async () => {
      const found = deliveriesFor(reply.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered[0]?.body.data).toMatchObject({ comment_id: reply.id, platform: 'linkedin' });
  });

  it('a reply lands on LinkedIn as the organization, under the comment; hiding is 422 unsupported_platform', async () => {
    const account = await connected('linkedin');
    const made = await linkedinComment(account, 'Are you hiring in Lyon?');
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(made.urn);
    const res = await act(comment.id, 'reply', { text: 'We are: see our careers page' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ comment_id: comment.id, status: 'sent', text: 'We are: see our careers page' });

    // What LinkedIn received: a comment under the comment, its actor the organization.
    const replies = (await activity('linkedin', account.sandboxUser)).filter((a) => a.action === 'reply');
    expect(replies).toEqual([
      expect.objectContaining({
        target_id: made.urn,
        detail: {
          comment_urn: res.json().platform_comment_id,
          actor: `urn:li:organization:${account.platformUserId}`,
          object: `urn:li:activity:${made.post_id}`,
          parent_comment: made.urn,
          message: 'We are: see our careers page',
        },
      }),
    ]);

    const hide = await act(comment.id, 'hide', { hidden: true });
    expect(hide.statusCode, hide.body).toBe(422);
    expect((hide.json() as ErrorBody).error.code).toBe('unsupported_platform');
  });

  /** DELETE /v1/comments/{id}/replies/{reply_id}, as the owner unless another key is given. */
  function deleteReply(commentId: string, replyId: string, key = owner.key) {
    return t.app.inject({
      method: 'DELETE',
      url: `/v1/comments/${commentId}/replies/${replyId}`,
      headers: auth(key),
    });
  }

  /** A LinkedIn comment in the inbox and the organization's reply to it, sent through the API. */
  async function answered(text: string) {
    const account = await connected('linkedin');
    const made = await linkedinComment(account, text);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(made.urn);
    const res = await act(comment.id, 'reply', { text: 'Thank you!' });
    expect(res.statusCode, res.body).toBe(201);
    return { account, made, comment, reply: res.json() };
  }

  it("the organization's reply is deleted on LinkedIn, shown `deleted` in the comment's replies; a second DELETE answers the same and asks nothing", async () => {
    const { account, made, comment, reply } = await answered('Do you ship to Canada?');
    const ownReply = await arrived(reply.platform_comment_id);
    expect(ownReply).toMatchObject({ from_account: true });

    const res = await deleteReply(comment.id, reply.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: reply.id,
      comment_id: comment.id,
      status: 'deleted',
      platform_comment_id: reply.platform_comment_id,
      deleted_at: expect.any(String),
    });
    // What LinkedIn received: one deletion of the reply, under the comment, as the organization.
    const deletions = (await activity('linkedin', account.sandboxUser)).filter((a) => a.action === 'delete_comment');
    expect(deletions).toEqual([
      expect.objectContaining({
        target_id: reply.platform_comment_id,
        detail: { target: made.urn, actor: `urn:li:organization:${account.platformUserId}` },
      }),
    ]);
    // The comment keeps the reply, showing its state; the account's own comment it became is gone.
    const shown = await getComment(comment.id);
    expect(shown.replies).toEqual([expect.objectContaining({ id: reply.id, status: 'deleted' })]);
    expect(shown.reply_status).toBe('replied');
    const gone = await t.app.inject({ method: 'GET', url: `/v1/comments/${ownReply.id}`, headers: auth(owner.key) });
    expect(gone.statusCode).toBe(404);

    // Answered again, even once the account needs reconnecting: nothing is asked of LinkedIn.
    await t.database.db.update(accounts).set({ status: 'expired' }).where(eq(accounts.id, account.id));
    const again = await deleteReply(comment.id, reply.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(res.json());
    const after = (await activity('linkedin', account.sandboxUser)).filter((a) => a.action === 'delete_comment');
    expect(after).toHaveLength(1);
  });

  it('LinkedIn refusing the deletion is 502 platform_error and the reply is `sent` again; a DELETE later deletes it', async () => {
    const { account, comment, reply } = await answered('Do you sponsor visas?');
    const fault = await sandbox.control('POST', '/faults', {
      platform: 'linkedin',
      username: account.sandboxUser,
      error: 'invalid_request',
    });
    expect(fault.status, JSON.stringify(fault.body)).toBe(201);
    const refused = await deleteReply(comment.id, reply.id);
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json().error).toMatchObject({ code: 'platform_error', details: { platform: 'linkedin' } });
    expect((await getComment(comment.id)).replies).toEqual([
      expect.objectContaining({ id: reply.id, status: 'sent', deleted_at: null }),
    ]);
    const res = await deleteReply(comment.id, reply.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'deleted' });
  });

  it('without w_organization_social the deletion is 422 permission_missing naming it, and LinkedIn is not asked', async () => {
    const { account, comment, reply } = await answered('Any remote roles?');
    await t.database.db
      .update(accounts)
      .set({ scopes: ['r_basicprofile', 'rw_organization_admin', 'r_organization_social'] })
      .where(eq(accounts.id, account.id));
    const res = await deleteReply(comment.id, reply.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'permission_missing',
      details: { permission: 'w_organization_social' },
    });
    const deletions = (await activity('linkedin', account.sandboxUser)).filter((a) => a.action === 'delete_comment');
    expect(deletions).toEqual([]);
    expect((await getComment(comment.id)).replies).toEqual([expect.objectContaining({ status: 'sent' })]);
  });

  it('a reply left `deleting` by a request that ended after LinkedIn deleted it is finished by the next DELETE, LinkedIn asked once more', async () => {
    const { account, comment, reply } = await answered('Is there parking?');
    expect((await deleteReply(comment.id, reply.id)).statusCode).toBe(200);
    // As if the service stopped once LinkedIn had answered, before recording it.
    await t.database.db
      .update(commentReplies)
      .set({ status: 'deleting', deletedAt: null })
      .where(eq(commentReplies.id, reply.id));
    expect((await getComment(comment.id)).replies[0]).toMatchObject({ status: 'deleting' });
    const res = await deleteReply(comment.id, reply.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'deleted', deleted_at: expect.any(String) });
    // LinkedIn answered 404 to the second ask (it had deleted the reply): one deletion made.
    const deletions = (await activity('linkedin', account.sandboxUser)).filter((a) => a.action === 'delete_comment');
    expect(deletions).toHaveLength(1);
  });

  it("a reply still `sending` or `failed` is 409 reply_not_deletable; another comment's reply 404; another profile 404; no platform call", async () => {
    const { account, comment, reply } = await answered('Where are you based?');
    await t.database.db.update(commentReplies).set({ status: 'sending' }).where(eq(commentReplies.id, reply.id));
    const sending = await deleteReply(comment.id, reply.id);
    expect(sending.statusCode, sending.body).toBe(409);
    expect(sending.json().error).toMatchObject({ code: 'reply_not_deletable', details: { status: 'sending' } });
    await t.database.db.update(commentReplies).set({ status: 'failed' }).where(eq(commentReplies.id, reply.id));
    const failed = await deleteReply(comment.id, reply.id);
    expect(failed.statusCode, failed.body).toBe(409);
    expect(failed.json().error).toMatchObject({ code: 'reply_not_deletable', details: { status: 'failed' } });

    const other = await answered('Another question');
    const mismatched = await deleteReply(other.comment.id, reply.id);
    expect(mismatched.statusCode).toBe(404);
    expect(mismatched.json().error.code).toBe('reply_not_found');

    const key = await t.createProfileKey(owner.ownerId, await newProfile('Another client'));
    const elsewhere = await deleteReply(other.comment.id, other.reply.id, key);
    expect(elsewhere.statusCode, elsewhere.body).toBe(404);
    expect(elsewhere.json().error.code).toBe('comment_not_found');

    const deletions = (await activity('linkedin', account.sandboxUser)).filter((a) => a.action === 'delete_comment');
    expect(deletions).toEqual([]);
  });
});

describe('X: replies read by polling, answered as the account, hidden through hidden replies', () => {
  async function xReply(account: SandboxAccount, text: string, parentId?: string) {
    const res = await sandbox.control('POST', '/comments', {
      platform: 'x',
      username: account.sandboxUser,
      author_username: 'jordan_asks',
      text,
      ...(parentId === undefined ? {} : { post_id: (await latestPostOf(account)) as string, parent_id: parentId }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; post_id: string };
  }

  async function latestPostOf(account: SandboxAccount): Promise<string | undefined> {
    const { body } = await sandbox.control('GET', `/users/x/${account.sandboxUser}`);
    return body.posts[0]?.id;
  }

  it("a reply to the account's post reaches the inbox by the periodic read, comment.created sent, hideable", async () => {
    const account = await connected('x');
    const made = await xReply(account, 'Is this available in Lyon?');
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(made.id);
    expect(comment).toMatchObject({
      account_id: account.id,
      platform: 'x',
      platform_comment_id: made.id,
      parent_id: null,
      author_username: 'jordan_asks',
      text: 'Is this available in Lyon?',
      hidden: false,
      from_account: false,
      can_reply: true,
      can_hide: true,
    });
    const delivered = await eventually(async () => {
      const found = deliveriesFor(comment.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered[0]?.body.data).toMatchObject({ comment_id: comment.id, platform: 'x' });
    const shown = await t.app.inject({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: auth(owner.key) });
    expect(shown.json()).toMatchObject({ notices: 'polling_only' });
  });

  it("a reply is posted as the account in reply to it; hiding and showing go through X's hidden replies", async () => {
    const account = await connected('x');
    const made = await xReply(account, 'Which sizes?');
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(made.id);
    const res = await act(comment.id, 'reply', { text: 'S to XL' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ comment_id: comment.id, status: 'sent', text: 'S to XL' });
    const replies = (await activity('x', account.sandboxUser)).filter((a) => a.action === 'reply');
    expect(replies).toEqual([
      expect.objectContaining({
        target_id: made.id,
        detail: { reply_id: res.json().platform_comment_id, message: 'S to XL' },
      }),
    ]);
    const hide = await act(comment.id, 'hide', { hidden: true });
    expect(hide.statusCode, hide.body).toBe(200);
    const show = await act(comment.id, 'hide', { hidden: false });
    expect(show.statusCode, show.body).toBe(200);
    const moderated = (await activity('x', account.sandboxUser)).filter((a) => ['hide', 'unhide'].includes(a.action));
    expect(moderated.map((a) => [a.action, a.target_id])).toEqual([
      ['hide', made.id],
      ['unhide', made.id],
    ]);
  });
});

describe('YouTube: comments held for review', () => {
  /** A YouTube account is the Google user's first channel; comments are made on its videos. */
  const channelOf = (account: SandboxAccount) => `${account.sandboxUser}.channel1`;

  it('a comment YouTube holds reaches the inbox hidden, with comment.created, and is published from it; one published on YouTube shows at the next poll', async () => {
    const account = await connected('youtube');
    const add = async (text: string) => {
      const res = await sandbox.control('POST', '/comments', {
        platform: 'youtube',
        username: channelOf(account),
        author_username: 'a_viewer',
        text,
        held: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string };
    };
    const held = await add('Is this giveaway real?');
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(held.id);
    expect(comment).toMatchObject({
      account_id: account.id,
      platform: 'youtube',
      platform_comment_id: held.id,
      text: 'Is this giveaway real?',
      hidden: true,
      can_hide: true,
    });
    const delivered = await eventually(async () => {
      const found = deliveriesFor(comment.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered).toHaveLength(1);

    // Published from the inbox: setModerationStatus published, and the next poll keeps it shown.
    const shown = await act(comment.id, 'hide', { hidden: false });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().hidden).toBe(false);
    expect((await activity('youtube', channelOf(account))).map((a) => [a.action, a.target_id])).toEqual([
      ['unhide', held.id],
    ]);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    expect((await getComment(comment.id)).hidden).toBe(false);

    // Another held comment, published by the owner on YouTube itself: not hidden at the next poll.
    const other = await add('First!');
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const second = await arrived(other.id);
    expect(second.hidden).toBe(true);
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    if (!row) throw new Error('no account');
    await sandbox.adapter('youtube').comments?.setHidden(credentialsOf(t.secretKey, row), other.id, false);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    expect((await getComment(second.id)).hidden).toBe(false);
    // One comment.created each, however many polls read them.
    expect(await commentEventsFor(comment.id)).toHaveLength(1);
    expect(await commentEventsFor(second.id)).toHaveLength(1);
  });
});

describe("Google Business Profile: a location's reviews as its comments", () => {
  /** A review of the account's location (the login's first), with its stars. */
  async function review(account: SandboxAccount, text: string, rating: number) {
    const res = await sandbox.control('POST', '/comments', {
      platform: 'google_business',
      username: `${account.sandboxUser}.location1`,
      author_username: 'regular.customer',
      text,
      rating,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return `${account.platformUserId}/reviews/${res.body.id}`;
  }

  it('a new review reaches the inbox by polling with its star rating, cannot be hidden, and is delivered as comment.created', async () => {
    const account = await connected('google_business');
    const name = await review(account, 'Best bagels in town', 4);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(name);
    expect(comment).toMatchObject({
      account_id: account.id,
      platform: 'google_business',
      platform_comment_id: name,
      parent_id: null,
      author_username: 'regular.customer',
      text: 'Best bagels in town',
      rating: 4,
      hidden: false,
      from_account: false,
      can_reply: true,
      can_hide: false,
    });
    const delivered = await eventually(async () => {
      const found = deliveriesFor(comment.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered[0]?.body.data).toMatchObject({ comment_id: comment.id, platform: 'google_business' });
    const hide = await act(comment.id, 'hide', { hidden: true });
    expect(hide.statusCode, hide.body).toBe(422);
    expect((hide.json() as ErrorBody).error.code).toBe('unsupported_platform');
  });

  it('answers a review with updateReply (a second answer replaces it on Google) and deletes the answer with deleteReply', async () => {
    const account = await connected('google_business');
    const name = await review(account, 'Slow service today', 2);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await arrived(name);
    const first = await act(comment.id, 'reply', { text: 'Sorry, we were short-staffed.' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ status: 'sent', platform_comment_id: `${name}/reply` });
    const second = await act(comment.id, 'reply', { text: 'Sorry: come back for a free coffee.' });
    expect(second.statusCode, second.body).toBe(201);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/comments/${comment.id}/replies/${second.json().id}`,
      headers: auth(owner.key),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const done = (await activity('google_business', `${account.sandboxUser}.location1`)).filter((a) =>
      ['reply', 'update', 'delete_comment'].includes(a.action),
    );
    expect(done.map((a) => [a.action, a.detail.text ?? null])).toEqual([
      ['reply', 'Sorry, we were short-staffed.'],
      ['update', 'Sorry: come back for a free coffee.'],
      ['delete_comment', null],
    ]);
  });
});
