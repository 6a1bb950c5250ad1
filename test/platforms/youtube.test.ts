import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import { projectUnits } from '../../src/modules/posts/index.ts';
import { untilMidnightPacific } from '../../src/platforms/google/errors.ts';
import {
  type AccountCredentials,
  createPlatforms,
  type PlatformAdapter,
  PlatformError,
  type TokenSet,
} from '../../src/platforms/index.ts';
import {
  commentsOf,
  insightsOf,
  pagesOf,
  platformError,
  REDIRECT_URI,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { MEDIA_FILES, type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let youtube: PlatformAdapter;
let media: MediaServer;

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer();
  youtube = sandbox.adapter('youtube');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';
const ANALYTICS = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const ALL_SCOPES = [UPLOAD, FORCE_SSL, ANALYTICS];
/** "expires_in": 3599 in Google's token answers. */
const HOUR_LESS_A_SECOND = 3599_000;

async function login(username: string, granted?: string[]): Promise<TokenSet> {
  return sandbox.connect('youtube', username, granted);
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the control API's JSON field by field.
async function googleUser(username: string): Promise<any> {
  return (await sandbox.control('GET', `/users/youtube/${username}`)).body;
}

async function fault(username: string, body: Record<string, unknown>) {
  expect((await sandbox.control('POST', '/faults', { platform: 'youtube', username, ...body })).status).toBe(201);
}

/** A token's life, from the instants before and after it was given (the clock runs meanwhile). */
function lifetimeWithin(end: Date | null | undefined, before: number, after: number, expected: number): void {
  expect(end).toBeInstanceOf(Date);
  const at = (end as Date).getTime();
  expect(at - after).toBeLessThanOrEqual(expected);
  expect(at - before).toBeGreaterThanOrEqual(expected);
}

describe('youtube: sign-in and channels', () => {
  it("builds Google's authorization URL: offline access, consent shown, the YouTube scopes space separated", () => {
    const url = new URL(youtube.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.pathname).toBe('/sandbox/accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'switchboard-sandbox',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: ALL_SCOPES.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'false',
      state: 's 1',
    });
    expect(youtube.scopes.required).toEqual([FORCE_SSL]);
  });

  it('Cancel comes back with error=access_denied and the state', async () => {
    const params = await sandbox.authorize('youtube', { username: 'yt_cancel', cancel: true, state: 'xyz' });
    expect(Object.fromEntries(params)).toEqual({ error: 'access_denied', state: 'xyz' });
    expect(youtube.parseCallback(Object.fromEntries(params))).toMatchObject({
      outcome: 'denied',
      error: 'access_denied',
      state: 'xyz',
    });
  });

  it("a login: an access token of an hour, a refresh token without an end, the granted scopes, and the user's channels", async () => {
    const before = now().getTime();
    const tokens = await login('yt_user');
    const after = now().getTime();
    expect(tokens.scopes).toEqual(ALL_SCOPES);
    lifetimeWithin(tokens.expiresAt, before, after, HOUR_LESS_A_SECOND);
    expect(tokens.refreshToken).toBeTypeOf('string');
    expect(tokens.refreshExpiresAt).toBeNull();

    const user = await googleUser('yt_user');
    expect(user.pages).toHaveLength(1);
    const channels = await pagesOf(youtube)(tokens);
    expect(channels).toEqual(
      user.pages.map((p: { id: string; name: string; avatar_url: string | null }) => ({
        id: p.id,
        name: p.name,
        avatarUrl: p.avatar_url,
        // Acted on with the login's token: Google has no token per channel.
        accessToken: null,
        instagramBusinessAccountId: null,
      })),
    );
    // A channel id: UC and 22 letters, digits, - or _.
    for (const channel of channels) expect(channel.id).toMatch(/^UC[A-Za-z0-9_-]{22}$/);

    const [first] = user.pages;
    const profile = await youtube.profile({ platformUserId: first.id, accessToken: tokens.accessToken });
    expect(profile).toEqual({
      id: first.id,
      // The channel's handle (customUrl), with its @.
      username: `@${first.username}`,
      name: first.name,
      avatarUrl: first.avatar_url,
      followersCount: first.followers_count,
    });
  });

  it('a login without youtube.force-ssl lacks the required scope, and its channels are refused (403 insufficientPermissions)', async () => {
    const tokens = await login('yt_upload_only', [UPLOAD]);
    expect(tokens.scopes).toEqual([UPLOAD]);
    const error = await platformError(pagesOf(youtube)(tokens));
    expect(error.kind).toBe('permission_missing');
    expect(error.detail).toMatchObject({ status: 403, code: 'insufficientPermissions' });
  });

  it('a refresh gives a new access token of an hour and keeps the refresh token', async () => {
    const tokens = await login('yt_refresh');
    advanceClock(50 * 60_000);
    const before = now().getTime();
    const fresh = await youtube.refreshToken({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken as string,
      platformUserId: 'UCxxxxxxxxxxxxxxxxxxxxxx',
    });
    const after = now().getTime();
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    lifetimeWithin(fresh.expiresAt, before, after, HOUR_LESS_A_SECOND);
    expect(fresh.refreshToken).toBe(tokens.refreshToken);
    expect(fresh.platformUserId).toBe('UCxxxxxxxxxxxxxxxxxxxxxx');
    expect(fresh.scopes).toEqual(ALL_SCOPES);
    // The new token reads the channels; the old one has an hour's end of its own.
    expect(await pagesOf(youtube)({ platformUserId: '', accessToken: fresh.accessToken })).toHaveLength(1);
  });

  it('an access token past its hour is refused as expired (401 authError)', async () => {
    const tokens = await login('yt_hour');
    advanceClock(3600_000);
    const error = await platformError(pagesOf(youtube)(tokens));
    expect(error.kind).toBe('token_expired');
    expect(error.detail).toMatchObject({ status: 401, code: 'authError' });
  });

  it('a refresh token the user revoked is invalid_grant: token_expired, the account to be reconnected', async () => {
    const tokens = await login('yt_revoked');
    expect(
      (await sandbox.control('POST', '/tokens/revoke', { platform: 'youtube', username: 'yt_revoked' })).status,
    ).toBe(200);
    const error = await platformError(
      youtube.refreshToken({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, platformUserId: '' }),
    );
    expect(error.kind).toBe('token_expired');
    expect(error.detail).toMatchObject({
      status: 400,
      code: 'invalid_grant',
      platformMessage: 'Token has been expired or revoked.',
    });
  });

  it('a code used twice is invalid_grant', async () => {
    const params = await sandbox.authorize('youtube', { username: 'yt_code_twice' });
    const code = params.get('code') as string;
    await youtube.exchangeCode(code, REDIRECT_URI);
    const error = await platformError(youtube.exchangeCode(code, REDIRECT_URI));
    expect(error.detail).toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('a passing failure of the token endpoint is transient', async () => {
    const tokens = await login('yt_refresh_503');
    await fault('yt_refresh_503', { error: 'transient', trigger: 'refresh' });
    const error = await platformError(
      youtube.refreshToken({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, platformUserId: '' }),
    );
    expect(error.kind).toBe('transient');
    expect(error.detail).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
  });

  it('revoking one channel is refused: it would end the Google login’s whole grant, its other channels too', async () => {
    const tokens = await login('yt_profile_gone');
    const error = await platformError(youtube.revokeAccess({ platformUserId: 'UC1', accessToken: tokens.accessToken }));
    expect(error.kind).toBe('unsupported');
  });
});

describe("youtube: Google's errors", () => {
  it("a spent daily quota (403 quotaExceeded) is rate_limited until midnight Pacific Time, when Google's quotas reset", async () => {
    const tokens = await login('yt_quota');
    await fault('yt_quota', {
      error: 'custom',
      status: 403,
      body: {
        error: {
          code: 403,
          message:
            'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
          errors: [{ message: 'quota exceeded', domain: 'youtube.quota', reason: 'quotaExceeded' }],
          status: 'PERMISSION_DENIED',
        },
      },
    });
    const error = await platformError(pagesOf(youtube)(tokens));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail.code).toBe('quotaExceeded');
    // The wait ends at a midnight in Los Angeles.
    const end = new Date(now().getTime() + (error.detail.retryAfterSeconds as number) * 1000);
    const clock = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
    }).format(end);
    expect(['00:00', '23:59']).toContain(clock);
  });

  it('counts to midnight Pacific Time in winter (UTC-8) and in summer (UTC-7)', () => {
    // 03:00 UTC on 25 November is 19:00 PST the day before: five hours to go.
    expect(untilMidnightPacific(new Date('2026-11-25T03:00:00Z'))).toBe(5 * 3600);
    // 12:00 UTC on 1 July is 05:00 PDT: nineteen hours to go.
    expect(untilMidnightPacific(new Date('2026-07-01T12:00:00Z'))).toBe(19 * 3600);
  });

  it('a short-term rate limit (403 rateLimitExceeded) is rate_limited with a wait', async () => {
    const tokens = await login('yt_rate');
    await fault('yt_rate', { error: 'rate_limited' });
    const error = await platformError(pagesOf(youtube)(tokens));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail).toMatchObject({ status: 403, code: 'rateLimitExceeded' });
    expect(error.detail.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("Google's backend errors are transient, a bad parameter invalid_request", async () => {
    const tokens = await login('yt_backend');
    await fault('yt_backend', { error: 'transient' });
    expect((await platformError(pagesOf(youtube)(tokens))).kind).toBe('transient');
    await fault('yt_backend', { error: 'invalid_request' });
    const bad = await platformError(pagesOf(youtube)(tokens));
    expect(bad.kind).toBe('invalid_request');
    expect(bad.detail).toMatchObject({ status: 400, code: 'badRequest' });
  });
});

/** The sandbox's record of the videos the channel received through the API. */
async function published(username: string): Promise<{ target_id: string; detail: Record<string, unknown> }[]> {
  const { body } = await sandbox.control('GET', `/activity/youtube/${username}`);
  return body.data.filter((a: { action: string }) => a.action === 'publish');
}

/** The login's channel, as the account the service stores: the channel's id, the login's token. */
async function channelOf(username: string, granted?: string[]): Promise<AccountCredentials> {
  const tokens = await login(username, granted);
  const [channel] = await pagesOf(youtube)(tokens);
  if (channel === undefined) throw new Error('no channel');
  return { platformUserId: channel.id, accessToken: tokens.accessToken };
}

const CLIP_BYTES = MEDIA_FILES['/clip.mp4']?.body.length as number;
/** What the service gives each read of an upload: the video at a URL signed then. */
const GIVEN = () => ({ mediaUrls: async () => [media.url('/clip.mp4')] });
const VIDEO_POST = (url: string) => ({
  text: 'What we made this week',
  media: [{ type: 'video' as const, url, durationSeconds: 4 }],
  options: { title: 'Our week', made_for_kids: false, privacy: 'unlisted', tags: ['agency', 'behind the scenes'] },
});

describe('youtube: publishing a video', () => {
  it('starts a resumable session with the metadata and no byte, then uploads, follows processing, and gives the watch URL', async () => {
    const credentials = await channelOf('yt_publisher');
    const { containerId } = await youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4')));
    // The session is made; nothing is on the channel until its bytes arrive.
    expect(await published('yt_publisher')).toEqual([]);

    const first = await youtube.publishing.containerStatus(credentials, containerId, GIVEN());
    expect(first.state).toBe('in_progress');
    const [upload] = await published('yt_publisher');
    expect(upload?.detail).toMatchObject({
      text: 'What we made this week',
      type: 'VIDEO',
      bytes: CLIP_BYTES,
      content_type: 'video/mp4',
      options: {
        title: 'Our week',
        tags: ['agency', 'behind the scenes'],
        privacy_status: 'unlisted',
        self_declared_made_for_kids: false,
        notify_subscribers: true,
      },
    });
    // Processed a few seconds after the upload (the sandbox's container_processing_seconds).
    advanceClock(10_000);
    expect(await youtube.publishing.containerStatus(credentials, containerId, GIVEN())).toEqual({ state: 'published' });
    const post = await youtube.publishing.findPublished(credentials, containerId);
    expect(post).toEqual({ id: upload?.target_id, permalink: `https://www.youtube.com/watch?v=${upload?.target_id}` });
    expect(await published('yt_publisher')).toHaveLength(1);
  });

  it('after a crash mid-upload, asks the session what arrived and sends only the rest: one video', async () => {
    const credentials = await channelOf('yt_crash');
    const { containerId } = await youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4')));
    const session = JSON.parse(containerId).session as string;
    // The first 1,000 bytes went before the process died.
    const clip = MEDIA_FILES['/clip.mp4']?.body as Buffer;
    const part = await request(session, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${credentials.accessToken}`,
        'content-type': 'video/mp4',
        'content-range': `bytes 0-999/${CLIP_BYTES}`,
      },
      body: clip.subarray(0, 1000),
    });
    await part.body.dump();
    expect(part.statusCode).toBe(308);
    expect(part.headers.range).toBe('bytes=0-999');

    expect((await youtube.publishing.containerStatus(credentials, containerId, GIVEN())).state).toBe('in_progress');
    // Asked again (a second run after another crash): the video is there, nothing is sent twice.
    expect((await youtube.publishing.containerStatus(credentials, containerId, GIVEN())).state).toBe('in_progress');
    const uploads = await published('yt_crash');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.detail.bytes).toBe(CLIP_BYTES);
    const post = await youtube.publishing.findPublished(credentials, containerId);
    expect(post).toMatchObject({ id: uploads[0]?.target_id });
  });

  it('keeps no media URL in the upload record: the bytes are read at the URL given at the read that sends them', async () => {
    const credentials = await channelOf('yt_fresh_url');
    const { containerId } = await youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4')));
    expect(Object.keys(JSON.parse(containerId)).sort()).toEqual(['contentType', 'privacy', 'session', 'size']);
    // A URL that no longer serves the file (an expired signature) is not used: the one given is.
    const state = await youtube.publishing.containerStatus(credentials, containerId, GIVEN());
    expect(state.state).toBe('in_progress');
    const [upload] = await published('yt_fresh_url');
    expect(upload?.detail.bytes).toBe(CLIP_BYTES);
    // Without one given, nothing is sent and the read fails for now.
    const again = await youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4')));
    await expect(youtube.publishing.containerStatus(credentials, again.containerId)).rejects.toMatchObject({
      kind: 'transient',
    });
  });

  it('a video with publishAt: uploaded private, public once the time passes; moved by videos.update, deleted by videos.delete', async () => {
    const credentials = await channelOf('yt_scheduled');
    const at = new Date(now().getTime() + 3_600_000).toISOString();
    const { containerId } = await youtube.publishing.createContainer(credentials, {
      ...VIDEO_POST(media.url('/clip.mp4')),
      options: { title: 'Later', made_for_kids: false },
      publishAt: at,
    });
    expect(JSON.parse(containerId).privacy).toBe('public');
    await youtube.publishing.containerStatus(credentials, containerId, { ...GIVEN(), publishAt: at });
    const [upload] = await published('yt_scheduled');
    expect(upload?.detail).toMatchObject({ options: { privacy_status: 'private', publish_at: at } });
    const id = upload?.target_id as string;
    advanceClock(10_000);
    // Processed, private until its time: YouTube publishes it then.
    expect(await youtube.publishing.containerStatus(credentials, containerId, { ...GIVEN(), publishAt: at })).toEqual({
      state: 'in_progress',
      publishesAt: at,
      message: `Uploaded to YouTube as private; YouTube makes it public at ${at}.`,
    });
    // The post moved an hour later: videos.update gives YouTube the new time, the video's other status values kept.
    const later = new Date(Date.parse(at) + 3_600_000).toISOString();
    expect(
      await youtube.publishing.containerStatus(credentials, containerId, { ...GIVEN(), publishAt: later }),
    ).toMatchObject({ state: 'in_progress', publishesAt: later });
    const video = async (token = credentials.accessToken) => {
      const res = await request(`${sandbox.url}/www.googleapis.com/youtube/v3/videos?part=status&id=${id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.body.json()) as { items: { status: Record<string, unknown> }[] }).items[0]?.status;
    };
    expect(await video()).toMatchObject({
      privacyStatus: 'private',
      publishAt: later,
      selfDeclaredMadeForKids: false,
      license: 'youtube',
      embeddable: true,
    });
    // A publishAt without private is refused, as the Videos resource says.
    const refused = await request(`${sandbox.url}/www.googleapis.com/youtube/v3/videos?part=status`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id, status: { privacyStatus: 'public', publishAt: later } }),
    });
    expect(refused.statusCode).toBe(400);
    expect(((await refused.body.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason).toBe(
      'invalidPublishAt',
    );
    // Past the new time: public, and published for the service.
    advanceClock(2 * 3_600_000 + 1000);
    // (a new access token: the first one lasted an hour)
    const fresh = await channelOf('yt_scheduled');
    expect(await video(fresh.accessToken)).toMatchObject({ privacyStatus: 'public' });
    expect(await youtube.publishing.containerStatus(fresh, containerId, GIVEN())).toEqual({ state: 'published' });
    // Published first: a withdrawal leaves it, answering so.
    expect(await youtube.publishing.withdraw?.(fresh, containerId)).toEqual({
      outcome: 'published',
      post: { id, permalink: `https://www.youtube.com/watch?v=${id}` },
    });
  });

  it('withdraws a video still waiting for its publishAt: videos.delete, and again it answers withdrawn (404 videoNotFound)', async () => {
    const credentials = await channelOf('yt_withdrawn');
    const at = new Date(now().getTime() + 3_600_000).toISOString();
    const { containerId } = await youtube.publishing.createContainer(credentials, {
      ...VIDEO_POST(media.url('/clip.mp4')),
      publishAt: at,
    });
    // Nothing uploaded yet: an unfinished session holds no video.
    expect(await youtube.publishing.withdraw?.(credentials, containerId)).toEqual({ outcome: 'incomplete' });
    await youtube.publishing.containerStatus(credentials, containerId, { ...GIVEN(), publishAt: at });
    expect(await youtube.publishing.withdraw?.(credentials, containerId)).toEqual({ outcome: 'withdrawn' });
    expect(await youtube.publishing.withdraw?.(credentials, containerId)).toEqual({ outcome: 'withdrawn' });
    const { body } = await sandbox.control('GET', '/activity/youtube/yt_withdrawn');
    expect(body.data.filter((a: { action: string }) => a.action === 'delete')).toHaveLength(1);
    const [upload] = await published('yt_withdrawn');
    const again = await request(`${sandbox.url}/www.googleapis.com/youtube/v3/videos?id=${upload?.target_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${credentials.accessToken}` },
    });
    expect(again.statusCode).toBe(404);
    expect(((await again.body.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason).toBe(
      'videoNotFound',
    );
  });

  it('an upload session whose bytes never came is not a published video', async () => {
    const credentials = await channelOf('yt_not_sent');
    const { containerId } = await youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4')));
    expect(await youtube.publishing.findPublished(credentials, containerId)).toBeNull();
  });

  it('a spent quota on videos.insert is rate_limited (403 quotaExceeded) and makes no session', async () => {
    const credentials = await channelOf('yt_no_quota');
    await fault('yt_no_quota', {
      error: 'custom',
      trigger: 'publish',
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'The request cannot be completed because you have exceeded your quota.',
          errors: [{ message: 'quota', domain: 'youtube.quota', reason: 'quotaExceeded' }],
        },
      },
    });
    const error = await platformError(
      youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4'))),
    );
    expect(error.kind).toBe('rate_limited');
    expect(error.detail.code).toBe('quotaExceeded');
    expect(await published('yt_no_quota')).toEqual([]);
  });

  it("the sandbox counts the project's upload sessions of the Pacific day and answers 403 quotaExceeded past its allowance, the youtube_daily_uploads setting", async () => {
    const credentials = await channelOf('yt_counted');
    const allowance = async (value: number) =>
      expect((await sandbox.control('PUT', '/settings/youtube_daily_uploads', { value })).status).toBe(200);
    const start = () => youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4')));
    try {
      // Spend an allowance of 20 (the sessions of the tests before count too).
      await allowance(20);
      for (let i = 0; i < 20; i += 1) {
        if (
          (await start().then(
            () => 'made',
            () => 'refused',
          )) === 'refused'
        )
          break;
      }
      const spent = await platformError(start());
      expect(spent.kind).toBe('rate_limited');
      expect(spent.detail.code).toBe('quotaExceeded');
      // One more allowed: exactly one more session, then refused again.
      await allowance(21);
      expect((await start()).containerId).toBeTruthy();
      expect((await platformError(start())).detail.code).toBe('quotaExceeded');
    } finally {
      await allowance(100);
    }
  });

  it('without a scope that may upload (youtube.upload or youtube.force-ssl) the session is refused as a missing permission', async () => {
    const { accessToken } = await login('yt_no_upload', [ANALYTICS]);
    const user = await googleUser('yt_no_upload');
    const credentials = { platformUserId: user.pages[0].id, accessToken };
    const error = await platformError(
      youtube.publishing.createContainer(credentials, VIDEO_POST(media.url('/clip.mp4'))),
    );
    expect(error.kind).toBe('permission_missing');
    expect(error.detail).toMatchObject({ status: 403, code: 'insufficientPermissions' });
  });
});

describe('youtube: what a video must be', () => {
  const video = [{ type: 'video' as const, durationSeconds: 30 }];
  const fields = (draft: Parameters<PlatformAdapter['publishing']['checkPublish']>[0]) =>
    youtube.publishing.checkPublish(draft).map((p) => p.field);
  const ok = { title: 'A title', made_for_kids: false };

  it('takes one video with a title and the made-for-kids declaration', () => {
    expect(fields({ text: 'hello', media: video, options: ok })).toEqual([]);
    expect(fields({ text: 'hello', media: video })).toEqual([
      'platforms.youtube.title',
      'platforms.youtube.made_for_kids',
    ]);
    expect(fields({ media: [{ type: 'image' }], options: ok })).toEqual(['media_ids']);
    expect(fields({ media: [...video, ...video], options: ok })).toEqual(['media_ids']);
  });

  it('a title of at most 100 characters without < or >', () => {
    expect(fields({ media: video, options: { ...ok, title: '😀'.repeat(100) } })).toEqual([]);
    expect(fields({ media: video, options: { ...ok, title: 'a'.repeat(101) } })).toEqual(['platforms.youtube.title']);
    expect(fields({ media: video, options: { ...ok, title: 'a <b>' } })).toEqual(['platforms.youtube.title']);
  });

  it('a description of at most 5,000 bytes (UTF-8) without < or >', () => {
    expect(fields({ text: 'é'.repeat(2500), media: video, options: ok })).toEqual([]);
    expect(fields({ text: `${'é'.repeat(2500)}a`, media: video, options: ok })).toEqual(['text']);
    expect(fields({ text: '1 < 2', media: video, options: ok })).toEqual(['text']);
  });

  it('tags of at most 500 characters in all, commas counted, a tag with a space with its quotes', () => {
    // 50 tags of 9 characters and 49 commas: 499; a tag 'a b c d e' in place of one counts 11 with its quotes: 501.
    const tags = Array.from({ length: 50 }, (_, i) => `tag${String(i).padStart(6, '0')}`);
    expect(fields({ media: video, options: { ...ok, tags } })).toEqual([]);
    expect(fields({ media: video, options: { ...ok, tags: [...tags.slice(1), 'a b c d e'] } })).toEqual([
      'platforms.youtube.tags',
    ]);
  });
});

describe('youtube: comments', () => {
  it("reads the comment threads of the channel's recent uploads, with their replies, newest first", async () => {
    const credentials = await channelOf('yt_commented');
    const user = await googleUser('yt_commented');
    const channel = user.pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'a_viewer',
      text: 'Great video!',
    });
    expect(added.status).toBe(201);
    const read = await commentsOf(youtube).recentComments(credentials, { posts: 5 });
    // The three videos a sandbox channel starts with, newest first, by their watch addresses.
    expect(read.posts).toHaveLength(3);
    for (const video of read.posts) expect(video.permalink).toBe(`https://www.youtube.com/watch?v=${video.id}`);
    const found = read.comments.find((c) => c.id === added.body.id);
    expect(found).toMatchObject({
      postId: added.body.post_id,
      parentId: null,
      authorUsername: 'a_viewer',
      text: 'Great video!',
      hidden: false,
      byAccount: false,
    });
    const times = read.comments.map((c) => c.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('reads every reply of a busy thread through comments.list where the thread carries a subset', async () => {
    const credentials = await channelOf('yt_busy');
    const channel = (await googleUser('yt_busy')).pages[0];
    const top = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'asker',
      text: 'Where was this filmed?',
    });
    const replies: string[] = [];
    for (let i = 1; i <= 7; i += 1) {
      const reply = await sandbox.control('POST', '/comments', {
        platform: 'youtube',
        username: channel.username,
        author_username: `viewer_${i}`,
        text: `Answer ${i}`,
        post_id: top.body.post_id,
        parent_id: top.body.id,
        commented_at: new Date(Date.now() - (10 - i) * 60_000).toISOString(),
      });
      replies.push(reply.body.id);
    }
    const since = new Date().toISOString();
    const read = await commentsOf(youtube).recentComments(credentials, { posts: 5 });
    const under = read.comments.filter((c) => c.parentId === top.body.id);
    expect(under.map((c) => c.id).sort()).toEqual([...replies].sort());
    expect(under.find((c) => c.text === 'Answer 7')).toMatchObject({ authorUsername: 'viewer_7', byAccount: false });
    // The thread carries a subset; its replies are read once more, by the top-level comment's id.
    const calls = await sandbox.control('GET', `/calls/youtube/yt_busy?since=${encodeURIComponent(since)}`);
    const replyReads = (calls.body.data as { path: string; query: Record<string, string> }[]).filter((c) =>
      c.path.endsWith('/youtube/v3/comments'),
    );
    expect(replyReads.map((c) => c.query.parentId)).toEqual([top.body.id]);
  });

  it('answers under the comment as the channel, and hides and shows a comment through its moderation status', async () => {
    const credentials = await channelOf('yt_moderator');
    const channel = (await googleUser('yt_moderator')).pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'someone',
      text: 'Spam?',
    });
    const comments = commentsOf(youtube);
    const sent = await comments.reply(credentials, added.body.id, 'Thanks for watching');
    expect(sent.state).toBe('sent');
    const afterReply = await comments.recentComments(credentials);
    const reply = afterReply.comments.find((c) => c.parentId === added.body.id);
    expect(reply).toMatchObject({ text: 'Thanks for watching', byAccount: true, authorId: channel.id });

    await comments.setHidden(credentials, added.body.id, true);
    // Held for review: no longer among the published comments, read among the held ones, hidden.
    const held = (await comments.recentComments(credentials)).comments.filter((c) => c.id === added.body.id);
    expect(held).toEqual([expect.objectContaining({ text: 'Spam?', hidden: true, parentId: null })]);
    await comments.setHidden(credentials, added.body.id, false);
    const shown = (await comments.recentComments(credentials)).comments.filter((c) => c.id === added.body.id);
    expect(shown).toEqual([expect.objectContaining({ text: 'Spam?', hidden: false })]);
    const { body } = await sandbox.control('GET', `/activity/youtube/${channel.username}`);
    expect(body.data.map((a: { action: string; target_id: string }) => [a.action, a.target_id])).toEqual([
      ['reply', added.body.id],
      ['hide', added.body.id],
      ['unhide', added.body.id],
    ]);
  });

  it("reads the comments held for review in one list for the channel, hidden: a held comment, and a held reply under a published one; only the channel's owner may list them", async () => {
    const credentials = await channelOf('yt_held');
    const channel = (await googleUser('yt_held')).pages[0];
    const add = async (body: Record<string, unknown>) => {
      const res = await sandbox.control('POST', '/comments', {
        platform: 'youtube',
        username: channel.username,
        author_username: 'a_viewer',
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; post_id: string };
    };
    const published = await add({ text: 'Fine video' });
    const held = await add({ text: 'Buy followers here', held: true });
    const heldReply = await add({
      text: 'Me too: link',
      held: true,
      post_id: published.post_id,
      parent_id: published.id,
    });
    const since = now();
    const read = await commentsOf(youtube).recentComments(credentials, { posts: 5 });
    const byId = new Map(read.comments.map((c) => [c.id, c]));
    expect(byId.get(published.id)).toMatchObject({ text: 'Fine video', hidden: false, parentId: null });
    expect(byId.get(held.id)).toMatchObject({ text: 'Buy followers here', hidden: true, parentId: null });
    expect(byId.get(heldReply.id)).toMatchObject({ text: 'Me too: link', hidden: true, parentId: published.id });
    // One list of the channel's held threads, not one a video.
    const { data } = await sandbox.calls('youtube', 'yt_held', since);
    const heldReads = data.filter((c) => c.query.moderationStatus !== undefined);
    expect(heldReads.map((c) => [c.path, c.query.allThreadsRelatedToChannelId, c.query.moderationStatus])).toEqual([
      ['/www.googleapis.com/youtube/v3/commentThreads', channel.id, 'heldForReview'],
    ]);

    // Another Google user may not list this channel's held threads.
    const other = await login('yt_held_stranger');
    const url = new URL(`${sandbox.url}/www.googleapis.com/youtube/v3/commentThreads`);
    url.search = new URLSearchParams({
      part: 'snippet',
      allThreadsRelatedToChannelId: channel.id,
      moderationStatus: 'heldForReview',
    }).toString();
    const refused = await request(url, { headers: { authorization: `Bearer ${other.accessToken}` } });
    expect(refused.statusCode).toBe(403);
    expect(((await refused.body.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason).toBe(
      'forbidden',
    );
  });

  it("the channel's reply is deleted with comments.delete (204); deleting it again is no error; a viewer's comment is refused", async () => {
    const credentials = await channelOf('yt_deleter');
    const channel = (await googleUser('yt_deleter')).pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'someone',
      text: 'Which camera?',
    });
    const comments = commentsOf(youtube);
    const sent = await comments.reply(credentials, added.body.id, 'A small one');
    if (sent.state !== 'sent') throw new Error('the reply was not sent at once');
    const deleteReply = comments.deleteReply;
    if (deleteReply === undefined) throw new Error('the YouTube adapter deletes no replies');
    await deleteReply(credentials, sent.id, added.body.id);
    expect((await comments.recentComments(credentials)).comments.map((c) => c.id)).not.toContain(sent.id);
    // YouTube no longer has it (404 commentNotFound): deleted before, as asked.
    await deleteReply(credentials, sent.id, added.body.id);
    const calls = (await sandbox.calls('youtube', 'yt_deleter')).data.filter((c) => c.method === 'DELETE');
    expect(calls.map((c) => [c.path, c.query.id])).toEqual([
      ['/www.googleapis.com/youtube/v3/comments', sent.id],
      ['/www.googleapis.com/youtube/v3/comments', sent.id],
    ]);
    const refused = await platformError(deleteReply(credentials, added.body.id, added.body.id));
    expect(refused.detail).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await comments.recentComments(credentials)).comments.map((c) => c.id)).toContain(added.body.id);
    expect(youtube.scopes.byAction.delete_reply).toEqual(['https://www.googleapis.com/auth/youtube.force-ssl']);
  });

  it("another channel's comment cannot be moderated (403 forbidden: permission_missing)", async () => {
    const mine = await channelOf('yt_mod_a');
    await login('yt_mod_b');
    const theirs = (await googleUser('yt_mod_b')).pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: theirs.username,
      author_username: 'someone',
      text: 'Not yours',
    });
    const error = await platformError(commentsOf(youtube).setHidden(mine, added.body.id, true));
    expect(error.kind).toBe('permission_missing');
    expect(error.detail).toMatchObject({ status: 403, code: 'forbidden' });
  });
});

/** A day `offset` days from now, as YouTube Analytics names it. */
const dayOf = (offset: number) => new Date(now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

/** Sets a channel's (or a video's) daily figures in the sandbox's YouTube Analytics. */
async function figures(
  channel: string,
  metric: string,
  values: { day: string; value: number | null }[],
  postId?: string,
) {
  const body = { platform: 'youtube', username: channel, metric, values, ...(postId ? { post_id: postId } : {}) };
  expect((await sandbox.control('PUT', '/insights', body)).status).toBe(200);
}

describe('youtube: quota units', () => {
  /** The sandbox's app: its tokens are the project's, 'switchboard-sandbox'. */
  const PROJECT = 'switchboard-sandbox';
  const pacificDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(now());
  /** An adapter that counts the project's units in the service's table, with these settings. */
  function counting(settings: { youtubeDailyQuotaUnits?: string; youtubeQuotaReserveUnits?: string } = {}) {
    return createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: sandbox.url, ...settings },
      { projectUnits: projectUnits(sandbox.database.db) },
    ).adapter('youtube');
  }
  /** The service's count of the project's units today. */
  async function serviceCount(): Promise<number> {
    return (await projectUnits(sandbox.database.db).take('youtube', PROJECT, pacificDay(), 0, 1e9)).used;
  }
  async function sandboxCount(): Promise<number> {
    const { status, body } = await sandbox.control('GET', `/youtube/quota/${PROJECT}`);
    expect(status).toBe(200);
    return body.used_units;
  }

  it("counts each call's units as the Quota Calculator states them, and the sandbox charges the project the same", async () => {
    const adapter = counting();
    const credentials = await channelOf('yt_units');
    const channel = (await googleUser('yt_units')).pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'a_viewer',
      text: 'Nice',
    });
    const [service0, sandbox0] = [await serviceCount(), await sandboxCount()];
    const comments = commentsOf(adapter);
    await adapter.profile(credentials); // channels.list: 1
    // channels.list (the uploads playlist) 1, playlistItems.list 1, commentThreads.list of the one
    // video 1, and of the channel's threads held for review 1.
    await comments.recentComments(credentials, { posts: 1 });
    const sent = await comments.reply(credentials, added.body.id, 'Thanks'); // comments.insert: 50
    await comments.setHidden(credentials, added.body.id, true); // comments.setModerationStatus: 50
    await comments.setHidden(credentials, added.body.id, false); // 50
    if (sent.state !== 'sent') throw new Error('the reply was not sent');
    await comments.deleteReply?.(credentials, sent.id, added.body.id); // comments.delete: 50
    // YouTube Analytics' report is not in the Data API's quota; today's subscribers are channels.list: 1.
    await insightsOf(adapter).accountInsights(
      credentials,
      [now().toISOString().slice(0, 10)],
      ['views', 'followers_count'],
    );
    const expected = 1 + 4 + 50 + 50 + 50 + 50 + 1;
    expect((await serviceCount()) - service0).toBe(expected);
    expect((await sandboxCount()) - sandbox0).toBe(expected);
  });

  it('a background read that would eat into the reserve is not made, until midnight Pacific Time; a reply still goes out', async () => {
    const credentials = await channelOf('yt_reserve');
    const channel = (await googleUser('yt_reserve')).pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'a_viewer',
      text: 'Hello',
    });
    // Room for one poll of one video (4 units: the channel, its uploads, the video's threads, the
    // held threads) above the reserve of 100, and no more.
    const used = await serviceCount();
    const adapter = counting({ youtubeDailyQuotaUnits: String(used + 104), youtubeQuotaReserveUnits: '100' });
    const comments = commentsOf(adapter);
    await comments.recentComments(credentials, { posts: 1 });
    const before = now();
    const since = before.toISOString();
    const refused = await platformError(comments.recentComments(credentials, { posts: 1 }));
    const after = now();
    expect(refused.kind).toBe('rate_limited');
    expect(refused.detail.retryAfterSeconds).toBeLessThanOrEqual(untilMidnightPacific(before));
    expect(refused.detail.retryAfterSeconds).toBeGreaterThanOrEqual(untilMidnightPacific(after));
    expect(refused.message).toContain('kept for publishing');
    const calls = await sandbox.control('GET', `/calls/youtube/yt_reserve?since=${encodeURIComponent(since)}`);
    expect(calls.body.data).toEqual([]);
    expect(await serviceCount()).toBe(used + 4);
    // A reply is asked for by a person: it may spend the reserve.
    expect((await comments.reply(credentials, added.body.id, 'Thanks')).state).toBe('sent');
    expect(await serviceCount()).toBe(used + 54);
    // Past midnight Pacific Time the count is the new day's: the poll is made again.
    advanceClock((untilMidnightPacific(now()) + 60) * 1000);
    const read = await comments.recentComments(await channelOf('yt_reserve'), { posts: 1 });
    expect(read.posts).toHaveLength(1);
  });

  it("at the reserve, a channel's insights still answer YouTube Analytics' figures, which cost no units; today's subscribers, a Data API read, are left without data", async () => {
    const credentials = await channelOf('yt_reserve_figures');
    const channel = (await googleUser('yt_reserve_figures')).pages[0];
    const yesterday = dayOf(-1);
    await figures(channel.username, 'views', [{ day: yesterday, value: 75 }]);
    const used = await serviceCount();
    // Nothing above the reserve is left for background reads.
    const adapter = counting({ youtubeDailyQuotaUnits: String(used + 100), youtubeQuotaReserveUnits: '100' });
    const since = now().toISOString();
    const read = await insightsOf(adapter).accountInsights(
      credentials,
      [yesterday, dayOf(0)],
      ['views', 'followers_count'],
    );
    expect(read.figures[yesterday]).toEqual({ views: 75, followers_count: null });
    expect(read.figures[dayOf(0)]?.followers_count).toBeNull();
    expect(await serviceCount()).toBe(used);
    const calls = await sandbox.control('GET', `/calls/youtube/yt_reserve_figures?since=${encodeURIComponent(since)}`);
    const paths = calls.body.data.map((c: { path: string }) => c.path);
    expect(paths.some((p: string) => p.includes('/v2/reports'))).toBe(true);
    expect(paths.some((p: string) => p.includes('/youtube/v3/channels'))).toBe(false);
  });

  it("a call past the day's units is refused as Google refuses it (403 quotaExceeded), and Google's quotaExceeded closes the project's day", async () => {
    const credentials = await channelOf('yt_spent_day');
    const used = await serviceCount();
    const adapter = counting({ youtubeDailyQuotaUnits: String(used + 60), youtubeQuotaReserveUnits: '10' });
    const comments = commentsOf(adapter);
    // 50 of the 60 left: the reply's; a second would pass the day.
    const channel = (await googleUser('yt_spent_day')).pages[0];
    const added = await sandbox.control('POST', '/comments', {
      platform: 'youtube',
      username: channel.username,
      author_username: 'a_viewer',
      text: 'Hi',
    });
    await comments.reply(credentials, added.body.id, 'One');
    const before = now();
    const past = await platformError(comments.reply(credentials, added.body.id, 'Two'));
    const after = now();
    expect(past).toBeInstanceOf(PlatformError);
    expect(past.kind).toBe('rate_limited');
    expect(past.detail.code).toBe('quotaExceeded');
    // Until midnight in Pacific time, as of the refused call: seconds may pass during it.
    expect(past.detail.retryAfterSeconds).toBeLessThanOrEqual(untilMidnightPacific(before));
    expect(past.detail.retryAfterSeconds).toBeGreaterThanOrEqual(untilMidnightPacific(after));

    // The sandbox spends the project's day (its other uses): Google's answer closes the service's day.
    advanceClock((untilMidnightPacific(now()) + 60) * 1000);
    const renewed = await channelOf('yt_spent_day');
    const fresh = counting();
    expect((await sandbox.control('PUT', `/youtube/quota/${PROJECT}`, { used_units: 10_000 })).status).toBe(200);
    const answered = await platformError(commentsOf(fresh).recentComments(renewed, { posts: 1 }));
    expect(answered.detail.code).toBe('quotaExceeded');
    const since = now().toISOString();
    expect((await platformError(commentsOf(fresh).recentComments(renewed, { posts: 1 }))).detail.code).toBe(
      'quotaExceeded',
    );
    const calls = await sandbox.control('GET', `/calls/youtube/yt_spent_day?since=${encodeURIComponent(since)}`);
    expect(calls.body.data).toEqual([]);
  });
});

describe('youtube: insights', () => {
  it("the channel's daily figures from YouTube Analytics by the service's names, today's subscribers; no data is null, never 0", async () => {
    const credentials = await channelOf('yt_figures');
    const channel = (await googleUser('yt_figures')).pages[0];
    const [before, yesterday, today] = [dayOf(-2), dayOf(-1), dayOf(0)];
    for (const metric of [
      'views',
      'estimatedMinutesWatched',
      'likes',
      'comments',
      'shares',
      'subscribersGained',
      'subscribersLost',
    ]) {
      await figures(channel.username, metric, [
        { day: before, value: null },
        { day: yesterday, value: 0 },
      ]);
    }
    await figures(channel.username, 'views', [{ day: yesterday, value: 120 }]);
    await figures(channel.username, 'estimatedMinutesWatched', [{ day: yesterday, value: 45 }]);
    const read = await insightsOf(youtube).accountInsights(
      credentials,
      [before, yesterday, today],
      ['views', 'watch_time_minutes', 'likes', 'subscribers_lost', 'followers_count'],
    );
    // Two days back YouTube has no row: null, not 0.
    expect(read.figures[before]).toEqual({
      views: null,
      watch_time_minutes: null,
      likes: null,
      subscribers_lost: null,
      followers_count: null,
    });
    expect(read.figures[yesterday]).toEqual({
      views: 120,
      watch_time_minutes: 45,
      likes: 0,
      subscribers_lost: 0,
      followers_count: null,
    });
    expect(read.figures[today]?.followers_count).toBe(channel.followers_count);
  });

  it("a video's lifetime figures, filtered by its id", async () => {
    const credentials = await channelOf('yt_video_figures');
    const channel = (await googleUser('yt_video_figures')).pages[0];
    const videoId = (await googleUser(channel.username)).posts[0].id;
    await figures(channel.username, 'views', [{ day: '2026-01-01', value: 900 }], videoId);
    await figures(channel.username, 'likes', [{ day: '2026-01-01', value: null }], videoId);
    const read = await insightsOf(youtube).postInsights(credentials, videoId, ['views', 'likes']);
    expect(read.figures.views).toBe(900);
    expect(read.figures.likes).toBeNull();
  });

  it('without yt-analytics.readonly the report is refused as a missing permission', async () => {
    const credentials = await channelOf('yt_no_analytics', [UPLOAD, FORCE_SSL]);
    const error = await platformError(insightsOf(youtube).accountInsights(credentials, [dayOf(-1)], ['views']));
    expect(error.kind).toBe('permission_missing');
    expect(error.detail).toMatchObject({ status: 403, code: 'insufficientPermissions' });
  });
});
