import { generateKeyPair, SignJWT } from 'jose';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import {
  type AccountCredentials,
  createPlatforms,
  type PlatformAdapter,
  type PublishRequest,
  type TokenSet,
} from '../../src/platforms/index.ts';
import { eventually } from '../helpers/eventually.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { pagesOf, platformError, REDIRECT_URI, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
let gbp: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  gbp = sandbox.adapter('google_business');
});
afterAll(() => sandbox.close());
afterEach(() => resetClock());

const BUSINESS_MANAGE = 'https://www.googleapis.com/auth/business.manage';
/** "expires_in": 3599 in Google's token answers. */
const HOUR_LESS_A_SECOND = 3599_000;
/** The sandbox's `container_processing_seconds`: a new local post is PROCESSING this long. */
const PROCESSING_MS = 5_000;
const PHOTO = 'https://media.example.test/photo.jpg';

async function login(username: string, granted?: string[]): Promise<TokenSet> {
  return sandbox.connect('google_business', username, granted);
}

interface SandboxLocation {
  id: string;
  name: string;
  username: string;
}

async function locationsOf(username: string): Promise<SandboxLocation[]> {
  return (await sandbox.control('GET', `/users/google_business/${username}`)).body.pages;
}

/** A user's first location, acted on with its login's token. */
async function firstLocation(username: string): Promise<AccountCredentials> {
  const tokens = await login(username);
  const [location] = await locationsOf(username);
  return { platformUserId: location?.id ?? '', accessToken: tokens.accessToken };
}

/** A Business Profile API answer read straight from the sandbox, as Google gives it. */
async function googleRead(path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await request(`${sandbox.url}/mybusiness.googleapis.com/v4/${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
}

const post = (
  text: string | undefined,
  options: Record<string, unknown> = {},
  media: string[] = [],
): PublishRequest => ({
  ...(text === undefined ? {} : { text }),
  media: media.map((url) => ({ type: 'image' as const, url })),
  options,
});

describe('google_business: sign-in and locations', () => {
  it("builds Google's authorization URL with the business scope: offline access, consent shown", () => {
    const url = new URL(gbp.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.pathname).toBe('/sandbox/accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'switchboard-sandbox',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: BUSINESS_MANAGE,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'false',
      state: 's 1',
    });
    expect(gbp.scopes.required).toEqual([BUSINESS_MANAGE]);
  });

  it('Cancel comes back with error=access_denied and the state', async () => {
    const params = await sandbox.authorize('google_business', { username: 'gbp_cancel', cancel: true, state: 'xyz' });
    expect(Object.fromEntries(params)).toEqual({ error: 'access_denied', state: 'xyz' });
    expect(gbp.parseCallback(Object.fromEntries(params))).toMatchObject({ outcome: 'denied', error: 'access_denied' });
  });

  it("a login: an hour's access token, a refresh token, the business scope, and the user's locations as accounts/{a}/locations/{l}", async () => {
    const before = now().getTime();
    const tokens = await login('gbp_user');
    const after = now().getTime();
    expect(tokens.scopes).toEqual([BUSINESS_MANAGE]);
    expect(tokens.platformUserId).toBe('');
    expect(tokens.refreshToken).toBeTypeOf('string');
    const end = (tokens.expiresAt as Date).getTime();
    expect(end - after).toBeLessThanOrEqual(HOUR_LESS_A_SECOND);
    expect(end - before).toBeGreaterThanOrEqual(HOUR_LESS_A_SECOND);

    const user = (await sandbox.control('GET', '/users/google_business/gbp_user')).body;
    const locations = await pagesOf(gbp)(tokens);
    // Two locations, each its own account: the client chooses them on the hosted page.
    expect(locations).toHaveLength(2);
    expect(locations).toEqual(
      user.pages.map((p: SandboxLocation) => ({
        id: p.id,
        name: p.name,
        avatarUrl: null,
        // Acted on with the login's token: Google has no token per location.
        accessToken: null,
        instagramBusinessAccountId: null,
      })),
    );
    for (const location of locations) expect(location.id).toMatch(new RegExp(`^accounts/${user.id}/locations/\\d+$`));
    expect(new Set(locations.map((l) => l.id)).size).toBe(2);

    const [first] = locations;
    const profile = await gbp.profile({ platformUserId: first?.id ?? '', accessToken: tokens.accessToken });
    expect(profile).toEqual({
      id: first?.id,
      username: null,
      name: first?.name,
      avatarUrl: null,
      followersCount: null,
    });
    // accounts.list, then the account's locations with a readMask; the profile, locations.get.
    const { data } = await sandbox.calls('google_business', 'gbp_user');
    expect(data.map((c) => [c.method, c.path, c.query.readMask ?? null])).toEqual([
      ['GET', '/mybusinessaccountmanagement.googleapis.com/v1/accounts', null],
      [
        'GET',
        `/mybusinessbusinessinformation.googleapis.com/v1/accounts/${user.id}/locations`,
        'name,title,storefrontAddress,metadata',
      ],
      [
        'GET',
        `/mybusinessbusinessinformation.googleapis.com/v1/${first?.id.slice(first.id.indexOf('locations/'))}`,
        'name,title,storefrontAddress,metadata',
      ],
    ]);
  });

  it('a login without business.manage grants no scope, and its locations are refused (403 insufficientPermissions): permission_missing', async () => {
    const tokens = await login('gbp_unticked', []);
    expect(tokens.scopes).toEqual([]);
    const error = await platformError(pagesOf(gbp)(tokens));
    expect(error.kind).toBe('permission_missing');
    // The Business Profile APIs' newer error shape: the reason in details[]'s ErrorInfo.
    expect(error.detail).toMatchObject({ status: 403, code: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' });
  });

  it('one Google consent page serves YouTube and Business Profile: the scopes asked choose the platform, and neither token acts on the other', async () => {
    const business = await login('gbp_both');
    const youtube = await sandbox.connect('youtube', 'gbp_both');
    expect(youtube.scopes).not.toContain(BUSINESS_MANAGE);
    expect((await sandbox.control('GET', '/users/google_business/gbp_both')).body.pages).toHaveLength(2);
    expect((await sandbox.control('GET', '/users/youtube/gbp_both')).body.pages).toHaveLength(1);
    const error = await platformError(pagesOf(gbp)({ platformUserId: '', accessToken: youtube.accessToken }));
    expect(error.detail).toMatchObject({ status: 401, code: 'ACCESS_TOKEN_TYPE_UNSUPPORTED' });
    expect(await pagesOf(gbp)({ platformUserId: '', accessToken: business.accessToken })).toHaveLength(2);
  });

  it('a refresh gives a new access token of an hour and keeps the refresh token; a revoked one is invalid_grant: token_expired', async () => {
    const tokens = await login('gbp_refresh');
    advanceClock(50 * 60_000);
    const fresh = await gbp.refreshToken({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken as string,
      platformUserId: 'accounts/1/locations/2',
    });
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    expect(fresh.refreshToken).toBe(tokens.refreshToken);
    expect(fresh.platformUserId).toBe('accounts/1/locations/2');
    expect(fresh.scopes).toEqual([BUSINESS_MANAGE]);
    expect(await pagesOf(gbp)({ platformUserId: '', accessToken: fresh.accessToken })).toHaveLength(2);

    expect(
      (await sandbox.control('POST', '/tokens/revoke', { platform: 'google_business', username: 'gbp_refresh' }))
        .status,
    ).toBe(200);
    const error = await platformError(
      gbp.refreshToken({ accessToken: fresh.accessToken, refreshToken: tokens.refreshToken, platformUserId: '' }),
    );
    expect(error.kind).toBe('token_expired');
    expect(error.detail).toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('an access token past its hour is refused as expired (401 authError)', async () => {
    const tokens = await login('gbp_hour');
    advanceClock(3600_000);
    const error = await platformError(pagesOf(gbp)(tokens));
    expect(error.kind).toBe('token_expired');
    expect(error.detail).toMatchObject({ status: 401, code: 'ACCESS_TOKEN_EXPIRED' });
  });

  it('too many calls: 429 RESOURCE_EXHAUSTED with RATE_LIMIT_EXCEEDED is rate_limited, for the Retry-After Google sends', async () => {
    const tokens = await login('gbp_busy');
    expect(
      (
        await sandbox.control('POST', '/faults', {
          platform: 'google_business',
          username: 'gbp_busy',
          error: 'rate_limited',
          trigger: 'call',
        })
      ).status,
    ).toBe(201);
    const error = await platformError(pagesOf(gbp)(tokens));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(error.detail.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("another user's location is not found (404)", async () => {
    const mine = await login('gbp_owner');
    const [theirs] = await locationsOf('gbp_owner');
    const stranger = await login('gbp_stranger');
    const error = await platformError(
      gbp.profile({ platformUserId: theirs?.id ?? '', accessToken: stranger.accessToken }),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.detail).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await gbp.profile({ platformUserId: theirs?.id ?? '', accessToken: mine.accessToken })).name).toBe(
      theirs?.name,
    );
  });
});

describe('google_business: local posts', () => {
  it('an update with a photo and a button: created (localPosts.create), PROCESSING, then LIVE with its searchUrl', async () => {
    const credentials = await firstLocation('gbp_update');
    const { containerId } = await gbp.publishing.createContainer(
      credentials,
      post(
        'Fresh bread every morning',
        { call_to_action: { type: 'LEARN_MORE', url: 'https://bakery.example/bread' } },
        [PHOTO],
      ),
    );
    expect(containerId).toMatch(new RegExp(`^${credentials.platformUserId}/localPosts/\\d+$`));
    const read = await googleRead(containerId, credentials.accessToken);
    expect(read.body).toMatchObject({
      name: containerId,
      topicType: 'STANDARD',
      summary: 'Fresh bread every morning',
      media: [{ mediaFormat: 'PHOTO', sourceUrl: PHOTO }],
      callToAction: { actionType: 'LEARN_MORE', url: 'https://bakery.example/bread' },
      state: 'PROCESSING',
    });
    expect(await gbp.publishing.containerStatus(credentials, containerId)).toMatchObject({ state: 'in_progress' });
    expect(await gbp.publishing.findPublished(credentials, containerId)).toBeNull();
    advanceClock(PROCESSING_MS);
    expect(await gbp.publishing.containerStatus(credentials, containerId)).toEqual({ state: 'published' });
    expect(await gbp.publishing.findPublished(credentials, containerId)).toEqual({
      id: containerId,
      permalink: read.body.searchUrl,
    });
    expect(read.body.searchUrl).toMatch(/^https:\/\/local\.google\.com\/place\?id=\d+&use=posts&lpsid=\d+$/);
  });

  it("an event: its title and schedule, times of day as Google's TimeOfDay; a CALL button without a link", async () => {
    const credentials = await firstLocation('gbp_event');
    const { containerId } = await gbp.publishing.createContainer(
      credentials,
      post('Tasting night', {
        type: 'event',
        event: { title: 'Wine tasting', start: '2026-12-04T18:30', end: '2026-12-04T22:00' },
        call_to_action: { type: 'CALL' },
      }),
    );
    const { body } = await googleRead(containerId, credentials.accessToken);
    expect(body).toMatchObject({
      topicType: 'EVENT',
      event: {
        title: 'Wine tasting',
        schedule: {
          startDate: { year: 2026, month: 12, day: 4 },
          startTime: { hours: 18, minutes: 30, seconds: 0, nanos: 0 },
          endDate: { year: 2026, month: 12, day: 4 },
          endTime: { hours: 22, minutes: 0, seconds: 0, nanos: 0 },
        },
      },
      callToAction: { actionType: 'CALL' },
    });
    expect(body.callToAction).toEqual({ actionType: 'CALL' });
  });

  it('an offer: its coupon code, redeem link and terms, dates without times', async () => {
    const credentials = await firstLocation('gbp_offer');
    const { containerId } = await gbp.publishing.createContainer(
      credentials,
      post('Two for one', {
        type: 'offer',
        event: { title: 'Winter offer', start: '2026-12-01', end: '2026-12-31' },
        offer: { coupon_code: 'WINTER2', redeem_url: 'https://bakery.example/offer', terms: 'One per customer.' },
      }),
    );
    const { body } = await googleRead(containerId, credentials.accessToken);
    expect(body).toMatchObject({
      topicType: 'OFFER',
      event: {
        title: 'Winter offer',
        schedule: { startDate: { year: 2026, month: 12, day: 1 }, endDate: { year: 2026, month: 12, day: 31 } },
      },
      offer: {
        couponCode: 'WINTER2',
        redeemOnlineUrl: 'https://bakery.example/offer',
        termsConditions: 'One per customer.',
      },
    });
    expect((body.event as { schedule: Record<string, unknown> }).schedule.startTime).toBeUndefined();
  });

  it('a post Google rejects ends failed with its reason', async () => {
    const credentials = await firstLocation('gbp_rejected');
    expect((await sandbox.control('PUT', '/settings/google_business_post_review', { value: 'rejected' })).status).toBe(
      200,
    );
    try {
      const { containerId } = await gbp.publishing.createContainer(credentials, post('Call 555-0100 now'));
      expect((await googleRead(containerId, credentials.accessToken)).body.state).toBe('REJECTED');
      expect(await gbp.publishing.containerStatus(credentials, containerId)).toEqual({
        state: 'failed',
        message: 'Google rejected the local post (REJECTED: content policy violation)',
      });
    } finally {
      await sandbox.control('PUT', '/settings/google_business_post_review', { value: 'live' });
    }
  });

  it("a create whose answer was lost (the call timed out while Google made the post) is found among the location's local posts, not made again", async () => {
    const credentials = await firstLocation('gbp_lost');
    // An adapter that waits 2 seconds for an answer, so the held create's answer is lost.
    const impatient = createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: sandbox.url },
      { timeoutMs: 2_000 },
    ).adapter('google_business');
    const since = now();
    const created = sandbox.hold(/\/localPosts$/, { afterBody: true });
    const making = platformError(impatient.publishing.createContainer(credentials, post('Open on Sunday')));
    await created.arrived;
    expect((await making).kind).toBe('transient');
    // Google makes the post after the answer was given up on.
    created.release();
    const list = `${credentials.platformUserId}/localPosts`;
    const mine = async () =>
      (
        (await googleRead(list, credentials.accessToken)).body.localPosts as { name: string; summary?: string }[]
      ).filter((p) => p.summary === 'Open on Sunday');
    await eventually(async () => ((await mine()).length === 1 ? true : undefined));
    const found = await impatient.publishing.findCreated?.(credentials, post('Open on Sunday'), [], since);
    const made = await mine();
    expect(found).toEqual({ containerId: made[0]?.name, postId: made[0]?.name });
    expect(made).toHaveLength(1);
    // Another text was not made: nothing is found.
    expect(await impatient.publishing.findCreated?.(credentials, post('Closed on Monday'), [], since)).toBeNull();
  });

  it('a create refused for a passing failure that made nothing is transient, and nothing is made', async () => {
    const credentials = await firstLocation('gbp_503');
    expect(
      (
        await sandbox.control('POST', '/faults', {
          platform: 'google_business',
          username: 'gbp_503',
          error: 'transient',
          trigger: 'publish',
        })
      ).status,
    ).toBe(201);
    const error = await platformError(gbp.publishing.createContainer(credentials, post('Not made')));
    expect(error.kind).toBe('transient');
    expect(error.detail).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    const listed = await googleRead(`${credentials.platformUserId}/localPosts`, credentials.accessToken);
    expect((listed.body.localPosts as { summary?: string }[]).map((p) => p.summary)).not.toContain('Not made');
  });

  it('checkPublish refuses what Google refuses, each at its field, before any call', () => {
    const fields = (request: PublishRequest) =>
      gbp.publishing
        .checkPublish({ ...request, media: request.media.map((m) => ({ type: m.type })) })
        .map((p) => p.field);
    const G = 'platforms.google_business';
    expect(fields(post('Hello'))).toEqual([]);
    expect(fields(post(undefined, {}, [PHOTO]))).toEqual([]);
    expect(fields(post('a'.repeat(1501)))).toEqual(['text']);
    expect(fields(post('Two', {}, [PHOTO, PHOTO]))).toEqual(['media_ids']);
    expect(gbp.publishing.checkPublish({ text: 'Clip', media: [{ type: 'video' }] }).map((p) => p.field)).toEqual([
      'media_ids',
    ]);
    expect(fields(post('An event', { type: 'event' }))).toEqual([`${G}.event`]);
    expect(fields(post('An offer', { type: 'offer' }))).toEqual([`${G}.event`]);
    const event = (start: string, end: string, title = 'Night') => ({ type: 'event', event: { title, start, end } });
    expect(fields(post('x', event('2026-12-04', '2026-12-03')))).toEqual([`${G}.event.end`]);
    expect(fields(post('x', event('2026-12-04T20:00', '2026-12-04T20:00')))).toEqual([`${G}.event.end`]);
    expect(fields(post('x', event('2026-12-04', '2026-12-04')))).toEqual([]);
    expect(fields(post('x', event('2026-12-04T20:00', '2026-12-05')))).toEqual([`${G}.event.end`]);
    expect(fields(post('x', event('2026-02-30', '2026-03-01')))).toEqual([`${G}.event.start`]);
    expect(fields(post('x', event('2026-12-04', '2026-12-05', 'a'.repeat(59))))).toEqual([`${G}.event.title`]);
    expect(fields(post('x', event('2026-12-04', '2026-12-05', 'a'.repeat(58))))).toEqual([]);
    expect(fields(post('x', { event: { title: 'T', start: '2026-12-04', end: '2026-12-05' } }))).toEqual([
      `${G}.event`,
    ]);
    expect(fields(post('x', { offer: { coupon_code: 'A' } }))).toEqual([`${G}.offer`]);
    expect(
      fields(post('x', { ...event('2026-12-04', '2026-12-05'), type: 'offer', offer: { redeem_url: 'ftp://x.test' } })),
    ).toEqual([`${G}.offer.redeem_url`]);
    expect(
      fields(
        post('x', {
          ...event('2026-12-04', '2026-12-05'),
          type: 'offer',
          call_to_action: { type: 'SHOP', url: 'https://shop.test' },
        }),
      ),
    ).toEqual([`${G}.call_to_action`]);
    expect(fields(post('x', { call_to_action: { type: 'BOOK' } }))).toEqual([`${G}.call_to_action.url`]);
    expect(fields(post('x', { call_to_action: { type: 'CALL', url: 'https://x.test' } }))).toEqual([
      `${G}.call_to_action.url`,
    ]);
    expect(fields(post('x', { call_to_action: { type: 'ORDER', url: 'https://order.test' } }))).toEqual([]);
  });
});

describe('google_business: insights', () => {
  it('reads the Performance API in one call for every metric and day asked: a day listed without a value is 0, a day not listed null', async () => {
    const credentials = await firstLocation('gbp_figures');
    const [location] = await locationsOf('gbp_figures');
    const set = async (metric: string, values: { day: string; value: number | null }[]) =>
      expect(
        (
          await sandbox.control('PUT', '/insights', {
            platform: 'google_business',
            username: location?.username,
            metric,
            values,
          })
        ).status,
      ).toBe(200);
    const days = ['2026-11-20', '2026-11-21', '2026-11-22'];
    await set('BUSINESS_IMPRESSIONS_MOBILE_MAPS', [
      { day: '2026-11-20', value: 12 },
      { day: '2026-11-21', value: 0 },
      { day: '2026-11-22', value: null },
    ]);
    await set('CALL_CLICKS', [
      { day: '2026-11-20', value: 3 },
      { day: '2026-11-21', value: 1 },
      { day: '2026-11-22', value: 0 },
    ]);
    const since = now();
    const { figures } = (await gbp.insights?.accountInsights(credentials, days, [
      'impressions_mobile_maps',
      'calls',
    ])) ?? {
      figures: {},
    };
    expect(figures).toEqual({
      '2026-11-20': { impressions_mobile_maps: 12, calls: 3 },
      '2026-11-21': { impressions_mobile_maps: 0, calls: 1 },
      '2026-11-22': { impressions_mobile_maps: null, calls: 0 },
    });
    const { data } = await sandbox.calls('google_business', 'gbp_figures', since);
    const locationId = credentials.platformUserId.slice(credentials.platformUserId.indexOf('locations/'));
    expect(data.map((c) => [c.path, c.query])).toEqual([
      [
        `/businessprofileperformance.googleapis.com/v1/${locationId}:fetchMultiDailyMetricsTimeSeries`,
        {
          dailyMetrics: ['BUSINESS_IMPRESSIONS_MOBILE_MAPS', 'CALL_CLICKS'],
          'dailyRange.startDate.year': '2026',
          'dailyRange.startDate.month': '11',
          'dailyRange.startDate.day': '20',
          'dailyRange.endDate.year': '2026',
          'dailyRange.endDate.month': '11',
          'dailyRange.endDate.day': '22',
        },
      ],
    ]);
  });

  it('an unknown metric is refused before any call, and a local post has no figures', async () => {
    const credentials = await firstLocation('gbp_no_figures');
    const error = await platformError(
      gbp.insights?.accountInsights(credentials, ['2026-11-20'], ['followers_count']) ?? Promise.resolve(),
    );
    expect(error.kind).toBe('invalid_request');
    expect(await gbp.insights?.postInsights(credentials, `${credentials.platformUserId}/localPosts/1`, [])).toEqual({
      figures: {},
      usagePercent: null,
    });
  });
});

describe('google_business: reviews as comments', () => {
  /** Adds a review of the user's first location, as a customer writes it on Google. */
  async function review(username: string, text: string, rating: number): Promise<string> {
    const [location] = await locationsOf(username);
    const made = await sandbox.control('POST', '/comments', {
      platform: 'google_business',
      username: location?.username,
      author_username: 'happy_customer',
      text,
      rating,
    });
    expect(made.status).toBe(201);
    return `${location?.id}/reviews/${made.body.id}`;
  }

  it('lists the newest reviews (reviews.list) with their star rating, the location as their post; the answer is the account’s own reply', async () => {
    const credentials = await firstLocation('gbp_reviews');
    const name = await review('gbp_reviews', 'Lovely croissants', 4);
    const since = now();
    const read = await gbp.comments?.recentComments(credentials);
    expect(read?.posts).toEqual([{ id: credentials.platformUserId, text: null, permalink: null, publishedAt: null }]);
    const mine = read?.comments.find((c) => c.id === name);
    expect(mine).toMatchObject({
      postId: credentials.platformUserId,
      parentId: null,
      authorId: null,
      authorUsername: 'happy_customer',
      text: 'Lovely croissants',
      hidden: false,
      byAccount: false,
      rating: 4,
    });
    // The location's two first reviews, made with it: five stars.
    expect(read?.comments.filter((c) => c.id !== name).map((c) => c.rating)).toEqual([5, 5, 5, 5]);
    const { data } = await sandbox.calls('google_business', 'gbp_reviews', since);
    expect(data.map((c) => [c.method, c.path, c.query])).toEqual([
      [
        'GET',
        `/mybusiness.googleapis.com/v4/${credentials.platformUserId}/reviews`,
        { pageSize: '50', orderBy: 'updateTime desc' },
      ],
    ]);

    // Answered (updateReply): listed as the account's own reply under the review.
    const comments = gbp.comments;
    if (comments === undefined) throw new Error('no comments');
    expect(await comments.reply(credentials, name, 'Thank you!')).toEqual({ state: 'sent', id: `${name}/reply` });
    const answered = await comments.recentComments(credentials);
    expect(answered.comments.find((c) => c.id === `${name}/reply`)).toMatchObject({
      parentId: name,
      text: 'Thank you!',
      byAccount: true,
    });
    // A second answer replaces the first: Google keeps one.
    await comments.reply(credentials, name, 'Thank you, see you soon!');
    const replaced = await comments.recentComments(credentials);
    expect(replaced.comments.filter((c) => c.parentId === name).map((c) => c.text)).toEqual([
      'Thank you, see you soon!',
    ]);

    // deleteReply removes it; deleting again is no error.
    await comments.deleteReply?.(credentials, `${name}/reply`, name);
    await comments.deleteReply?.(credentials, `${name}/reply`, name);
    expect((await comments.recentComments(credentials)).comments.filter((c) => c.parentId === name)).toEqual([]);
    const [location] = await locationsOf('gbp_reviews');
    const activity = (await sandbox.control('GET', `/activity/google_business/${location?.username}`)).body.data as {
      action: string;
      detail: Record<string, unknown>;
    }[];
    expect(activity.map((a) => [a.action, a.detail.text ?? null])).toEqual([
      ['reply', 'Thank you!'],
      ['update', 'Thank you, see you soon!'],
      ['delete_comment', null],
    ]);
  });

  it('a review cannot be hidden, and notices are not sent (polled)', async () => {
    const credentials = await firstLocation('gbp_no_hide');
    const name = await review('gbp_no_hide', 'Too noisy', 2);
    const hide = await platformError(gbp.comments?.setHidden(credentials, name, true) ?? Promise.resolve());
    expect(hide.kind).toBe('unsupported');
    const subscribe = await platformError(gbp.comments?.subscribeNotices(credentials) ?? Promise.resolve());
    expect(subscribe.kind).toBe('unsupported');
  });
});

describe('google_business: review notifications through Cloud Pub/Sub', () => {
  const TOPIC = 'projects/switchboard-test/topics/gbp-reviews';
  const PUSHER = 'gbp-push@switchboard-test.iam.gserviceaccount.com';
  const AUDIENCE = 'https://switchboard.example.test/platform-webhooks/google_business';
  let pushes: Receiver;

  /** The adapter as a deployment with these settings makes it. */
  function configured(settings: Record<string, string>): PlatformAdapter {
    return createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: sandbox.url,
      serviceUrl: 'https://switchboard.example.test',
      ...settings,
    }).adapter('google_business');
  }
  const withTopic = () => configured({ googleBusinessPubsubTopic: TOPIC, googleBusinessPushServiceAccount: PUSHER });

  beforeAll(async () => {
    pushes = await startReceiver((_req, res) => res.writeHead(204).end());
    // The deployment's push subscription, with authentication: its service account, the audience left to the endpoint's default.
    const made = await sandbox.control('PUT', '/pubsub/subscriptions', {
      name: 'projects/switchboard-test/subscriptions/gbp-reviews-push',
      topic: TOPIC,
      push_endpoint: pushes.url,
      service_account_email: PUSHER,
      audience: AUDIENCE,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  });
  afterAll(() => pushes.close());

  /** The next push the receiver gets after `seen` pushes, as the adapter is handed it. */
  async function nextPush(seen: number): Promise<{ headers: Record<string, string | undefined>; body: string }> {
    const [push] = (await pushes.waitFor(seen + 1)).slice(seen);
    if (push === undefined) throw new Error('no push');
    const headers = Object.fromEntries(
      Object.entries(push.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
    );
    return { headers, body: push.body.toString('utf8') };
  }

  async function review(username: string, text: string, rating: number): Promise<{ id: string; name: string }> {
    const [location] = await locationsOf(username);
    const made = await sandbox.control('POST', '/comments', {
      platform: 'google_business',
      username: location?.username,
      author_username: 'loyal_customer',
      text,
      rating,
    });
    expect(made.status).toBe(201);
    return { id: made.body.id, name: `${location?.id}/reviews/${made.body.id}` };
  }

  it("without GOOGLE_BUSINESS_PUBSUB_TOPIC, or without the push's service account, the account is polled only and Google is not asked", async () => {
    const credentials = await firstLocation('gbp_no_topic');
    const since = now();
    for (const adapter of [gbp, configured({ googleBusinessPubsubTopic: TOPIC })]) {
      const refused = await platformError(adapter.comments?.subscribeNotices(credentials) ?? Promise.resolve());
      expect(refused.kind).toBe('unsupported');
    }
    expect((await sandbox.calls('google_business', 'gbp_no_topic', since)).data).toEqual([]);
  });

  it("with the topic: the account's notification setting names it, for NEW_REVIEW and UPDATED_REVIEW (accounts.updateNotificationSetting)", async () => {
    const credentials = await firstLocation('gbp_setting');
    const account = credentials.platformUserId.split('/').slice(0, 2).join('/');
    const since = now();
    await withTopic().comments?.subscribeNotices(credentials);
    const { data } = await sandbox.calls('google_business', 'gbp_setting', since);
    // Read first (accounts.getNotificationSetting), then written.
    expect(data.map((c) => [c.method, c.path, c.query])).toEqual([
      ['GET', `/mybusinessnotifications.googleapis.com/v1/${account}/notificationSetting`, {}],
      [
        'PATCH',
        `/mybusinessnotifications.googleapis.com/v1/${account}/notificationSetting`,
        { updateMask: 'pubsubTopic,notificationTypes' },
      ],
    ]);
    const setting = await request(
      `${sandbox.url}/mybusinessnotifications.googleapis.com/v1/${account}/notificationSetting`,
      { headers: { authorization: `Bearer ${credentials.accessToken}` } },
    );
    expect(await setting.body.json()).toEqual({
      name: `${account}/notificationSetting`,
      pubsubTopic: TOPIC,
      notificationTypes: ['NEW_REVIEW', 'UPDATED_REVIEW'],
    });
    // Already so: nothing is written again. The log keeps calls by the millisecond, and the
    // read just above is one of this user's calls: count from a later millisecond than its.
    const read = now().getTime();
    while (now().getTime() <= read) await new Promise((resolve) => setTimeout(resolve, 1));
    const again = now();
    await withTopic().comments?.subscribeNotices(credentials);
    expect((await sandbox.calls('google_business', 'gbp_setting', again)).data.map((c) => c.method)).toEqual(['GET']);
  });

  it("never takes over a topic someone else set for the account: the account stays polled, Google's setting unchanged", async () => {
    const credentials = await firstLocation('gbp_taken');
    const account = credentials.platformUserId.split('/').slice(0, 2).join('/');
    const url = `${sandbox.url}/mybusinessnotifications.googleapis.com/v1/${account}/notificationSetting`;
    // The customer's own integration asked for its questions on its own topic.
    const theirs = {
      name: `${account}/notificationSetting`,
      pubsubTopic: 'projects/customer/topics/own',
      notificationTypes: ['NEW_QUESTION'],
    };
    const set = await request(`${url}?updateMask=pubsubTopic,notificationTypes`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(theirs),
    });
    expect(set.statusCode).toBe(200);
    await set.body.dump();
    const refused = await platformError(withTopic().comments?.subscribeNotices(credentials) ?? Promise.resolve());
    expect(refused.kind).toBe('unsupported');
    expect(refused.message).toContain('projects/customer/topics/own');
    const after = await request(url, { headers: { authorization: `Bearer ${credentials.accessToken}` } });
    expect(await after.body.json()).toEqual(theirs);
  });

  it("a new review is pushed with Google's OIDC token; the push is verified and names the review, which is read with its stars; an edit is pushed and read with its new words and stars", async () => {
    const credentials = await firstLocation('gbp_pushed');
    const adapter = withTopic();
    const comments = adapter.comments;
    if (comments?.receiveNotices === undefined || comments.readComments === undefined) throw new Error('no notices');
    await comments.subscribeNotices(credentials);
    const seen = pushes.received.length;
    const made = await review('gbp_pushed', 'Great coffee', 4);
    const push = await nextPush(seen);

    // As Pub/Sub pushes: the message's data base64 JSON naming the review and its location.
    expect(push.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const body = JSON.parse(push.body);
    expect(body.subscription).toBe('projects/switchboard-test/subscriptions/gbp-reviews-push');
    expect(body.message.messageId).toMatch(/^\d+$/);
    expect(Date.parse(body.message.publishTime)).not.toBeNaN();
    expect(JSON.parse(Buffer.from(body.message.data, 'base64').toString('utf8'))).toEqual({
      notificationType: 'NEW_REVIEW',
      locationName: credentials.platformUserId,
      reviewName: made.name,
    });

    const notices = await comments.receiveNotices(push);
    expect(notices).toEqual([
      {
        accountPlatformUserId: credentials.platformUserId,
        comment: {
          id: made.name,
          postId: credentials.platformUserId,
          parentId: null,
          authorId: null,
          authorUsername: null,
          text: '',
          createdAt: null,
          hidden: false,
          byAccount: false,
        },
        noticedAt: new Date(body.message.publishTime),
        named: true,
      },
    ]);
    const since = now();
    const [read] = await comments.readComments(credentials, [made.name]);
    expect(read).toMatchObject({
      id: made.name,
      postId: credentials.platformUserId,
      authorUsername: 'loyal_customer',
      text: 'Great coffee',
      rating: 4,
      byAccount: false,
    });
    expect((await sandbox.calls('google_business', 'gbp_pushed', since)).data.map((c) => [c.method, c.path])).toEqual([
      ['GET', `/mybusiness.googleapis.com/v4/${made.name}`],
    ]);

    // The customer edits it: UPDATED_REVIEW, and the review read again has the new words, stars and a later updateTime.
    advanceClock(60_000);
    const edited = await sandbox.control('PATCH', `/comments/${made.id}`, {
      text: 'Great coffee, slow queue',
      rating: 3,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const again = await nextPush(seen + 1);
    const data = JSON.parse(Buffer.from(JSON.parse(again.body).message.data, 'base64').toString('utf8'));
    expect(data).toEqual({
      notificationType: 'UPDATED_REVIEW',
      locationName: credentials.platformUserId,
      reviewName: made.name,
    });
    expect((await comments.receiveNotices(again)).map((n) => n.comment.id)).toEqual([made.name]);
    const [reread] = await comments.readComments(credentials, [made.name]);
    expect(reread).toMatchObject({ text: 'Great coffee, slow queue', rating: 3 });
    expect(reread?.editedAt?.getTime()).toBeGreaterThan(read?.editedAt?.getTime() ?? Number.POSITIVE_INFINITY);
    // A review its author deleted is left out.
    expect(await comments.readComments(credentials, [`${credentials.platformUserId}/reviews/404404`])).toEqual([]);
  });

  it('a push whose token is for another audience, another service account, expired, not signed by Google, or missing is refused', async () => {
    const credentials = await firstLocation('gbp_refused');
    await withTopic().comments?.subscribeNotices(credentials);
    const seen = pushes.received.length;
    await review('gbp_refused', 'Nice staff', 5);
    const push = await nextPush(seen);
    const refusedBy = async (adapter: PlatformAdapter, notice = push) =>
      (await platformError(adapter.comments?.receiveNotices?.(notice) ?? Promise.resolve())).kind;

    expect(
      await refusedBy(
        configured({
          googleBusinessPubsubTopic: TOPIC,
          googleBusinessPushServiceAccount: PUSHER,
          googleBusinessPushAudience: 'https://elsewhere.example.test/platform-webhooks/google_business',
        }),
      ),
    ).toBe('invalid_request');
    expect(
      await refusedBy(
        configured({
          googleBusinessPubsubTopic: TOPIC,
          googleBusinessPushServiceAccount: 'someone-else@other-project.iam.gserviceaccount.com',
        }),
      ),
    ).toBe('invalid_request');
    expect(await refusedBy(withTopic(), { ...push, headers: { ...push.headers, authorization: undefined } })).toBe(
      'invalid_request',
    );
    // The same claims signed by a key that is not Google's.
    const { privateKey } = await generateKeyPair('RS256');
    const [header = '', claims = ''] = (push.headers.authorization ?? '').slice('Bearer '.length).split('.');
    const forged = await new SignJWT(JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')))
      .setProtectedHeader(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')))
      .sign(privateKey);
    expect(
      await refusedBy(withTopic(), { ...push, headers: { ...push.headers, authorization: `Bearer ${forged}` } }),
    ).toBe('invalid_request');
    // "Tokens ... can be up to one hour old": past its hour it is refused.
    advanceClock(3601_000);
    expect(await refusedBy(withTopic())).toBe('invalid_request');
  });

  it("Google's keys out of reach: the push is not judged but left for Pub/Sub to send again (transient)", async () => {
    await withTopic().comments?.subscribeNotices(await firstLocation('gbp_no_keys'));
    const seen = pushes.received.length;
    await review('gbp_no_keys', 'Quiet and clean', 5);
    const push = await nextPush(seen);
    const unreachable = createPlatforms({
      platforms: 'sandbox',
      platformCredentials: {},
      sandboxUrl: 'http://127.0.0.1:9/sandbox',
      googleBusinessPubsubTopic: TOPIC,
      googleBusinessPushServiceAccount: PUSHER,
      googleBusinessPushAudience: AUDIENCE,
    }).adapter('google_business');
    const failed = await platformError(unreachable.comments?.receiveNotices?.(push) ?? Promise.resolve());
    expect(failed.kind).toBe('transient');
    expect(failed.passing).toBe(true);
  });
});
