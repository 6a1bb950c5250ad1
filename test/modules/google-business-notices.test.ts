import { eq } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetClock } from '../../src/clock.ts';
import { pollComments } from '../../src/modules/comments/index.ts';
import { createPlatforms, type PlatformSet } from '../../src/platforms/index.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { noticeJobsDone, pollDeps } from '../helpers/comment-intake.ts';
import { eventually } from '../helpers/eventually.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount, type SandboxAccount } from '../helpers/sandbox-accounts.ts';
import { comments, events } from '../helpers/tables.ts';

/**
 * Google Business Profile's reviews reaching the inbox by Google's notifications: a deployment
 * with a Pub/Sub topic (GOOGLE_BUSINESS_PUBSUB_TOPIC) and a push subscription of it to
 * `PUBLIC_URL/platform-webhooks/google_business`, the sandbox pushing as Pub/Sub does, with
 * its OIDC token; and a deployment without one, which polls (docs/platforms.md, "Google
 * Business Profile reviews").
 */

const TOPIC = 'projects/switchboard-test/topics/gbp-reviews';
const SUBSCRIPTION = 'projects/switchboard-test/subscriptions/gbp-reviews-push';
const PUSHER = 'gbp-push@switchboard-test.iam.gserviceaccount.com';
const AUDIENCE = 'https://switchboard.example.test/platform-webhooks/google_business';

let sandbox: TestSandbox;
/** The sandbox, its adapters made as a deployment with the topic set makes them. */
let withTopic: TestSandbox;
let platforms: PlatformSet;
let t: TestApp;
let receiver: Receiver;
let owner: TestOwner;

/** The sandbox's adapters as a deployment with the topic, its push service account and audience set makes them. */
function platformsWithTopic(): PlatformSet {
  return createPlatforms({
    platforms: 'sandbox',
    platformCredentials: {},
    sandboxUrl: sandbox.url,
    googleBusinessPubsubTopic: TOPIC,
    googleBusinessPushServiceAccount: PUSHER,
    googleBusinessPushAudience: AUDIENCE,
  });
}

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
  platforms = platformsWithTopic();
  withTopic = { ...sandbox, platforms, adapter: (platform) => platforms.adapter(platform) };
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    platforms,
    listen: true,
  });
  owner = await t.createOwner();
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['comment.created'] },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  // As the operator does in Google Cloud: a push subscription of the topic, with authentication.
  const subscribed = await sandbox.control('PUT', '/pubsub/subscriptions', {
    name: SUBSCRIPTION,
    topic: TOPIC,
    push_endpoint: `${t.url}/platform-webhooks/google_business`,
    service_account_email: PUSHER,
    audience: AUDIENCE,
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
  await t.startWorker({ platforms });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await receiver.close();
  await sandbox.close();
});

/** A push token with every claim right, signed by a key of the test's own rather than Google's (its `kid`). */
async function tokenNotByGoogle(kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  const at = Math.floor(Date.now() / 1000);
  return await new SignJWT({ email: PUSHER, email_verified: true })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer('https://accounts.google.com')
    .setAudience(AUDIENCE)
    .setIssuedAt(at)
    .setExpirationTime(at + 3600)
    .sign(privateKey);
}

let users = 0;
async function connected(on: TestSandbox = withTopic, subscribe = true): Promise<SandboxAccount> {
  users += 1;
  return await connectSandboxAccount(t, on, owner, 'google_business', `gbp_notice_${users}`, { subscribe });
}

/** A customer's review of the account's location, with its stars. */
async function review(account: SandboxAccount, text: string, rating: number): Promise<{ id: string; name: string }> {
  const res = await sandbox.control('POST', '/comments', {
    platform: 'google_business',
    username: `${account.sandboxUser}.location1`,
    author_username: 'regular.customer',
    text,
    rating,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, name: `${account.platformUserId}/reviews/${res.body.id}` };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function accountJson(id: string): Promise<any> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/accounts/${id}`, headers: auth(owner.key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The inbox entry of the review, once `ready` says the service has it as wanted. */
// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function inInbox(name: string, ready: (comment: any) => boolean = () => true): Promise<any> {
  return await eventually(async () => {
    const [row] = await t.database.db.select().from(comments).where(eq(comments.platformCommentId, name));
    if (!row) return undefined;
    const res = await t.app.inject({ method: 'GET', url: `/v1/comments/${row.id}`, headers: auth(owner.key) });
    return res.statusCode === 200 && ready(res.json()) ? res.json() : undefined;
  });
}

async function storedRows(name: string) {
  return await t.database.db.select().from(comments).where(eq(comments.platformCommentId, name));
}

async function createdEvents(commentId: string) {
  const rows = await t.database.db.select().from(events).where(eq(events.type, 'comment.created'));
  return rows.filter((e) => (e.data as { comment_id?: string }).comment_id === commentId);
}

interface Delivery {
  body: string;
  authorization: string | null;
  status: number | null;
  callback_url: string;
}

/** The push Pub/Sub made of the review's notification of `type`, once the service answered it. */
async function pushOf(name: string, type: string): Promise<Delivery> {
  return await eventually(async () => {
    const sent = await sandbox.control('GET', '/webhooks/deliveries?platform=google_business&limit=100');
    return (sent.body as Delivery[]).find((d) => {
      const data = JSON.parse(Buffer.from(JSON.parse(d.body).message.data, 'base64').toString('utf8'));
      return data.reviewName === name && data.notificationType === type && d.status !== null;
    });
  });
}

describe('Google Business Profile: reviews by Pub/Sub notifications', () => {
  it("a location connected while the topic is set is `subscribed`, and Google's setting for its account names the topic", async () => {
    // The subscription is the job the connection queued, as after a connection through the hosted page.
    const account = await connected(withTopic, false);
    await eventually(async () => ((await accountJson(account.id)).notices === 'subscribed' ? true : undefined));
    const googleAccount = account.platformUserId.split('/').slice(0, 2).join('/');
    const { data } = await sandbox.calls('google_business', account.sandboxUser);
    expect(data.filter((c) => c.method === 'PATCH').map((c) => [c.path, c.query])).toEqual([
      [
        `/mybusinessnotifications.googleapis.com/v1/${googleAccount}/notificationSetting`,
        { updateMask: 'pubsubTopic,notificationTypes' },
      ],
    ]);
  });

  it('a new review pushed by Pub/Sub reaches the inbox with its stars, read from Google once, and is delivered as one comment.created', async () => {
    const account = await connected();
    const made = await review(account, 'Best bagels in town', 4);
    const push = await pushOf(made.name, 'NEW_REVIEW');
    expect(push.status).toBe(200);
    expect(push.callback_url).toBe(`${t.url}/platform-webhooks/google_business`);
    const comment = await inInbox(made.name);
    expect(comment).toMatchObject({
      account_id: account.id,
      platform: 'google_business',
      platform_comment_id: made.name,
      parent_id: null,
      author_username: 'regular.customer',
      text: 'Best bagels in town',
      rating: 4,
      from_account: false,
      can_hide: false,
    });
    // The notice named the review: the service read it (reviews.get), not the location's list.
    const { data } = await sandbox.calls('google_business', account.sandboxUser);
    expect(data.filter((c) => c.path === `/mybusiness.googleapis.com/v4/${made.name}`).map((c) => c.method)).toEqual([
      'GET',
    ]);
    const delivered = await eventually(async () => {
      const found = receiver.received
        .map((r) => JSON.parse(r.body.toString('utf8')))
        .filter((b) => b.type === 'comment.created' && b.data.comment_id === comment.id);
      return found.length > 0 ? found : undefined;
    });
    expect(delivered).toHaveLength(1);
    expect(delivered[0].data).toMatchObject({
      comment_id: comment.id,
      account_id: account.id,
      platform: 'google_business',
      platform_comment_id: made.name,
      text: 'Best bagels in town',
      author_username: 'regular.customer',
    });
  });

  it('the same message pushed again (a redelivery) is answered 200 and makes no second comment or event', async () => {
    const account = await connected();
    const made = await review(account, 'Friendly staff', 5);
    const push = await pushOf(made.name, 'NEW_REVIEW');
    const comment = await inInbox(made.name);
    for (let n = 0; n < 2; n += 1) {
      const again = await fetch(`${t.url}/platform-webhooks/google_business`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: push.authorization ?? '' },
        body: push.body,
      });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ received: 1 });
    }
    await noticeJobsDone(t);
    expect(await storedRows(made.name)).toHaveLength(1);
    expect(await createdEvents(comment.id)).toHaveLength(1);
  });

  it('a review edited by its author (UPDATED_REVIEW) takes its new words and stars, with no second comment.created', async () => {
    const account = await connected();
    const made = await review(account, 'Good pastries', 4);
    const comment = await inInbox(made.name);
    const edited = await sandbox.control('PATCH', `/comments/${made.id}`, {
      text: 'Good pastries, but the coffee was cold',
      rating: 2,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await pushOf(made.name, 'UPDATED_REVIEW')).status).toBe(200);
    const after = await inInbox(made.name, (c) => c.rating === 2);
    expect(after).toMatchObject({
      id: comment.id,
      text: 'Good pastries, but the coffee was cold',
      rating: 2,
      commented_at: comment.commented_at,
    });
    await noticeJobsDone(t);
    expect(await storedRows(made.name)).toHaveLength(1);
    expect(await createdEvents(comment.id)).toHaveLength(1);
  });

  it('a push without a token, or with one not signed by Google, is 401 and stores nothing', async () => {
    const account = await connected();
    const name = `${account.platformUserId}/reviews/forged1`;
    const body = JSON.stringify({
      message: {
        data: Buffer.from(JSON.stringify({ notificationType: 'NEW_REVIEW', reviewName: name })).toString('base64'),
        messageId: '1',
        publishTime: new Date().toISOString(),
      },
      subscription: SUBSCRIPTION,
    });
    const forged = await tokenNotByGoogle('not-google');
    for (const authorization of [undefined, `Bearer ${forged}`]) {
      const res = await fetch(`${t.url}/platform-webhooks/google_business`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    }
    await noticeJobsDone(t);
    expect(await storedRows(name)).toEqual([]);
  });
});

describe("Google's keys, read for pushes from anyone", () => {
  it('pushes arriving together read the keys once, a junk one included, and a refusal says nothing of the checks', async () => {
    // A deployment just started: no keys held yet.
    const fresh = platformsWithTopic();
    const comments = fresh.adapter('google_business').comments;
    const reads = () => sandbox.requests().filter((r) => r === 'GET /www.googleapis.com/oauth2/v3/certs').length;
    const before = reads();
    const junk = await tokenNotByGoogle('unknown-key');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        comments?.receiveNotices?.({ headers: { authorization: `Bearer ${junk}` }, body: '{}' }),
      ),
    );
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(reads() - before).toBe(1);
    // Through the route, the refusal names no check.
    const res = await fetch(`${t.url}/platform-webhooks/google_business`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${junk}` },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'invalid_signature',
      message: 'The notice is not signed as the platform signs its notices.',
    });
  });
});

describe('Google Business Profile without a Pub/Sub topic', () => {
  it('the account is `polling_only`; polling finds a new review (one comment.created) and later its edit (no second)', async () => {
    const account = await connected(sandbox);
    expect((await accountJson(account.id)).notices).toBe('polling_only');
    const made = await review(account, 'Cosy place', 5);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    const comment = await inInbox(made.name);
    expect(comment).toMatchObject({ text: 'Cosy place', rating: 5 });
    const edited = await sandbox.control('PATCH', `/comments/${made.id}`, { text: 'Cosy place, too loud', rating: 3 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await pollComments(pollDeps(t, sandbox.platforms), account.id);
    expect(await inInbox(made.name)).toMatchObject({ id: comment.id, text: 'Cosy place, too loud', rating: 3 });
    expect(await storedRows(made.name)).toHaveLength(1);
    expect(await createdEvents(comment.id)).toHaveLength(1);
  });
});
