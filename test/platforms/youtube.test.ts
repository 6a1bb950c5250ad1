import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import { untilMidnightPacific } from '../../src/platforms/google/errors.ts';
import type { PlatformAdapter, TokenSet } from '../../src/platforms/index.ts';
import { pagesOf, platformError, REDIRECT_URI, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
let youtube: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  youtube = sandbox.adapter('youtube');
});
afterAll(() => sandbox.close());
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
    expect(user.pages).toHaveLength(2);
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
    expect(await pagesOf(youtube)({ platformUserId: '', accessToken: fresh.accessToken })).toHaveLength(2);
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

describe('youtube: publishing', () => {
  it('is not offered yet: every post is refused before anything is stored, the description counted in UTF-8 bytes', () => {
    const video = [{ type: 'video' as const, durationSeconds: 30 }];
    expect(youtube.publishing.checkPublish({ text: 'hello', media: video }).map((p) => p.field)).toEqual(['media_ids']);
    // 5,000 bytes: 2,500 é pass, one more byte is refused.
    expect(youtube.publishing.checkPublish({ text: 'é'.repeat(2500), media: video }).map((p) => p.field)).toEqual([
      'media_ids',
    ]);
    expect(youtube.publishing.checkPublish({ text: `${'é'.repeat(2500)}a`, media: video }).map((p) => p.field)).toEqual(
      ['media_ids', 'text'],
    );
  });
});
