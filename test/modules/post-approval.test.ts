import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now, resetClock } from '../../src/clock.ts';
import { auth, startTestApp, type TestApp, type TestOwner } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';
import { tagsOf, textsOf } from '../helpers/html.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { readyContainersQuickly, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { connectSandboxAccount } from '../helpers/sandbox-accounts.ts';
import { verifyStandardWebhook } from '../helpers/standard-webhooks.ts';
import { moveTime } from '../helpers/time.ts';

/**
 * A client's approval of a post (docs/posts.md, "Approval"): posts that wait for it, approval
 * links, the hosted page's form over real HTTP requests, the events, and what the sandbox
 * publishes, with a worker running.
 */

let sandbox: TestSandbox;
let t: TestApp;
let receiver: Receiver;
let owner: TestOwner;
let webhookSecret: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  await readyContainersQuickly(sandbox);
  receiver = await startReceiver();
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    platforms: sandbox.platforms,
    listen: true,
  });
  owner = await t.createOwner();
  const settings = await t.app.inject({
    method: 'PATCH',
    url: '/v1/connect/settings',
    headers: auth(owner.key),
    payload: { brand_name: 'Bright & Co <Agency>' },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const hook = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: auth(owner.key),
    payload: { url: receiver.url, events: ['post.approved', 'post.changes_requested', 'post.published'] },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  webhookSecret = hook.json().secret;
  await t.startWorker({ platforms: sandbox.platforms });
});
afterAll(async () => {
  resetClock();
  await t.close();
  await receiver.close();
  await sandbox.close();
});

let users = 0;
async function connected(profileId = owner.defaultProfileId) {
  users += 1;
  return await connectSandboxAccount(t, sandbox, owner, 'threads', `appr_${users}`, { profileId });
}

async function newProfile(name: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/profiles',
    headers: auth(owner.key),
    payload: { name, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function createPost(payload: Record<string, unknown>, key = owner.key): Promise<any> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/posts', headers: auth(key), payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

// biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON answers field by field.
async function getPost(id: string): Promise<any> {
  return (await t.app.inject({ method: 'GET', url: `/v1/posts/${id}`, headers: auth(owner.key) })).json();
}

async function newLink(postId: string, key = owner.key) {
  return await t.app.inject({ method: 'POST', url: `/v1/posts/${postId}/approval-links`, headers: auth(key) });
}

/** A browser's visit: the page, and what its form needs (the cookie, the CSRF token, the version). */
async function openPage(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  const html = await response.text();
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1];
  const version = /name="version" value="([^"]*)"/.exec(html)?.[1];
  return { status: response.status, html, headers: response.headers, cookie, csrf, version };
}

/** The page's form, sent as the browser sends it. */
async function decide(
  url: string,
  page: { cookie: string; csrf?: string | undefined; version?: string | undefined },
  fields: Record<string, string>,
) {
  const body = new URLSearchParams({ csrf: page.csrf ?? '', version: page.version ?? '', ...fields });
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
    body,
  });
  return { status: response.status, html: await response.text() };
}

/** The events of `type` about `postId` the receiver got, each verified as a receiver would. */
async function eventsOf(type: string, postId: string, n = 1) {
  return await eventually(async () => {
    const found = receiver.received
      .map((r) => ({ r, body: JSON.parse(r.body.toString('utf8')) }))
      .filter(({ body }) => body.type === type && body.data.post_id === postId);
    if (found.length < n) return undefined;
    // The deliveries are signed at the service's clock, which these tests move.
    for (const { r } of found) verifyStandardWebhook(webhookSecret, r);
    return found.map(({ body }) => body);
  });
}

const inMinutes = (minutes: number) => new Date(now().getTime() + minutes * 60_000).toISOString();

describe('a post that needs approval', () => {
  it('waits as awaiting_approval, unpublished even past its time, until the client approves; then publishes at once', async () => {
    const profile = await newProfile('Needs approval', { post_approval_required: true });
    const account = await connected(profile);
    const post = await createPost({ account_ids: [account.id], text: 'Approve me', scheduled_at: inMinutes(5) });
    expect(post.status).toBe('awaiting_approval');
    expect(post.targets.map((x: { status: string }) => x.status)).toEqual(['awaiting_approval']);
    expect(post.approval).toEqual({
      status: 'pending',
      decided_at: null,
      approval_link_id: null,
      decided_by: null,
      comment: null,
    });

    // Its time comes and goes: nothing is published.
    await moveTime(t.database.pool, 10 * 60_000);
    const waited = await getPost(post.id);
    expect(waited.status).toBe('awaiting_approval');
    const activity = await sandbox.control('GET', `/activity/threads/${account.username}`);
    expect((activity.body.data as { action: string }[]).filter((a) => a.action === 'publish')).toEqual([]);

    const link = await newLink(post.id);
    expect(link.statusCode, link.body).toBe(201);
    const created = link.json();
    expect(created).toMatchObject({ post_id: post.id, status: 'open', decision: null, used_at: null });
    expect(created.id).toMatch(/^apl_[0-9a-z]{26}$/);
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(7 * 24 * 3600 * 1000);
    expect(created.url).toMatch(new RegExp(`^${t.url}/approve/[A-Za-z0-9_-]{43}$`));

    const page = await openPage(created.url);
    expect(page.status).toBe(200);
    expect(textsOf(page.html, 'h1')).toEqual(['Bright & Co <Agency> asks you to approve a post']);
    expect(page.html).toContain(`@${account.username}`);
    expect(page.html).toContain('Approve me');
    expect(page.html).toContain('has passed:</strong> if you approve it, it is published at once');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");

    const decided = await decide(created.url, page, { decision: 'approve' });
    expect(decided.status).toBe(200);
    expect(decided.html).toContain('Thank you: the post is approved');

    const [event] = await eventsOf('post.approved', post.id);
    expect(event.data).toEqual({
      post_id: post.id,
      approval_link_id: created.id,
      decided_by: null,
      comment: null,
      decided_at: expect.any(String),
      scheduled_at: post.scheduled_at,
    });
    const published = await eventually(async () => {
      const got = await getPost(post.id);
      return got.status === 'published' ? got : undefined;
    });
    expect(published.approval).toEqual({
      status: 'approved',
      decided_at: event.data.decided_at,
      approval_link_id: created.id,
      decided_by: null,
      comment: null,
    });
    await eventsOf('post.published', post.id);

    // The link decided once: it opens nothing more, and shows as used.
    expect((await openPage(created.url)).status).toBe(410);
    expect((await decide(created.url, page, { decision: 'approve' })).status).toBe(410);
    const links = await t.app.inject({
      method: 'GET',
      url: `/v1/posts/${post.id}/approval-links`,
      headers: auth(owner.key),
    });
    expect(links.json()).toEqual({
      data: [expect.objectContaining({ id: created.id, status: 'used', decision: 'approved', comment: null })],
      next_cursor: null,
    });
  });

  it('keeps waiting when the client asks for changes, with their comment as they wrote it; an edit asks again', async () => {
    const account = await connected();
    const post = await createPost({
      account_ids: [account.id],
      text: 'First try',
      scheduled_at: inMinutes(60),
      approval: { required: true },
    });
    const link = (await newLink(post.id)).json();
    const page = await openPage(link.url);

    // Asking for changes needs a comment.
    const empty = await decide(link.url, page, { decision: 'request_changes', comment: '   ' });
    expect(empty.status).toBe(422);
    expect(empty.html).toContain('Write what you would like changed');
    expect((await getPost(post.id)).approval.status).toBe('pending');

    const comment = 'Please <b>bold</b> the price & "ignore previous instructions"';
    const asked = await decide(link.url, page, { decision: 'request_changes', comment });
    expect(asked.status).toBe(200);
    expect(textsOf(asked.html, 'p')).toContain(comment);
    expect(tagsOf(asked.html)).not.toContain('b');
    expect(asked.html).not.toContain('<b>bold</b>');
    const [event] = await eventsOf('post.changes_requested', post.id);
    expect(event.data).toMatchObject({ post_id: post.id, approval_link_id: link.id, comment });
    const waiting = await getPost(post.id);
    expect(waiting.status).toBe('awaiting_approval');
    expect(waiting.approval).toMatchObject({ status: 'changes_requested', comment, approval_link_id: link.id });

    // The owner changes the post: it needs a decision again, and the old one is gone from the post.
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${post.id}`,
      headers: auth(owner.key),
      payload: { text: 'Second try' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().approval).toEqual({
      status: 'pending',
      decided_at: null,
      approval_link_id: null,
      decided_by: null,
      comment: null,
    });
    expect(changed.json().targets.map((x: { status: string }) => x.status)).toEqual(['awaiting_approval']);

    // Approved now, then edited again: approval is needed once more.
    const second = (await newLink(post.id)).json();
    const secondPage = await openPage(second.url);
    expect(secondPage.html).toContain('Second try');
    expect((await decide(second.url, secondPage, { decision: 'approve', comment: 'Perfect' })).status).toBe(200);
    expect((await getPost(post.id)).status).toBe('scheduled');
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${post.id}`,
      headers: auth(owner.key),
      payload: { scheduled_at: inMinutes(120) },
    });
    expect(edited.json()).toMatchObject({ status: 'awaiting_approval', approval: { status: 'pending' } });
  });

  it('records nothing when the post changed after the page was opened, and shows it as it is now', async () => {
    const account = await connected();
    const post = await createPost({ account_ids: [account.id], text: 'Version one', approval: { required: true } });
    const link = (await newLink(post.id)).json();
    const page = await openPage(link.url);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${post.id}`,
      headers: auth(owner.key),
      payload: { text: 'Version two' },
    });
    const stale = await decide(link.url, page, { decision: 'approve' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('The post changed since you opened this page');
    expect(stale.html).toContain('Version two');
    expect((await getPost(post.id)).approval.status).toBe('pending');
    // The page it showed again decides.
    const fresh = { ...page, version: /name="version" value="([^"]*)"/.exec(stale.html)?.[1] };
    expect((await decide(link.url, fresh, { decision: 'approve' })).status).toBe(200);
    expect((await getPost(post.id)).approval.status).toBe('approved');
  });

  it('refuses a comment with control characters (a NUL, an escape) with the form error, recording nothing', async () => {
    const account = await connected();
    const post = await createPost({ account_ids: [account.id], text: 'Careful', approval: { required: true } });
    const link = (await newLink(post.id)).json();
    const page = await openPage(link.url);
    for (const comment of ['Fine\u0000but', 'Red \u001b[31m please']) {
      const refused = await decide(link.url, page, { decision: 'request_changes', comment });
      expect(refused.status).toBe(422);
      expect(refused.html).toContain('The comment holds characters that are not text');
    }
    expect((await getPost(post.id)).approval.status).toBe('pending');
    // Tabs and line breaks are text.
    const kept = await decide(link.url, page, { decision: 'request_changes', comment: 'Line one\r\n\tLine two' });
    expect(kept.status).toBe(200);
    expect((await getPost(post.id)).approval.comment).toBe('Line one\n\tLine two');
  });

  it('refuses a decision without the page’s cookie and token, and changes nothing', async () => {
    const account = await connected();
    const post = await createPost({ account_ids: [account.id], text: 'Guarded', approval: { required: true } });
    const link = (await newLink(post.id)).json();
    const page = await openPage(link.url);
    expect((await decide(link.url, { ...page, cookie: '' }, { decision: 'approve' })).status).toBe(403);
    expect((await decide(link.url, { ...page, csrf: 'forged' }, { decision: 'approve' })).status).toBe(403);
    const other = await openPage(link.url);
    // Another browser's token does not go with this browser's cookie.
    expect((await decide(link.url, { ...page, csrf: other.csrf }, { decision: 'approve' })).status).toBe(403);
    expect((await getPost(post.id)).approval.status).toBe('pending');
  });

  it('lets a draft be approved, and its scheduling then needs nothing more', async () => {
    const account = await connected();
    const post = await createPost({
      account_ids: [account.id],
      text: 'A draft',
      draft: true,
      scheduled_at: inMinutes(90),
      approval: { required: true },
    });
    expect(post).toMatchObject({ status: 'draft', approval: { status: 'pending' } });
    const link = (await newLink(post.id)).json();
    const page = await openPage(link.url);
    expect(page.html).toContain('It is a draft: approving it does not publish it.');
    const done = await decide(link.url, page, { decision: 'approve' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('The post is a draft: it is published once it is scheduled.');
    expect(await getPost(post.id)).toMatchObject({ status: 'draft', approval: { status: 'approved' } });
    const scheduled = await t.app.inject({
      method: 'PATCH',
      url: `/v1/posts/${post.id}`,
      headers: auth(owner.key),
      payload: { draft: false },
    });
    expect(scheduled.json()).toMatchObject({ status: 'scheduled', approval: { status: 'approved' } });
  });
});

describe('approval links', () => {
  it('are refused for a post that needs no approval, or has it', async () => {
    const profile = await newProfile('Approval by default', { post_approval_required: true });
    const account = await connected(profile);
    // The post's own word wins over its profile's.
    const free = await createPost({
      account_ids: [account.id],
      text: 'No approval',
      draft: true,
      approval: { required: false },
    });
    expect(free).toMatchObject({ status: 'draft', approval: null });
    const refused = await newLink(free.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('approval_not_required');

    const post = await createPost({ account_ids: [account.id], text: 'Approve once', scheduled_at: inMinutes(30) });
    const link = (await newLink(post.id)).json();
    await decide(link.url, await openPage(link.url), { decision: 'approve' });
    const again = await newLink(post.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('post_not_awaiting_approval');
  });

  it('can be revoked until used, and expire after 7 days', async () => {
    const account = await connected();
    const post = await createPost({ account_ids: [account.id], text: 'Links', approval: { required: true } });
    const first = (await newLink(post.id)).json();
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v1/posts/${post.id}/approval-links/${first.id}`,
      headers: auth(owner.key),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: first.id, status: 'revoked', revoked_at: expect.any(String) });
    const closed = await openPage(first.url);
    expect(closed.status).toBe(410);
    expect(closed.html).toContain('This link was withdrawn');

    const second = (await newLink(post.id)).json();
    await moveTime(t.database.pool, 7 * 24 * 3600 * 1000 + 1000);
    const expired = await openPage(second.url);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This link has expired');

    const unknown = await openPage(`${t.url}/approve/not-a-token`);
    expect(unknown.status).toBe(404);
  });

  it("are the post's owner's alone: a profile key of another profile sees no post", async () => {
    const mine = await newProfile('Mine');
    const theirs = await newProfile('Theirs');
    const account = await connected(mine);
    const post = await createPost({ account_ids: [account.id], text: 'Private', approval: { required: true } });
    const otherKey = await t.createProfileKey(owner.ownerId, theirs);
    const foreign = await newLink(post.id, otherKey);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('post_not_found');
    const ownKey = await t.createProfileKey(owner.ownerId, mine);
    expect((await newLink(post.id, ownKey)).statusCode).toBe(201);
  });

  it('do not take an Idempotency-Key: the answer holds a token shown once', async () => {
    const account = await connected();
    const post = await createPost({ account_ids: [account.id], text: 'Once', approval: { required: true } });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/posts/${post.id}/approval-links`,
      headers: { ...auth(owner.key), 'idempotency-key': 'one' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('idempotency_key_not_supported');
  });
});
