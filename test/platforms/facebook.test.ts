import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import {
  type AccountCredentials,
  createPlatforms,
  type PageGrant,
  type PlatformAdapter,
  type TokenSet,
} from '../../src/platforms/index.ts';
import {
  commentsOf,
  insightsOf,
  pagesOf,
  platformError,
  REDIRECT_URI,
  sent,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let media: MediaServer;
let facebook: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer();
  facebook = sandbox.adapter('facebook');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const DAY = 86_400_000;
const ALL_SCOPES = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_engagement',
  'pages_manage_posts',
  // To subscribe a page to the app's feed webhooks (Webhooks for Pages).
  'pages_manage_metadata',
];

interface Login {
  tokens: TokenSet;
  pages: PageGrant[];
}

/** Authorizes (all scopes and pages unless told), exchanges the code and lists the granted pages. */
async function login(username: string, options: { granted?: string[]; pages?: number[] } = {}): Promise<Login> {
  const params = await sandbox.authorize('facebook', { username, ...options });
  const tokens = await facebook.exchangeCode(params.get('code') as string, REDIRECT_URI);
  return { tokens, pages: await pagesOf(facebook)(tokens) };
}

function asAccount(page: PageGrant | undefined): AccountCredentials {
  if (page === undefined) throw new Error('no such page');
  return { platformUserId: page.id, accessToken: page.accessToken };
}

/** The first page of a fresh login, as the account the service would store. */
async function firstPage(username: string, granted?: string[]): Promise<AccountCredentials> {
  const { pages } = await login(username, granted ? { granted } : {});
  return asAccount(pages[0]);
}

/** A direct call to a sandbox host, to check the raw answer against the documented shape. */
function raw(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) {
  return sandbox.raw(method, path, params);
}

async function activity(username: string): Promise<{ account_id: string; action: string; target_id: string }[]> {
  return (await sandbox.control('GET', `/activity/facebook/${username}`)).body.data;
}

describe('facebook: OAuth and pages', () => {
  it('builds the documented dialog URL with every requested scope, comma separated', () => {
    const url = new URL(facebook.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    // v27.0, the Graph API's current version (Graph API Changelog, updated October 29, 2026).
    expect(url.pathname).toBe('/sandbox/www.facebook.com/v27.0/dialog/oauth');
    expect(url.searchParams.get('client_id')).toBe('switchboard-sandbox');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.get('scope')).toBe(ALL_SCOPES.join(','));
    expect(facebook.pages).toBeTypeOf('function');
    expect(facebook.scopes.required).toEqual(['pages_show_list', 'pages_read_engagement']);
  });

  it('Cancel redirects with error=access_denied, the error code and reason, and the state', async () => {
    const params = await sandbox.authorize('facebook', { username: 'fb_cancel', cancel: true, state: 'xyz' });
    expect(Object.fromEntries(params)).toEqual({
      error: 'access_denied',
      error_code: '200',
      error_description: 'Permissions error',
      error_reason: 'user_denied',
      state: 'xyz',
    });
    expect(facebook.parseCallback(Object.fromEntries(params))).toEqual({
      outcome: 'denied',
      error: 'access_denied',
      description: 'Permissions error',
      state: 'xyz',
    });
  });

  it('Allow with some scopes and some pages: a 60-day user token, the ticked scopes, only the ticked pages', async () => {
    const granted = ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'];
    const params = await sandbox.authorize('facebook', { username: 'fb_allow', granted, pages: [1, 3], state: 'abc' });
    // A copied redirect may keep Facebook's `#_=_` fragment.
    const callback = facebook.parseCallback({ ...Object.fromEntries(params), code: `${params.get('code')}#_=_` });
    expect(callback).toEqual({ outcome: 'code', code: params.get('code'), state: 'abc' });
    if (callback.outcome !== 'code') throw new Error('no code');

    const tokens = await facebook.exchangeCode(callback.code, REDIRECT_URI);
    const { body: user } = await sandbox.control('GET', '/users/facebook/fb_allow');
    expect(tokens.platformUserId).toBe(user.id);
    expect(tokens.scopes).toEqual(expect.arrayContaining(granted));
    expect(tokens.scopes).not.toContain('pages_manage_engagement');
    expect(tokens.scopes).not.toContain('pages_manage_posts');
    const days = ((tokens.expiresAt?.getTime() ?? 0) - now().getTime()) / DAY;
    expect(days).toBeGreaterThan(59);
    expect(days).toBeLessThan(61);

    const pages = await pagesOf(facebook)(tokens);
    expect(pages.map((p) => p.id)).toEqual([user.pages[0].id, user.pages[2].id]);
    expect(pages[0]).toMatchObject({
      name: user.pages[0].name,
      instagramBusinessAccountId: user.pages[0].instagram_business_account_id,
      avatarUrl: user.pages[0].avatar_url,
    });
    expect(pages[0]?.instagramBusinessAccountId).toMatch(/^\d+$/);
    expect(pages[1]?.instagramBusinessAccountId).toBeNull();
    for (const page of pages) {
      expect(page.accessToken).not.toBe(tokens.accessToken);
      expect((await facebook.profile(asAccount(page))).id).toBe(page.id);
    }
    // Page 2 was not ticked: no token reaches it.
    const other = { platformUserId: user.pages[1].id, accessToken: pages[0]?.accessToken as string };
    expect((await platformError(facebook.profile(other))).kind).toBe('invalid_request');
  });

  it('/me/permissions says granted or declined for each scope', async () => {
    const { tokens } = await login('fb_perms', { granted: ['pages_show_list', 'pages_read_engagement'] });
    const answer = await raw('GET', '/graph.facebook.com/v22.0/me/permissions', { access_token: tokens.accessToken });
    expect(answer.status).toBe(200);
    const status = Object.fromEntries(
      answer.body.data.map((p: { permission: string; status: string }) => [p.permission, p.status]),
    );
    expect(status).toMatchObject({
      pages_show_list: 'granted',
      pages_read_engagement: 'granted',
      pages_read_user_content: 'declined',
      pages_manage_engagement: 'declined',
      pages_manage_posts: 'declined',
    });
    // The code exchange reads them there: granted ones only, and Facebook's public_profile.
    expect(tokens.scopes).toEqual(['public_profile', 'pages_show_list', 'pages_read_engagement']);
    const me = await raw('GET', '/graph.facebook.com/v22.0/me', {
      fields: 'id,name',
      access_token: tokens.accessToken,
    });
    expect(me.body).toEqual({ id: tokens.platformUserId, name: 'Fb Perms' });
  });

  it('a code works once, and not after 10 minutes', async () => {
    const params = await sandbox.authorize('facebook', { username: 'fb_once' });
    const code = params.get('code') as string;
    await facebook.exchangeCode(code, REDIRECT_URI);
    const again = await platformError(facebook.exchangeCode(code, REDIRECT_URI));
    expect(again).toMatchObject({ kind: 'invalid_request', detail: { code: 100, subcode: 36009 } });

    const late = await sandbox.authorize('facebook', { username: 'fb_once' });
    advanceClock(11 * 60_000);
    const expired = await platformError(facebook.exchangeCode(late.get('code') as string, REDIRECT_URI));
    expect(expired).toMatchObject({ kind: 'invalid_request', detail: { code: 100, subcode: 36007 } });

    const elsewhere = await sandbox.authorize('facebook', { username: 'fb_once' });
    const wrongUri = await platformError(facebook.exchangeCode(elsewhere.get('code') as string, `${REDIRECT_URI}/x`));
    expect(wrongUri.kind).toBe('invalid_request');
  });

  it('refreshes the user token with fb_exchange_token; page tokens do not expire', async () => {
    const { tokens, pages } = await login('fb_refresh');
    advanceClock(DAY + 60_000);
    const refreshed = await facebook.refreshToken(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.platformUserId).toBe(tokens.platformUserId);
    expect((refreshed.expiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(59 * DAY);
    // The exchange answer names no scopes: the grant's stay as they were.
    expect(refreshed.scopes).toBeNull();

    const page = asAccount(pages[0]);
    const pageRefresh = await facebook.refreshToken(page);
    expect(pageRefresh.expiresAt).toBeNull();
    expect((await facebook.profile(pageRefresh)).id).toBe(page.platformUserId);

    // Long after the user token ran out, the page token still works.
    advanceClock(90 * DAY);
    expect((await platformError(pagesOf(facebook)(tokens))).kind).toBe('token_expired');
    expect((await facebook.profile(page)).id).toBe(page.platformUserId);
  });

  it('raw answers have the documented shapes: token exchange, /me/accounts, error envelope, redirect fragment', async () => {
    const dialog = new URL(facebook.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'raw' }));
    const decision = await request(dialog, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...Object.fromEntries(dialog.searchParams),
        username: 'fb_raw',
        granted: 'pages_show_list',
        pages: '2',
        decision: 'allow',
      }).toString(),
    });
    await decision.body.text();
    expect(decision.statusCode).toBe(303);
    const location = String(decision.headers.location);
    expect(location).toMatch(/^https:\/\/app\.example\.test\/callback\?code=[^&]+&state=raw#_=_$/);
    const code = new URL(location).searchParams.get('code') as string;

    const exchange = { client_id: 'switchboard-sandbox', client_secret: 'switchboard-sandbox-secret' };
    const short = await raw('GET', '/graph.facebook.com/v22.0/oauth/access_token', {
      ...exchange,
      redirect_uri: REDIRECT_URI,
      code,
    });
    expect(short.status).toBe(200);
    expect(short.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 7200 });

    const long = await raw('GET', '/graph.facebook.com/v22.0/oauth/access_token', {
      ...exchange,
      grant_type: 'fb_exchange_token',
      fb_exchange_token: short.body.access_token,
    });
    expect(long.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 60 * 86_400 });

    const accounts = await raw('GET', '/graph.facebook.com/v22.0/me/accounts', {
      fields: 'id,name,access_token,instagram_business_account,picture',
      access_token: long.body.access_token,
    });
    const { body: user } = await sandbox.control('GET', '/users/facebook/fb_raw');
    expect(accounts.body).toEqual({
      data: [
        {
          id: user.pages[1].id,
          name: user.pages[1].name,
          access_token: expect.any(String),
          picture: { data: expect.objectContaining({ url: user.pages[1].avatar_url }) },
        },
      ],
      paging: { cursors: { before: expect.any(String), after: expect.any(String) } },
    });
    const pageToken = await raw('GET', '/graph.facebook.com/v22.0/oauth/access_token', {
      ...exchange,
      grant_type: 'fb_exchange_token',
      fb_exchange_token: accounts.body.data[0].access_token,
    });
    expect(pageToken.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });

    const used = await raw('GET', '/graph.facebook.com/v22.0/oauth/access_token', {
      ...exchange,
      redirect_uri: REDIRECT_URI,
      code,
    });
    expect(used.status).toBe(400);
    expect(used.body).toEqual({
      error: {
        message: expect.any(String),
        type: 'OAuthException',
        code: 100,
        error_subcode: 36009,
        fbtrace_id: expect.any(String),
      },
    });
    const noToken = await raw('GET', '/graph.facebook.com/v22.0/me');
    expect(noToken.body.error).toMatchObject({ code: 190, type: 'OAuthException' });
  });
});

describe('facebook: reading a page', () => {
  it('reads the page profile', async () => {
    const page = await firstPage('fb_profile');
    const { body: user } = await sandbox.control('GET', '/users/facebook/fb_profile');
    const profile = await facebook.profile(page);
    expect(profile).toEqual({
      id: user.pages[0].id,
      username: 'fb_profile.page1',
      name: 'Fb Profile Page 1',
      avatarUrl: user.pages[0].avatar_url,
      followersCount: user.pages[0].followers_count,
    });
  });

  it('reads comments on recent posts, newest first, with replies, hidden state and who wrote them', async () => {
    const page = await firstPage('fb_comments');
    const { body: pageInfo } = await sandbox.control('GET', '/users/facebook/fb_comments.page1');
    const latest = pageInfo.posts[0].id as string;
    const added = await sandbox.control('POST', '/comments', {
      platform: 'facebook',
      username: 'fb_comments.page1',
      post_id: latest,
      author_username: 'visitor',
      text: '<b>nice</b>',
      // Graph times have whole seconds.
      commented_at: new Date(Math.floor(now().getTime() / 1000) * 1000 - 60_000).toISOString(),
    });
    expect(added.status).toBe(201);
    const comments = (await commentsOf(facebook).recentComments(page)).comments;
    expect(comments.length).toBe(7);
    expect(comments.map((c) => c.createdAt.getTime())).toEqual(
      comments.map((c) => c.createdAt.getTime()).sort((a, b) => b - a),
    );
    expect(comments[0]).toEqual({
      id: added.body.id,
      postId: latest,
      parentId: null,
      authorId: added.body.author_id,
      authorUsername: 'visitor',
      text: '<b>nice</b>',
      createdAt: new Date(added.body.commented_at),
      hidden: false,
      byAccount: false,
    });
    expect((await commentsOf(facebook).recentComments(page, { posts: 1 })).comments.map((c) => c.postId)).toEqual([
      latest,
      latest,
      latest,
    ]);

    const reply = await sent(commentsOf(facebook).reply(page, added.body.id, 'Thanks!'));
    const other = comments[1] as (typeof comments)[number];
    await commentsOf(facebook).setHidden(page, other.id, true);
    const after = (await commentsOf(facebook).recentComments(page)).comments;
    expect(after.find((c) => c.id === reply.id)).toMatchObject({
      parentId: added.body.id,
      postId: latest,
      authorId: page.platformUserId,
      authorUsername: 'Fb Comments Page 1',
      text: 'Thanks!',
      byAccount: true,
    });
    expect(after.find((c) => c.id === other.id)?.hidden).toBe(true);
    await commentsOf(facebook).setHidden(page, other.id, false);
    expect((await commentsOf(facebook).recentComments(page)).comments.find((c) => c.id === other.id)?.hidden).toBe(
      false,
    );

    expect(await activity('fb_comments')).toEqual([
      expect.objectContaining({ account_id: page.platformUserId, action: 'reply', target_id: added.body.id }),
      expect.objectContaining({ action: 'hide', target_id: other.id }),
      expect.objectContaining({ action: 'unhide', target_id: other.id }),
    ]);
    const { body: log } = await sandbox.control('GET', '/activity/facebook/fb_comments');
    expect(log.data[0].detail).toMatchObject({ reply_id: reply.id, message: 'Thanks!' });
  });

  it('raw comments with filter=stream: every depth, from {id, name}, parent {id}, is_hidden', async () => {
    const page = await firstPage('fb_rawcomments');
    const { body: pageInfo } = await sandbox.control('GET', '/users/facebook/fb_rawcomments.page1');
    const postId = pageInfo.posts[0].id as string;
    const top = await sandbox.control('POST', '/comments', {
      platform: 'facebook',
      username: 'fb_rawcomments.page1',
      post_id: postId,
      author_username: 'asker',
      text: 'Question?',
    });
    const answer = await sandbox.control('POST', '/comments', {
      platform: 'facebook',
      username: 'fb_rawcomments.page1',
      post_id: postId,
      parent_id: top.body.id,
      author_username: 'helper',
      text: 'Answer.',
    });
    const fields = 'id,message,created_time,from{id,name},is_hidden,parent{id}';
    const stream = await raw('GET', `/graph.facebook.com/v22.0/${postId}/comments`, {
      fields,
      filter: 'stream',
      order: 'reverse_chronological',
      access_token: page.accessToken,
    });
    expect(stream.status).toBe(200);
    expect(stream.body.data).toHaveLength(4);
    expect(stream.body.data[0]).toEqual({
      id: answer.body.id,
      message: 'Answer.',
      created_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/),
      from: { id: answer.body.author_id, name: 'helper' },
      is_hidden: false,
      parent: { id: top.body.id },
    });
    expect(stream.body.data[1]).not.toHaveProperty('parent');
    const topLevel = await raw('GET', `/graph.facebook.com/v22.0/${postId}/comments`, {
      fields,
      access_token: page.accessToken,
    });
    expect(topLevel.body.data.map((c: { id: string }) => c.id)).not.toContain(answer.body.id);
    expect(topLevel.body.data).toHaveLength(3);
    const posts = await raw('GET', `/graph.facebook.com/v22.0/${page.platformUserId}/posts`, {
      fields: 'id,message,created_time,permalink_url',
      limit: '2',
      access_token: page.accessToken,
    });
    expect(posts.body.data).toHaveLength(2);
    expect(posts.body.data[0]).toEqual({
      id: postId,
      message: pageInfo.posts[0].caption,
      created_time: expect.any(String),
      permalink_url: pageInfo.posts[0].permalink,
    });
    expect(posts.body.paging.next).toContain('after=');
  });

  it('a reply to a reply joins the top-level thread, as on Facebook', async () => {
    const page = await firstPage('fb_thread');
    const comments = (await commentsOf(facebook).recentComments(page)).comments;
    const first = comments[0] as (typeof comments)[number];
    const reply = await sent(commentsOf(facebook).reply(page, first.id, 'one'));
    const nested = await sent(commentsOf(facebook).reply(page, reply.id, 'two'));
    const after = (await commentsOf(facebook).recentComments(page)).comments;
    expect(after.find((c) => c.id === nested.id)?.parentId).toBe(first.id);
  });
});

describe('facebook: publishing', () => {
  it('publishes a text post and answers its permalink', async () => {
    const page = await firstPage('fb_text');
    const { containerId } = await facebook.publishing.createContainer(page, { text: 'Hello page', media: [] });
    expect(await facebook.publishing.containerStatus(page, containerId)).toEqual({ state: 'finished' });
    const published = await facebook.publishing.publishContainer(page, containerId);
    expect(published.permalink).toBe(`https://www.facebook.com/${page.platformUserId}/posts/${published.id}`);
    const { body: pageInfo } = await sandbox.control('GET', '/users/facebook/fb_text.page1');
    expect(pageInfo.posts[0]).toMatchObject({ id: published.id, caption: 'Hello page', via_api: true });
    expect(await activity('fb_text')).toEqual([
      expect.objectContaining({ account_id: page.platformUserId, action: 'publish', target_id: published.id }),
    ]);
  });

  it('publishes an image post: the photo is uploaded unpublished, then attached to the feed post', async () => {
    const page = await firstPage('fb_image');
    const url = media.url('/photo.jpg');
    const { containerId } = await facebook.publishing.createContainer(page, {
      text: 'With a photo',
      media: [{ type: 'image', url }],
    });
    // Nothing is visible on the page before the publish.
    const before = await sandbox.control('GET', '/users/facebook/fb_image.page1');
    expect(before.body.posts).toHaveLength(3);
    expect(await activity('fb_image')).toEqual([]);
    const published = await facebook.publishing.publishContainer(page, containerId);
    expect(published.permalink).toContain(published.id);
    const { body: pageInfo } = await sandbox.control('GET', '/users/facebook/fb_image.page1');
    expect(pageInfo.posts).toHaveLength(4);
    expect(pageInfo.posts[0]).toMatchObject({ id: published.id, caption: 'With a photo', media_type: 'IMAGE' });
    const { body: log } = await sandbox.control('GET', '/activity/facebook/fb_image');
    expect(log.data[0].detail).toMatchObject({ message: 'With a photo', media_urls: [url] });
    expect(log.data[0].detail.photo_ids).toHaveLength(1);
    // The photo went with that post: publishing the container again cannot reuse it.
    expect((await platformError(facebook.publishing.publishContainer(page, containerId))).kind).toBe('invalid_request');
  });

  it('refuses video and foreign or broken containers as invalid, before any publish', async () => {
    const page = await firstPage('fb_video');
    const video = await platformError(
      facebook.publishing.createContainer(page, { text: 'x', media: [{ type: 'video', url: media.url('/clip.mp4') }] }),
    );
    expect(video.kind).toBe('invalid_request');
    expect((await platformError(facebook.publishing.createContainer(page, { media: [] }))).kind).toBe(
      'invalid_request',
    );
    expect((await platformError(facebook.publishing.containerStatus(page, 'fbpost.%%%'))).kind).toBe('invalid_request');
    expect((await platformError(facebook.publishing.publishContainer(page, '17841400000000000'))).kind).toBe(
      'invalid_request',
    );
    const { containerId } = await facebook.publishing.createContainer(page, { text: 'mine', media: [] });
    const elsewhere = { ...page, platformUserId: '1234567890' };
    expect((await platformError(facebook.publishing.publishContainer(elsewhere, containerId))).kind).toBe(
      'invalid_request',
    );
    expect(await activity('fb_video')).toEqual([]);
  });

  it('offers no insights', async () => {
    const page = await firstPage('fb_insights');
    expect(facebook.insights).toBeUndefined();
    expect(facebook.scopes.byAction.read_insights).toBeUndefined();
    const read: (() => Promise<unknown>)[] = [
      () => insightsOf(facebook).accountInsights(page, ['2025-01-01'], ['reach']),
      () => insightsOf(facebook).postInsights(page, '1', ['reach']),
    ];
    for (const call of read) expect((await platformError(Promise.resolve().then(call))).kind).toBe('unsupported');
  });
});

describe('facebook: every error class', () => {
  it('a fault set on the user answers on its page tokens once, classified', async () => {
    const page = await firstPage('fb_faults');
    const kinds = [
      'token_expired',
      'access_revoked',
      'permission_missing',
      'rate_limited',
      'transient',
      'invalid_request',
    ] as const;
    for (const kind of kinds) {
      const set = await sandbox.control('POST', '/faults', {
        platform: 'facebook',
        username: 'fb_faults',
        error: kind,
      });
      expect(set.status).toBe(201);
      const error = await platformError(facebook.profile(page));
      expect(error.kind).toBe(kind);
      expect(error.detail.platform).toBe('facebook');
      expect(error.detail.code).toBeTypeOf('number');
      expect(error.detail.platformMessage).toBeTruthy();
    }
    await sandbox.control('POST', '/faults', {
      platform: 'facebook',
      username: 'fb_faults.page1',
      error: 'transient',
    });
    expect((await platformError(commentsOf(facebook).recentComments(page))).kind).toBe('transient');
    expect((await facebook.profile(page)).username).toBe('fb_faults.page1');
  });

  it('a publish fault waits for the feed post; the uploaded photo stays usable', async () => {
    const page = await firstPage('fb_pubfault');
    await sandbox.control('POST', '/faults', {
      platform: 'facebook',
      username: 'fb_pubfault',
      trigger: 'publish',
      error: 'rate_limited',
    });
    const { containerId } = await facebook.publishing.createContainer(page, {
      text: 'later',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    await facebook.profile(page);
    const error = await platformError(facebook.publishing.publishContainer(page, containerId));
    expect(error).toMatchObject({ kind: 'rate_limited', detail: { code: 4 } });
    expect(error.detail.retryAfterSeconds).toBeGreaterThan(0);
    expect((await facebook.publishing.publishContainer(page, containerId)).id).toMatch(/^\d+$/);
  });

  it('throttling the user throttles its pages, with the wait, until it ends', async () => {
    const { tokens, pages } = await login('fb_throttle');
    const throttled = await sandbox.control('POST', '/throttle', {
      platform: 'facebook',
      username: 'fb_throttle',
      seconds: 300,
    });
    expect(throttled.status).toBe(200);
    for (const credentials of [asAccount(pages[0]), asAccount(pages[2])]) {
      const error = await platformError(facebook.profile(credentials));
      expect(error).toMatchObject({ kind: 'rate_limited', detail: { code: 4, retryAfterSeconds: 300 } });
    }
    expect((await platformError(pagesOf(facebook)(tokens))).kind).toBe('rate_limited');
    advanceClock(301_000);
    expect((await facebook.profile(asAccount(pages[0]))).id).toBe(pages[0]?.id);
  });

  it('expired and revoked: the user token and its page tokens', async () => {
    const expiring = await login('fb_expire');
    const ended = await sandbox.control('POST', '/tokens/expire', { platform: 'facebook', username: 'fb_expire' });
    expect(ended.body.tokens).toBeGreaterThanOrEqual(4);
    const expired = await platformError(facebook.profile(asAccount(expiring.pages[0])));
    expect(expired).toMatchObject({ kind: 'token_expired', detail: { code: 190, subcode: 463 } });
    expect((await platformError(facebook.refreshToken(expiring.tokens))).kind).toBe('token_expired');

    const revoked = await login('fb_revoke');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'facebook', username: 'fb_revoke' });
    const pageError = await platformError(facebook.profile(asAccount(revoked.pages[1])));
    expect(pageError).toMatchObject({ kind: 'access_revoked', detail: { code: 190, subcode: 458 } });
    expect((await platformError(pagesOf(facebook)(revoked.tokens))).kind).toBe('access_revoked');
  });

  it('a scope not ticked: the platform refuses the call with permission_missing', async () => {
    const page = await firstPage('fb_noscope', ['pages_show_list', 'pages_read_engagement']);
    expect((await facebook.profile(page)).id).toBe(page.platformUserId);
    const read = await platformError(commentsOf(facebook).recentComments(page));
    expect(read).toMatchObject({
      kind: 'permission_missing',
      detail: { code: 10, missingScopes: ['pages_read_user_content'] },
    });
    const { body: pageInfo } = await sandbox.control('GET', '/users/facebook/fb_noscope.page1');
    const comment = await sandbox.control('POST', '/comments', {
      platform: 'facebook',
      username: 'fb_noscope.page1',
      post_id: pageInfo.posts[0].id,
      author_username: 'visitor',
      text: 'hi',
    });
    expect(await platformError(commentsOf(facebook).reply(page, comment.body.id, 'x'))).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['pages_manage_engagement'] },
    });
    expect(await platformError(commentsOf(facebook).setHidden(page, comment.body.id, true))).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['pages_manage_engagement'] },
    });
    const { containerId } = await facebook.publishing.createContainer(page, { text: 'text only', media: [] });
    expect(await platformError(facebook.publishing.publishContainer(page, containerId))).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['pages_manage_posts'] },
    });
    expect(facebook.scopes.byAction).toMatchObject({
      read_comments: ['pages_read_user_content'],
      reply: ['pages_manage_engagement'],
      hide: ['pages_manage_engagement'],
      publish: ['pages_manage_posts'],
    });
    expect(await activity('fb_noscope')).toEqual([]);
  });

  it('page objects need the page token: the user token is refused as permission_missing', async () => {
    const { tokens, pages } = await login('fb_usertoken');
    const userAsPage = { platformUserId: pages[0]?.id as string, accessToken: tokens.accessToken };
    const error = await platformError(commentsOf(facebook).recentComments(userAsPage));
    expect(error).toMatchObject({ kind: 'permission_missing', detail: { code: 210 } });
  });

  it('invalid_request for unknown objects and for /me/accounts on a page token', async () => {
    const { pages } = await login('fb_invalid');
    const page = asAccount(pages[0]);
    const unknown = await platformError(commentsOf(facebook).reply(page, '999999999999', 'hello'));
    expect(unknown).toMatchObject({ kind: 'invalid_request', detail: { code: 100 } });
    // Another page's comment is out of reach for this page's token.
    const { body: second } = await sandbox.control('GET', '/users/facebook/fb_invalid.page2');
    const foreign = await sandbox.control('POST', '/comments', {
      platform: 'facebook',
      username: 'fb_invalid.page2',
      post_id: second.posts[0].id,
      author_username: 'visitor',
      text: 'elsewhere',
    });
    expect((await platformError(commentsOf(facebook).setHidden(page, foreign.body.id, true))).kind).toBe(
      'invalid_request',
    );
    expect((await platformError(pagesOf(facebook)(page))).kind).toBe('invalid_request');
  });

  it('transient when Facebook cannot be reached', async () => {
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    });
    const error = await platformError(offline.adapter('facebook').profile({ platformUserId: '1', accessToken: 'x' }));
    expect(error).toMatchObject({ kind: 'transient', detail: { platform: 'facebook' } });
  });

  it("revokeAccess is unsupported with a page token, said without calling; Graph's own revocation needs the user's token", async () => {
    const { tokens, pages } = await login('fb_revoke');
    const page = asAccount(pages[0]);
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    }).adapter('facebook');
    expect((await platformError(offline.revokeAccess(page))).kind).toBe('unsupported');
    // What Graph offers, imitated: a page token may not, the user's token ends the login and its pages' tokens.
    const url = `${sandbox.url}/graph.facebook.com/v22.0/me/permissions?access_token=`;
    const refused = await request(`${url}${encodeURIComponent(page.accessToken)}`, { method: 'DELETE' });
    expect(refused.statusCode).toBe(400);
    expect(((await refused.body.json()) as { error: { code: number } }).error.code).toBe(100);
    const revoked = await request(`${url}${encodeURIComponent(tokens.accessToken)}`, { method: 'DELETE' });
    expect(await revoked.body.json()).toEqual({ success: true });
    expect((await platformError(facebook.profile(page))).kind).toBe('access_revoked');
    expect(await activity('fb_revoke')).toEqual([
      expect.objectContaining({ action: 'revoke', target_id: tokens.platformUserId }),
    ]);
  });
});
