import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import type { AccountCredentials, PlatformAdapter, PublishRequest } from '../../src/platforms/index.ts';
import { permissionForm } from '../../src/sandbox/permission-form.ts';
import {
  commentsOf,
  insightsOf,
  platformError,
  REDIRECT_URI,
  sent,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let instagram: PlatformAdapter;
let media: MediaServer;

beforeAll(async () => {
  sandbox = await startSandbox();
  instagram = sandbox.adapter('instagram');
  media = await startMediaServer();
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const DAY = 86_400_000;
/** The scopes the service asks Instagram for (Instagram API with Instagram Login's scope names). */
const ALL_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_comments',
  'instagram_business_manage_insights',
];
/** Longer than the sandbox's 5 s of container processing (its default container_processing_seconds). */
const PROCESSING_DONE_MS = 6_000;

/** A container still processing, with the reason shown on the target while it waits. */
const PROCESSING = { state: 'in_progress', message: expect.stringContaining('processing') };

const connected = (username: string, granted?: string[]) => sandbox.credentials('instagram', username, granted);

/** A login as `username`, its code exchanged by a raw call: Instagram's own answer. */
async function rawExchange(username: string) {
  const params = await sandbox.authorize('instagram', { username });
  return await sandbox.raw('POST', '/api.instagram.com/oauth/access_token', {
    client_id: 'switchboard-sandbox',
    client_secret: 'switchboard-sandbox-secret',
    grant_type: 'authorization_code',
    redirect_uri: REDIRECT_URI,
    code: params.get('code') as string,
  });
}

/**
 * Walks the permission page at `url` as a browser holding `cookie` would, as `username`:
 * the page it showed, the redirect after Allow, and the session cookie the page set.
 */
async function walkDialog(url: string, username: string, cookie = '') {
  const headers = cookie === '' ? {} : { cookie };
  const page = await request(url, { headers });
  const html = await page.body.text();
  const form = permissionForm(html, url, { username });
  if (form === null) throw new Error(`no form on the page: ${html}`);
  const decision = await request(form.action, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.body.toString(),
  });
  await decision.body.dump();
  const setCookie = String(decision.headers['set-cookie'] ?? '');
  return { html, redirect: new URL(String(decision.headers.location)), cookie: setCookie.split(';')[0] ?? '' };
}

describe('instagram: OAuth', () => {
  it('builds the documented authorize URL with every requested scope, comma separated', () => {
    const url = new URL(instagram.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.pathname).toBe('/sandbox/www.instagram.com/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('switchboard-sandbox');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.get('scope')).toBe(ALL_SCOPES.join(','));
  });

  it('asks for a fresh login with force_authentication=1, the parameter Business Login for Instagram documents', () => {
    const url = new URL(instagram.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.searchParams.get('force_authentication')).toBe('1');
    expect(url.searchParams.get('enable_fb_login')).toBe('0');
    expect(url.searchParams.has('force_reauth')).toBe(false);
  });

  it('a browser still signed in to one account is asked who logs in, so a second account can be connected', async () => {
    // A first login from this browser: Instagram keeps it signed in (a session cookie).
    const first = await walkDialog(instagram.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'a' }), 'ig_first');
    expect(first.cookie).toMatch(/^sandbox_instagram_session=ig_first$/);
    // The service's next login URL asks again: the username field, empty, and no one signed in.
    const next = await walkDialog(
      instagram.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'b' }),
      'ig_second',
      first.cookie,
    );
    expect(next.html).toMatch(/<input type="text" id="username" name="username"/);
    expect(next.html).not.toContain('Signed in as');
    const tokens = await instagram.exchangeCode(next.redirect.searchParams.get('code') as string, REDIRECT_URI);
    const second = (await sandbox.control('GET', '/users/instagram/ig_second')).body;
    expect(tokens.platformUserId).toBe(second.id);
    // Without the parameter (a URL sending force_reauth=true instead), Instagram takes the
    // browser's session: the page continues as the first account and asks no one.
    const reused = new URL(instagram.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'c' }));
    reused.searchParams.delete('force_authentication');
    reused.searchParams.set('force_reauth', 'true');
    const page = await request(reused, { headers: { cookie: next.cookie } });
    const html = await page.body.text();
    expect(html).toContain('Signed in as <strong>ig_second</strong>');
    expect(html).toContain('<input type="hidden" name="username" value="ig_second"/>');
    expect(html).not.toMatch(/<input type="text" id="username"/);
  });

  it('Cancel redirects with error=access_denied and the state', async () => {
    const params = await sandbox.authorize('instagram', { username: 'ig_cancel', cancel: true, state: 'xyz' });
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_reason')).toBe('user_denied');
    expect(params.get('state')).toBe('xyz');
    expect(instagram.parseCallback(Object.fromEntries(params))).toMatchObject({
      outcome: 'denied',
      error: 'access_denied',
      state: 'xyz',
    });
  });

  it('Allow gives a single-use code; the exchange answers a 60-day token and the ticked scopes', async () => {
    const granted = ['instagram_business_basic', 'instagram_business_manage_comments'];
    const params = await sandbox.authorize('instagram', { username: 'ig_allow', granted, state: 'abc' });
    const callback = instagram.parseCallback({ ...Object.fromEntries(params), code: `${params.get('code')}#_` });
    expect(callback).toMatchObject({ outcome: 'code', state: 'abc' });
    if (callback.outcome !== 'code') throw new Error('no code');
    expect(callback.code).toBe(params.get('code'));
    const tokens = await instagram.exchangeCode(callback.code, REDIRECT_URI);
    expect(tokens.scopes).toEqual(granted);
    expect(tokens.platformUserId).toMatch(/^\d{17}$/);
    const days = ((tokens.expiresAt?.getTime() ?? 0) - now().getTime()) / DAY;
    expect(days).toBeGreaterThan(59);
    expect(days).toBeLessThan(61);
    const again = await platformError(instagram.exchangeCode(callback.code, REDIRECT_URI));
    expect(again.kind).toBe('invalid_request');
    expect(again.detail.platformMessage).toBe('Matching code was not found or was already used');
  });

  it('with every permission unticked, the exchange answers that nothing was granted', async () => {
    const tokens = await sandbox.connect('instagram', 'ig_nothing', []);
    expect(tokens.scopes).toEqual([]);
  });

  it('accepts the flat code-exchange answer as well as the documented {"data":[...]}', async () => {
    expect((await sandbox.control('PUT', '/settings/instagram_token_shape', { value: 'flat' })).status).toBe(200);
    try {
      const tokens = await sandbox.connect('instagram', 'ig_flat');
      expect(tokens.scopes).toEqual(ALL_SCOPES);
    } finally {
      await sandbox.control('PUT', '/settings/instagram_token_shape', { value: 'data' });
    }
  });

  it('reads the user_id Instagram sends as a JSON integer beyond 2^53 without loss', async () => {
    // Instagram's documented example id; as a double it would read 17841405793187220.
    const made = await sandbox.control('POST', '/users', {
      platform: 'instagram',
      username: 'ig_big_id',
      id: '17841405793187219',
    });
    expect(made.status).toBe(201);
    const tokens = await sandbox.connect('instagram', 'ig_big_id');
    expect(tokens.platformUserId).toBe('17841405793187219');
    expect((await instagram.profile(tokens)).id).toBe('17841405793187219');
  });

  it("keeps the professional account id (/me's user_id, webhooks' entry.id, the paths'), not the app-scoped ids of the code exchange and /me's id", async () => {
    const tokens = await sandbox.connect('instagram', 'ig_ids');
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_ids');
    expect(tokens.platformUserId).toBe(user.id);
    expect((await instagram.profile(tokens)).id).toBe(user.id);
    // What Instagram answers, call by call (Instagram API with Instagram Login, "Get Started").
    const me = await sandbox.raw('GET', '/graph.instagram.com/v25.0/me', {
      fields: 'id,user_id',
      access_token: tokens.accessToken,
    });
    expect(me.body.user_id).toBe(user.id);
    expect(me.body.id).not.toBe(user.id);
    const exchanged = await rawExchange('ig_ids');
    const appScoped = String(exchanged.body.data[0].user_id);
    expect(appScoped).not.toBe(user.id);
    // The app-scoped id is kept beside, for a notice that names it.
    expect(tokens.aliases).toEqual([me.body.id]);
    // Paths take the professional account id: an app-scoped one names nothing.
    const wrong = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${me.body.id}/media`, {
      access_token: tokens.accessToken,
    });
    expect(wrong.body.error.code).toBe(100);
    expect((await commentsOf(instagram).recentComments(tokens)).posts.length).toBeGreaterThan(0);
  });

  it("tells the account's own comments by Instagram's `user` field: their from.id is an Instagram-scoped id", async () => {
    const account = await connected('ig_own');
    const { comments } = await commentsOf(instagram).recentComments(account);
    const [theirs] = comments;
    if (!theirs) throw new Error('the sandbox user has no comments');
    const reply = await sent(commentsOf(instagram).reply(account, theirs.id, 'Thank you!'));
    const read = (await commentsOf(instagram).recentComments(account)).comments;
    expect(read.find((c) => c.id === reply.id)).toMatchObject({ byAccount: true, authorId: account.platformUserId });
    expect(read.find((c) => c.id === theirs.id)).toMatchObject({ byAccount: false });
    const raw = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${reply.id}`, {
      fields: 'from,user',
      access_token: account.accessToken,
    });
    expect(raw.body.user).toEqual({ id: account.platformUserId });
    expect(raw.body.from.id).not.toBe(account.platformUserId);
  });

  it('reads the user of a deauthorize signed_request whose user_id is a number beyond 2^53', () => {
    const payload = Buffer.from(
      '{"algorithm":"HMAC-SHA256","issued_at":1767225600,"user_id":17841405793187219}',
    ).toString('base64url');
    const signature = createHmac('sha256', 'switchboard-sandbox-secret').update(payload).digest('base64url');
    const body = new URLSearchParams({ signed_request: `${signature}.${payload}` }).toString();
    expect(instagram.parseDeauthorization({ headers: {}, body })).toEqual(['17841405793187219']);
  });

  it('a code expires after an hour', async () => {
    const params = await sandbox.authorize('instagram', { username: 'ig_late' });
    advanceClock(61 * 60_000);
    const error = await platformError(instagram.exchangeCode(params.get('code') as string, REDIRECT_URI));
    expect(error.kind).toBe('invalid_request');
  });

  it('refreshes a long-lived token once it is a day old, not before', async () => {
    const tokens = await sandbox.connect('instagram', 'ig_refresh');
    const early = await platformError(instagram.refreshToken(tokens));
    expect(early.kind).toBe('invalid_request');
    advanceClock(25 * 3_600_000);
    const refreshed = await instagram.refreshToken(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    // The refresh answer names no scopes: the grant's stay as they were.
    expect(refreshed.scopes).toBeNull();
    expect((refreshed.expiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(59 * DAY);
    expect((await instagram.profile(refreshed)).id).toBe(tokens.platformUserId);
  });
});

describe('instagram: reading', () => {
  it('reads the profile', async () => {
    const account = await connected('ig_profile');
    const profile = await instagram.profile(account);
    expect(profile).toMatchObject({ id: account.platformUserId, username: 'ig_profile', name: 'Ig Profile' });
    expect(profile.followersCount).toBeGreaterThan(0);
    expect(profile.avatarUrl).toMatch(/^https:\/\//);
  });

  it('reads comments on recent posts, newest first, with replies, hidden state and who wrote them', async () => {
    const account = await connected('ig_comments');
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_comments');
    const latest = user.posts[0].id as string;
    const added = await sandbox.control('POST', '/comments', {
      platform: 'instagram',
      username: 'ig_comments',
      post_id: latest,
      author_username: 'visitor',
      text: '<b>nice</b>',
      commented_at: new Date(now().getTime() - 60_000).toISOString(),
    });
    expect(added.status).toBe(201);
    const comments = (await commentsOf(instagram).recentComments(account)).comments;
    expect(comments.length).toBe(7);
    expect(comments[0]).toMatchObject({
      id: added.body.id,
      postId: latest,
      authorUsername: 'visitor',
      text: '<b>nice</b>',
      hidden: false,
      byAccount: false,
      parentId: null,
    });
    const reply = await sent(commentsOf(instagram).reply(account, added.body.id, 'Thanks!'));
    await commentsOf(instagram).setHidden(account, comments[1]?.id as string, true);
    const after = (await commentsOf(instagram).recentComments(account)).comments;
    expect(after.find((c) => c.id === reply.id)).toMatchObject({ parentId: added.body.id, byAccount: true });
    expect(after.find((c) => c.id === comments[1]?.id)?.hidden).toBe(true);
    const activity = await sandbox.control('GET', '/activity/instagram/ig_comments');
    expect(activity.body.data.map((a: { action: string }) => a.action)).toEqual(['reply', 'hide']);
    expect(activity.body.data[0]).toMatchObject({ target_id: added.body.id, detail: { message: 'Thanks!' } });
    const hiddenReply = await platformError(commentsOf(instagram).reply(account, comments[1]?.id as string, 'no'));
    expect(hiddenReply.kind).toBe('invalid_request');
  });

  it("the account's reply is deleted with DELETE /{ig-comment-id}; deleting it again is no error; another account's comment is unknown", async () => {
    const account = await connected('ig_reply_delete');
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_reply_delete');
    const top = await sandbox.control('POST', '/comments', {
      platform: 'instagram',
      username: 'ig_reply_delete',
      post_id: user.posts[0].id,
      author_username: 'visitor',
      text: 'Price?',
    });
    const reply = await sent(commentsOf(instagram).reply(account, top.body.id, 'In your DMs'));
    const deleteReply = commentsOf(instagram).deleteReply;
    if (deleteReply === undefined) throw new Error('the Instagram adapter deletes no replies');
    await deleteReply(account, reply.id, top.body.id);
    const comments = (await commentsOf(instagram).recentComments(account, { posts: 1 })).comments;
    expect(comments.map((c) => c.id)).toContain(top.body.id);
    expect(comments.map((c) => c.id)).not.toContain(reply.id);
    // Instagram no longer has it (code 100, subcode 33): it was deleted, as asked.
    await deleteReply(account, reply.id, top.body.id);
    const activity = await sandbox.control('GET', '/activity/instagram/ig_reply_delete');
    expect(activity.body.data.map((a: { action: string; target_id: string }) => [a.action, a.target_id])).toEqual([
      ['reply', top.body.id],
      ['delete_comment', reply.id],
    ]);
    // A comment on another account's media is not this account's to delete: Instagram answers as for
    // an unknown object (code 100, subcode 33), which the adapter cannot tell from one deleted; it stays.
    const other = await connected('ig_reply_delete_other');
    await deleteReply(other, top.body.id, top.body.id);
    const still = (await commentsOf(instagram).recentComments(account, { posts: 1 })).comments;
    expect(still.map((c) => c.id)).toContain(top.body.id);
    const calls = (await sandbox.calls('instagram', 'ig_reply_delete_other')).data.filter((c) => c.method === 'DELETE');
    expect(calls).toHaveLength(1);
    expect(instagram.scopes.byAction.delete_reply).toEqual(['instagram_business_manage_comments']);
  });

  it('a reply to a reply is added to its top-level comment, as Instagram does', async () => {
    const account = await connected('ig_reply_nested');
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_reply_nested');
    const top = await sandbox.control('POST', '/comments', {
      platform: 'instagram',
      username: 'ig_reply_nested',
      post_id: user.posts[0].id,
      author_username: 'visitor',
      text: 'top',
    });
    const nested = await sandbox.control('POST', '/comments', {
      platform: 'instagram',
      username: 'ig_reply_nested',
      post_id: user.posts[0].id,
      parent_id: top.body.id,
      author_username: 'other.visitor',
      text: 'a reply',
    });
    const reply = await sent(commentsOf(instagram).reply(account, nested.body.id, 'Thanks both'));
    const comments = (await commentsOf(instagram).recentComments(account, { posts: 1 })).comments;
    expect(comments.find((c) => c.id === reply.id)).toMatchObject({
      parentId: top.body.id,
      text: 'Thanks both',
      byAccount: true,
    });
    const activity = await sandbox.control('GET', '/activity/instagram/ig_reply_nested');
    expect(activity.body.data).toEqual([
      expect.objectContaining({
        action: 'reply',
        target_id: nested.body.id,
        detail: { reply_id: reply.id, parent_id: top.body.id, message: 'Thanks both' },
      }),
    ]);
  });

  it('reads account insights per day, with null for no data, and post insights with saves mapped to saved', async () => {
    const account = await connected('ig_insights');
    const day = new Date(now().getTime() - 2 * DAY).toISOString().slice(0, 10);
    const nextDay = new Date(now().getTime() - DAY).toISOString().slice(0, 10);
    await sandbox.control('PUT', '/insights', {
      platform: 'instagram',
      username: 'ig_insights',
      metric: 'reach',
      values: [
        { day, value: 42 },
        { day: nextDay, value: null },
      ],
    });
    await sandbox.control('PUT', '/insights', {
      platform: 'instagram',
      username: 'ig_insights',
      metric: 'saves',
      values: [{ day, value: 0 }],
    });
    const { figures: daily } = await insightsOf(instagram).accountInsights(
      account,
      [day, nextDay],
      ['reach', 'saves', 'followers_count'],
    );
    expect(daily[day]).toEqual({ reach: 42, saves: 0, followers_count: null });
    expect(daily[nextDay]?.reach).toBeNull();

    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_insights');
    const postId = user.posts[0].id as string;
    await sandbox.control('PUT', '/insights', {
      platform: 'instagram',
      username: 'ig_insights',
      post_id: postId,
      metric: 'saved',
      values: [{ day, value: 7 }],
    });
    await sandbox.control('PUT', '/insights', {
      platform: 'instagram',
      username: 'ig_insights',
      post_id: postId,
      metric: 'reach',
      values: [{ day, value: null }],
    });
    expect((await insightsOf(instagram).postInsights(account, postId, ['saves', 'reach'])).figures).toEqual({
      saves: 7,
      reach: null,
    });
    const unknown = await platformError(insightsOf(instagram).postInsights(account, postId, ['clicks']));
    expect(unknown.kind).toBe('invalid_request');
  });

  /** A story published through the adapter, as the service publishes one. */
  async function publishedStory(account: AccountCredentials): Promise<string> {
    const { containerId } = await instagram.publishing.createContainer(account, {
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
      options: { type: 'story' },
    });
    advanceClock(PROCESSING_DONE_MS);
    return (await instagram.publishing.publishContainer(account, containerId)).id;
  }

  async function setStoryFigure(username: string, postId: string, metric: string, value: number) {
    const day = now().toISOString().slice(0, 10);
    await sandbox.control('PUT', '/insights', {
      platform: 'instagram',
      username,
      post_id: postId,
      metric,
      values: [{ day, value }],
    });
  }

  const POST_METRICS = ['views', 'reach', 'likes', 'comments', 'saves', 'shares', 'total_interactions'];

  it("a story: the metrics a story lacks (likes, comments, saves) are null, the others read, in Instagram's two answers", async () => {
    const account = await connected('ig_story_figures');
    const storyId = await publishedStory(account);
    for (const metric of ['views', 'reach', 'shares', 'total_interactions']) {
      await setStoryFigure('ig_story_figures', storyId, metric, 40);
    }
    const since = now();
    const { figures } = await insightsOf(instagram).postInsights(account, storyId, POST_METRICS);
    expect(figures).toEqual({
      views: 40,
      reach: 40,
      likes: null,
      comments: null,
      saves: null,
      shares: 40,
      total_interactions: 40,
    });
    const calls = (await sandbox.calls('instagram', 'ig_story_figures', since)).data;
    expect(calls.map((c) => c.query.metric)).toEqual([
      'views,reach,likes,comments,saved,shares,total_interactions',
      'views,reach,shares,total_interactions',
    ]);
  });

  it('a story with fewer than 5 viewers: no figures at all, and no refusal (the permission is not in question)', async () => {
    const account = await connected('ig_story_few');
    const storyId = await publishedStory(account);
    await setStoryFigure('ig_story_few', storyId, 'reach', 3);
    const read = await insightsOf(instagram).postInsights(account, storyId, POST_METRICS);
    expect(read.figures).toEqual(Object.fromEntries(POST_METRICS.map((m) => [m, null])));
    // Instagram's own answer, for the record.
    const raw = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${storyId}/insights`, {
      metric: 'reach',
      access_token: account.accessToken,
    });
    expect(raw.status).toBe(400);
    expect(raw.body.error).toMatchObject({
      code: 10,
      message: '(#10) Not enough viewers for the media to show insights',
    });
  });
});

describe('instagram: account insights in the fewest calls', () => {
  /** The account metrics docs/platforms.md lists for Instagram, and the service's followers_count. */
  const METRICS = [
    'followers_count',
    'views',
    'reach',
    'accounts_engaged',
    'total_interactions',
    'likes',
    'comments',
    'saves',
    'shares',
  ];
  const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
  const unix = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

  it("3 days with every metric: one total_value insights call a day and one /me for today's followers count, 4 calls", async () => {
    const account = await connected('ig_calls');
    const days = [2, 1, 0].map((n) => dayOf(now().getTime() - n * DAY));
    const before = (await sandbox.calls('instagram', 'ig_calls')).count;
    const { figures } = await insightsOf(instagram).accountInsights(account, days, METRICS);
    const log = await sandbox.calls('instagram', 'ig_calls');
    expect(log.count - before).toBe(4);
    const made = log.data.slice(-4);
    const insights = made.filter((c) => c.path === `/graph.instagram.com/v27.0/${account.platformUserId}/insights`);
    // Every metric but followers_count rides in each day's call, as one total over that day.
    expect(insights.map((c) => c.query)).toEqual(
      days.map((day) => ({
        metric: METRICS.filter((m) => m !== 'followers_count').join(','),
        period: 'day',
        metric_type: 'total_value',
        since: String(unix(day)),
        until: expect.any(String),
      })),
    );
    expect(insights.slice(0, 2).map((c) => Number(c.query.until))).toEqual(
      days.slice(0, 2).map((d) => unix(d) + 86_400),
    );
    // Today is read up to now, not into the hours still to come.
    const todayUntil = Number(insights[2]?.query.until);
    expect(todayUntil).toBeGreaterThan(unix(days[2] as string));
    expect(todayUntil).toBeLessThanOrEqual(Math.floor(now().getTime() / 1000));
    expect(made.filter((c) => c.path === '/graph.instagram.com/v27.0/me').map((c) => c.query)).toEqual([
      { fields: 'followers_count' },
    ]);

    for (const day of days) expect(Object.keys(figures[day] ?? {}).sort()).toEqual([...METRICS].sort());
    expect(figures[days[0] as string]?.followers_count).toBeNull();
    expect(figures[days[2] as string]?.followers_count).toBeGreaterThan(0);
    expect(figures[days[1] as string]?.views).toEqual(expect.any(Number));
  });

  it('a day still to come costs no call and has no data', async () => {
    const account = await connected('ig_calls_future');
    const tomorrow = dayOf(now().getTime() + DAY);
    const yesterday = dayOf(now().getTime() - DAY);
    const before = (await sandbox.calls('instagram', 'ig_calls_future')).count;
    const { figures } = await insightsOf(instagram).accountInsights(account, [tomorrow], METRICS);
    expect(figures).toEqual({ [tomorrow]: Object.fromEntries(METRICS.map((m) => [m, null])) });
    expect((await sandbox.calls('instagram', 'ig_calls_future')).count).toBe(before);
    await insightsOf(instagram).accountInsights(account, [yesterday, tomorrow], METRICS);
    expect((await sandbox.calls('instagram', 'ig_calls_future')).count).toBe(before + 1);
  });

  it('reach alone is read as its daily series, up to 30 days a call, with the same values as day by day', async () => {
    const account = await connected('ig_calls_reach');
    const days = Array.from({ length: 31 }, (_, n) => dayOf(now().getTime() - (30 - n) * DAY));
    await sandbox.control('PUT', '/insights', {
      platform: 'instagram',
      username: 'ig_calls_reach',
      metric: 'reach',
      values: [
        { day: days[3], value: 42 },
        { day: days[4], value: null },
        { day: days[5], value: 0 },
      ],
    });
    const before = (await sandbox.calls('instagram', 'ig_calls_reach')).count;
    const { figures } = await insightsOf(instagram).accountInsights(account, days, ['reach']);
    const log = await sandbox.calls('instagram', 'ig_calls_reach');
    // "There cannot be more than 30 days between since and until": 31 days take two calls.
    expect(log.count - before).toBe(2);
    expect(log.data.slice(-2).map((c) => c.query.metric_type)).toEqual(['time_series', 'time_series']);
    expect([
      figures[days[3] as string]?.reach,
      figures[days[4] as string]?.reach,
      figures[days[5] as string]?.reach,
    ]).toEqual([42, null, 0]);
    const dayByDay = await insightsOf(instagram).accountInsights(account, days, ['reach', 'views']);
    for (const day of days) expect(figures[day]?.reach, day).toBe(dayByDay.figures[day]?.reach);
  });

  it("reports the highest rate-limit usage its calls' X-App-Usage headers gave, null without them", async () => {
    const account = await connected('ig_calls_usage');
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_calls_usage');
    const day = dayOf(now().getTime() - DAY);
    expect((await insightsOf(instagram).accountInsights(account, [day], ['views'])).usagePercent).toBeNull();
    expect((await sandbox.control('PUT', '/settings/app_usage_percent', { value: 64 })).status).toBe(200);
    try {
      expect(
        (await insightsOf(instagram).accountInsights(account, [day], ['views', 'followers_count'])).usagePercent,
      ).toBe(64);
      expect((await insightsOf(instagram).postInsights(account, user.posts[0].id, ['reach'])).usagePercent).toBe(64);
    } finally {
      await sandbox.control('PUT', '/settings/app_usage_percent', { value: 0 });
    }
  });
});

describe('instagram: publishing', () => {
  it('creates a container, polls it from IN_PROGRESS to FINISHED, publishes, and answers the permalink', async () => {
    const account = await connected('ig_publish');
    const { containerId } = await instagram.publishing.createContainer(account, {
      text: 'Hello',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    expect(await instagram.publishing.containerStatus(account, containerId)).toEqual(PROCESSING);
    // Instagram's "The media is not ready for publishing, please wait for a moment": a wait.
    const early = await platformError(instagram.publishing.publishContainer(account, containerId));
    expect(early).toMatchObject({ kind: 'transient', detail: { code: 9007, subcode: 2207027 } });
    advanceClock(PROCESSING_DONE_MS);
    expect(await instagram.publishing.containerStatus(account, containerId)).toEqual({ state: 'finished' });
    const published = await instagram.publishing.publishContainer(account, containerId);
    expect(published.permalink).toBe(`https://www.instagram.com/p/${published.id}/`);
    expect(await instagram.publishing.containerStatus(account, containerId)).toMatchObject({ state: 'published' });
    // Meta's table calls 24/2207008 a temporary error ("Try again 1-2 times..."): a run that
    // publishes again asks the container first, and finds it PUBLISHED.
    const twice = await platformError(instagram.publishing.publishContainer(account, containerId));
    expect(twice).toMatchObject({ kind: 'transient', detail: { code: 24, subcode: 2207008 } });
    const activity = await sandbox.control('GET', '/activity/instagram/ig_publish');
    expect(activity.body.data).toEqual([
      expect.objectContaining({
        action: 'publish',
        target_id: published.id,
        detail: expect.objectContaining({ caption: 'Hello' }),
      }),
    ]);
  });

  it('containers stay IN_PROGRESS for container_processing_seconds on the sandbox clock, as set', async () => {
    const account = await connected('ig_processing');
    const image = { media: [{ type: 'image' as const, url: media.url('/photo.jpg') }] };
    const set = async (value: number) =>
      expect(await sandbox.control('PUT', '/settings/container_processing_seconds', { value })).toEqual({
        status: 200,
        body: { name: 'container_processing_seconds', value },
      });
    try {
      await set(0);
      const ready = await instagram.publishing.createContainer(account, image);
      expect(await instagram.publishing.containerStatus(account, ready.containerId)).toEqual({ state: 'finished' });
      await set(60);
      const slow = await instagram.publishing.createContainer(account, image);
      advanceClock(59_000);
      expect(await instagram.publishing.containerStatus(account, slow.containerId)).toEqual(PROCESSING);
      advanceClock(2_000);
      expect(await instagram.publishing.containerStatus(account, slow.containerId)).toEqual({ state: 'finished' });
    } finally {
      await set(5);
    }
  });

  it('a container not published within 24 hours expires: EXPIRED, and publishing it is refused', async () => {
    const account = await connected('ig_expiry');
    const { containerId } = await instagram.publishing.createContainer(account, {
      text: 'Too late',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    advanceClock(24 * 3_600_000 - 1_000);
    expect(await instagram.publishing.containerStatus(account, containerId)).toEqual({ state: 'finished' });
    advanceClock(1_000);
    expect((await instagram.publishing.containerStatus(account, containerId)).state).toBe('expired');
    expect(await platformError(instagram.publishing.publishContainer(account, containerId))).toMatchObject({
      detail: { code: 24, subcode: 2207008 },
    });
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_expiry');
    expect(user.posts.filter((p: { via_api: boolean }) => p.via_api)).toEqual([]);
  });

  it("refuses a caption over Instagram's limits: 2,200 characters, 20 @ tags, 30 hashtags", async () => {
    const account = await connected('ig_caption');
    const container = (caption: string) =>
      sandbox.raw('POST', `/graph.instagram.com/v25.0/${account.platformUserId}/media`, {
        image_url: media.url('/photo.jpg'),
        caption,
        access_token: account.accessToken,
      });
    const tags = (n: number, mark: string) => Array.from({ length: n }, (_, i) => `${mark}tag${i}`).join(' ');
    const refusals: [string, number, number | undefined][] = [
      ['é'.repeat(2_201), 36004, 2207010],
      [tags(21, '@'), 100, 2207040],
      [tags(31, '#'), 100, undefined],
    ];
    for (const [caption, code, subcode] of refusals) {
      const refused = await container(caption);
      expect(refused.status, caption.slice(0, 20)).toBe(400);
      expect(refused.body.error.code).toBe(code);
      expect(refused.body.error.error_subcode).toBe(subcode);
    }
    for (const caption of ['é'.repeat(2_200), tags(20, '@'), tags(30, '#')]) {
      expect((await container(caption)).status, caption.slice(0, 20)).toBe(200);
    }
  });

  it('publishes a carousel through child containers, made once the children are finished', async () => {
    const account = await connected('ig_carousel');
    const request: PublishRequest = {
      text: 'Two',
      media: [
        { type: 'image', url: media.url('/photo.jpg') },
        { type: 'video', url: media.url('/clip.mp4') },
      ],
    };
    // Without its finished children, a carousel's container is not asked for.
    expect((await platformError(instagram.publishing.createContainer(account, request))).kind).toBe('invalid_request');
    const items = await instagram.publishing.createCarouselItems?.(account, request);
    expect(items).toHaveLength(2);
    advanceClock(PROCESSING_DONE_MS);
    const { containerId } = await instagram.publishing.createContainer(account, request, items ?? []);
    advanceClock(PROCESSING_DONE_MS);
    const published = await instagram.publishing.publishContainer(account, containerId);
    const { body: user } = await sandbox.control('GET', '/users/instagram/ig_carousel');
    expect(user.posts[0]).toMatchObject({ id: published.id, media_type: 'CAROUSEL', via_api: true });
  });

  it('refuses a post without media before calling', async () => {
    const account = await connected('ig_nomedia');
    expect((await platformError(instagram.publishing.createContainer(account, { text: 'x', media: [] }))).kind).toBe(
      'invalid_request',
    );
  });
});

describe('instagram: every error class', () => {
  it('a fault set for the next call answers that error once, classified', async () => {
    const account = await connected('ig_faults');
    const cases = [
      ['token_expired', 'token_expired'],
      ['access_revoked', 'access_revoked'],
      ['permission_missing', 'permission_missing'],
      ['rate_limited', 'rate_limited'],
      ['transient', 'transient'],
      ['invalid_request', 'invalid_request'],
    ] as const;
    for (const [preset, kind] of cases) {
      const set = await sandbox.control('POST', '/faults', {
        platform: 'instagram',
        username: 'ig_faults',
        error: preset,
      });
      expect(set.status).toBe(201);
      const error = await platformError(instagram.profile(account));
      expect(error.kind).toBe(kind);
      expect(error.detail.platform).toBe('instagram');
      expect(error.detail.code).toBeTypeOf('number');
      expect(error.detail.platformMessage).toBeTruthy();
    }
    expect((await instagram.profile(account)).username).toBe('ig_faults');
  });

  it('a publish fault waits for the publish call and leaves other calls alone', async () => {
    const account = await connected('ig_publish_fault');
    await sandbox.control('POST', '/faults', {
      platform: 'instagram',
      username: 'ig_publish_fault',
      trigger: 'publish',
      error: 'custom',
      status: 400,
      body: { error: { message: 'daily cap', type: 'OAuthException', code: 9, error_subcode: 2207042 } },
    });
    const { containerId } = await instagram.publishing.createContainer(account, {
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    advanceClock(PROCESSING_DONE_MS);
    await instagram.profile(account);
    const error = await platformError(instagram.publishing.publishContainer(account, containerId));
    expect(error).toMatchObject({ kind: 'rate_limited', detail: { subcode: 2207042, retryAfterSeconds: 3600 } });
    expect((await instagram.publishing.publishContainer(account, containerId)).id).toMatch(/^\d+$/);
  });

  it('a throttled user gets rate_limited with the wait, until the throttle ends', async () => {
    const account = await connected('ig_throttle');
    await sandbox.control('POST', '/throttle', { platform: 'instagram', username: 'ig_throttle', seconds: 300 });
    const error = await platformError(instagram.profile(account));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail.retryAfterSeconds).toBe(300);
    advanceClock(301_000);
    expect((await instagram.profile(account)).username).toBe('ig_throttle');
  });

  it('expired and revoked tokens', async () => {
    const expiring = await connected('ig_expire');
    expect(
      (await sandbox.control('POST', '/tokens/expire', { platform: 'instagram', username: 'ig_expire' })).body.tokens,
    ).toBe(2);
    expect((await platformError(instagram.profile(expiring))).detail).toMatchObject({ code: 190, subcode: 463 });
    expect((await platformError(instagram.refreshToken(expiring))).kind).toBe('token_expired');
    const revoked = await connected('ig_revoke');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'instagram', username: 'ig_revoke' });
    expect((await platformError(instagram.profile(revoked))).kind).toBe('access_revoked');
  });

  it('a scope not ticked: the platform refuses the call with permission_missing', async () => {
    const account = await connected('ig_noscope', ['instagram_business_basic']);
    const error = await platformError(commentsOf(instagram).recentComments(account));
    expect(error).toMatchObject({
      kind: 'permission_missing',
      // Not instagram_business_basic, which a connection cannot lack: the account keeps it.
      detail: { code: 10, missingScopes: ['instagram_business_manage_comments'] },
    });
    expect(await platformError(commentsOf(instagram).subscribeNotices(account))).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['instagram_business_manage_comments'] },
    });
    const publish = await platformError(
      instagram.publishing.createContainer(account, { media: [{ type: 'image', url: media.url('/photo.jpg') }] }),
    );
    expect(publish.detail.missingScopes).toEqual(['instagram_business_content_publish']);
    expect(instagram.scopes.byAction.reply).toEqual(['instagram_business_manage_comments']);
    expect(instagram.scopes.byAction.hide).toEqual(['instagram_business_manage_comments']);
  });

  it('transient when the platform cannot be reached, unsupported for pages', async () => {
    const { createPlatforms } = await import('../../src/platforms/index.ts');
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    });
    const error = await platformError(offline.adapter('instagram').profile({ platformUserId: '1', accessToken: 'x' }));
    expect(error.kind).toBe('transient');
    expect(instagram.pages).toBeUndefined();
    // Instagram API with Instagram Login offers no revocation: said without calling (this token does not exist).
    expect((await platformError(instagram.revokeAccess({ platformUserId: '1', accessToken: 'x' }))).kind).toBe(
      'unsupported',
    );
  });
});

describe('instagram: raw sandbox answers have the documented shapes', () => {
  it('code exchange, long-lived token, comments, insights and the error envelope', async () => {
    const exchange = await rawExchange('ig_raw');
    expect(exchange.status).toBe(200);
    expect(Object.keys(exchange.body)).toEqual(['data']);
    expect(Object.keys(exchange.body.data[0]).sort()).toEqual(['access_token', 'permissions', 'user_id']);
    expect(exchange.body.data[0].user_id).toBeTypeOf('number');
    expect(exchange.body.data[0].permissions).toBe(
      'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_insights',
    );

    const short = exchange.body.data[0].access_token as string;
    const long = await sandbox.raw('GET', '/graph.instagram.com/access_token', {
      grant_type: 'ig_exchange_token',
      client_secret: 'switchboard-sandbox-secret',
      access_token: short,
    });
    expect(long.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 5_183_944 });
    const token = long.body.access_token as string;

    const me = await sandbox.raw('GET', '/graph.instagram.com/v25.0/me', {
      fields: 'user_id,username,name,profile_picture_url,followers_count',
      access_token: token,
    });
    expect(Object.keys(me.body).sort()).toEqual([
      'followers_count',
      'id',
      'name',
      'profile_picture_url',
      'user_id',
      'username',
    ]);

    const media = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${me.body.user_id}/media`, {
      fields: 'id,caption,media_type,media_product_type,permalink,timestamp,like_count,comments_count',
      limit: 2,
      access_token: token,
    });
    expect(media.body.data).toHaveLength(2);
    expect(Object.keys(media.body.paging.cursors).sort()).toEqual(['after', 'before']);
    expect(media.body.paging.next).toContain('after=');
    expect(media.body.data[0].timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);

    const comments = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${media.body.data[0].id}/comments`, {
      fields: 'id,text,timestamp,username,from,hidden,like_count,parent_id,replies',
      access_token: token,
    });
    expect(comments.body.data[0]).toMatchObject({
      id: expect.any(String),
      text: expect.any(String),
      username: expect.any(String),
      from: { id: expect.any(String), username: expect.any(String) },
      hidden: false,
      replies: { data: [] },
    });

    const day = Math.floor(Date.now() / 1000 / 86_400) * 86_400 - 86_400;
    const insights = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${me.body.user_id}/insights`, {
      metric: 'reach,views',
      period: 'day',
      metric_type: 'total_value',
      since: day,
      until: day + 86_400,
      access_token: token,
    });
    expect(insights.body.data[0]).toEqual({
      name: 'reach',
      period: 'day',
      title: 'reach',
      description: '',
      total_value: { value: expect.any(Number) },
      id: `${me.body.user_id}/insights/reach/day`,
    });
    const tooLong = await sandbox.raw('GET', `/graph.instagram.com/v25.0/${me.body.user_id}/insights`, {
      metric: 'reach',
      period: 'day',
      since: day - 40 * 86_400,
      until: day,
      access_token: token,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      error: {
        message: '(#100) There cannot be more than 30 days (2592000 s) between since and until',
        type: 'OAuthException',
        code: 100,
        fbtrace_id: expect.any(String),
      },
    });
  });

  it('account insights are as strict as Instagram: metric_type, period, metric names, range; daily series for reach and follower_count', async () => {
    const account = await connected('ig_strict');
    const path = `/graph.instagram.com/v25.0/${account.platformUserId}/insights`;
    const today = Math.floor(now().getTime() / DAY) * 86_400;
    const ask = (params: Record<string, string | number>) =>
      sandbox.raw('GET', path, {
        since: today - 3 * 86_400,
        until: today,
        ...params,
        access_token: account.accessToken,
      });
    const refusal = (message: string) => ({
      error: { message, type: 'OAuthException', code: 100, fbtrace_id: expect.any(String) },
    });

    // Instagram's answer to a total-only metric asked without metric_type=total_value.
    const views = await ask({ metric: 'views', period: 'day' });
    expect(views.status).toBe(400);
    expect(views.body).toEqual(
      refusal('(#100) The following metrics (views) should be specified with parameter metric_type=total_value'),
    );
    const mixed = await ask({ metric: 'reach,views,likes', period: 'day', metric_type: 'time_series' });
    expect(mixed.body).toEqual(
      refusal('(#100) The following metrics (views,likes) should be specified with parameter metric_type=total_value'),
    );
    const refusedParams: Record<string, string | number>[] = [
      { metric: 'reach', period: 'week', metric_type: 'total_value' },
      { metric: 'reach', metric_type: 'total_value' },
      { metric: 'reach,impressions', period: 'day', metric_type: 'total_value' },
      { metric: 'reach', period: 'day', metric_type: 'sum' },
      { metric: 'reach', period: 'day', metric_type: 'total_value', since: today - 31 * 86_400 },
      { metric: 'reach', period: 'day', metric_type: 'total_value', since: today, until: today },
    ];
    for (const params of refusedParams) {
      const refused = await ask(params);
      expect(refused.status, JSON.stringify(params)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
    }
    expect(
      (await ask({ metric: 'reach,impressions', period: 'day', metric_type: 'total_value' })).body.error.message,
    ).toMatch(/^\(#100\) metric\[1\] must be one of the following values: /);

    // reach as a time series: one value a day, each ending at the end of its day.
    const series = await ask({ metric: 'reach', period: 'day' });
    expect(series.status).toBe(200);
    const end = (daysBack: number) =>
      new Date((today - daysBack * 86_400) * 1000).toISOString().replace('.000Z', '+0000');
    expect(series.body.data).toEqual([
      {
        name: 'reach',
        period: 'day',
        values: [2, 1, 0].map((n) => ({ value: expect.any(Number), end_time: end(n) })),
        title: 'reach',
        description: expect.any(String),
        id: `${account.platformUserId}/insights/reach/day`,
      },
    ]);
    expect(series.body.paging).toEqual({ previous: expect.any(String), next: expect.any(String) });

    // Without since and until: yesterday through today.
    const recent = await sandbox.raw('GET', path, {
      metric: 'reach',
      period: 'day',
      access_token: account.accessToken,
    });
    expect(recent.body.data[0].values).toHaveLength(2);

    // follower_count: new followers a day, for the last 30 days only.
    const followers = await ask({
      metric: 'follower_count',
      period: 'day',
      since: today - 35 * 86_400,
      until: today - 5 * 86_400,
    });
    expect(followers.status).toBe(200);
    expect(followers.body.data[0].values).toHaveLength(25);
    expect(followers.body.data[0].values[0].end_time).toBe(end(29));
  });
});
