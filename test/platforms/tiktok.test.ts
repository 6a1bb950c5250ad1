import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import {
  type AccountCredentials,
  createPlatforms,
  missingScopes,
  type PlatformAdapter,
  type PublishRequest,
  SANDBOX_CLIENT,
} from '../../src/platforms/index.ts';
import { videoFile } from '../helpers/media-files.ts';
import {
  commentsOf,
  insightsOf,
  platformError,
  REDIRECT_URI,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let media: MediaServer;
/** A video the sandbox can pull (set once the media server runs). */
let VIDEO: string;
let tiktok: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Real MP4s, whose length a reader can tell (the other files only begin like an MP4).
  media = await startMediaServer({
    '/ten-seconds.mp4': { type: 'video/mp4', body: await videoFile('mp4', { seconds: 10 }) },
    '/twenty-seconds.mp4': { type: 'video/mp4', body: await videoFile('mp4', { seconds: 20 }) },
  });
  VIDEO = media.url('/clip.mp4');
  tiktok = sandbox.adapter('tiktok');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Longer than the sandbox's 5 s of processing (its default container_processing_seconds). */
const PROCESSING_DONE_MS = 6_000;
/** Longer than the sandbox's 30 s of moderation for a public post (its default tiktok_moderation_seconds). */
const MODERATION_DONE_MS = 31_000;
const NO_TOKEN: AccountCredentials = { platformUserId: '1', accessToken: 'not-a-token' };

const connected = (username: string, granted?: string[]) => sandbox.credentials('tiktok', username, granted);

/** A one-video post with the privacy level its creator chose. */
function video(privacy_level: string, text?: string): PublishRequest {
  return {
    ...(text !== undefined ? { text } : {}),
    media: [{ type: 'video', url: VIDEO }],
    options: { privacy_level },
  };
}

async function setSetting(name: string, value: string | number): Promise<void> {
  expect((await sandbox.control('PUT', `/settings/${name}`, { value })).status).toBe(200);
}

async function fault(username: string, error: string, trigger: 'call' | 'publish' = 'call'): Promise<void> {
  const set = await sandbox.control('POST', '/faults', { platform: 'tiktok', username, error, trigger });
  expect(set.status).toBe(201);
}

/** A call straight to the sandbox's open.tiktokapis.com, to check the answers' shapes. */
async function raw(
  method: 'GET' | 'POST',
  path: string,
  init: { form?: Record<string, string>; json?: unknown; bearer?: string; contentType?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: the tests read TikTok's raw JSON field by field.
): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json; charset=UTF-8';
    body = JSON.stringify(init.json);
  }
  if (init.contentType !== undefined) headers['content-type'] = init.contentType;
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  const response = await request(`${sandbox.url}/open.tiktokapis.com${path}`, { method, headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

const CLIENT_FORM = { client_key: SANDBOX_CLIENT.clientId, client_secret: SANDBOX_CLIENT.clientSecret };

/** A user whose TikTok account is private (the sandbox's users are public unless told). */
async function privateUser(username: string): Promise<AccountCredentials> {
  const made = await sandbox.control('POST', '/users', { platform: 'tiktok', username, private: true });
  expect(made.status).toBe(201);
  return await connected(username);
}

async function accountId(username: string): Promise<string> {
  return (await sandbox.control('GET', `/users/tiktok/${username}`)).body.id;
}

describe('tiktok: OAuth', () => {
  it('builds the documented authorize URL: client_key, comma-separated scopes, response_type=code', () => {
    const url = new URL(tiktok.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.pathname).toBe('/sandbox/www.tiktok.com/v2/auth/authorize/');
    expect(url.searchParams.get('client_key')).toBe('switchboard-sandbox');
    expect(url.searchParams.has('client_id')).toBe(false);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.get('scope')).toBe(
      'user.info.basic,user.info.profile,user.info.stats,video.list,video.publish',
    );
    const some = new URL(tiktok.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'x', scopes: ['user.info.basic'] }));
    expect(some.searchParams.get('scope')).toBe('user.info.basic');
  });

  it('Cancel redirects with error=access_denied, a description and the state', async () => {
    const params = await sandbox.authorize('tiktok', { username: 'tt_cancel', cancel: true, state: 'xyz' });
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_description')).toBeTruthy();
    expect(params.get('state')).toBe('xyz');
    expect(params.has('code')).toBe(false);
    expect(tiktok.parseCallback(Object.fromEntries(params))).toMatchObject({
      outcome: 'denied',
      error: 'access_denied',
      state: 'xyz',
    });
  });

  it('Allow with some scopes ticked: the redirect and the token answer say which were granted', async () => {
    const granted = ['user.info.basic', 'video.publish'];
    const params = await sandbox.authorize('tiktok', { username: 'tt_allow', granted, state: 'abc' });
    expect(params.get('scopes')).toBe('user.info.basic,video.publish');
    const callback = tiktok.parseCallback(Object.fromEntries(params));
    expect(callback).toMatchObject({ outcome: 'code', state: 'abc' });
    if (callback.outcome !== 'code') throw new Error('no code');
    const tokens = await tiktok.exchangeCode(callback.code, REDIRECT_URI);
    expect(tokens.scopes).toEqual(granted);
    expect(tokens.platformUserId).toBe(await accountId('tt_allow'));
    expect(tokens.accessToken).not.toBe(tokens.refreshToken);
    const hours = ((tokens.expiresAt?.getTime() ?? 0) - now().getTime()) / HOUR;
    // "Access token 2 hours", "Refresh token 180 days" (Manage OAuth Access Tokens).
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
    const refreshDays = ((tokens.refreshExpiresAt?.getTime() ?? 0) - now().getTime()) / DAY;
    expect(refreshDays).toBeGreaterThan(179.9);
    expect(refreshDays).toBeLessThanOrEqual(180);
  });

  it('a code works once', async () => {
    const params = await sandbox.authorize('tiktok', { username: 'tt_once' });
    const code = params.get('code') as string;
    await tiktok.exchangeCode(code, REDIRECT_URI);
    const again = await platformError(tiktok.exchangeCode(code, REDIRECT_URI));
    expect(again).toMatchObject({ kind: 'token_expired', detail: { code: 'invalid_grant', status: 400 } });
    expect(again.detail.platformMessage).toBeTruthy();
  });

  it('a code lives 10 minutes', async () => {
    const early = (await sandbox.authorize('tiktok', { username: 'tt_code_ttl' })).get('code') as string;
    const late = (await sandbox.authorize('tiktok', { username: 'tt_code_ttl' })).get('code') as string;
    advanceClock(9 * MINUTE);
    expect((await tiktok.exchangeCode(early, REDIRECT_URI)).platformUserId).toBe(await accountId('tt_code_ttl'));
    advanceClock(2 * MINUTE);
    expect((await platformError(tiktok.exchangeCode(late, REDIRECT_URI))).kind).toBe('token_expired');
  });

  it('a code is bound to its redirect URI', async () => {
    const code = (await sandbox.authorize('tiktok', { username: 'tt_redirect' })).get('code') as string;
    const error = await platformError(tiktok.exchangeCode(code, 'https://elsewhere.example.test/cb'));
    expect(error.detail.code).toBe('invalid_grant');
  });

  it('refresh rotates the refresh token: the new grant works, the old refresh token no longer does', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_refresh', ['user.info.basic', 'user.info.profile']);
    advanceClock(HOUR + 45 * MINUTE);
    const refreshed = await tiktok.refreshToken(tokens);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed.platformUserId).toBe(tokens.platformUserId);
    expect(refreshed.scopes).toEqual(['user.info.basic', 'user.info.profile']);
    expect((refreshed.expiresAt?.getTime() ?? 0) - now().getTime()).toBeGreaterThan(2 * HOUR - MINUTE);
    // The refresh token keeps the end of the first grant (180 days from then), within a second:
    // refresh_expires_in is "the remaining lifetime".
    expect(
      Math.abs((refreshed.refreshExpiresAt?.getTime() ?? 0) - (tokens.refreshExpiresAt?.getTime() ?? 0)),
    ).toBeLessThanOrEqual(1000);
    expect((await tiktok.profile(refreshed)).name).toBe('Tt Refresh');

    const stale = await platformError(tiktok.refreshToken(tokens));
    expect(stale).toMatchObject({ kind: 'token_expired', detail: { code: 'invalid_grant' } });
    const next = await tiktok.refreshToken(refreshed);
    expect(next.refreshToken).not.toBe(refreshed.refreshToken);
  });

  it('refreshes the control API refuses for a while answer temporarily_unavailable, and leave the refresh token working', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_refresh_outage');
    const outage = await sandbox.control('POST', '/faults', {
      platform: 'tiktok',
      username: 'tt_refresh_outage',
      trigger: 'refresh',
      error: 'transient',
      seconds: 600,
    });
    expect(outage.status).toBe(201);
    for (let i = 0; i < 2; i += 1) {
      const refused = await platformError(tiktok.refreshToken(tokens));
      expect(refused).toMatchObject({ kind: 'transient', detail: { code: 'temporarily_unavailable', status: 503 } });
    }
    // A refresh fault leaves the account's API calls alone.
    expect((await tiktok.profile(tokens)).id).toBe(tokens.platformUserId);
    advanceClock(601_000);
    const refreshed = await tiktok.refreshToken(tokens);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
  });

  it('refuses to refresh without a refresh token, before calling', async () => {
    const error = await platformError(tiktok.refreshToken({ accessToken: 'x', platformUserId: '1' }));
    expect(error.kind).toBe('invalid_request');
  });

  it('two refreshes racing with the same refresh token: exactly one wins', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_refresh_race');
    const results = await Promise.allSettled([tiktok.refreshToken(tokens), tiktok.refreshToken(tokens)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('declares its scopes, refresh policy and what it cannot do', async () => {
    expect(tiktok.scopes.required).toEqual(['user.info.basic']);
    expect(tiktok.scopes.byAction).toEqual({ read_profile: ['user.info.basic'], publish: ['video.publish'] });
    expect(missingScopes(tiktok, 'publish', ['user.info.basic'])).toEqual(['video.publish']);
    const everyScope = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list', 'video.publish'];
    for (const action of ['read_comments', 'reply', 'hide', 'read_insights'] as const) {
      expect(missingScopes(tiktok, action, everyScope)).toBeNull();
    }
    expect(tiktok.refresh).toEqual({ refreshBeforeExpiryMs: 30 * MINUTE, minTokenAgeMs: 0 });
    expect(tiktok.pages).toBeUndefined();
    expect(tiktok.insights).toBeUndefined();
  });
});

describe('tiktok: profile', () => {
  it('reads the whole profile with every scope', async () => {
    const account = await connected('tt_profile');
    const profile = await tiktok.profile(account);
    expect(profile).toMatchObject({ id: account.platformUserId, username: 'tt_profile', name: 'Tt Profile' });
    expect(profile.followersCount).toBeGreaterThan(0);
    expect(profile.avatarUrl).toMatch(/^https:\/\//);
  });

  it('with only user.info.basic: reads the basic fields and answers null for the rest', async () => {
    const account = await connected('tt_basic', ['user.info.basic']);
    expect(await tiktok.profile(account)).toEqual({
      id: account.platformUserId,
      username: null,
      name: 'Tt Basic',
      avatarUrl: expect.stringMatching(/^https:\/\//),
      followersCount: null,
    });
  });

  it('without user.info.basic nothing can be read: permission_missing', async () => {
    const account = await connected('tt_noscope', ['video.publish']);
    const error = await platformError(tiktok.profile(account));
    expect(error).toMatchObject({
      kind: 'permission_missing',
      detail: { code: 'scope_not_authorized', status: 401, missingScopes: ['user.info.basic'] },
    });
  });
});

describe('tiktok: publishing', () => {
  it('posts a public video: processing, then moderation, then published with its public id and permalink', async () => {
    const account = await connected('tt_publish');
    const { containerId } = await tiktok.publishing.createContainer(
      account,
      video('PUBLIC_TO_EVERYONE', 'Hello #sandbox'),
    );
    expect(containerId).toMatch(/^PUBLIC_TO_EVERYONE:v_pub_url~v2\.\d+$/);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({
      state: 'in_progress',
      message: 'TikTok is still processing the video (PROCESSING_DOWNLOAD)',
    });
    const early = await platformError(tiktok.publishing.publishContainer(account, containerId));
    expect(early.kind).toBe('transient');
    expect(early.message).toMatch(/not finished/);

    // PUBLISH_COMPLETE without the public id: TikTok is still moderating the public post, which
    // is published but known only by its publish_id until the public id appears.
    advanceClock(PROCESSING_DONE_MS);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({
      state: 'awaiting_permalink',
      message: expect.stringContaining('moderation'),
    });
    expect(await tiktok.publishing.findPublished(account, containerId)).toEqual({
      id: containerId.slice('PUBLIC_TO_EVERYONE:'.length),
      permalink: null,
    });
    const moderating = await platformError(tiktok.publishing.publishContainer(account, containerId));
    expect(moderating.kind).toBe('transient');
    expect(moderating.message).toMatch(/moderation/);

    advanceClock(MODERATION_DONE_MS);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    const published = await tiktok.publishing.publishContainer(account, containerId);
    expect(published.id).toMatch(/^\d{17}$/);
    expect(published.permalink).toBe(`https://www.tiktok.com/@tt_publish/video/${published.id}`);
    expect(await tiktok.publishing.publishContainer(account, containerId)).toEqual(published);

    const { body: user } = await sandbox.control('GET', '/users/tiktok/tt_publish');
    expect(user.posts[0]).toMatchObject({
      id: published.id,
      caption: 'Hello #sandbox',
      media_type: 'VIDEO',
      via_api: true,
      permalink: published.permalink,
    });
    const activity = await sandbox.control('GET', '/activity/tiktok/tt_publish');
    expect(activity.body.data).toEqual([
      expect.objectContaining({
        action: 'publish',
        target_id: published.id,
        detail: expect.objectContaining({
          publish_id: containerId.slice('PUBLIC_TO_EVERYONE:'.length),
          title: 'Hello #sandbox',
          privacy_level: 'PUBLIC_TO_EVERYONE',
          video_url: VIDEO,
        }),
      }),
    ]);
  });

  it('a private post is final at PUBLISH_COMPLETE: no public id, the publish id stands for it, no permalink', async () => {
    const account = await connected('tt_private');
    const { containerId } = await tiktok.publishing.createContainer(account, video('SELF_ONLY', 'Only me'));
    advanceClock(PROCESSING_DONE_MS);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    expect(await tiktok.publishing.publishContainer(account, containerId)).toEqual({
      id: containerId.slice('SELF_ONLY:'.length),
      permalink: null,
    });
  });

  it('sends the commercial content disclosure in post_info, both toggles always, false unless chosen', async () => {
    const account = await connected('tt_disclosure');
    const plain = await tiktok.publishing.createContainer(account, video('SELF_ONLY', 'Nothing to disclose'));
    const disclosed = await tiktok.publishing.createContainer(account, {
      ...video('MUTUAL_FOLLOW_FRIENDS', 'Paid partnership'),
      options: { privacy_level: 'MUTUAL_FOLLOW_FRIENDS', brand_content_toggle: true, brand_organic_toggle: true },
    });
    advanceClock(PROCESSING_DONE_MS);
    for (const { containerId } of [plain, disclosed]) {
      expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    }
    const activity = await sandbox.control('GET', '/activity/tiktok/tt_disclosure');
    expect(activity.body.data.map((a: { detail: { options: unknown } }) => a.detail.options)).toEqual([
      {
        privacy_level: 'SELF_ONLY',
        disable_comment: false,
        disable_duet: false,
        disable_stitch: false,
        brand_content_toggle: false,
        brand_organic_toggle: false,
      },
      {
        privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
        disable_comment: false,
        disable_duet: false,
        disable_stitch: false,
        brand_content_toggle: true,
        brand_organic_toggle: true,
      },
    ]);
  });

  it('refuses branded content that is private (SELF_ONLY) before calling', async () => {
    const error = await platformError(
      tiktok.publishing.createContainer(NO_TOKEN, {
        ...video('SELF_ONLY'),
        options: { privacy_level: 'SELF_ONLY', brand_content_toggle: true },
      }),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.detail.platformMessage).toContain('Branded content visibility cannot be set to private.');
  });

  it('a file TikTok cannot take fails after processing, with the reason', async () => {
    const account = await connected('tt_publish_fail');
    const { containerId } = await tiktok.publishing.createContainer(account, {
      text: 'Not a video',
      media: [{ type: 'video', url: media.url('/png.mp4') }],
      options: { privacy_level: 'PUBLIC_TO_EVERYONE' },
    });
    expect((await tiktok.publishing.containerStatus(account, containerId)).state).toBe('in_progress');
    advanceClock(PROCESSING_DONE_MS);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({
      state: 'failed',
      message: 'file_format_check_failed',
    });
    const error = await platformError(tiktok.publishing.publishContainer(account, containerId));
    expect(error).toMatchObject({ kind: 'invalid_request', detail: { platformMessage: 'file_format_check_failed' } });
    const { body: user } = await sandbox.control('GET', '/users/tiktok/tt_publish_fail');
    expect(user.posts.filter((p: { via_api: boolean }) => p.via_api)).toEqual([]);
  });

  it('refuses images, carousels, text-only posts and several videos before calling', async () => {
    const requests = [
      { text: 'pic', media: [{ type: 'image' as const, url: media.url('/photo.jpg') }] },
      {
        media: [
          { type: 'video' as const, url: VIDEO },
          { type: 'image' as const, url: media.url('/photo.jpg') },
        ],
      },
      {
        media: [
          { type: 'video' as const, url: VIDEO },
          { type: 'video' as const, url: VIDEO },
        ],
      },
      { text: 'just words', media: [] },
    ];
    for (const publish of requests) {
      // A call would have failed with token_expired: this token does not exist.
      expect((await platformError(tiktok.publishing.createContainer(NO_TOKEN, publish))).kind).toBe('invalid_request');
    }
  });

  it('refuses a title longer than TikTok takes, before calling, naming the problem', async () => {
    const error = await platformError(
      tiktok.publishing.createContainer(NO_TOKEN, video('SELF_ONLY', 'x'.repeat(2201))),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.detail.problems).toEqual([{ field: 'text', message: 'a TikTok title has at most 2200 characters' }]);
  });

  it("refuses a video longer than creator_info's max_video_post_duration_sec before video/init", async () => {
    const account = await connected('tt_too_long');
    const lasting = (path: string, durationSeconds?: number): PublishRequest => ({
      ...video('SELF_ONLY'),
      media: [{ type: 'video', url: media.url(path), ...(durationSeconds === undefined ? {} : { durationSeconds }) }],
    });
    await setSetting('tiktok_max_video_post_duration_sec', 10);
    try {
      const error = await platformError(tiktok.publishing.createContainer(account, lasting('/twenty-seconds.mp4', 20)));
      expect(error.kind).toBe('invalid_request');
      expect(error.detail.problems).toEqual([
        { field: 'media_ids', message: 'the video lasts 20 s; this TikTok account may post videos of at most 10 s' },
      ]);
      // creator_info was asked; TikTok never got the video.
      const paths = (await sandbox.calls('tiktok', 'tt_too_long')).data.map((c) => c.path);
      expect(paths).toEqual(['/open.tiktokapis.com/v2/post/publish/creator_info/query/']);
      expect((await sandbox.control('GET', '/users/tiktok/tt_too_long')).body.posts).toHaveLength(3);

      // "At most": a video as long as the limit goes.
      const { containerId } = await tiktok.publishing.createContainer(account, lasting('/ten-seconds.mp4', 10));
      // A length the service does not know is left to TikTok, which fails the video itself.
      const unknown = await tiktok.publishing.createContainer(account, lasting('/twenty-seconds.mp4'));
      advanceClock(PROCESSING_DONE_MS);
      expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
      expect(await tiktok.publishing.containerStatus(account, unknown.containerId)).toEqual({
        state: 'failed',
        message: 'duration_check_failed',
      });
    } finally {
      await setSetting('tiktok_max_video_post_duration_sec', 600);
    }
  });

  it('never picks the privacy level: a post without the one its creator chose is refused before calling', async () => {
    for (const publish of [
      { media: [{ type: 'video' as const, url: VIDEO }] },
      { media: [{ type: 'video' as const, url: VIDEO }], options: {} },
      video(''),
    ]) {
      const error = await platformError(tiktok.publishing.createContainer(NO_TOKEN, publish));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toMatch(/privacy_level/);
    }
  });

  it('a privacy level creator_info does not offer is refused before video/init, as privacy_level_option_mismatch', async () => {
    const account = await connected('tt_privacy_mismatch');
    // FOLLOWER_OF_CREATOR is offered to private accounts only; this one is public.
    const error = await platformError(tiktok.publishing.createContainer(account, video('FOLLOWER_OF_CREATOR')));
    expect(error).toMatchObject({ kind: 'invalid_request', detail: { code: 'privacy_level_option_mismatch' } });
    expect(error.detail.platformMessage).toContain('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY');
    expect((await sandbox.control('GET', '/users/tiktok/tt_privacy_mismatch')).body.posts).toHaveLength(3);
    // TikTok itself refuses it too.
    const init = await raw('POST', '/v2/post/publish/video/init/', {
      bearer: account.accessToken,
      json: {
        post_info: { title: 'x', privacy_level: 'FOLLOWER_OF_CREATOR', brand_content_toggle: false },
        source_info: { source: 'PULL_FROM_URL', video_url: VIDEO },
      },
    });
    expect(init).toMatchObject({ status: 403, body: { error: { code: 'privacy_level_option_mismatch' } } });
  });

  it('a private account is offered its own privacy levels: followers, friends or only me, never everyone', async () => {
    const account = await privateUser('tt_private_account');
    const { containerId } = await tiktok.publishing.createContainer(
      account,
      video('FOLLOWER_OF_CREATOR', 'For my followers'),
    );
    expect(containerId).toMatch(/^FOLLOWER_OF_CREATOR:/);
    const everyone = await platformError(tiktok.publishing.createContainer(account, video('PUBLIC_TO_EVERYONE')));
    expect(everyone).toMatchObject({ kind: 'invalid_request', detail: { code: 'privacy_level_option_mismatch' } });
    expect(everyone.detail.platformMessage).toContain('FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY');
    // TikTok itself refuses it too.
    const init = await raw('POST', '/v2/post/publish/video/init/', {
      bearer: account.accessToken,
      json: {
        post_info: { title: 'x', privacy_level: 'PUBLIC_TO_EVERYONE', brand_content_toggle: false },
        source_info: { source: 'PULL_FROM_URL', video_url: VIDEO },
      },
    });
    expect(init).toMatchObject({ status: 403, body: { error: { code: 'privacy_level_option_mismatch' } } });
    // Query Creator Info reference: duets and stitches are off for private accounts.
    advanceClock(PROCESSING_DONE_MS);
    expect(await tiktok.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    const [published] = (await sandbox.control('GET', '/activity/tiktok/tt_private_account')).body.data;
    expect(published.detail.options).toMatchObject({
      privacy_level: 'FOLLOWER_OF_CREATOR',
      disable_comment: false,
      disable_duet: true,
      disable_stitch: true,
    });
  });

  it('an unaudited app posts SELF_ONLY only, to private accounts only, for at most 5 users a day', async () => {
    await setSetting('tiktok_client_audit', 'unaudited');
    try {
      // A day later than every other post in this sandbox, so only this test's users count.
      advanceClock(2 * DAY);
      // A public account is refused whatever the post's privacy ("Unaudited clients can only
      // post to a private account", Direct Post reference); nothing counts toward the 5 users.
      const open = await connected('tt_unaudited_public');
      for (const privacy of ['PUBLIC_TO_EVERYONE', 'SELF_ONLY']) {
        const refused = await platformError(tiktok.publishing.createContainer(open, video(privacy)));
        expect(refused).toMatchObject({
          kind: 'invalid_request',
          detail: { status: 403, code: 'unaudited_client_can_only_post_to_private_accounts' },
        });
      }
      const users = [];
      for (let n = 1; n <= 6; n += 1) users.push(await privateUser(`tt_unaudited_${n}`));
      const [first, , , , , sixth] = users;
      if (first === undefined || sixth === undefined) throw new Error('no users');
      // "Unaudited API Clients can only post contents in SELF_ONLY viewership."
      const followersPost = await platformError(tiktok.publishing.createContainer(first, video('FOLLOWER_OF_CREATOR')));
      expect(followersPost).toMatchObject({
        kind: 'invalid_request',
        detail: { status: 403, code: 'unaudited_client_can_only_post_to_private_accounts' },
      });
      for (const user of users.slice(0, 5)) await tiktok.publishing.createContainer(user, video('SELF_ONLY'));
      const capped = await platformError(tiktok.publishing.createContainer(sixth, video('SELF_ONLY')));
      expect(capped).toMatchObject({
        kind: 'rate_limited',
        detail: { status: 403, code: 'reached_active_user_cap', retryAfterSeconds: 3600 },
      });
      expect(capped.detail.platformMessage).toBeTruthy();
      // A user already posting today keeps its slot.
      expect((await tiktok.publishing.createContainer(first, video('SELF_ONLY'))).containerId).toMatch(/^SELF_ONLY:/);
    } finally {
      await setSetting('tiktok_client_audit', 'audited');
    }
  });

  it('PULL_FROM_URL from a URL the app did not verify: url_ownership_unverified', async () => {
    const account = await connected('tt_unverified_url');
    await setSetting('tiktok_verified_url_prefixes', `${media.origin}/videos/`);
    try {
      for (const url of [VIDEO, media.url('/videos/clip.mp4').replace('127.0.0.1', '127.0.0.1.evil.test')]) {
        const error = await platformError(
          tiktok.publishing.createContainer(account, { ...video('SELF_ONLY'), media: [{ type: 'video', url }] }),
        );
        expect(error).toMatchObject({
          kind: 'invalid_request',
          detail: { status: 403, code: 'url_ownership_unverified' },
        });
      }
      const verified = await tiktok.publishing.createContainer(account, {
        ...video('SELF_ONLY'),
        media: [{ type: 'video', url: media.url('/videos/clip.mp4') }],
      });
      expect(verified.containerId).toMatch(/^SELF_ONLY:/);
    } finally {
      await setSetting('tiktok_verified_url_prefixes', '*');
    }
  });

  it("spam_risk answers: the creator's daily cap is a wait, a ban or a post judged spam is not", async () => {
    const account = await connected('tt_spam_risk');
    const cases = [
      ['spam_risk_too_many_posts', 'rate_limited', 3600],
      ['spam_risk_too_many_pending_share', 'rate_limited', 3600],
      ['spam_risk_user_banned_from_posting', 'invalid_request', undefined],
      ['spam_risk_text', 'invalid_request', undefined],
    ] as const;
    for (const [code, kind, retryAfterSeconds] of cases) {
      const set = await sandbox.control('POST', '/faults', {
        platform: 'tiktok',
        username: 'tt_spam_risk',
        trigger: 'publish',
        error: 'custom',
        status: 403,
        body: { data: {}, error: { code, message: `TikTok says ${code}`, log_id: '20260101000000ABC' } },
      });
      expect(set.status).toBe(201);
      const error = await platformError(tiktok.publishing.createContainer(account, video('SELF_ONLY')));
      expect(error.kind).toBe(kind);
      expect(error.detail).toMatchObject({ status: 403, code, platformMessage: `TikTok says ${code}` });
      expect(error.detail.retryAfterSeconds).toBe(retryAfterSeconds);
    }
  });

  it('posting without video.publish: permission_missing', async () => {
    const account = await connected('tt_publish_noscope', ['user.info.basic']);
    const error = await platformError(tiktok.publishing.createContainer(account, video('PUBLIC_TO_EVERYONE')));
    expect(error).toMatchObject({
      kind: 'permission_missing',
      detail: { code: 'scope_not_authorized', missingScopes: ['video.publish'] },
    });
  });
});

describe('tiktok: every error class', () => {
  it('a fault set for the next call answers that error once, classified', async () => {
    const account = await connected('tt_faults');
    const cases = [
      // TikTok cannot tell a revoked token from an expired one: both are access_token_invalid.
      ['token_expired', 'token_expired', 'access_token_invalid', 401],
      ['access_revoked', 'token_expired', 'access_token_invalid', 401],
      ['permission_missing', 'permission_missing', 'scope_not_authorized', 401],
      ['rate_limited', 'rate_limited', 'rate_limit_exceeded', 429],
      ['transient', 'transient', 'internal_error', 500],
      ['invalid_request', 'invalid_request', 'invalid_params', 400],
    ] as const;
    for (const [preset, kind, code, status] of cases) {
      await fault('tt_faults', preset);
      const error = await platformError(tiktok.publishing.createContainer(account, video('PUBLIC_TO_EVERYONE')));
      expect(error.kind).toBe(kind);
      expect(error.detail).toMatchObject({ platform: 'tiktok', code, status });
      expect(error.detail.platformMessage).toBeTruthy();
      if (kind === 'rate_limited') expect(error.detail.retryAfterSeconds).toBe(60);
    }
    expect((await tiktok.profile(account)).username).toBe('tt_faults');
  });

  it('faults reach the profile read too (token_expired is not taken for a missing scope)', async () => {
    const account = await connected('tt_profile_fault');
    await fault('tt_profile_fault', 'token_expired');
    expect((await platformError(tiktok.profile(account))).kind).toBe('token_expired');
    await fault('tt_profile_fault', 'rate_limited');
    expect((await platformError(tiktok.profile(account))).kind).toBe('rate_limited');
    expect((await tiktok.profile(account)).followersCount).toBeGreaterThan(0);
  });

  it('a publish fault waits for the video init and leaves other calls alone', async () => {
    const account = await connected('tt_publish_fault');
    await fault('tt_publish_fault', 'transient', 'publish');
    expect((await tiktok.profile(account)).username).toBe('tt_publish_fault');
    const error = await platformError(tiktok.publishing.createContainer(account, video('PUBLIC_TO_EVERYONE')));
    expect(error).toMatchObject({ kind: 'transient', detail: { code: 'internal_error' } });
    const { containerId } = await tiktok.publishing.createContainer(account, video('PUBLIC_TO_EVERYONE'));
    expect((await tiktok.publishing.containerStatus(account, containerId)).state).toBe('in_progress');
  });

  it('a throttled user gets rate_limited with the wait from Retry-After, until the throttle ends', async () => {
    const account = await connected('tt_throttle');
    await sandbox.control('POST', '/throttle', { platform: 'tiktok', username: 'tt_throttle', seconds: 300 });
    const error = await platformError(tiktok.profile(account));
    expect(error).toMatchObject({ kind: 'rate_limited', detail: { status: 429, retryAfterSeconds: 300 } });
    advanceClock(301_000);
    expect((await tiktok.profile(account)).username).toBe('tt_throttle');
  });

  it('expired tokens: calls and the refresh answer token_expired', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_expire');
    const ended = await sandbox.control('POST', '/tokens/expire', { platform: 'tiktok', username: 'tt_expire' });
    expect(ended.body.tokens).toBe(2);
    expect((await platformError(tiktok.profile(tokens))).detail).toMatchObject({ code: 'access_token_invalid' });
    expect((await platformError(tiktok.refreshToken(tokens))).kind).toBe('token_expired');
  });

  it('revoked tokens look expired too: token_expired', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_revoke');
    await sandbox.control('POST', '/tokens/revoke', { platform: 'tiktok', username: 'tt_revoke' });
    expect((await platformError(tiktok.profile(tokens))).kind).toBe('token_expired');
    expect((await platformError(tiktok.refreshToken(tokens))).kind).toBe('token_expired');
  });

  it('transient when TikTok cannot be reached', async () => {
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    });
    const error = await platformError(offline.adapter('tiktok').profile(NO_TOKEN));
    expect(error).toMatchObject({ kind: 'transient', detail: { platform: 'tiktok' } });
  });

  it('comments, replies, hiding, insights and pages are unsupported, without a call', async () => {
    expect(tiktok.comments).toBeUndefined();
    expect(tiktok.insights).toBeUndefined();
    expect(tiktok.pages).toBeUndefined();
    const calls: (() => Promise<unknown>)[] = [
      () => commentsOf(tiktok).recentComments(NO_TOKEN),
      () => commentsOf(tiktok).reply(NO_TOKEN, '1', 'hi'),
      () => commentsOf(tiktok).setHidden(NO_TOKEN, '1', true),
      () => insightsOf(tiktok).accountInsights(NO_TOKEN, ['2025-01-01'], ['views']),
      () => insightsOf(tiktok).postInsights(NO_TOKEN, '1', ['views']),
    ];
    for (const call of calls) {
      expect(await platformError(Promise.resolve().then(call))).toMatchObject({
        kind: 'unsupported',
        detail: { platform: 'tiktok' },
      });
    }
  });
});

describe('tiktok: the sandbox answers as TikTok documents', () => {
  it('token endpoint: the grant, and OAuth errors {error, error_description, log_id}', async () => {
    const code = (await sandbox.authorize('tiktok', { username: 'tt_raw_token' })).get('code') as string;
    const form = { ...CLIENT_FORM, code, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI };
    const answer = await raw('POST', '/v2/oauth/token/', { form });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ['access_token', 'expires_in', 'open_id', 'refresh_expires_in', 'refresh_token', 'scope', 'token_type'].sort(),
    );
    expect(answer.body).toMatchObject({
      open_id: await accountId('tt_raw_token'),
      scope: 'user.info.basic,user.info.profile,user.info.stats,video.list,video.publish',
      // "Access token 2 hours", "Refresh token 180 days", both in seconds.
      expires_in: 7200,
      refresh_expires_in: 15_552_000,
      token_type: 'Bearer',
    });

    const used = await raw('POST', '/v2/oauth/token/', { form });
    expect(used.status).toBe(400);
    expect(Object.keys(used.body).sort()).toEqual(['error', 'error_description', 'log_id']);
    expect(used.body.error).toBe('invalid_grant');

    const missing = await raw('POST', '/v2/oauth/token/', { form: { ...CLIENT_FORM, grant_type: 'refresh_token' } });
    expect(missing.body.error).toBe('invalid_request');
    const badGrant = await raw('POST', '/v2/oauth/token/', { form: { ...CLIENT_FORM, grant_type: 'password' } });
    expect(badGrant.body.error).toBe('invalid_request');

    // A refresh token is no access token.
    const misuse = await raw('GET', '/v2/user/info/?fields=open_id', { bearer: answer.body.refresh_token });
    expect(misuse).toMatchObject({ status: 401, body: { error: { code: 'access_token_invalid' } } });
  });

  it('user info: only the asked fields in data.user, error.code "ok"; a field beyond the scopes is refused', async () => {
    const account = await connected('tt_raw_user', ['user.info.basic', 'user.info.profile']);
    const answer = await raw('GET', '/v2/user/info/?fields=open_id,display_name,username', {
      bearer: account.accessToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { user: { open_id: account.platformUserId, display_name: 'Tt Raw User', username: 'tt_raw_user' } },
      error: { code: 'ok', message: '', log_id: expect.stringMatching(/^\d{14}[0-9A-F]+$/) },
    });
    const stats = await raw('GET', '/v2/user/info/?fields=open_id,follower_count', { bearer: account.accessToken });
    expect(stats.status).toBe(401);
    expect(stats.body).toEqual({
      data: {},
      error: { code: 'scope_not_authorized', message: expect.any(String), log_id: expect.any(String) },
    });
    const unknown = await raw('GET', '/v2/user/info/?fields=open_id,shoe_size', { bearer: account.accessToken });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    const noFields = await raw('GET', '/v2/user/info/', { bearer: account.accessToken });
    expect(noFields).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    const noToken = await raw('GET', '/v2/user/info/?fields=open_id');
    expect(noToken).toMatchObject({ status: 401, body: { data: {}, error: { code: 'access_token_invalid' } } });
  });

  it('rate limit answers carry Retry-After', async () => {
    const account = await connected('tt_raw_throttle');
    await sandbox.control('POST', '/throttle', { platform: 'tiktok', username: 'tt_raw_throttle', seconds: 90 });
    const answer = await raw('GET', '/v2/user/info/?fields=open_id', { bearer: account.accessToken });
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('90');
    expect(answer.body.error.code).toBe('rate_limit_exceeded');
  });

  it('creator info, video init and status fetch', async () => {
    const account = await connected('tt_raw_post');
    const bearer = account.accessToken;
    // TikTok's reference: no body, but Content-Type: application/json; charset=UTF-8 all the same.
    const untyped = await raw('POST', '/v2/post/publish/creator_info/query/', { bearer });
    expect(untyped).toMatchObject({ status: 400, body: { error: { code: 'invalid_params' } } });
    const creator = await raw('POST', '/v2/post/publish/creator_info/query/', {
      bearer,
      contentType: 'application/json; charset=UTF-8',
    });
    expect(creator.status).toBe(200);
    expect(creator.body.data).toEqual({
      creator_avatar_url: expect.stringMatching(/^https:\/\//),
      creator_username: 'tt_raw_post',
      creator_nickname: 'Tt Raw Post',
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: false,
      duet_disabled: false,
      stitch_disabled: false,
      max_video_post_duration_sec: 600,
    });
    expect(creator.body.error.code).toBe('ok');

    const post = (privacy: string, source = 'PULL_FROM_URL') =>
      raw('POST', '/v2/post/publish/video/init/', {
        bearer,
        json: {
          post_info: { title: 'Raw', privacy_level: privacy, brand_content_toggle: false },
          source_info: { source, video_url: VIDEO },
        },
      });
    // The Direct Post reference marks brand_content_toggle required: a bool.
    for (const brand of [
      {},
      { brand_content_toggle: 'false' },
      { brand_content_toggle: false, brand_organic_toggle: 1 },
    ]) {
      const undisclosed = await raw('POST', '/v2/post/publish/video/init/', {
        bearer,
        json: {
          post_info: { title: 'Raw', privacy_level: 'SELF_ONLY', ...brand },
          source_info: { source: 'PULL_FROM_URL', video_url: VIDEO },
        },
      });
      expect(undisclosed).toMatchObject({ status: 400, body: { data: {}, error: { code: 'invalid_params' } } });
    }
    const badPrivacy = await post('EVERYONE_AND_THEIR_DOG');
    expect(badPrivacy).toMatchObject({ status: 403, body: { error: { code: 'privacy_level_option_mismatch' } } });
    expect((await post('PUBLIC_TO_EVERYONE', 'FILE_UPLOAD')).body.error.code).toBe('invalid_params');
    const init = await post('PUBLIC_TO_EVERYONE');
    expect(init.status).toBe(200);
    expect(Object.keys(init.body.data)).toEqual(['publish_id']);
    expect(init.body.error.code).toBe('ok');

    const fetch = () => raw('POST', '/v2/post/publish/status/fetch/', { bearer, json: init.body.data });
    const processing = await fetch();
    expect(processing.body).toMatchObject({
      data: { status: 'PROCESSING_DOWNLOAD', publicaly_available_post_id: [], uploaded_bytes: 0 },
      error: { code: 'ok' },
    });
    advanceClock(PROCESSING_DONE_MS);
    // Complete, but a public post's id waits for moderation.
    expect((await fetch()).body.data).toMatchObject({ status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [] });
    advanceClock(MODERATION_DONE_MS);
    const done = await fetch();
    expect(done.body.data).toMatchObject({
      status: 'PUBLISH_COMPLETE',
      // int64 numbers, as TikTok sends them (JSON.parse here rounds them; the adapter does not).
      publicaly_available_post_id: [expect.any(Number)],
      uploaded_bytes: expect.any(Number),
    });
    expect((await fetch()).body.data.publicaly_available_post_id).toEqual(done.body.data.publicaly_available_post_id);

    const unknown = await raw('POST', '/v2/post/publish/status/fetch/', {
      bearer,
      json: { publish_id: 'v_pub_url~v2.123' },
    });
    expect(unknown.body.error.code).toBe('invalid_params');
    const other = await connected('tt_raw_other');
    const foreign = await raw('POST', '/v2/post/publish/status/fetch/', {
      bearer: other.accessToken,
      json: init.body.data,
    });
    expect(foreign.body.error.code).toBe('invalid_params');
  });

  it("creator_info of a private account: TikTok's private options, duets and stitches off", async () => {
    const account = await privateUser('tt_raw_private');
    const creator = await raw('POST', '/v2/post/publish/creator_info/query/', {
      bearer: account.accessToken,
      json: {},
    });
    expect(creator.status).toBe(200);
    expect(creator.body.data).toEqual({
      creator_avatar_url: expect.stringMatching(/^https:\/\//),
      creator_username: 'tt_raw_private',
      creator_nickname: 'Tt Raw Private',
      privacy_level_options: ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: false,
      duet_disabled: true,
      stitch_disabled: true,
      max_video_post_duration_sec: 600,
    });
  });

  it("creator_info's max_video_post_duration_sec is the setting's; a longer video fails with duration_check_failed", async () => {
    const account = await connected('tt_raw_duration');
    const bearer = account.accessToken;
    await setSetting('tiktok_max_video_post_duration_sec', 10);
    try {
      const creator = await raw('POST', '/v2/post/publish/creator_info/query/', { bearer, json: {} });
      expect(creator.body.data.max_video_post_duration_sec).toBe(10);
      const init = async (path: string) => {
        const answer = await raw('POST', '/v2/post/publish/video/init/', {
          bearer,
          json: {
            post_info: { title: path, privacy_level: 'SELF_ONLY', brand_content_toggle: false },
            source_info: { source: 'PULL_FROM_URL', video_url: media.url(path) },
          },
        });
        expect(answer.status).toBe(200);
        return answer.body.data;
      };
      const long = await init('/twenty-seconds.mp4');
      const atTheLimit = await init('/ten-seconds.mp4');
      advanceClock(PROCESSING_DONE_MS);
      const status = async (data: unknown) =>
        (await raw('POST', '/v2/post/publish/status/fetch/', { bearer, json: data })).body.data;
      // Status reference: "Video does not meet our duration restrictions."
      expect(await status(long)).toMatchObject({ status: 'FAILED', fail_reason: 'duration_check_failed' });
      expect(await status(atTheLimit)).toMatchObject({ status: 'PUBLISH_COMPLETE' });
    } finally {
      await setSetting('tiktok_max_video_post_duration_sec', 600);
    }
  });

  it('revokeAccess: TikTok confirms, every token of the grant stops working, the sandbox logs it', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_revoke_access');
    await tiktok.revokeAccess(tokens);
    expect((await platformError(tiktok.profile(tokens))).kind).toBe('token_expired');
    expect((await platformError(tiktok.refreshToken(tokens))).kind).toBe('token_expired');
    const activity = await sandbox.control('GET', '/activity/tiktok/tt_revoke_access');
    expect(activity.body.data).toEqual([
      expect.objectContaining({
        action: 'revoke',
        target_id: tokens.platformUserId,
        detail: { client_key: 'switchboard-sandbox', tokens: 2 },
      }),
    ]);
    // Nothing left to revoke: still confirmed, and nothing more logged.
    await tiktok.revokeAccess(tokens);
    expect((await sandbox.control('GET', '/activity/tiktok/tt_revoke_access')).body.data).toHaveLength(1);
  });

  it('revokeAccess: a failure is classified (TikTok unreachable, an OAuth refusal)', async () => {
    const offline = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
    }).adapter('tiktok');
    expect((await platformError(offline.revokeAccess(NO_TOKEN))).kind).toBe('transient');
    const refused = await platformError(tiktok.revokeAccess({ platformUserId: '1', accessToken: '' }));
    expect(refused).toMatchObject({ kind: 'invalid_request', detail: { status: 400, code: 'invalid_request' } });
  });

  it('revoke answers {} and ends every token of that user for the app', async () => {
    const tokens = await sandbox.connect('tiktok', 'tt_raw_revoke');
    const answer = await raw('POST', '/v2/oauth/revoke/', { form: { ...CLIENT_FORM, token: tokens.accessToken } });
    expect(answer).toMatchObject({ status: 200, body: {} });
    expect((await platformError(tiktok.profile(tokens))).kind).toBe('token_expired');
    expect((await platformError(tiktok.refreshToken(tokens))).kind).toBe('token_expired');
    const again = await raw('POST', '/v2/oauth/revoke/', { form: { ...CLIENT_FORM, token: tokens.accessToken } });
    expect(again).toMatchObject({ status: 200, body: {} });
    const missing = await raw('POST', '/v2/oauth/revoke/', { form: CLIENT_FORM });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});
