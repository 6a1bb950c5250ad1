import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import {
  type AccountCredentials,
  createPlatforms,
  type PlatformAdapter,
  type PublishRequest,
} from '../../src/platforms/index.ts';
import {
  commentsOf,
  finishReplyOf,
  insightsOf,
  platformError,
  REDIRECT_URI,
  sent,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let media: MediaServer;
let threads: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer();
  threads = sandbox.adapter('threads');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const DAY = 86_400_000;
/** Longer than the sandbox's 5 s of container processing (its default container_processing_seconds). */
const PROCESSING_DONE_MS = 6_000;

/**
 * A reply as the service makes one: reply() leaves the container pending while Threads
 * processes it (container_processing_seconds, 5 s by default), finishReply() publishes it later.
 */
async function replyOnceProcessed(account: AccountCredentials, to: string, text: string): Promise<{ id: string }> {
  const first = await commentsOf(threads).reply(account, to, text);
  if (first.state !== 'pending') throw new Error(`expected a pending reply, got ${JSON.stringify(first)}`);
  advanceClock(PROCESSING_DONE_MS);
  return sent(finishReplyOf(threads)(account, first.containerId));
}
const ALL_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_read_replies',
  'threads_manage_replies',
  'threads_manage_insights',
];

const connected = (username: string, granted?: string[]) => sandbox.credentials('threads', username, granted);

/** A user marked a tester of the service's sandbox app, with a fresh token of its own. */
async function makeTester(username: string) {
  const tokens = await sandbox.connect('threads', username);
  const marked = await sandbox.control('POST', '/testers', {
    platform: 'threads',
    username,
    client_id: 'switchboard-sandbox',
  });
  expect(marked.status).toBe(201);
  return tokens;
}

/** The Threads adapter as a service with THREADS_TESTER_TOKEN set sees it. */
async function testerAdapter(username: string): Promise<PlatformAdapter> {
  const tester = await makeTester(username);
  return createPlatforms({
    platforms: 'sandbox',
    platformCredentials: {},
    sandboxUrl: sandbox.url,
    threadsTesterToken: tester.accessToken,
  }).adapter('threads');
}

/** A call straight to the sandbox's graph.threads.net, to check its answers against docs/platforms.md. */
function raw(method: 'GET' | 'POST', path: string, params: Record<string, string | number>) {
  return sandbox.raw(method, `/graph.threads.net${path}`, params);
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const unix = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

describe('threads: OAuth', () => {
  it('builds the documented authorize URL with every requested scope, comma separated', () => {
    const url = new URL(threads.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.pathname).toBe('/sandbox/threads.net/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('switchboard-sandbox');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.get('scope')).toBe(ALL_SCOPES.join(','));
    expect(threads.scopes.required).toEqual(['threads_basic']);
  });

  it('Cancel redirects with error=access_denied and the state', async () => {
    const params = await sandbox.authorize('threads', { username: 'th_cancel', cancel: true, state: 'xyz' });
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_reason')).toBe('user_denied');
    expect(params.get('error_description')).toBeTruthy();
    expect(params.get('code')).toBeNull();
    expect(threads.parseCallback(Object.fromEntries(params))).toMatchObject({
      outcome: 'denied',
      error: 'access_denied',
      state: 'xyz',
    });
  });

  it('Allow gives a single-use code; without a tester token, /me proves threads_basic and the rest are taken as requested', async () => {
    const granted = ['threads_basic', 'threads_read_replies'];
    const params = await sandbox.authorize('threads', { username: 'th_allow', granted, state: 'abc' });
    const callback = threads.parseCallback({ ...Object.fromEntries(params), code: `${params.get('code')}#_` });
    expect(callback).toMatchObject({ outcome: 'code', state: 'abc' });
    if (callback.outcome !== 'code') throw new Error('no code');
    expect(callback.code).toBe(params.get('code'));
    const tokens = await threads.exchangeCode(callback.code, REDIRECT_URI);
    // Threads' exchange does not say what was ticked, and debug_token needs a tester's token.
    expect(tokens.scopes).toEqual([
      'threads_basic',
      'threads_content_publish',
      'threads_read_replies',
      'threads_manage_replies',
      'threads_manage_insights',
    ]);
    expect(tokens.platformUserId).toMatch(/^\d{17}$/);
    const days = ((tokens.expiresAt?.getTime() ?? 0) - now().getTime()) / DAY;
    expect(days).toBeGreaterThan(59);
    expect(days).toBeLessThan(61);
    const again = await platformError(threads.exchangeCode(callback.code, REDIRECT_URI));
    expect(again).toMatchObject({ kind: 'invalid_request', detail: { code: 100 } });
  });

  it('without a tester token and without threads_basic ticked, the exchange answers no scopes', async () => {
    const tokens = await sandbox.connect('threads', 'th_no_basic', ['threads_read_replies']);
    expect(tokens.scopes).toEqual([]);
  });

  it("with the operator's tester token, debug_token tells exactly the scopes the user ticked", async () => {
    const withTester = await testerAdapter('th_tester_a');
    const params = await sandbox.authorize('threads', {
      username: 'th_ticked',
      granted: ['threads_basic', 'threads_read_replies'],
    });
    const tokens = await withTester.exchangeCode(params.get('code') as string, REDIRECT_URI);
    expect(tokens.scopes).toEqual(['threads_basic', 'threads_read_replies']);
  });

  it('with a token Threads refuses for debug_token (not a tester), the exchange does without it', async () => {
    const notTester = await sandbox.connect('threads', 'th_not_tester');
    const adapter = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: sandbox.url,
      threadsTesterToken: notTester.accessToken,
    }).adapter('threads');
    const params = await sandbox.authorize('threads', { username: 'th_fallback', granted: ['threads_basic'] });
    const tokens = await adapter.exchangeCode(params.get('code') as string, REDIRECT_URI);
    expect(tokens.scopes).toEqual(ALL_SCOPES);
  });

  it('the code exchange and its used-code error have the documented shapes', async () => {
    const params = await sandbox.authorize('threads', { username: 'th_raw_exchange' });
    const form = {
      client_id: 'switchboard-sandbox',
      client_secret: 'switchboard-sandbox-secret',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT_URI,
      code: params.get('code') as string,
    };
    const first = await raw('POST', '/oauth/access_token', form);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['access_token', 'user_id']);
    expect(first.body.user_id).toBeTypeOf('number');
    const second = await raw('POST', '/oauth/access_token', form);
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({ type: 'OAuthException', code: 100 });
    expect(second.body.error.message).toBeTypeOf('string');
    expect(second.body.error.fbtrace_id).toBeTypeOf('string');

    const long = await raw('GET', '/access_token', {
      grant_type: 'th_exchange_token',
      client_secret: 'switchboard-sandbox-secret',
      access_token: first.body.access_token,
    });
    expect(long.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 60 * 86_400 });
  });

  it('reads the user_id of the code exchange, a JSON integer beyond 2^53, without loss', async () => {
    const made = await sandbox.control('POST', '/users', {
      platform: 'threads',
      username: 'th_big_id',
      id: '25908133441071571',
    });
    expect(made.status).toBe(201);
    expect((await sandbox.connect('threads', 'th_big_id')).platformUserId).toBe('25908133441071571');
  });

  it('a code expires after an hour', async () => {
    const params = await sandbox.authorize('threads', { username: 'th_late' });
    advanceClock(61 * 60_000);
    const error = await platformError(threads.exchangeCode(params.get('code') as string, REDIRECT_URI));
    expect(error.kind).toBe('invalid_request');
  });

  it('refreshes a long-lived token once it is a day old, not before', async () => {
    const tokens = await sandbox.connect('threads', 'th_refresh');
    expect(threads.refresh).toEqual({ refreshBeforeExpiryMs: 7 * DAY, minTokenAgeMs: DAY });
    const early = await platformError(threads.refreshToken(tokens));
    expect(early.kind).toBe('invalid_request');
    advanceClock(25 * 3_600_000);
    const refreshed = await threads.refreshToken(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.platformUserId).toBe(tokens.platformUserId);
    expect((refreshed.expiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(59 * DAY);
    expect((await threads.profile(refreshed)).id).toBe(tokens.platformUserId);
    // The refresh answer names no scopes: the grant's stay as they were.
    expect(refreshed.scopes).toBeNull();
  });

  it('debug_token answers a tester of the same app: is_valid, expires_at, scopes and user_id, also for dead tokens', async () => {
    const tester = await makeTester('th_tester_b');
    const account = await connected('th_debug', ['threads_basic', 'threads_manage_insights']);
    const { body } = await raw('GET', '/v1.0/debug_token', {
      input_token: account.accessToken,
      access_token: tester.accessToken,
    });
    expect(body.data).toMatchObject({
      is_valid: true,
      scopes: ['threads_basic', 'threads_manage_insights'],
      user_id: account.platformUserId,
      app_id: 'switchboard-sandbox',
      type: 'USER',
    });
    const expiresIn = body.data.expires_at - now().getTime() / 1000;
    expect(expiresIn).toBeGreaterThan(59 * 86_400);
    expect(expiresIn).toBeLessThanOrEqual(60 * 86_400);

    // An unrefreshed token dies after 60 days; a tester token too, so the operator renews it.
    advanceClock(61 * DAY);
    const renewed = await makeTester('th_tester_b');
    const late = await raw('GET', '/v1.0/debug_token', {
      input_token: account.accessToken,
      access_token: renewed.accessToken,
    });
    expect(late.body.data.is_valid).toBe(false);
    expect(late.body.data.expires_at * 1000).toBeLessThan(now().getTime());
    const stale = await raw('GET', '/v1.0/debug_token', {
      input_token: renewed.accessToken,
      access_token: tester.accessToken,
    });
    expect(stale).toMatchObject({ status: 400, body: { error: { code: 190 } } });
    resetClock();

    const revoked = await connected('th_debug_revoke');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'threads', username: 'th_debug_revoke' });
    const answer = await raw('GET', '/v1.0/debug_token', {
      input_token: revoked.accessToken,
      access_token: tester.accessToken,
    });
    expect(answer.body.data).toMatchObject({
      is_valid: false,
      error: { message: 'Error validating access token: The user has not authorized application.' },
    });
  });

  it("debug_token refuses a caller who is not a tester of the inspected token's app, as Threads does", async () => {
    const account = await connected('th_debug_self');
    const own = await raw('GET', '/v1.0/debug_token', {
      input_token: account.accessToken,
      access_token: account.accessToken,
    });
    expect(own).toMatchObject({ status: 400, body: { error: { type: 'OAuthException', code: 100 } } });

    // A tester, but of another app.
    const elsewhere = await sandbox.connect('threads', 'th_tester_other_app');
    const marked = await sandbox.control('POST', '/testers', {
      platform: 'threads',
      username: 'th_tester_other_app',
      client_id: 'another-app',
    });
    expect(marked.status).toBe(201);
    const other = await raw('GET', '/v1.0/debug_token', {
      input_token: account.accessToken,
      access_token: elsewhere.accessToken,
    });
    expect(other).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });
});

describe('threads: reading', () => {
  it('reads the profile, with the followers count from threads_insights', async () => {
    const account = await connected('th_profile');
    const profile = await threads.profile(account);
    const { body: user } = await sandbox.control('GET', '/users/threads/th_profile');
    expect(profile).toEqual({
      id: account.platformUserId,
      username: 'th_profile',
      name: 'Th Profile',
      avatarUrl: user.avatar_url,
      followersCount: user.followers_count,
    });
    expect(profile.avatarUrl).toMatch(/^https:\/\//);
    // Without the insights scope the profile still reads; only the count is unknown.
    const basic = await connected('th_profile_basic', ['threads_basic']);
    expect(await threads.profile(basic)).toMatchObject({ username: 'th_profile_basic', followersCount: null });
  });

  it('reads replies on recent posts, newest first, with nesting, hidden state and who wrote them', async () => {
    const account = await connected('th_comments');
    const { body: user } = await sandbox.control('GET', '/users/threads/th_comments');
    const latest = user.posts[0].id as string;
    const added = await sandbox.control('POST', '/comments', {
      platform: 'threads',
      username: 'th_comments',
      post_id: latest,
      author_username: 'visitor',
      text: '<b>nice</b>',
      // Whole seconds: Threads timestamps have no milliseconds.
      commented_at: new Date(Math.floor(now().getTime() / 1000) * 1000 - 60_000).toISOString(),
    });
    expect(added.status).toBe(201);
    const nested = await sandbox.control('POST', '/comments', {
      platform: 'threads',
      username: 'th_comments',
      post_id: latest,
      parent_id: added.body.id,
      author_username: 'second.visitor',
      text: 'agreed',
      commented_at: new Date(now().getTime() - 30_000).toISOString(),
    });

    const comments = (await commentsOf(threads).recentComments(account)).comments;
    // Three seeded posts with two replies each, and the two added above.
    expect(comments.length).toBe(8);
    expect(comments.map((c) => c.createdAt.getTime())).toEqual(
      comments.map((c) => c.createdAt.getTime()).sort((a, b) => b - a),
    );
    expect(comments[0]).toMatchObject({
      id: nested.body.id,
      postId: latest,
      parentId: added.body.id,
      authorUsername: 'second.visitor',
      authorId: null,
      byAccount: false,
    });
    expect(comments[1]).toEqual({
      id: added.body.id,
      postId: latest,
      parentId: null,
      authorId: null,
      authorUsername: 'visitor',
      text: '<b>nice</b>',
      createdAt: new Date(added.body.commented_at),
      hidden: false,
      byAccount: false,
    });
    expect(new Set(comments.map((c) => c.postId)).size).toBe(3);
    expect(comments.every((c) => !c.byAccount && !c.hidden)).toBe(true);
    expect((await commentsOf(threads).recentComments(account, { posts: 1 })).comments.length).toBe(4);

    const reply = await replyOnceProcessed(account, added.body.id, 'Thanks!');
    const toPost = await replyOnceProcessed(account, latest, 'Thanks all');
    const other = comments[2]?.id as string;
    await commentsOf(threads).setHidden(account, other, true);
    const after = (await commentsOf(threads).recentComments(account)).comments;
    expect(after.find((c) => c.id === reply.id)).toMatchObject({
      postId: latest,
      parentId: added.body.id,
      authorId: account.platformUserId,
      authorUsername: 'th_comments',
      text: 'Thanks!',
      byAccount: true,
    });
    expect(after.find((c) => c.id === toPost.id)).toMatchObject({ postId: latest, parentId: null, byAccount: true });
    expect(after.find((c) => c.id === other)?.hidden).toBe(true);
    await commentsOf(threads).setHidden(account, other, false);
    expect((await commentsOf(threads).recentComments(account)).comments.find((c) => c.id === other)?.hidden).toBe(
      false,
    );

    const activity = await sandbox.control('GET', '/activity/threads/th_comments');
    expect(activity.body.data.map((a: { action: string }) => a.action)).toEqual(['reply', 'reply', 'hide', 'unhide']);
    expect(activity.body.data[0]).toMatchObject({
      target_id: added.body.id,
      detail: { reply_id: reply.id, message: 'Thanks!' },
    });
    expect(activity.body.data[2]).toMatchObject({ target_id: other });
  });

  it('the replies edges and manage_reply answer the documented fields', async () => {
    const account = await connected('th_raw_replies');
    const { body: user } = await sandbox.control('GET', '/users/threads/th_raw_replies');
    const postId = user.posts[0].id as string;
    const fields = 'id,text,username,permalink,timestamp,is_reply_owned_by_me,hide_status,replied_to,root_post';
    const top = await raw('GET', `/v1.0/${postId}/replies`, { fields, access_token: account.accessToken });
    expect(top.body.data).toHaveLength(2);
    const first = top.body.data[0];
    expect(Object.keys(first).sort()).toEqual(fields.split(',').sort());
    expect(first).toMatchObject({
      is_reply_owned_by_me: false,
      hide_status: 'NOT_HUSHED',
      replied_to: { id: postId },
      root_post: { id: postId },
    });
    expect(first.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
    expect(top.body.paging.cursors).toBeDefined();

    const reply = await replyOnceProcessed(account, first.id, 'nested');
    expect((await raw('GET', `/v1.0/${postId}/replies`, { access_token: account.accessToken })).body.data).toHaveLength(
      2,
    );
    const all = await raw('GET', `/v1.0/${postId}/conversation`, { fields, access_token: account.accessToken });
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data.find((r: { id: string }) => r.id === reply.id)).toMatchObject({
      is_reply_owned_by_me: true,
      username: 'th_raw_replies',
      replied_to: { id: first.id },
      root_post: { id: postId },
    });

    const hidden = await raw('POST', `/v1.0/${first.id}/manage_reply`, {
      hide: 'true',
      access_token: account.accessToken,
    });
    expect([hidden.status, hidden.body]).toEqual([200, { success: true }]);
    const again = await raw('GET', `/v1.0/${postId}/replies`, { fields, access_token: account.accessToken });
    expect(again.body.data.find((r: { id: string }) => r.id === first.id).hide_status).toBe('HIDDEN');
  });

  it('hides top-level replies only, each with its nested replies; a nested one is refused before calling, and by Threads', async () => {
    const account = await connected('th_hide_nested');
    const { body: user } = await sandbox.control('GET', '/users/threads/th_hide_nested');
    const postId = user.posts[0].id as string;
    const top = await sandbox.control('POST', '/comments', {
      platform: 'threads',
      username: 'th_hide_nested',
      post_id: postId,
      author_username: 'visitor',
      text: 'top',
    });
    const nested = await sandbox.control('POST', '/comments', {
      platform: 'threads',
      username: 'th_hide_nested',
      post_id: postId,
      parent_id: top.body.id,
      author_username: 'other.visitor',
      text: 'nested',
    });

    const refused = await platformError(commentsOf(threads).setHidden(account, nested.body.id, true));
    expect(refused.kind).toBe('invalid_request');
    // The adapter's own refusal: no platform code, as no manage_reply call was made.
    expect(refused.detail.code).toBeUndefined();
    const platformAnswer = await raw('POST', `/v1.0/${nested.body.id}/manage_reply`, {
      hide: 'true',
      access_token: account.accessToken,
    });
    expect(platformAnswer).toMatchObject({ status: 400, body: { error: { type: 'OAuthException', code: 100 } } });
    expect((await sandbox.control('GET', '/activity/threads/th_hide_nested')).body.data).toEqual([]);

    await commentsOf(threads).setHidden(account, top.body.id, true);
    const hidden = (await commentsOf(threads).recentComments(account, { posts: 1 })).comments;
    expect(
      hidden
        .filter((c) => c.hidden)
        .map((c) => c.id)
        .sort(),
    ).toEqual([top.body.id, nested.body.id].sort());
    await commentsOf(threads).setHidden(account, top.body.id, false);
    expect((await commentsOf(threads).recentComments(account, { posts: 1 })).comments.some((c) => c.hidden)).toBe(
      false,
    );
  });

  it('reads account insights per day: views as a time series, totals, link clicks, null for no data', async () => {
    const account = await connected('th_insights');
    const day = dayOf(now().getTime() - 3 * DAY);
    const nextDay = dayOf(now().getTime() - 2 * DAY);
    const set = (metric: string, values: { day: string; value: number | null }[]) =>
      sandbox.control('PUT', '/insights', { platform: 'threads', username: 'th_insights', metric, values });
    await set('views', [
      { day, value: 10 },
      { day: nextDay, value: 5 },
    ]);
    await set('likes', [
      { day, value: 3 },
      { day: nextDay, value: null },
    ]);
    await set('clicks', [
      { day, value: 0 },
      { day: nextDay, value: 4 },
    ]);
    await set('replies', [
      { day, value: null },
      { day: nextDay, value: null },
    ]);
    await set('followers_count', [{ day: dayOf(now().getTime()), value: 321 }]);

    const metrics = ['views', 'likes', 'clicks', 'replies', 'followers_count'];
    const { figures: daily } = await insightsOf(threads).accountInsights(
      account,
      [day, nextDay, dayOf(now().getTime())],
      metrics,
    );
    expect(daily[day]).toEqual({ views: 10, likes: 3, clicks: 0, replies: null, followers_count: null });
    expect(daily[nextDay]).toEqual({ views: 5, likes: null, clicks: 4, replies: null, followers_count: null });
    expect(daily[dayOf(now().getTime())]?.followers_count).toBe(321);

    // Threads keeps no insights before 2024-04-13: no data, and no refused call.
    expect((await insightsOf(threads).accountInsights(account, ['2024-01-01'], ['views'])).figures).toEqual({
      '2024-01-01': { views: null },
    });
    expect((await platformError(insightsOf(threads).accountInsights(account, [day], ['reach']))).kind).toBe(
      'invalid_request',
    );
    expect((await platformError(insightsOf(threads).accountInsights(account, ['2024-13-01'], ['views']))).kind).toBe(
      'invalid_request',
    );
  });

  it('threads_insights answers the documented shapes and refuses a since before 1712991600', async () => {
    const account = await connected('th_raw_insights');
    const day = dayOf(now().getTime() - 3 * DAY);
    const nextDay = dayOf(now().getTime() - 2 * DAY);
    for (const metric of ['views', 'likes', 'clicks']) {
      await sandbox.control('PUT', '/insights', {
        platform: 'threads',
        username: 'th_raw_insights',
        metric,
        values: [
          { day, value: 2 },
          { day: nextDay, value: 3 },
        ],
      });
    }
    await sandbox.control('PUT', '/insights', {
      platform: 'threads',
      username: 'th_raw_insights',
      metric: 'quotes',
      values: [
        { day, value: null },
        { day: nextDay, value: null },
      ],
    });
    const { status, body } = await raw('GET', `/v1.0/${account.platformUserId}/threads_insights`, {
      metric: 'views,likes,clicks,quotes',
      since: unix(day),
      until: unix(day) + 2 * 86_400,
      access_token: account.accessToken,
    });
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.data.map((d: { name: string }) => [d.name, d]));
    expect(Object.keys(byName).sort()).toEqual(['clicks', 'likes', 'views']);
    expect(byName.views.values).toEqual([
      { value: 2, end_time: `${nextDay}T00:00:00+0000` },
      { value: 3, end_time: expect.stringMatching(/T00:00:00\+0000$/) },
    ]);
    expect(byName.views).toMatchObject({ title: 'views', description: expect.any(String), id: expect.any(String) });
    expect(byName.likes.total_value).toEqual({ value: 5 });
    expect(byName.clicks.link_total_values).toEqual([{ value: 5, link_url: expect.stringMatching(/^https:\/\//) }]);

    // followers_count does not support since and until: asked alone, it is today's count.
    const followers = await raw('GET', `/v1.0/${account.platformUserId}/threads_insights`, {
      metric: 'followers_count',
      access_token: account.accessToken,
    });
    expect(followers.status).toBe(200);
    expect(followers.body.data[0]).toMatchObject({
      name: 'followers_count',
      total_value: { value: expect.any(Number) },
    });

    const early = await raw('GET', `/v1.0/${account.platformUserId}/threads_insights`, {
      metric: 'views',
      since: 1_712_991_599,
      until: 1_713_100_000,
      access_token: account.accessToken,
    });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
  });

  it('threads_insights: until before 1712991600 is refused too; no longest range; an until still to come is taken', async () => {
    const account = await connected('th_range_insights');
    const ask = (params: Record<string, string | number>) =>
      raw('GET', `/v1.0/${account.platformUserId}/threads_insights`, {
        metric: 'views',
        ...params,
        access_token: account.accessToken,
      });
    // "The earliest Unix timestamp that can be used is 1712991600, any timestamp before that will be rejected."
    const early = await ask({ until: 1_712_991_599 });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({ code: 100, type: 'OAuthException' });

    // From the first day Threads has through today: one daily value a day, over two years in one call.
    const today = dayOf(now().getTime());
    const all = await ask({ since: 1_712_991_600, until: Math.floor(now().getTime() / 1000) });
    expect(all.status).toBe(200);
    const expectedDays = (unix(today) - unix('2024-04-13')) / 86_400 + 1;
    expect(all.body.data[0].values).toHaveLength(expectedDays);

    // An until days ahead is taken; the days still to come have no data.
    const ahead = await ask({ since: unix(today), until: unix(today) + 10 * 86_400 });
    expect(ahead.status).toBe(200);
    expect(ahead.body.data[0].values).toEqual([{ value: expect.any(Number), end_time: expect.any(String) }]);

    // Without since and until: yesterday through today.
    const recent = await ask({});
    expect(recent.body.data[0].values).toHaveLength(2);
  });

  it('threads_insights refuses followers_count with since or until (code 100)', async () => {
    const account = await connected('th_followers_range');
    const ask = (metric: string, params: Record<string, number>) =>
      raw('GET', `/v1.0/${account.platformUserId}/threads_insights`, {
        metric,
        ...params,
        access_token: account.accessToken,
      });
    const today = unix(dayOf(now().getTime()));
    for (const [metric, params] of [
      ['followers_count', { since: today, until: today + 86_400 }],
      ['followers_count', { since: today }],
      ['followers_count', { until: today + 86_400 }],
      ['likes,followers_count', { since: today, until: today + 86_400 }],
    ] as const) {
      const refused = await ask(metric, params);
      expect(refused.status, `${metric} ${JSON.stringify(params)}`).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
      expect(refused.body.error.message).toContain('followers_count');
    }
    expect((await ask('likes', { since: today, until: today + 86_400 })).status).toBe(200);
  });

  it('reads post insights with the platform names, null for no data', async () => {
    const account = await connected('th_post_insights');
    const { body: user } = await sandbox.control('GET', '/users/threads/th_post_insights');
    const postId = user.posts[0].id as string;
    const set = (metric: string, value: number | null) =>
      sandbox.control('PUT', '/insights', {
        platform: 'threads',
        username: 'th_post_insights',
        post_id: postId,
        metric,
        values: [{ day: dayOf(now().getTime()), value }],
      });
    await set('views', 70);
    await set('shares', 0);
    await set('quotes', null);
    expect((await insightsOf(threads).postInsights(account, postId, ['views', 'shares', 'quotes'])).figures).toEqual({
      views: 70,
      shares: 0,
      quotes: null,
    });
    const { body } = await raw('GET', `/v1.0/${postId}/insights`, {
      metric: 'views,quotes',
      access_token: account.accessToken,
    });
    expect(body.data).toEqual([
      {
        name: 'views',
        period: 'lifetime',
        values: [{ value: 70 }],
        title: 'views',
        description: expect.any(String),
        id: expect.any(String),
      },
    ]);
    expect((await platformError(insightsOf(threads).postInsights(account, postId, ['saves']))).kind).toBe(
      'invalid_request',
    );
  });
});

describe('threads: account insights in the fewest calls', () => {
  /** The user metrics docs/platforms.md lists for Threads. */
  const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count'];
  const insightsPath = (account: AccountCredentials) =>
    `/graph.threads.net/v1.0/${account.platformUserId}/threads_insights`;

  it('3 days with every metric: one threads_insights call a day, and followers_count alone without a range, 4 calls', async () => {
    const account = await connected('th_calls');
    const days = [2, 1, 0].map((n) => dayOf(now().getTime() - n * DAY));
    const before = (await sandbox.calls('threads', 'th_calls')).count;
    const { figures, usagePercent } = await insightsOf(threads).accountInsights(account, days, METRICS);
    const log = await sandbox.calls('threads', 'th_calls');
    expect(log.count - before).toBe(4);
    const made = log.data.slice(-4);
    expect(made.map((c) => c.path)).toEqual([...days, 'followers'].map(() => insightsPath(account)));
    const totals = 'views,likes,replies,reposts,quotes,clicks';
    expect(made.map((c) => c.query)).toEqual([
      { metric: totals, since: String(unix(days[0] as string)), until: String(unix(days[0] as string) + 86_400) },
      { metric: totals, since: String(unix(days[1] as string)), until: String(unix(days[1] as string) + 86_400) },
      { metric: totals, since: String(unix(days[2] as string)), until: expect.any(String) },
      { metric: 'followers_count' },
    ]);
    // Today is read up to now, not into the hours still to come.
    expect(Number(made[2]?.query.until)).toBeLessThanOrEqual(Math.floor(now().getTime() / 1000));
    for (const day of days) expect(Object.keys(figures[day] ?? {}).sort()).toEqual([...METRICS].sort());
    expect(figures[days[1] as string]?.followers_count).toBeNull();
    expect(figures[days[2] as string]?.followers_count).toEqual(expect.any(Number));
    // Threads documents no usage headers.
    expect(usagePercent).toBeNull();
  });

  it('days still to come and days before 2024-04-13 cost no call and have no data; 2024-04-13 is read from 1712991600', async () => {
    const account = await connected('th_calls_edges');
    const tomorrow = dayOf(now().getTime() + DAY);
    const before = (await sandbox.calls('threads', 'th_calls_edges')).count;
    const { figures } = await insightsOf(threads).accountInsights(account, [tomorrow, '2024-04-12'], METRICS);
    const none = Object.fromEntries(METRICS.map((m) => [m, null]));
    expect(figures).toEqual({ [tomorrow]: none, '2024-04-12': none });
    expect((await sandbox.calls('threads', 'th_calls_edges')).count).toBe(before);

    await insightsOf(threads).accountInsights(account, ['2024-04-13'], ['likes']);
    const log = await sandbox.calls('threads', 'th_calls_edges');
    expect(log.count).toBe(before + 1);
    expect(log.data.at(-1)?.query).toEqual({ metric: 'likes', since: '1712991600', until: String(unix('2024-04-14')) });
  });

  it('views and followers_count alone: one call for every day of views, read from its daily series, and one for followers_count', async () => {
    const account = await connected('th_calls_views');
    const days = [9, 5, 0].map((n) => dayOf(now().getTime() - n * DAY));
    await sandbox.control('PUT', '/insights', {
      platform: 'threads',
      username: 'th_calls_views',
      metric: 'views',
      values: [
        { day: days[0], value: 12 },
        { day: days[1], value: null },
      ],
    });
    const before = (await sandbox.calls('threads', 'th_calls_views')).count;
    const { figures } = await insightsOf(threads).accountInsights(account, days, ['views', 'followers_count']);
    const log = await sandbox.calls('threads', 'th_calls_views');
    expect(log.count - before).toBe(2);
    expect(log.data.slice(-2).map((c) => c.query)).toEqual([
      { metric: 'views', since: String(unix(days[0] as string)), until: expect.any(String) },
      { metric: 'followers_count' },
    ]);
    expect(figures[days[0] as string]).toEqual({ views: 12, followers_count: null });
    expect(figures[days[1] as string]).toEqual({ views: null, followers_count: null });
    expect(figures[days[2] as string]).toEqual({ views: expect.any(Number), followers_count: expect.any(Number) });
    // The same figures as a day-by-day read gives.
    const dayByDay = await insightsOf(threads).accountInsights(account, days, ['views', 'likes']);
    for (const day of days) expect(figures[day]?.views, day).toBe(dayByDay.figures[day]?.views);
  });
});

describe('threads: publishing', () => {
  it('publishes text: a container, processed like any other, FINISHED, threads_publish, and the permalink', async () => {
    const account = await connected('th_publish');
    const { containerId } = await threads.publishing.createContainer(account, { text: 'Hello Threads', media: [] });
    // Threads asks apps to wait before publishing any container, a text post's too.
    expect((await threads.publishing.containerStatus(account, containerId)).state).toBe('in_progress');
    const early = await platformError(threads.publishing.publishContainer(account, containerId));
    expect(early).toMatchObject({ kind: 'transient', detail: { code: 9007, subcode: 2207027 } });
    advanceClock(PROCESSING_DONE_MS);
    expect(await threads.publishing.containerStatus(account, containerId)).toEqual({ state: 'finished' });
    const published = await threads.publishing.publishContainer(account, containerId);
    expect(published.permalink).toBe(`https://www.threads.net/@th_publish/post/${published.id}`);
    expect(await threads.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    expect((await platformError(threads.publishing.publishContainer(account, containerId))).kind).toBe(
      'invalid_request',
    );
    const { body: user } = await sandbox.control('GET', '/users/threads/th_publish');
    expect(user.posts[0]).toMatchObject({ id: published.id, caption: 'Hello Threads', media_type: 'TEXT' });
    const activity = await sandbox.control('GET', '/activity/threads/th_publish');
    expect(activity.body.data).toEqual([
      expect.objectContaining({
        action: 'publish',
        target_id: published.id,
        detail: expect.objectContaining({
          text: 'Hello Threads',
          media_type: 'TEXT',
          container_id: containerId.split('.')[0],
        }),
      }),
    ]);
  });

  it('publishes an image and a carousel', async () => {
    const account = await connected('th_image');
    const image = await threads.publishing.createContainer(account, {
      text: 'A picture',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    // Media is processed first; publishing before that is Graph's "not ready", a wait.
    expect(await threads.publishing.containerStatus(account, image.containerId)).toEqual({
      state: 'in_progress',
      message: expect.stringContaining('processing'),
    });
    const early = await platformError(threads.publishing.publishContainer(account, image.containerId));
    expect(early).toMatchObject({ kind: 'transient', detail: { subcode: 2207027 } });
    advanceClock(PROCESSING_DONE_MS);
    expect(await threads.publishing.containerStatus(account, image.containerId)).toEqual({ state: 'finished' });
    const post = await threads.publishing.publishContainer(account, image.containerId);
    expect(post.permalink).toBe(`https://www.threads.net/@th_image/post/${post.id}`);
    const request: PublishRequest = {
      text: 'Two',
      media: [
        { type: 'image', url: media.url('/photo.jpg') },
        { type: 'video', url: media.url('/clip.mp4') },
      ],
    };
    const items = await threads.publishing.createCarouselItems?.(account, request);
    expect(items).toHaveLength(2);
    advanceClock(PROCESSING_DONE_MS);
    const carousel = await threads.publishing.createContainer(account, request, items ?? []);
    advanceClock(PROCESSING_DONE_MS);
    const album = await threads.publishing.publishContainer(account, carousel.containerId);
    const { body: user } = await sandbox.control('GET', '/users/threads/th_image');
    expect(user.posts.slice(0, 2)).toEqual([
      expect.objectContaining({ id: album.id, media_type: 'CAROUSEL', via_api: true }),
      expect.objectContaining({ id: post.id, media_type: 'IMAGE', caption: 'A picture', via_api: true }),
    ]);
  });

  it('publishes a reply through a container with replyToId', async () => {
    const account = await connected('th_reply_container');
    const { body: user } = await sandbox.control('GET', '/users/threads/th_reply_container');
    const postId = user.posts[1].id as string;
    const { containerId } = await threads.publishing.createContainer(account, {
      text: 'me too',
      media: [],
      replyToId: postId,
    });
    // A reply container is processed before it can be published, as a media one is.
    advanceClock(PROCESSING_DONE_MS);
    const published = await threads.publishing.publishContainer(account, containerId);
    expect(published.permalink).toBe(`https://www.threads.net/@th_reply_container/post/${published.id}`);
    const comments = (await commentsOf(threads).recentComments(account)).comments;
    expect(comments.find((c) => c.id === published.id)).toMatchObject({ postId, parentId: null, byAccount: true });
  });

  it('a container left unpublished for a day expires and can no longer be published', async () => {
    const account = await connected('th_stale');
    const { containerId } = await threads.publishing.createContainer(account, { text: 'too late', media: [] });
    advanceClock(25 * 3_600_000);
    const status = await threads.publishing.containerStatus(account, containerId);
    expect(status.state).toBe('expired');
    expect(status.message).toBeTruthy();
    expect((await platformError(threads.publishing.publishContainer(account, containerId))).kind).toBe(
      'invalid_request',
    );
    expect((await platformError(commentsOf(threads).reply(account, '12345678901234567', 'to nothing'))).kind).toBe(
      'invalid_request',
    );
  });

  it('counts text as Threads does (an emoji as its UTF-8 bytes), refusing before calling; the platform refuses too', async () => {
    const account = await connected('th_long');
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    }).adapter('threads');
    // 497 characters and one 4-byte emoji: 501 by Threads' rule, 498 by characters.
    const overByBytes = `${'x'.repeat(497)}😀`;
    // Offline: anything but invalid_request would mean a call was attempted.
    for (const text of ['x'.repeat(501), overByBytes]) {
      expect((await platformError(offline.publishing.createContainer(account, { text, media: [] }))).kind).toBe(
        'invalid_request',
      );
      expect((await platformError(commentsOf(offline).reply(account, '1', text))).kind).toBe('invalid_request');
      const refused = await raw('POST', `/v1.0/${account.platformUserId}/threads`, {
        media_type: 'TEXT',
        text,
        access_token: account.accessToken,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe(100);
    }
    for (const text of ['x'.repeat(500), `${'x'.repeat(496)}😀`]) {
      const { containerId } = await threads.publishing.createContainer(account, { text, media: [] });
      expect((await threads.publishing.containerStatus(account, containerId)).state).toBe('in_progress');
    }
    expect((await platformError(threads.publishing.createContainer(account, { media: [] }))).kind).toBe(
      'invalid_request',
    );
  });
});

describe('threads: every error class', () => {
  it('a fault set for the next call answers that error once, classified', async () => {
    const account = await connected('th_faults');
    for (const preset of [
      'token_expired',
      'access_revoked',
      'permission_missing',
      'rate_limited',
      'transient',
      'invalid_request',
    ] as const) {
      const set = await sandbox.control('POST', '/faults', {
        platform: 'threads',
        username: 'th_faults',
        error: preset,
      });
      expect(set.status).toBe(201);
      const error = await platformError(threads.profile(account));
      expect(error.kind).toBe(preset);
      expect(error.detail.platform).toBe('threads');
      expect(error.detail.code).toBeTypeOf('number');
      expect(error.detail.platformMessage).toBeTruthy();
    }
    expect((await threads.profile(account)).username).toBe('th_faults');
  });

  it('a publish fault fires on threads_publish and leaves other calls alone', async () => {
    const account = await connected('th_publish_fault');
    await sandbox.control('POST', '/faults', {
      platform: 'threads',
      username: 'th_publish_fault',
      trigger: 'publish',
      error: 'transient',
    });
    const { containerId } = await threads.publishing.createContainer(account, { text: 'later', media: [] });
    advanceClock(PROCESSING_DONE_MS);
    await threads.profile(account);
    expect(await threads.publishing.containerStatus(account, containerId)).toEqual({ state: 'finished' });
    const error = await platformError(threads.publishing.publishContainer(account, containerId));
    expect(error).toMatchObject({ kind: 'transient', detail: { code: 2 } });
    expect((await threads.publishing.publishContainer(account, containerId)).id).toMatch(/^\d+$/);
  });

  it('a throttled user gets rate_limited with the wait, until the throttle ends', async () => {
    const account = await connected('th_throttle');
    await sandbox.control('POST', '/throttle', { platform: 'threads', username: 'th_throttle', seconds: 300 });
    const error = await platformError(commentsOf(threads).recentComments(account));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail.retryAfterSeconds).toBe(300);
    advanceClock(301_000);
    expect((await threads.profile(account)).username).toBe('th_throttle');
  });

  it('expired and revoked tokens', async () => {
    const expiring = await connected('th_expire');
    expect(
      (await sandbox.control('POST', '/tokens/expire', { platform: 'threads', username: 'th_expire' })).body.tokens,
    ).toBe(2);
    expect(await platformError(threads.profile(expiring))).toMatchObject({
      kind: 'token_expired',
      detail: { code: 190, subcode: 463 },
    });
    expect((await platformError(threads.refreshToken(expiring))).kind).toBe('token_expired');
    const revoked = await connected('th_revoke');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'threads', username: 'th_revoke' });
    const error = await platformError(threads.profile(revoked));
    expect(error).toMatchObject({ kind: 'access_revoked', detail: { code: 190 } });
    expect(error.detail.subcode).toBeUndefined();
    expect(error.detail.platformMessage).toMatch(/has not authorized application/);
  });

  it('a scope not ticked: the platform refuses the call with permission_missing, naming the scopes the action needs', async () => {
    const account = await connected('th_noscope', ['threads_basic']);
    const { body: user } = await sandbox.control('GET', '/users/threads/th_noscope');
    const postId = user.posts[0].id as string;
    for (const [attempt, missingScopes] of [
      [() => commentsOf(threads).recentComments(account), ['threads_read_replies']],
      // Never the publish permission: the pages disagree on what a reply needs (docs/platforms.md, "Open questions").
      [() => commentsOf(threads).reply(account, postId, 'hi'), ['threads_manage_replies']],
      [() => threads.publishing.createContainer(account, { text: 'hi', media: [] }), ['threads_content_publish']],
      [
        () => insightsOf(threads).accountInsights(account, [dayOf(now().getTime() - DAY)], ['views']),
        ['threads_manage_insights'],
      ],
      [() => insightsOf(threads).postInsights(account, postId, ['views']), ['threads_manage_insights']],
    ] as const) {
      expect(await platformError(attempt())).toMatchObject({
        kind: 'permission_missing',
        detail: { code: 10, missingScopes },
      });
    }
    const withReplies = await connected('th_noscope_hide', ['threads_basic', 'threads_read_replies']);
    const [comment] = (await commentsOf(threads).recentComments(withReplies)).comments;
    expect(await platformError(commentsOf(threads).setHidden(withReplies, comment?.id as string, true))).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['threads_manage_replies'] },
    });
    expect(threads.scopes.byAction).toEqual({
      read_profile: ['threads_basic'],
      read_comments: ['threads_read_replies'],
      comment_notices: ['threads_basic', 'threads_read_replies'],
      reply: ['threads_content_publish'],
      hide: ['threads_manage_replies'],
      read_insights: ['threads_manage_insights'],
      publish: ['threads_content_publish'],
    });
  });

  it('invalid_request for an unknown object, transient when unreachable, unsupported for pages', async () => {
    const account = await connected('th_misc');
    expect(await platformError(commentsOf(threads).setHidden(account, '12345678901234567', true))).toMatchObject({
      kind: 'invalid_request',
      detail: { code: 100 },
    });
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    }).adapter('threads');
    expect((await platformError(offline.profile({ platformUserId: '1', accessToken: 'x' }))).kind).toBe('transient');
    expect(threads.pages).toBeUndefined();
    // The Threads API has no endpoint to revoke the app's access: said without calling.
    expect((await platformError(offline.revokeAccess(account))).kind).toBe('unsupported');
  });
});
