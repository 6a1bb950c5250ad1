import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { type Received, type Receiver, startReceiver } from '../helpers/receiver.ts';
import { commentsOf, pagesOf, sent, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
const receivers: Receiver[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await sandbox.close();
});

const SECRET = 'app-secret-for-tests';
/** The Graph API version the Facebook adapter calls. */
const FACEBOOK_VERSION = 'v22.0';
const TOKEN = 'verify-me';

/**
 * A callback as an app writes one for Meta: echoes hub.challenge when hub.verify_token is
 * ours, answers notices with `statuses` in turn (then 200).
 */
async function callback(options: { statuses?: number[] } = {}): Promise<Receiver> {
  const statuses = [...(options.statuses ?? [])];
  const receiver = await startReceiver((req, res) => {
    const url = new URL(req.url ?? '/', 'http://callback.test');
    if (req.method === 'GET') {
      const ok = url.searchParams.get('hub.mode') === 'subscribe' && url.searchParams.get('hub.verify_token') === TOKEN;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'text/plain' });
      res.end(ok ? (url.searchParams.get('hub.challenge') ?? '') : 'wrong token');
      return;
    }
    res.writeHead(statuses.shift() ?? 200).end();
  });
  receivers.push(receiver);
  return receiver;
}

/** The notices (POSTs) a callback received, leaving the handshake out. */
async function notices(receiver: Receiver, n: number): Promise<Received[]> {
  const handshakes = receiver.received.filter((r) => r.path.includes('hub.mode')).length;
  const all = await receiver.waitFor(handshakes + n);
  return all.filter((r) => !r.path.includes('hub.mode'));
}

async function subscribe(platform: string, receiver: Receiver) {
  const answer = await sandbox.control('PUT', `/webhooks/${platform}`, {
    callback_url: receiver.url,
    verify_token: TOKEN,
    app_secret: SECRET,
  });
  expect(answer.status).toBe(200);
}

/**
 * An Instagram user whose account subscribed to the app's comment notices, as the service does
 * at a connection (`POST /me/subscribed_apps`): Instagram notifies no other account.
 */
async function subscribedInstagram(username: string) {
  const account = await sandbox.credentials('instagram', username);
  const answer = await sandbox.raw('POST', '/graph.instagram.com/v25.0/me/subscribed_apps', {
    subscribed_fields: 'comments',
    access_token: account.accessToken,
  });
  expect(answer).toMatchObject({ status: 200, body: { success: true } });
  return (await sandbox.control('GET', `/users/instagram/${username}`)).body;
}

/** A Facebook user's first page, which installed the app for its feed notices (`POST /{page-id}/subscribed_apps`). */
async function subscribedPage(username: string) {
  const login = await sandbox.credentials('facebook', username);
  const [grant] = await pagesOf(sandbox.adapter('facebook'))(login);
  const answer = await sandbox.raw('POST', `/graph.facebook.com/${FACEBOOK_VERSION}/${grant?.id}/subscribed_apps`, {
    subscribed_fields: 'feed',
    access_token: grant?.accessToken ?? '',
  });
  expect(answer).toMatchObject({ status: 200, body: { success: true } });
  return { grant, page: (await sandbox.control('GET', `/users/facebook/${username}.page1`)).body };
}

function hmacHex(body: Buffer): string {
  return createHmac('sha256', SECRET).update(body).digest('hex');
}

describe('webhook subscriptions', () => {
  it("verifies the callback with Meta's hub.challenge handshake before storing it", async () => {
    const receiver = await callback();
    const refused = await sandbox.control('PUT', '/webhooks/instagram', {
      callback_url: receiver.url,
      verify_token: 'not-the-token',
      app_secret: SECRET,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.message).toContain('HTTP 403');
    expect(refused.body.error.message).toContain('wrong token');
    expect((await sandbox.control('GET', '/webhooks')).body).toEqual([]);

    const handshake = receiver.received[0] as Received;
    const query = new URL(handshake.path, 'http://callback.test').searchParams;
    expect(query.get('hub.mode')).toBe('subscribe');
    expect(query.get('hub.verify_token')).toBe('not-the-token');
    expect(query.get('hub.challenge')).toMatch(/^\d+$/);

    await subscribe('instagram', receiver);
    const listed = await sandbox.control('GET', '/webhooks');
    expect(listed.body).toEqual([
      { platform: 'instagram', callback_url: receiver.url, verify_token: TOKEN, created_at: expect.any(String) },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);

    expect((await sandbox.control('DELETE', '/webhooks/instagram')).status).toBe(204);
    expect((await sandbox.control('GET', '/webhooks')).body).toEqual([]);
    expect((await sandbox.control('DELETE', '/webhooks/instagram')).status).toBe(404);
  });

  it('refuses a callback that answers 200 with something other than the challenge', async () => {
    const receiver = await startReceiver((_req, res) => res.writeHead(200).end('ok'));
    receivers.push(receiver);
    const refused = await sandbox.control('PUT', '/webhooks/threads', {
      callback_url: receiver.url,
      verify_token: TOKEN,
      app_secret: SECRET,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('"ok"');
  });

  it('has no comment webhooks on TikTok, and validates the body', async () => {
    const tiktok = await sandbox.control('PUT', '/webhooks/tiktok', {
      callback_url: 'http://127.0.0.1:9/hook',
      verify_token: TOKEN,
      app_secret: SECRET,
    });
    expect(tiktok.status).toBe(404);
    expect(tiktok.body.error.code).toBe('not_found');
    const missing = await sandbox.control('PUT', '/webhooks/instagram', { callback_url: 'http://127.0.0.1:9/hook' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_request');
  });
});

describe('comment notices', () => {
  it("sends Instagram's comments notice, signed over the exact bytes, for a comment added through the control API", async () => {
    const receiver = await callback();
    await subscribe('instagram', receiver);
    const user = await subscribedInstagram('hook_ig');
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'instagram',
        username: 'hook_ig',
        author_username: 'a_fan',
        text: 'Love it!',
      })
    ).body;
    const notice = (await notices(receiver, 1))[0] as Received;
    expect(notice.headers['content-type']).toBe('application/json');
    expect(notice.headers['x-hub-signature-256']).toBe(`sha256=${hmacHex(notice.body)}`);
    // The Instagram Login example payload (Instagram Platform webhooks, "Examples").
    expect(JSON.parse(notice.body.toString('utf8'))).toEqual({
      object: 'instagram',
      entry: [
        {
          id: user.id,
          time: expect.any(Number),
          field: 'comments',
          value: {
            id: added.id,
            from: { id: added.author_id, username: 'a_fan' },
            text: 'Love it!',
            media: { id: user.posts[0].id, media_product_type: 'FEED' },
          },
        },
      ],
    });
  });

  it("nests Instagram's notice in changes[] with instagram_webhook_shape=changes, and names the parent of a reply", async () => {
    const receiver = await callback();
    await subscribe('instagram', receiver);
    await sandbox.control('PUT', '/settings/instagram_webhook_shape', { value: 'changes' });
    const user = await subscribedInstagram('hook_ig2');
    const top = (
      await sandbox.control('POST', '/comments', {
        platform: 'instagram',
        username: 'hook_ig2',
        author_username: 'first',
        text: 'Top',
      })
    ).body;
    const reply = (
      await sandbox.control('POST', '/comments', {
        platform: 'instagram',
        username: 'hook_ig2',
        author_username: 'second',
        text: 'Nested',
        parent_id: top.id,
      })
    ).body;
    const received = await notices(receiver, 2);
    const bodies = received.map((r) => JSON.parse(r.body.toString('utf8')));
    const second = bodies.find((b) => b.entry[0].changes[0].value.id === reply.id);
    expect(second).toEqual({
      object: 'instagram',
      entry: [
        {
          id: user.id,
          time: expect.any(Number),
          changes: [
            {
              field: 'comments',
              value: {
                id: reply.id,
                from: { id: reply.author_id, username: 'second' },
                text: 'Nested',
                media: { id: user.posts[0].id, media_product_type: 'FEED' },
                parent_id: top.id,
              },
            },
          ],
        },
      ],
    });
    await sandbox.control('PUT', '/settings/instagram_webhook_shape', { value: 'entry' });
  });

  it("sends Threads' replies notice (topic moderate) as its webhooks page shows it", async () => {
    const receiver = await callback();
    await subscribe('threads', receiver);
    // Threads notifies the replies of a user who granted the app threads_read_replies.
    await sandbox.credentials('threads', 'hook_th');
    const user = (await sandbox.control('GET', '/users/threads/hook_th')).body;
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'threads',
        username: 'hook_th',
        author_username: 'replier',
        text: 'Nice thread',
        commented_at: '2026-01-02T03:04:05.000Z',
      })
    ).body;
    const notice = (await notices(receiver, 1))[0] as Received;
    expect(notice.headers['x-hub-signature-256']).toBe(`sha256=${hmacHex(notice.body)}`);
    expect(JSON.parse(notice.body.toString('utf8'))).toEqual({
      app_id: expect.stringMatching(/^\d+$/),
      topic: 'moderate',
      target_id: user.id,
      time: expect.any(Number),
      subscription_id: expect.stringMatching(/^\d+$/),
      has_uid_field: false,
      values: {
        value: {
          id: added.id,
          username: 'replier',
          text: 'Nice thread',
          media_type: 'TEXT_POST',
          permalink: `https://www.threads.net/@replier/post/${added.id}`,
          replied_to: { id: user.posts[0].id },
          root_post: { id: user.posts[0].id, owner_id: user.id, username: 'hook_th' },
          shortcode: added.id,
          timestamp: '2026-01-02T03:04:05+0000',
        },
        field: 'replies',
      },
    });
  });

  it("sends a Page's feed change (item comment, verb add) for a comment on a page post", async () => {
    const receiver = await callback();
    await subscribe('facebook', receiver);
    const { page } = await subscribedPage('hook_fb');
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'facebook',
        username: 'hook_fb.page1',
        author_username: 'visitor',
        text: 'Hello page',
        commented_at: '2026-01-02T03:04:05.000Z',
      })
    ).body;
    const notice = (await notices(receiver, 1))[0] as Received;
    expect(notice.headers['x-hub-signature-256']).toBe(`sha256=${hmacHex(notice.body)}`);
    const post = page.posts[0];
    expect(JSON.parse(notice.body.toString('utf8'))).toEqual({
      object: 'page',
      entry: [
        {
          id: page.id,
          time: expect.any(Number),
          changes: [
            {
              field: 'feed',
              value: {
                from: { id: added.author_id, name: 'visitor' },
                post: {
                  id: post.id,
                  status_type: expect.any(String),
                  is_published: true,
                  permalink_url: post.permalink,
                },
                message: 'Hello page',
                post_id: post.id,
                comment_id: added.id,
                created_time: 1767323045,
                item: 'comment',
                parent_id: post.id,
                verb: 'add',
              },
            },
          ],
        },
      ],
    });
  });

  it("notifies the account's own reply made through the imitated API, the account as its author", async () => {
    const receiver = await callback();
    await subscribe('facebook', receiver);
    const facebook = sandbox.adapter('facebook');
    const { grant } = await subscribedPage('hook_fb2');
    const page = { platformUserId: grant?.id as string, accessToken: grant?.accessToken as string };
    const { comments } = await commentsOf(facebook).recentComments(page, { posts: 1 });
    const answered = comments[0];
    const reply = await sent(commentsOf(facebook).reply(page, answered?.id as string, 'Thanks!'));
    const notice = (await notices(receiver, 1))[0] as Received;
    const value = JSON.parse(notice.body.toString('utf8')).entry[0].changes[0].value;
    expect(value).toMatchObject({
      comment_id: reply.id,
      parent_id: answered?.id,
      post_id: answered?.postId,
      from: { id: page.platformUserId, name: 'Hook Fb2 Page 1' },
      message: 'Thanks!',
    });
  });

  it('tries a notice again after a 500, and lists every delivery newest first with the exact body and signature', async () => {
    const receiver = await callback({ statuses: [500] });
    await subscribe('threads', receiver);
    await sandbox.credentials('threads', 'hook_retry');
    await sandbox.control('POST', '/comments', {
      platform: 'threads',
      username: 'hook_retry',
      author_username: 'persistent',
      text: 'Again',
    });
    const [first, second] = (await notices(receiver, 2)) as [Received, Received];
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['x-hub-signature-256']).toBe(first.headers['x-hub-signature-256']);

    // The sandbox records an attempt once the callback has answered it, so the record may
    // trail the request the receiver already has.
    const listed = await eventually(async () => {
      const answer = await sandbox.control('GET', '/webhooks/deliveries?platform=threads&limit=1');
      return answer.body[0]?.attempts === 2 ? answer : undefined;
    });
    expect(listed.body).toEqual([
      {
        id: expect.any(Number),
        platform: 'threads',
        callback_url: receiver.url,
        body: first.body.toString('utf8'),
        signature: first.headers['x-hub-signature-256'],
        status: 200,
        attempts: 2,
        sent_at: expect.any(String),
      },
    ]);
    const all = (await sandbox.control('GET', '/webhooks/deliveries?limit=100')).body as { id: number }[];
    expect(all.map((d) => d.id)).toEqual([...all.map((d) => d.id)].sort((a, b) => b - a));
  });

  it('notifies only the accounts subscribed to the app: an Instagram account and a page once they asked, a Threads user who granted threads_read_replies', async () => {
    const receiver = await callback();
    for (const platform of ['instagram', 'facebook', 'threads']) await subscribe(platform, receiver);
    const comment = (platform: string, username: string, text: string) =>
      sandbox.control('POST', '/comments', { platform, username, author_username: 'a_fan', text });
    const sent = async () =>
      (await sandbox.control('GET', '/webhooks/deliveries?limit=100')).body as { body: string }[];
    const before = (await sent()).length;
    // Logged in, but not subscribed: nothing is sent.
    const instagram = await sandbox.credentials('instagram', 'quiet_ig');
    const facebook = await sandbox.credentials('facebook', 'quiet_fb');
    await sandbox.credentials('threads', 'quiet_th', ['threads_basic', 'threads_content_publish']);
    await comment('instagram', 'quiet_ig', 'unheard');
    await comment('facebook', 'quiet_fb.page1', 'unheard');
    await comment('threads', 'quiet_th', 'unheard');
    expect((await sent()).length).toBe(before);

    // Instagram: POST /me/subscribed_apps with comments (the webhooks page's "Enable Subscriptions").
    const ig = await sandbox.raw('POST', '/graph.instagram.com/v25.0/me/subscribed_apps', {
      subscribed_fields: 'comments',
      access_token: instagram.accessToken,
    });
    expect(ig).toMatchObject({ status: 200, body: { success: true } });
    const [grant] = await pagesOf(sandbox.adapter('facebook'))(facebook);
    const fb = await sandbox.raw('POST', `/graph.facebook.com/${FACEBOOK_VERSION}/${grant?.id}/subscribed_apps`, {
      subscribed_fields: 'feed',
      access_token: grant?.accessToken ?? '',
    });
    expect(fb).toMatchObject({ status: 200, body: { success: true } });
    await sandbox.credentials('threads', 'quiet_th');
    const heard = await Promise.all([
      comment('instagram', 'quiet_ig', 'heard on instagram'),
      comment('facebook', 'quiet_fb.page1', 'heard on facebook'),
      comment('threads', 'quiet_th', 'heard on threads'),
    ]);
    const bodies = (await sent()).slice(0, 3).map((d) => d.body);
    for (const made of heard) expect(bodies.some((b) => b.includes(made.body.id))).toBe(true);
    expect((await sent()).length).toBe(before + 3);
  });

  it('refuses a subscription without its permission, of another account, or of an unknown field', async () => {
    const noComments = await sandbox.credentials('instagram', 'sub_refused', ['instagram_business_basic']);
    const subscribe = (id: string, fields: string, token = noComments.accessToken) =>
      sandbox.raw('POST', `/graph.instagram.com/v25.0/${id}/subscribed_apps`, {
        subscribed_fields: fields,
        access_token: token,
      });
    expect((await subscribe('me', 'comments')).body.error.code).toBe(10);
    const full = await sandbox.credentials('instagram', 'sub_full');
    expect((await subscribe('me', 'comments,not_a_field', full.accessToken)).body.error.code).toBe(100);
    expect((await subscribe(noComments.platformUserId, 'comments', full.accessToken)).body.error.code).toBe(100);
    expect((await subscribe(full.platformUserId, 'comments', full.accessToken)).body).toEqual({ success: true });
    const page = (await pagesOf(sandbox.adapter('facebook'))(await sandbox.credentials('facebook', 'sub_fb')))[0];
    const userToken = await sandbox.credentials('facebook', 'sub_fb_user');
    const asUser = await sandbox.raw('POST', `/graph.facebook.com/${FACEBOOK_VERSION}/${page?.id}/subscribed_apps`, {
      subscribed_fields: 'feed',
      access_token: userToken.accessToken,
    });
    expect(asUser.status).toBe(400);
    const noFields = await sandbox.raw('POST', `/graph.facebook.com/${FACEBOOK_VERSION}/${page?.id}/subscribed_apps`, {
      access_token: page?.accessToken ?? '',
    });
    expect(noFields.body.error.code).toBe(100);
  });

  it("names the account's own Instagram comment by its professional account id, with its Instagram-scoped id beside it", async () => {
    const receiver = await callback();
    await subscribe('instagram', receiver);
    const user = await subscribedInstagram('hook_ig_own');
    const account = await sandbox.credentials('instagram', 'hook_ig_own');
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'instagram',
        username: 'hook_ig_own',
        author_username: 'fan',
        text: 'Hi!',
      })
    ).body;
    await notices(receiver, 1);
    const reply = await sandbox.raw('POST', `/graph.instagram.com/v25.0/${added.id}/replies`, {
      message: 'Thanks!',
      access_token: account.accessToken,
    });
    const [, own] = (await notices(receiver, 2)).map((r) => JSON.parse(r.body.toString('utf8')));
    const from = own.entry[0].value.from;
    expect(own.entry[0].value.id).toBe(reply.body.id);
    expect(from).toEqual({ id: user.id, username: 'hook_ig_own', self_ig_scoped_id: expect.stringMatching(/^\d+$/) });
    expect(from.self_ig_scoped_id).not.toBe(user.id);
  });

  it('sends nothing for a platform without a subscription', async () => {
    await sandbox.control('DELETE', '/webhooks/facebook');
    const before = (await sandbox.control('GET', '/webhooks/deliveries?platform=facebook&limit=100')).body.length;
    await sandbox.control('POST', '/users', { platform: 'facebook', username: 'hook_none' });
    await sandbox.control('POST', '/comments', {
      platform: 'facebook',
      username: 'hook_none.page1',
      author_username: 'nobody_listens',
      text: 'Hello?',
    });
    const after = (await sandbox.control('GET', '/webhooks/deliveries?platform=facebook&limit=100')).body.length;
    expect(after).toBe(before);
  });
});

describe('app_usage_percent', () => {
  it("makes Instagram's answers carry X-Business-Use-Case-Usage keyed by the account, Facebook's X-App-Usage; 0 leaves them out", async () => {
    const instagram = await sandbox.credentials('instagram', 'usage_ig');
    const facebook = await sandbox.credentials('facebook', 'usage_fb');
    const igMe = () => sandbox.raw('GET', '/graph.instagram.com/v25.0/me', { access_token: instagram.accessToken });
    const fbMe = () =>
      sandbox.raw('GET', `/graph.facebook.com/${FACEBOOK_VERSION}/me`, { access_token: facebook.accessToken });
    for (const answer of [await igMe(), await fbMe()]) {
      expect(answer.headers['x-app-usage']).toBeUndefined();
      expect(answer.headers['x-business-use-case-usage']).toBeUndefined();
    }
    expect((await sandbox.control('PUT', '/settings/app_usage_percent', { value: 87 })).status).toBe(200);
    // Instagram's calls are counted as Business Use Case calls (Graph API rate-limiting guide).
    const ig = await igMe();
    expect(ig.headers['x-app-usage']).toBeUndefined();
    expect(JSON.parse(String(ig.headers['x-business-use-case-usage']))).toEqual({
      [instagram.platformUserId]: [
        { type: 'instagram', call_count: 87, total_cputime: 87, total_time: 87, estimated_time_to_regain_access: 0 },
      ],
    });
    const fb = await fbMe();
    expect(JSON.parse(String(fb.headers['x-app-usage']))).toEqual({
      call_count: 87,
      total_cputime: 87,
      total_time: 87,
    });
    // A refused call carries them too: the app's usage, and no account's for a token Graph does not know.
    const refused = await sandbox.raw('GET', `/graph.facebook.com/${FACEBOOK_VERSION}/me`, { access_token: 'nobody' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(String(refused.headers['x-app-usage']))).toEqual({
      call_count: 87,
      total_cputime: 87,
      total_time: 87,
    });
    const igRefused = await sandbox.raw('GET', '/graph.instagram.com/v25.0/me', { access_token: 'nobody' });
    expect(igRefused.status).toBe(400);
    expect(igRefused.headers['x-business-use-case-usage']).toBeUndefined();
    await sandbox.control('PUT', '/settings/app_usage_percent', { value: 0 });
    expect((await igMe()).headers['x-business-use-case-usage']).toBeUndefined();
    expect((await fbMe()).headers['x-app-usage']).toBeUndefined();
    expect((await sandbox.control('PUT', '/settings/app_usage_percent', { value: 101 })).status).toBe(400);
  });
});
