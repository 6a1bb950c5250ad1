import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import {
  createPlatforms,
  type Platform,
  type PlatformNotice,
  type PlatformSet,
  SANDBOX_CLIENT,
} from '../../src/platforms/index.ts';
import { usagePercentOf } from '../../src/platforms/meta/usage-headers.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import {
  commentsOf,
  finishReplyOf,
  pagesOf,
  platformError,
  sent,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver((req, res) => {
    const url = new URL(req.url ?? '/', 'http://callback.test');
    res.writeHead(200).end(req.method === 'GET' ? (url.searchParams.get('hub.challenge') ?? '') : '');
  });
  // The adapters verify notices with the app secret the sandbox app has: the service's.
  for (const platform of ['instagram', 'threads', 'facebook']) {
    const answer = await sandbox.control('PUT', `/webhooks/${platform}`, {
      callback_url: receiver.url,
      verify_token: 'token',
      app_secret: SANDBOX_CLIENT.clientSecret,
    });
    expect(answer.status).toBe(200);
  }
});
afterEach(() => resetClock());
afterAll(async () => {
  await receiver.close();
  await sandbox.close();
});

/** Graph times have whole seconds. */
function toSecond(iso: string): Date {
  return new Date(Math.floor(Date.parse(iso) / 1000) * 1000);
}

/** A notice as Meta signs it, with the sandbox app's secret. */
function signed(payload: unknown, secret = SANDBOX_CLIENT.clientSecret): PlatformNotice {
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return { headers: { 'x-hub-signature-256': signature, 'content-type': 'application/json' }, body };
}

/** The newest notice the sandbox sent for `platform`, as the callback received it. */
async function lastNotice(platform: Platform): Promise<PlatformNotice> {
  const [delivery] = (await sandbox.control('GET', `/webhooks/deliveries?platform=${platform}&limit=1`)).body;
  for (;;) {
    const got = receiver.received.find((r) => r.body.toString('utf8') === delivery.body);
    if (got !== undefined) {
      return {
        headers: { 'x-hub-signature-256': String(got.headers['x-hub-signature-256']) },
        body: got.body.toString('utf8'),
      };
    }
    await receiver.waitFor(receiver.received.length + 1);
  }
}

describe('parseCommentNotices on what the sandbox sends', () => {
  it('Instagram: the comment, its post and author, the account it belongs to; no time of the comment', async () => {
    // Instagram notifies an account's comments once the account subscribed to the app's notices.
    const instagram = sandbox.adapter('instagram');
    await commentsOf(instagram).subscribeNotices(await sandbox.credentials('instagram', 'cn_ig'));
    const user = (await sandbox.control('GET', '/users/instagram/cn_ig')).body;
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'instagram',
        username: 'cn_ig',
        author_username: 'a_fan',
        text: 'Love it!',
      })
    ).body;
    const notice = await lastNotice('instagram');
    const time = JSON.parse(notice.body).entry[0].time as number;
    expect(commentsOf(instagram).parseCommentNotices(notice)).toEqual([
      {
        accountPlatformUserId: user.id,
        comment: {
          id: added.id,
          postId: user.posts[0].id,
          parentId: null,
          authorId: added.author_id,
          authorUsername: 'a_fan',
          text: 'Love it!',
          // Instagram's notice carries no time of the comment; `time` is when Meta sent it.
          createdAt: null,
          hidden: false,
          byAccount: false,
        },
        noticedAt: new Date(time * 1000),
      },
    ]);
    // The comment's own time is read from Instagram, in one call.
    const credentials = await sandbox.credentials('instagram', 'cn_ig');
    const mark = (await sandbox.calls('instagram', 'cn_ig')).count;
    const times = await commentsOf(instagram).commentTimes(credentials, [added.id]);
    expect(times).toEqual(new Map([[added.id, toSecond(added.commented_at)]]));
    const calls = await sandbox.callsAfter('instagram', 'cn_ig', mark);
    expect(calls.map((c) => [c.path, c.query.fields])).toEqual([
      [`/graph.instagram.com/v27.0/${added.id}`, 'timestamp'],
    ]);
  });

  it("Threads: a reply, and the account's own reply through the API marked byAccount", async () => {
    const account = await sandbox.credentials('threads', 'cn_th');
    const user = (await sandbox.control('GET', '/users/threads/cn_th')).body;
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'threads',
        username: 'cn_th',
        author_username: 'replier',
        text: 'Nice',
        commented_at: '2026-01-02T03:04:05.000Z',
      })
    ).body;
    const threads = sandbox.adapter('threads');
    const notice = await lastNotice('threads');
    expect(commentsOf(threads).parseCommentNotices(notice)).toEqual([
      {
        accountPlatformUserId: user.id,
        comment: {
          id: added.id,
          postId: user.posts[0].id,
          parentId: null,
          authorId: null,
          authorUsername: 'replier',
          text: 'Nice',
          createdAt: new Date('2026-01-02T03:04:05Z'),
          hidden: false,
          byAccount: false,
        },
        noticedAt: new Date((JSON.parse(notice.body).time as number) * 1000),
      },
    ]);

    const pending = await commentsOf(threads).reply(account, added.id, 'Thanks!');
    expect(pending.state).toBe('pending');
    advanceClock(6_000);
    const reply = await sent(finishReplyOf(threads)(account, pending.state === 'pending' ? pending.containerId : ''));
    const [own] = commentsOf(threads).parseCommentNotices(await lastNotice('threads'));
    expect(own?.comment).toMatchObject({
      id: reply.id,
      postId: user.posts[0].id,
      parentId: added.id,
      authorId: user.id,
      authorUsername: 'cn_th',
      text: 'Thanks!',
      byAccount: true,
    });
  });

  it('Facebook: a comment on a page post, the page as the account', async () => {
    const facebook = sandbox.adapter('facebook');
    const login = await sandbox.credentials('facebook', 'cn_fb');
    const [grant] = await pagesOf(facebook)(login);
    // A page's notices come once it installed the app (POST /{page-id}/subscribed_apps).
    await commentsOf(facebook).subscribeNotices({
      platformUserId: grant?.id ?? '',
      accessToken: grant?.accessToken ?? '',
    });
    const page = (await sandbox.control('GET', '/users/facebook/cn_fb.page1')).body;
    const added = (
      await sandbox.control('POST', '/comments', {
        platform: 'facebook',
        username: 'cn_fb.page1',
        author_username: 'visitor',
        text: 'Hello page',
        commented_at: '2026-01-02T03:04:05.000Z',
      })
    ).body;
    const notice = await lastNotice('facebook');
    expect(commentsOf(facebook).parseCommentNotices(notice)).toEqual([
      {
        accountPlatformUserId: page.id,
        comment: {
          id: added.id,
          postId: page.posts[0].id,
          parentId: null,
          authorId: added.author_id,
          authorUsername: 'visitor',
          text: 'Hello page',
          createdAt: new Date('2026-01-02T03:04:05Z'),
          hidden: false,
          byAccount: false,
        },
        noticedAt: new Date((JSON.parse(notice.body).entry[0].time as number) * 1000),
      },
    ]);
  });
});

describe("which secret signs Instagram's and Threads' notices", () => {
  // Meta's webhooks pages say "the app secret" without saying whose: the Instagram (or
  // Threads) app's, or the Meta app's it belongs to. The service takes either once
  // <PREFIX>_META_APP_SECRET names the Meta app's.
  const META_APP_SECRET = 'the-meta-apps-own-secret';
  const THIRD_SECRET = 'a-secret-of-nobody-here';

  /** The adapters of a service with INSTAGRAM_META_APP_SECRET and THREADS_META_APP_SECRET set. */
  function withMetaAppSecret(): PlatformSet {
    const config = loadConfig({ INSTAGRAM_META_APP_SECRET: META_APP_SECRET, THREADS_META_APP_SECRET: META_APP_SECRET });
    return createPlatforms({ ...config, sandboxUrl: sandbox.url });
  }

  /** The same body signed with `secret` instead. */
  function resigned(notice: PlatformNotice, secret: string): PlatformNotice {
    const signature = `sha256=${createHmac('sha256', secret).update(notice.body).digest('hex')}`;
    return { headers: { 'x-hub-signature-256': signature }, body: notice.body };
  }

  it.each(['instagram', 'threads'] as const)(
    '%s: a notice signed with the Meta app secret is taken once the setting names it, one signed with the app secret still is, a third is refused',
    async (platform) => {
      const username = `secret_${platform}`;
      if (platform === 'instagram') {
        await commentsOf(sandbox.adapter('instagram')).subscribeNotices(await sandbox.credentials(platform, username));
      } else {
        await sandbox.credentials(platform, username);
      }
      // The sandbox signs this platform's notices with the Meta app's secret.
      const subscribed = await sandbox.control('PUT', `/webhooks/${platform}`, {
        callback_url: receiver.url,
        verify_token: 'token',
        app_secret: META_APP_SECRET,
      });
      expect(subscribed.status).toBe(200);
      try {
        const added = (
          await sandbox.control('POST', '/comments', { platform, username, author_username: 'a_fan', text: 'Hi' })
        ).body;
        const notice = await lastNotice(platform);
        const expected = `sha256=${createHmac('sha256', META_APP_SECRET).update(notice.body).digest('hex')}`;
        expect(notice.headers['x-hub-signature-256']).toBe(expected);

        const configured = commentsOf(withMetaAppSecret().adapter(platform));
        const [byMeta] = configured.parseCommentNotices(notice);
        expect(byMeta?.comment).toMatchObject({ id: added.id, text: 'Hi', authorUsername: 'a_fan' });
        const [byApp] = configured.parseCommentNotices(resigned(notice, SANDBOX_CLIENT.clientSecret));
        expect(byApp?.comment).toMatchObject({ id: added.id });
        expect(
          await platformError(
            Promise.resolve().then(() => configured.parseCommentNotices(resigned(notice, THIRD_SECRET))),
          ),
        ).toMatchObject({ kind: 'invalid_request' });

        // Without the setting only the app's own secret signs: the Meta app's notice is refused.
        const unset = commentsOf(sandbox.adapter(platform));
        expect(await platformError(Promise.resolve().then(() => unset.parseCommentNotices(notice)))).toMatchObject({
          kind: 'invalid_request',
        });
        expect(unset.parseCommentNotices(resigned(notice, SANDBOX_CLIENT.clientSecret))).toHaveLength(1);
      } finally {
        await sandbox.control('PUT', `/webhooks/${platform}`, {
          callback_url: receiver.url,
          verify_token: 'token',
          app_secret: SANDBOX_CLIENT.clientSecret,
        });
      }
    },
  );
});

describe('parseCommentNotices on the platforms’ documented payloads', () => {
  const igValue = {
    id: '17865799348089039',
    from: { id: '1234567890', username: 'commenter' },
    text: 'This is an example.',
    media: { id: '17887498072083520', media_product_type: 'FEED' },
    parent_id: '17858893269000001',
  };
  const igComment = {
    accountPlatformUserId: '17841405793187218',
    comment: {
      id: '17865799348089039',
      postId: '17887498072083520',
      parentId: '17858893269000001',
      authorId: '1234567890',
      authorUsername: 'commenter',
      text: 'This is an example.',
      createdAt: null,
      hidden: false,
      byAccount: false,
    },
    noticedAt: new Date(1_723_226_877 * 1000),
  };

  it('Instagram: field/value on the entry (Instagram Login) and nested in changes[] (Facebook Login)', () => {
    const instagram = sandbox.adapter('instagram');
    const onEntry = {
      object: 'instagram',
      entry: [{ id: '17841405793187218', time: 1_723_226_877, field: 'comments', value: igValue }],
    };
    const inChanges = {
      object: 'instagram',
      entry: [{ id: '17841405793187218', time: 1_723_226_877, changes: [{ field: 'comments', value: igValue }] }],
    };
    expect(commentsOf(instagram).parseCommentNotices(signed(onEntry))).toEqual([igComment]);
    expect(commentsOf(instagram).parseCommentNotices(signed(inChanges))).toEqual([igComment]);
  });

  it("Instagram: the account's own comment names the account by entry.id, as the Self Messaging page's example does", () => {
    // https://developers.facebook.com/docs/instagram-platform/self-messaging, "Example Comment Webhook".
    const own = {
      object: 'instagram',
      entry: [
        {
          id: '17841405793187218',
          time: 1_723_226_877,
          changes: [
            {
              field: 'comments',
              value: {
                from: { id: '17841405793187218', username: 'the_account', self_ig_scoped_id: '5511223344556677' },
                id: '17865799348089040',
                text: 'Thanks everyone!',
                media: { id: '17887498072083520', media_product_type: 'FEED' },
              },
            },
          ],
        },
      ],
    };
    expect(commentsOf(sandbox.adapter('instagram')).parseCommentNotices(signed(own))[0]?.comment).toMatchObject({
      authorId: '17841405793187218',
      byAccount: true,
    });
  });

  it("Threads: the replies example of Threads' webhooks page", () => {
    const example = {
      app_id: '123456',
      topic: 'moderate',
      target_id: '78901',
      time: 1723226877,
      subscription_id: '234567',
      has_uid_field: false,
      values: {
        value: {
          id: '8901234',
          username: 'test_username',
          text: 'Reply',
          media_type: 'TEXT_POST',
          permalink: 'https://www.threads.net/@test_username/post/Pp',
          replied_to: { id: '567890' },
          root_post: { id: '123456', owner_id: '123456', username: 'test_username_2' },
          shortcode: 'Pp',
          timestamp: '2024-08-07T10:33:16+0000',
        },
        field: 'replies',
      },
    };
    expect(commentsOf(sandbox.adapter('threads')).parseCommentNotices(signed(example))).toEqual([
      {
        accountPlatformUserId: '123456',
        comment: {
          id: '8901234',
          postId: '123456',
          parentId: '567890',
          authorId: null,
          authorUsername: 'test_username',
          text: 'Reply',
          createdAt: new Date('2024-08-07T10:33:16Z'),
          hidden: false,
          byAccount: false,
        },
        noticedAt: new Date(1723226877 * 1000),
      },
    ]);
  });

  it('Facebook: a feed comment add; its other feed changes and fields are ignored', () => {
    const change = (value: Record<string, unknown>, field = 'feed') => ({
      object: 'page',
      entry: [{ id: '1000000001', time: 1_723_226_900, changes: [{ field, value }] }],
    });
    const comment = {
      from: { id: '2000000002', name: 'Visitor Name' },
      post_id: '1000000001_3000000003',
      comment_id: '3000000003_4000000004',
      parent_id: '1000000001_3000000003',
      message: 'Nice post',
      created_time: 1_723_226_877,
      item: 'comment',
      verb: 'add',
    };
    const facebook = sandbox.adapter('facebook');
    expect(commentsOf(facebook).parseCommentNotices(signed(change(comment)))).toEqual([
      {
        accountPlatformUserId: '1000000001',
        comment: {
          id: '3000000003_4000000004',
          postId: '1000000001_3000000003',
          parentId: null,
          authorId: '2000000002',
          authorUsername: 'Visitor Name',
          text: 'Nice post',
          createdAt: new Date(1_723_226_877 * 1000),
          hidden: false,
          byAccount: false,
        },
        noticedAt: new Date(1_723_226_900 * 1000),
      },
    ]);
    const ownReply = { ...comment, from: { id: '1000000001', name: 'The Page' }, parent_id: '3000000003_4000000004' };
    expect(commentsOf(facebook).parseCommentNotices(signed(change(ownReply)))[0]?.comment).toMatchObject({
      parentId: '3000000003_4000000004',
      byAccount: true,
    });
    expect(commentsOf(facebook).parseCommentNotices(signed(change({ ...comment, verb: 'edited' })))).toEqual([]);
    expect(
      commentsOf(facebook).parseCommentNotices(signed(change({ item: 'reaction', verb: 'add', post_id: '1' }))),
    ).toEqual([]);
    expect(commentsOf(facebook).parseCommentNotices(signed(change({ name: 'New name' }, 'name')))).toEqual([]);
  });

  it('ignores changes of other fields', () => {
    const mentions = {
      object: 'instagram',
      entry: [{ id: '1', time: 1, changes: [{ field: 'mentions', value: { media_id: '2', comment_id: '3' } }] }],
    };
    expect(commentsOf(sandbox.adapter('instagram')).parseCommentNotices(signed(mentions))).toEqual([]);
    const publish = {
      app_id: '1',
      topic: 'moderate',
      target_id: '2',
      time: 1,
      values: { value: { id: '3' }, field: 'publish' },
    };
    expect(commentsOf(sandbox.adapter('threads')).parseCommentNotices(signed(publish))).toEqual([]);
  });

  it('refuses a notice without a matching signature, or that is not JSON; TikTok has none', async () => {
    const instagram = sandbox.adapter('instagram');
    const payload = { object: 'instagram', entry: [] };
    const forged = signed(payload, 'someone-elses-secret');
    const unsigned = { headers: {}, body: JSON.stringify(payload) };
    const tampered = { ...signed(payload), body: JSON.stringify({ ...payload, extra: 1 }) };
    for (const notice of [forged, unsigned, tampered]) {
      expect(
        await platformError(Promise.resolve().then(() => commentsOf(instagram).parseCommentNotices(notice))),
      ).toMatchObject({
        kind: 'invalid_request',
      });
    }
    const notJson = { ...signed(payload), body: 'not json' };
    notJson.headers['x-hub-signature-256'] =
      `sha256=${createHmac('sha256', SANDBOX_CLIENT.clientSecret).update('not json').digest('hex')}`;
    expect(
      await platformError(Promise.resolve().then(() => commentsOf(instagram).parseCommentNotices(notJson))),
    ).toMatchObject({
      kind: 'invalid_request',
    });
    const tiktok = sandbox.adapter('tiktok');
    expect(
      await platformError(Promise.resolve().then(() => commentsOf(tiktok).parseCommentNotices(signed(payload)))),
    ).toMatchObject({
      kind: 'unsupported',
    });
  });
});

describe('recentComments and postSummary', () => {
  it('answers the recent posts, with or without comments, their comments, and the highest usage reported', async () => {
    const instagram = sandbox.adapter('instagram');
    const account = await sandbox.credentials('instagram', 'cn_recent');
    const user = (await sandbox.control('GET', '/users/instagram/cn_recent')).body;
    const first = await commentsOf(instagram).recentComments(account, { posts: 2 });
    expect(first.posts.map((p) => p.id)).toEqual([user.posts[0].id, user.posts[1].id]);
    expect(first.posts[0]).toEqual({
      id: user.posts[0].id,
      text: user.posts[0].caption,
      permalink: user.posts[0].permalink,
      publishedAt: toSecond(user.posts[0].created_at),
    });
    // Two comments by other people on each new post.
    expect(first.comments).toHaveLength(4);
    expect(first.usagePercent).toBeNull();

    await sandbox.control('PUT', '/settings/app_usage_percent', { value: 87 });
    try {
      expect((await commentsOf(instagram).recentComments(account, { posts: 1 })).usagePercent).toBe(87);
    } finally {
      await sandbox.control('PUT', '/settings/app_usage_percent', { value: 0 });
    }
  });

  it('reads the highest figure of X-App-Usage and of every Business Use Case entry', () => {
    const response = (headers: Record<string, string>) => ({ status: 200, headers, body: {}, text: '{}' });
    expect(usagePercentOf(response({}))).toBeNull();
    expect(usagePercentOf(response({ 'x-app-usage': '{"call_count":28,"total_time":25,"total_cputime":41}' }))).toBe(
      41,
    );
    expect(
      usagePercentOf(
        response({
          'x-app-usage': '{"call_count":10,"total_time":5,"total_cputime":5}',
          'x-business-use-case-usage':
            '{"1234":[{"type":"instagram","call_count":12,"total_cputime":95,"total_time":30,"estimated_time_to_regain_access":0}]}',
        }),
      ),
    ).toBe(95);
    expect(usagePercentOf(response({ 'x-app-usage': 'not json' }))).toBeNull();
  });

  it('summarises a post on each platform: its text, permalink and time', async () => {
    for (const platform of ['instagram', 'threads', 'facebook'] as const) {
      const username = `cn_sum_${platform}`;
      let account = await sandbox.credentials(platform, username);
      let owner = username;
      if (platform === 'facebook') {
        const [page] = await pagesOf(sandbox.adapter('facebook'))(account);
        account = { platformUserId: page?.id as string, accessToken: page?.accessToken as string };
        owner = `${username}.page1`;
      }
      const post = (await sandbox.control('GET', `/users/${platform}/${owner}`)).body.posts[0];
      expect(await commentsOf(sandbox.adapter(platform)).postSummary(account, post.id)).toEqual({
        id: post.id,
        text: post.caption,
        permalink: post.permalink,
        publishedAt: toSecond(post.created_at),
      });
    }
  });
});

describe('reply outcomes', () => {
  it('Threads leaves a reply pending while its container is IN_PROGRESS, and finishReply publishes it later', async () => {
    const threads = sandbox.adapter('threads');
    const account = await sandbox.credentials('threads', 'cn_pending');
    const postId = (await sandbox.control('GET', '/users/threads/cn_pending')).body.posts[0].id as string;
    const first = await commentsOf(threads).reply(account, postId, 'Later');
    expect(first).toEqual({ state: 'pending', containerId: expect.stringMatching(/^\d+$/) });
    const containerId = first.state === 'pending' ? first.containerId : '';
    // Still processing: pending again, nothing published.
    expect(await finishReplyOf(threads)(account, containerId)).toEqual({ state: 'pending', containerId });
    advanceClock(6_000);
    const done = await sent(finishReplyOf(threads)(account, containerId));
    const { comments } = await commentsOf(threads).recentComments(account, { posts: 1 });
    expect(comments.find((c) => c.id === done.id)).toMatchObject({ text: 'Later', byAccount: true });
    // Published once: a second finish cannot publish it again.
    expect(await platformError(finishReplyOf(threads)(account, containerId))).toMatchObject({
      kind: 'invalid_request',
    });
  });

  it('Threads sends a reply at once when containers are ready at once', async () => {
    await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 0 });
    try {
      const threads = sandbox.adapter('threads');
      const account = await sandbox.credentials('threads', 'cn_ready');
      const postId = (await sandbox.control('GET', '/users/threads/cn_ready')).body.posts[0].id as string;
      expect(await commentsOf(threads).reply(account, postId, 'Now')).toEqual({
        state: 'sent',
        id: expect.stringMatching(/^\d+$/),
      });
    } finally {
      await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 5 });
    }
  });

  it('Instagram and Facebook send replies at once; finishReply is unsupported there', async () => {
    const instagram = sandbox.adapter('instagram');
    const account = await sandbox.credentials('instagram', 'cn_ig_reply');
    const [comment] = (await commentsOf(instagram).recentComments(account, { posts: 1 })).comments;
    expect(await commentsOf(instagram).reply(account, comment?.id as string, 'Thanks')).toEqual({
      state: 'sent',
      id: expect.stringMatching(/^\d+$/),
    });
    expect(commentsOf(instagram).finishReply).toBeUndefined();
    expect(commentsOf(sandbox.adapter('facebook')).finishReply).toBeUndefined();
  });
});
