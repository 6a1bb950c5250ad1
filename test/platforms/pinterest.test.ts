import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import type { AccountCredentials, PlatformAdapter, PublishRequest } from '../../src/platforms/index.ts';
import type { PinterestContext } from '../../src/platforms/pinterest/api.ts';
import { pinterestBoards } from '../../src/platforms/pinterest/boards.ts';
import { insightsOf, platformError, REDIRECT_URI, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let media: MediaServer;
let pinterest: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer();
  pinterest = sandbox.adapter('pinterest');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const DAY = 86_400_000;
// What the service asks for: the account (and its analytics), boards, and pins (Create Pin also lists boards:write).
const ALL_SCOPES = ['user_accounts:read', 'boards:read', 'boards:write', 'pins:read', 'pins:write'];

// biome-ignore lint/suspicious/noExplicitAny: the tests read the control API's JSON field by field.
async function user(username: string): Promise<any> {
  return (await sandbox.control('GET', `/users/pinterest/${username}`)).body;
}

async function fault(username: string, error: string, trigger: 'call' | 'publish' | 'refresh' = 'call') {
  const made = await sandbox.control('POST', '/faults', { platform: 'pinterest', username, error, trigger });
  expect(made.status).toBe(201);
}

/** The user's boards as Pinterest lists them (`GET /v5/boards`). */
async function boards(credentials: AccountCredentials): Promise<{ id: string; name: string }[]> {
  const answer = await sandbox.raw('GET', '/api.pinterest.com/v5/boards', { access_token: credentials.accessToken });
  expect(answer.status).toBe(200);
  return answer.body.items;
}

/** A board's pins, newest first (`GET /v5/boards/{id}/pins`). */
// biome-ignore lint/suspicious/noExplicitAny: the tests read Pinterest's JSON field by field.
async function pinsOf(credentials: AccountCredentials, boardId: string): Promise<any[]> {
  const answer = await sandbox.raw('GET', `/api.pinterest.com/v5/boards/${boardId}/pins`, {
    access_token: credentials.accessToken,
  });
  expect(answer.status).toBe(200);
  return answer.body.items;
}

/** A connected user and the id of its first board. */
async function pinner(username: string): Promise<{ credentials: AccountCredentials; boardId: string }> {
  const credentials = await sandbox.credentials('pinterest', username);
  const [board] = await boards(credentials);
  if (board === undefined) throw new Error('no board');
  return { credentials, boardId: board.id };
}

/** Publishes a request as the publishing steps do: its video uploaded and read until processed, then the pin. */
async function publish(credentials: AccountCredentials, request: PublishRequest) {
  const items = (await pinterest.publishing.createCarouselItems?.(credentials, request)) ?? undefined;
  for (const item of items ?? []) {
    expect((await pinterest.publishing.containerStatus(credentials, item)).state).toBe('in_progress');
    advanceClock(6_000);
    expect((await pinterest.publishing.containerStatus(credentials, item)).state).toBe('finished');
  }
  const { containerId } = await pinterest.publishing.createContainer(credentials, request, items);
  expect((await pinterest.publishing.containerStatus(credentials, containerId)).state).toBe('published');
  return pinterest.publishing.publishContainer(credentials, containerId);
}

describe('signing in with Pinterest', () => {
  it('sends the user to www.pinterest.com/oauth/ with the scopes separated by commas', () => {
    const url = new URL(pinterest.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'st-1' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}/www.pinterest.com/oauth/`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('scope')).toBe(ALL_SCOPES.join(','));
  });

  it('exchanges the code for an access token of 30 days and a refresh token of 60, and reads the user id', async () => {
    const before = now().getTime();
    const tokens = await sandbox.connect('pinterest', 'pin_login');
    const after = now().getTime();
    expect(tokens.platformUserId).toBe((await user('pin_login')).id);
    expect(tokens.scopes).toEqual(ALL_SCOPES);
    const expires = tokens.expiresAt?.getTime() ?? 0;
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(expires).toBeLessThanOrEqual(after + 30 * DAY);
    const refreshEnds = tokens.refreshExpiresAt?.getTime() ?? 0;
    expect(refreshEnds).toBeGreaterThanOrEqual(before + 60 * DAY);
    expect(refreshEnds).toBeLessThanOrEqual(after + 60 * DAY);
  });

  it('refuses the token endpoint without the app as Basic authentication', async () => {
    const answer = await sandbox.raw('POST', '/api.pinterest.com/v5/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: 'pinr_unknown',
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ code: 401, message: 'Authentication failed.' });
  });

  it('answers no user id without user_accounts:read, so the connection is refused for the missing permission', async () => {
    const tokens = await sandbox.connect('pinterest', 'pin_noaccount', ['boards:read', 'pins:read']);
    expect(tokens.platformUserId).toBe('');
    expect(tokens.scopes).toEqual(['boards:read', 'pins:read']);
  });

  it('refreshes with a new refresh token of 60 days, the one used refused afterwards', async () => {
    const tokens = await sandbox.connect('pinterest', 'pin_refresh');
    advanceClock(26 * DAY);
    const before = now().getTime();
    const fresh = await pinterest.refreshToken(tokens);
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    expect(fresh.refreshToken).toBeDefined();
    expect(fresh.refreshToken).not.toBe(tokens.refreshToken);
    expect(fresh.refreshExpiresAt?.getTime() ?? 0).toBeGreaterThanOrEqual(before + 60 * DAY);
    expect(fresh.platformUserId).toBe(tokens.platformUserId);
    // The new token works; the old refresh token does not.
    expect((await pinterest.profile(fresh)).username).toBe('pin_refresh');
    expect((await platformError(pinterest.refreshToken(tokens))).kind).toBe('token_expired');
  });

  it('reads an expired access token as token_expired, and a refused refresh as its kind', async () => {
    const tokens = await sandbox.connect('pinterest', 'pin_expired');
    await fault('pin_expired', 'transient', 'refresh');
    expect((await platformError(pinterest.refreshToken(tokens))).kind).toBe('transient');
    advanceClock(31 * DAY);
    const expired = await platformError(pinterest.profile(tokens));
    expect(expired.kind).toBe('token_expired');
    expect(expired.detail.status).toBe(401);
  });

  it("cannot revoke a user's token (Pinterest revokes only system users' tokens)", async () => {
    const credentials = await sandbox.credentials('pinterest', 'pin_revoke');
    expect((await platformError(pinterest.revokeAccess(credentials))).kind).toBe('unsupported');
  });
});

describe("the Pinterest user's account", () => {
  it('reads the id, username, name, picture and followers', async () => {
    const credentials = await sandbox.credentials('pinterest', 'pin_profile');
    const made = await user('pin_profile');
    expect(await pinterest.profile(credentials)).toEqual({
      id: made.id,
      username: 'pin_profile',
      name: made.name,
      avatarUrl: made.avatar_url,
      followersCount: made.followers_count,
    });
  });

  it('classifies a 403 as permission_missing and a 429 as rate_limited, waiting as Retry-After says', async () => {
    const credentials = await sandbox.credentials('pinterest', 'pin_errors');
    await fault('pin_errors', 'permission_missing');
    const missing = await platformError(pinterest.profile(credentials));
    expect(missing.kind).toBe('permission_missing');
    expect(missing.detail.missingScopes).toEqual(['user_accounts:read']);
    await fault('pin_errors', 'rate_limited');
    const limited = await platformError(pinterest.profile(credentials));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.detail.retryAfterSeconds).toBe(60);
  });
});

describe("the user's boards", () => {
  it('lists every board, 250 a page, as the values of board_id: all of them', async () => {
    const { credentials } = await pinner('pin_boards');
    const list = pinterest.publishing.optionValues?.board_id;
    if (list === undefined) throw new Error("Pinterest lists a pin's boards");
    const made = (await user('pin_boards')).pages as { id: string; name: string }[];
    expect(await list(credentials)).toEqual({
      values: made.map((b) => ({ value: b.id, label: b.name })),
      complete: true,
    });
    const asked = sandbox.requests().filter((r) => r.startsWith('GET /api.pinterest.com/v5/boards?'));
    expect(asked.at(-1)).toContain('page_size=250');
  });

  it('reads at most 1,000 boards, four pages, saying when Pinterest had more', async () => {
    const pages: Record<string, unknown>[] = [];
    const api = {
      call: async (_method: string, _path: string, _token: string, extra: { query?: Record<string, unknown> }) => {
        pages.push(extra.query ?? {});
        const page = pages.length;
        const items = Array.from({ length: 250 }, (_, i) => ({
          id: `${page}${String(i).padStart(3, '0')}`,
          name: `B${i}`,
        }));
        return { items, bookmark: `after-${page}` };
      },
    };
    const read = await pinterestBoards({ api } as unknown as PinterestContext, {
      platformUserId: 'u',
      accessToken: 't',
    });
    expect(read.values).toHaveLength(1000);
    expect(read.complete).toBe(false);
    expect(pages).toEqual([
      { page_size: 250 },
      { page_size: 250, bookmark: 'after-1' },
      { page_size: 250, bookmark: 'after-2' },
      { page_size: 250, bookmark: 'after-3' },
    ]);
  });
});

describe('pins', () => {
  it('checks a pin before any call: its board, media, and the options within their limits', () => {
    const image = { type: 'image' as const };
    const fields = (draft: Parameters<typeof pinterest.publishing.checkPublish>[0]) =>
      pinterest.publishing.checkPublish(draft).map((p) => p.field);
    const board = { board_id: '549755885175' };
    expect(fields({ media: [image], options: board })).toEqual([]);
    expect(fields({ media: [image] })).toEqual(['platforms.pinterest.board_id']);
    expect(fields({ media: [], options: board })).toEqual(['media_ids']);
    expect(fields({ media: [image, { type: 'video', durationSeconds: 10 }], options: board })).toEqual(['media_ids']);
    expect(fields({ media: [{ type: 'video', durationSeconds: 3 }], options: board })).toEqual(['media_ids']);
    expect(
      fields({
        media: [image],
        options: {
          ...board,
          title: 't'.repeat(100),
          alt_text: 'a'.repeat(500),
          link: `https://a.test/${'l'.repeat(2032)}`,
        },
      }),
    ).toEqual([]);
    expect(
      fields({
        media: [image],
        options: { ...board, title: 't'.repeat(101), alt_text: 'a'.repeat(501), link: 'ftp://a.test/' },
      }),
    ).toEqual(['platforms.pinterest.title', 'platforms.pinterest.alt_text', 'platforms.pinterest.link']);
  });

  it('pins an image to the chosen board with its title, description, link and alt text', async () => {
    const { credentials, boardId } = await pinner('pin_image');
    const published = await publish(credentials, {
      text: 'Pasta for a weeknight',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
      options: {
        board_id: boardId,
        title: 'Quick pasta',
        link: 'https://recipes.example/pasta',
        alt_text: 'A bowl of pasta',
      },
    });
    expect(published.permalink).toBe(`https://www.pinterest.com/pin/${published.id}/`);
    const [pin] = await pinsOf(credentials, boardId);
    expect(pin).toMatchObject({
      id: published.id,
      board_id: boardId,
      title: 'Quick pasta',
      description: 'Pasta for a weeknight',
      link: 'https://recipes.example/pasta',
      alt_text: 'A bowl of pasta',
      media: { media_type: 'image' },
    });
  });

  it('pins a carousel of images by their URLs', async () => {
    const { credentials, boardId } = await pinner('pin_carousel');
    const urls = ['/photo.jpg', '/photo.png', '/a/photo.jpg'].map((path) => media.url(path));
    const published = await publish(credentials, {
      text: 'Three looks',
      media: urls.map((url) => ({ type: 'image' as const, url })),
      options: { board_id: boardId },
    });
    const { body } = await sandbox.control('GET', '/activity/pinterest/pin_carousel');
    const made = body.data.find(
      (a: { action: string; target_id: string }) => a.action === 'publish' && a.target_id === published.id,
    );
    expect(made.detail).toMatchObject({ type: 'CAROUSEL', media_urls: urls, text: 'Three looks' });
  });

  it('uploads a video through the media upload, reads it until succeeded, then pins it', async () => {
    const { credentials, boardId } = await pinner('pin_video');
    const published = await publish(credentials, {
      text: 'A short clip',
      media: [{ type: 'video', url: media.url('/clip.mp4'), durationSeconds: 10 }],
      options: { board_id: boardId },
    });
    const [pin] = await pinsOf(credentials, boardId);
    expect(pin).toMatchObject({ id: published.id, media: { media_type: 'video' } });
    const requests = sandbox.requests().filter((r) => r.includes('pinterest'));
    expect(requests.some((r) => r.startsWith('POST /api.pinterest.com/v5/media'))).toBe(true);
    expect(requests.some((r) => r.startsWith('POST /pinterest-media-upload.s3-accelerate.amazonaws.com/'))).toBe(true);
  });

  it('gives a video pin the cover frame asked for (cover_image_key_frame_time); an image pin takes none', async () => {
    const { credentials, boardId } = await pinner('pin_cover');
    const published = await publish(credentials, {
      text: 'Cover at three seconds',
      media: [{ type: 'video', url: media.url('/clip.mp4'), durationSeconds: 10 }],
      options: { board_id: boardId, cover_frame_seconds: 3 },
    });
    const { body } = await sandbox.control('GET', '/activity/pinterest/pin_cover');
    const made = body.data.find(
      (a: { action: string; target_id: string }) => a.action === 'publish' && a.target_id === published.id,
    );
    expect(made.detail.options).toMatchObject({ board_id: boardId, cover_image_key_frame_time: 3 });
    expect(
      pinterest.publishing
        .checkPublish({ media: [{ type: 'image' }], options: { board_id: boardId, cover_frame_seconds: 3 } })
        .map((p) => p.field),
    ).toEqual(['platforms.pinterest.cover_frame_seconds']);
  });

  it("refuses a board that is not the user's, pinning nothing", async () => {
    const { credentials } = await pinner('pin_otherboard');
    const { boardId: theirs } = await pinner('pin_theirboard');
    const refused = await platformError(
      pinterest.publishing.createContainer(credentials, {
        media: [{ type: 'image', url: media.url('/photo.jpg') }],
        options: { board_id: theirs },
      }),
    );
    expect(refused.kind).toBe('invalid_request');
    expect(refused.detail.status).toBe(404);
  });

  it('reads the board back for a creation in doubt: the pin made since is found, another is not taken', async () => {
    const { credentials, boardId } = await pinner('pin_lost');
    const request: PublishRequest = {
      text: 'Made once',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
      options: { board_id: boardId, title: 'Once' },
    };
    const since = now();
    // The pin is on the board, but the answer to its creation was lost.
    const direct = await fetch(`${sandbox.url}/api.pinterest.com/v5/pins`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        board_id: boardId,
        description: 'Made once',
        title: 'Once',
        media_source: { source_type: 'image_url', url: media.url('/photo.jpg') },
      }),
    });
    const pin = (await direct.json()) as { id: string };
    const findCreated = pinterest.publishing.findCreated;
    if (findCreated === undefined) throw new Error('Pinterest reads a creation in doubt back');
    expect(await findCreated(credentials, request, [], since)).toEqual({ containerId: pin.id, postId: pin.id });
    expect((await pinsOf(credentials, boardId)).filter((p) => p.title === 'Once')).toHaveLength(1);
    // Not on the board: nothing is found (the publishing steps end it with outcome_unknown).
    const other = { ...request, options: { board_id: boardId, title: 'Other' } };
    expect(await findCreated(credentials, other, [], since)).toBeNull();
    expect((await pinsOf(credentials, boardId)).filter((p) => p.title === 'Other')).toHaveLength(0);
  });
});

describe('insights', () => {
  const day = (offset: number) => new Date(now().getTime() + offset * DAY).toISOString().slice(0, 10);

  async function setFigures(
    username: string,
    metric: string,
    values: { day: string; value: number | null }[],
    postId?: string,
  ) {
    const set = await sandbox.control('PUT', '/insights', {
      platform: 'pinterest',
      username,
      metric,
      values,
      ...(postId === undefined ? {} : { post_id: postId }),
    });
    expect(set.status).toBe(200);
  }

  it("reads the account's figures per day, no data as null, and its followers today", async () => {
    const credentials = await sandbox.credentials('pinterest', 'pin_insights');
    await setFigures('pin_insights', 'IMPRESSION', [
      { day: day(-2), value: 120 },
      { day: day(-1), value: null },
      { day: day(0), value: 0 },
    ]);
    await setFigures('pin_insights', 'SAVE', [
      { day: day(-2), value: 7 },
      { day: day(-1), value: null },
      { day: day(0), value: 3 },
    ]);
    await setFigures('pin_insights', 'follower_count', [{ day: day(0), value: 4321 }]);
    const { figures } = await insightsOf(pinterest).accountInsights(
      credentials,
      [day(-2), day(-1), day(0)],
      ['views', 'saves', 'followers_count'],
    );
    expect(figures).toEqual({
      [day(-2)]: { views: 120, saves: 7, followers_count: null },
      [day(-1)]: { views: null, saves: null, followers_count: null },
      [day(0)]: { views: 0, saves: 3, followers_count: 4321 },
    });
    const asked = sandbox.requests().filter((r) => r.startsWith('GET /api.pinterest.com/v5/user_account/analytics'));
    expect(asked.at(-1)).toContain(`start_date=${day(-2)}`);
    expect(asked.at(-1)).toContain('metric_types=IMPRESSION%2CSAVE');
  });

  it('answers days more than 90 days back as no data, without asking Pinterest for them', async () => {
    const credentials = await sandbox.credentials('pinterest', 'pin_insights_old');
    const { figures } = await insightsOf(pinterest).accountInsights(credentials, [day(-120)], ['views']);
    expect(figures).toEqual({ [day(-120)]: { views: null } });
  });

  it("reads a pin's figures, a metric without data as null", async () => {
    const { credentials, boardId } = await pinner('pin_insights_pin');
    const published = await publish(credentials, {
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
      options: { board_id: boardId },
    });
    const board = (await user('pin_insights_pin')).pages.find((p: { id: string }) => p.id === boardId);
    await setFigures(board.username, 'IMPRESSION', [{ day: day(0), value: 900 }], published.id);
    await setFigures(board.username, 'OUTBOUND_CLICK', [{ day: day(0), value: null }], published.id);
    const { figures } = await insightsOf(pinterest).postInsights(credentials, published.id, [
      'views',
      'outbound_clicks',
    ]);
    expect(figures).toEqual({ views: 900, outbound_clicks: null });
  });

  it('names the scopes insights need when Pinterest refuses them for a permission', async () => {
    const credentials = await sandbox.credentials('pinterest', 'pin_insights_refused');
    await fault('pin_insights_refused', 'permission_missing');
    const refused = await platformError(insightsOf(pinterest).accountInsights(credentials, [day(0)], ['views']));
    expect(refused.kind).toBe('permission_missing');
    expect(refused.detail.missingScopes).toEqual(['user_accounts:read', 'boards:read', 'pins:read']);
  });
});
