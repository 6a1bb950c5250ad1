import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import {
  type AccountCredentials,
  missingScopes,
  type PlatformAdapter,
  type TokenSet,
} from '../../src/platforms/index.ts';
import {
  insightsOf,
  pagesOf,
  platformError,
  REDIRECT_URI,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

/** An MP4 of 9 MiB: three parts of LinkedIn's 4 MiB, the last of 1 MiB. */
const LONG_VIDEO = Buffer.concat([
  Buffer.from([0x00, 0x00, 0x00, 0x18]),
  Buffer.from('ftypisom\0\0\x02\0isomiso2'),
  Buffer.alloc(9 * 1024 * 1024 - 24, 3),
]);

let sandbox: TestSandbox;
let media: MediaServer;
let linkedin: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  // A photo larger than a web server takes as a request body by default (1 MiB).
  const big = Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    Buffer.alloc(3 * 1024 * 1024, 7),
    Buffer.from([0xff, 0xd9]),
  ]);
  // A PNG whose header says 6,100 x 6,000 pixels: more than LinkedIn's 36,152,320.
  const huge = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(huge);
  huge.write('IHDR', 12, 'latin1');
  huge.writeUInt32BE(6_100, 16);
  huge.writeUInt32BE(6_000, 20);
  media = await startMediaServer({
    '/big.jpg': { type: 'image/jpeg', body: big },
    '/long.mp4': { type: 'video/mp4', body: LONG_VIDEO },
    '/deck.pdf': {
      type: 'application/pdf',
      body: Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
    },
    '/huge.png': { type: 'image/png', body: huge },
  });
  linkedin = sandbox.adapter('linkedin');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

const DAY = 86_400_000;
// Community Management API permissions: the member's id, the organizations administered, their posts.
const ALL_SCOPES = [
  'r_basicprofile',
  'rw_organization_admin',
  'r_organization_social',
  'w_organization_social',
  'w_member_social',
];

async function login(username: string, granted?: string[]): Promise<TokenSet> {
  return sandbox.connect('linkedin', username, granted);
}

/** The member's first organization page, as the account the service stores: the page's id, the member's token. */
async function firstOrganization(username: string, granted?: string[]): Promise<AccountCredentials> {
  const tokens = await login(username, granted);
  const [page] = await pagesOf(linkedin)(tokens);
  if (page === undefined) throw new Error('no organization');
  return { platformUserId: page.id, accessToken: tokens.accessToken };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the control API's JSON field by field.
async function member(username: string): Promise<any> {
  return (await sandbox.control('GET', `/users/linkedin/${username}`)).body;
}

/** The posts the sandbox made through the API for the member's pages, as the activity log recorded them. */
async function published(username: string): Promise<{ target_id: string; detail: Record<string, unknown> }[]> {
  const { body } = await sandbox.control('GET', `/activity/linkedin/${username}`);
  return body.data.filter((a: { action: string }) => a.action === 'publish');
}

async function fault(username: string, error: string, trigger: 'call' | 'publish' | 'refresh' = 'call') {
  expect((await sandbox.control('POST', '/faults', { platform: 'linkedin', username, error, trigger })).status).toBe(
    201,
  );
}

/** A REST call straight to the sandbox's api.linkedin.com, with the headers given. */
async function rest(
  method: 'GET' | 'POST',
  path: string,
  token: string,
  headers: Record<string, string>,
  json?: unknown,
) {
  const response = await request(`${sandbox.url}/api.linkedin.com/rest${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...headers,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}
/**
 * How long a token given between `before` and `after` lives, to the second (the clock runs
 * while the sandbox answers): `end` minus the issue time, which lies in that window.
 */
function lifetime(end: Date | null | undefined, before: number, after: number): number | null {
  if (!end) return null;
  const longest = end.getTime() - before;
  const shortest = end.getTime() - after;
  // The whole number of minutes nearest the window: the lifetimes LinkedIn documents are whole
  // days, and a login on a busy machine can take more than the half second a rounding to
  // seconds would allow.
  const minutes = Math.round(longest / 60_000) * 60_000;
  return minutes >= shortest - 1000 && minutes <= longest + 1000 ? minutes : longest;
}
const VERSIONED = { 'linkedin-version': '202605', 'x-restli-protocol-version': '2.0.0' };

type PublishRequest = Parameters<PlatformAdapter['publishing']['createContainer']>[1];

/** The media uploaded before the post, as the service's publishing step makes them. */
async function uploadMedia(account: AccountCredentials, request: PublishRequest): Promise<string[]> {
  const make = linkedin.publishing.createCarouselItems;
  if (make === undefined) throw new Error('LinkedIn uploads no media before its posts');
  return (await make(account, request)) ?? [];
}

/**
 * A post with media as the service publishes it: the media uploaded, read until AVAILABLE (the
 * sandbox processes an image for container_processing_seconds, 5 by default), then the post.
 */
async function publishWithMedia(account: AccountCredentials, request: PublishRequest) {
  const items = await uploadMedia(account, request);
  advanceClock(5_000);
  for (const item of items) {
    expect(await linkedin.publishing.containerStatus(account, item)).toEqual({ state: 'finished' });
  }
  return await linkedin.publishing.createContainer(account, request, items);
}

describe('linkedin: sign-in and organization pages', () => {
  it('builds the documented authorization URL, the permissions space separated', () => {
    const url = new URL(linkedin.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's 1' }));
    expect(url.pathname).toBe('/sandbox/www.linkedin.com/oauth/v2/authorization');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'switchboard-sandbox',
      redirect_uri: REDIRECT_URI,
      state: 's 1',
      scope: ALL_SCOPES.join(' '),
    });
    expect(linkedin.scopes.required).toEqual(['r_basicprofile', 'rw_organization_admin']);
  });

  it('Cancel comes back with error=user_cancelled_authorize and the state', async () => {
    const params = await sandbox.authorize('linkedin', { username: 'li_cancel', cancel: true, state: 'xyz' });
    expect(Object.fromEntries(params)).toEqual({
      error: 'user_cancelled_authorize',
      error_description: 'The user cancelled the authorization',
      state: 'xyz',
    });
    expect(linkedin.parseCallback(Object.fromEntries(params))).toEqual({
      outcome: 'denied',
      error: 'user_cancelled_authorize',
      description: 'The user cancelled the authorization',
      state: 'xyz',
    });
  });

  it("a login: the member's id, a 60-day access token, a 365-day refresh token, and the organizations they administer", async () => {
    const before = now().getTime();
    const tokens = await login('li_member');
    const after = now().getTime();
    const user = await member('li_member');
    expect(tokens.platformUserId).toBe(user.id);
    // A member id is LinkedIn's own kind (urn:li:person:<id>), not an organization's number.
    expect(tokens.platformUserId).not.toMatch(/^\d+$/);
    expect(tokens.scopes).toEqual(ALL_SCOPES);
    expect(lifetime(tokens.expiresAt, before, after)).toBe(60 * DAY);
    expect(tokens.refreshToken).toBeTypeOf('string');
    expect(lifetime(tokens.refreshExpiresAt, before, after)).toBe(365 * DAY);

    const pages = await pagesOf(linkedin)(tokens);
    expect(user.pages).toHaveLength(2);
    expect(pages).toEqual(
      user.pages.map((p: { id: string; name: string }) => ({
        id: p.id,
        name: p.name,
        avatarUrl: null,
        // Acted on with the member's token: LinkedIn has no token per organization.
        accessToken: null,
        instagramBusinessAccountId: null,
      })),
    );
    for (const page of pages) expect(page.id).toMatch(/^\d+$/);

    const [first] = user.pages;
    const profile = await linkedin.profile({ platformUserId: first.id, accessToken: tokens.accessToken });
    expect(profile).toEqual({
      id: first.id,
      username: first.username,
      name: first.name,
      avatarUrl: null,
      followersCount: null,
    });
  });

  it("another member's organization is refused as a missing permission (403 ACCESS_DENIED)", async () => {
    const mine = await login('li_own');
    expect((await sandbox.control('POST', '/users', { platform: 'linkedin', username: 'li_other_admin' })).status).toBe(
      201,
    );
    const theirs = await member('li_other_admin');
    const error = await platformError(
      linkedin.profile({ platformUserId: theirs.pages[0].id, accessToken: mine.accessToken }),
    );
    expect(error.kind).toBe('permission_missing');
    expect(error.detail).toMatchObject({ status: 403, code: 'ACCESS_DENIED', subcode: 100 });
  });

  it('a refresh gives a new 60-day access token; the refresh token keeps its end, a year after the consent', async () => {
    const before = now().getTime();
    const tokens = await login('li_refresh');
    const after = now().getTime();
    advanceClock(59 * DAY);
    const refreshedAt = now().getTime();
    const fresh = await linkedin.refreshToken({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken as string,
      platformUserId: '123',
    });
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    expect(lifetime(fresh.expiresAt, refreshedAt, now().getTime())).toBe(60 * DAY);
    expect(fresh.refreshToken).toBe(tokens.refreshToken);
    // The same end as the consent's refresh token (to the second LinkedIn counts in).
    expect(Math.abs((fresh.refreshExpiresAt?.getTime() ?? 0) - (tokens.refreshExpiresAt?.getTime() ?? 0))).toBeLessThan(
      1000,
    );
    expect(lifetime(fresh.refreshExpiresAt, before, after + 1000)).toBe(365 * DAY);
    expect(fresh.platformUserId).toBe('123');
    const pages = await pagesOf(linkedin)({ platformUserId: tokens.platformUserId, accessToken: fresh.accessToken });
    expect(pages).toHaveLength(2);

    // Past the year, the member must consent again.
    advanceClock(307 * DAY);
    const error = await platformError(
      linkedin.refreshToken({
        accessToken: fresh.accessToken,
        refreshToken: tokens.refreshToken as string,
        platformUserId: '123',
      }),
    );
    expect(error.kind).toBe('token_expired');
    expect(error.detail).toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('an access token past its 60 days is token_expired (401 EXPIRED_ACCESS_TOKEN)', async () => {
    const account = await firstOrganization('li_lapsed');
    advanceClock(60 * DAY + 1_000);
    const error = await platformError(linkedin.profile(account));
    expect(error.kind).toBe('token_expired');
    expect(error.detail).toMatchObject({ status: 401, code: 'EXPIRED_ACCESS_TOKEN', subcode: 65602 });
  });

  it('LinkedIn errors by class: revoked, missing permission, daily limit (until midnight UTC), server error', async () => {
    const account = await firstOrganization('li_errors');
    await fault('li_errors', 'access_revoked');
    expect(await platformError(linkedin.profile(account))).toMatchObject({
      kind: 'access_revoked',
      detail: { status: 401, code: 'REVOKED_ACCESS_TOKEN', subcode: 65601 },
    });
    await fault('li_errors', 'permission_missing');
    expect((await platformError(linkedin.profile(account))).kind).toBe('permission_missing');
    await fault('li_errors', 'rate_limited');
    const limited = await platformError(linkedin.profile(account));
    expect(limited.kind).toBe('rate_limited');
    const at = now();
    const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
    expect(limited.detail.retryAfterSeconds).toBe(Math.ceil((midnight - at.getTime()) / 1000));
    await fault('li_errors', 'transient');
    expect((await platformError(linkedin.profile(account))).kind).toBe('transient');
    // "Error Handling" tells a revoked token from an expired one by its message alone.
    const revoked = { status: 401, message: 'The token used in the request has been revoked by the user' };
    const set = await sandbox.control('POST', '/faults', {
      platform: 'linkedin',
      username: 'li_errors',
      error: 'custom',
      status: 401,
      body: revoked,
    });
    expect(set.status).toBe(201);
    expect((await platformError(linkedin.profile(account))).kind).toBe('access_revoked');
  });

  it('a login without the organization permission is told by the granted scopes', async () => {
    const tokens = await login('li_partial', ['r_basicprofile']);
    expect(tokens.scopes).toEqual(['r_basicprofile']);
    const error = await platformError(pagesOf(linkedin)(tokens));
    expect(error.kind).toBe('permission_missing');
  });

  it("revoking one organization page, or the member's own profile, is unsupported: the token is the whole member grant", async () => {
    const account = await firstOrganization('li_revoke');
    expect((await platformError(linkedin.revokeAccess(account))).kind).toBe('unsupported');
    const user = await member('li_revoke');
    const self = { platformUserId: `urn:li:person:${user.id}`, accessToken: account.accessToken };
    expect((await platformError(linkedin.revokeAccess(self))).kind).toBe('unsupported');
  });

  it('the REST API requires LinkedIn-Version (YYYYMM) and X-Restli-Protocol-Version 2.0.0', async () => {
    const tokens = await login('li_versions');
    const missing = await rest('GET', '/me', tokens.accessToken, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 400, code: 'VERSION_MISSING' });
    const future = await rest('GET', '/me', tokens.accessToken, { ...VERSIONED, 'linkedin-version': '209901' });
    expect(future.status).toBe(426);
    expect(future.body).toMatchObject({ code: 'NONEXISTENT_VERSION' });
    const ok = await rest('GET', '/me', tokens.accessToken, VERSIONED);
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(tokens.platformUserId);
  });
});

describe('linkedin: publishing as an organization', () => {
  it('a text post: the reserved characters escaped, so LinkedIn shows the text whole; its URN and feed link', async () => {
    const account = await firstOrganization('li_text');
    const text =
      'Q&A (part 1) [draft] <b> 50% off_today *now* ~ok~ | a\\b {x} @someone #launch C# 😀 with @[Acme](urn:li:organization:42)';
    expect(linkedin.publishing.checkPublish({ text, media: [] })).toEqual([]);
    const { containerId } = await linkedin.publishing.createContainer(account, { text, media: [] });
    expect(containerId).toMatch(/^urn:li:share:\d+$/);
    expect(await linkedin.publishing.containerStatus(account, containerId)).toEqual({ state: 'published' });
    const post = await linkedin.publishing.findPublished(account, containerId);
    expect(post).toEqual({ id: containerId, permalink: `https://www.linkedin.com/feed/update/${containerId}` });

    const [record] = await published('li_text');
    expect(record?.target_id).toBe(containerId.replace('urn:li:share:', ''));
    // What LinkedIn shows: the text as written, the mention by name, the hashtag kept.
    expect(record?.detail).toMatchObject({
      text: 'Q&A (part 1) [draft] <b> 50% off_today *now* ~ok~ | a\\b {x} @someone #launch C# 😀 with @Acme',
      cut_short: false,
      type: 'TEXT',
    });
    const organization = await member((await member('li_text')).pages[0].username);
    expect(organization.posts[0]).toMatchObject({
      id: record?.target_id,
      via_api: true,
      permalink: post && 'permalink' in post ? post.permalink : null,
    });
  });

  it('unescaped, LinkedIn cuts the text at the first reserved character (yet answers 201)', async () => {
    const tokens = await login('li_unescaped');
    const [page] = await pagesOf(linkedin)(tokens);
    const created = await rest('POST', '/posts', tokens.accessToken, VERSIONED, {
      author: `urn:li:organization:${page?.id}`,
      commentary: 'Launch (beta) today',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
    });
    expect(created.status).toBe(201);
    expect(created.headers['x-restli-id']).toMatch(/^urn:li:share:\d+$/);
    const [record] = await published('li_unescaped');
    expect(record?.detail).toMatchObject({ text: 'Launch ', cut_short: true });
  });

  it('one image: initializeUpload, the bytes PUT to the upload URL, AVAILABLE, then the post naming the image', async () => {
    const account = await firstOrganization('li_image');
    const { containerId } = await publishWithMedia(account, {
      text: 'One photo',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    expect(containerId).toMatch(/^urn:li:share:\d+$/);
    const [record] = await published('li_image');
    expect(record?.detail).toMatchObject({ text: 'One photo', type: 'IMAGE' });
    expect(record?.detail.media_urls).toHaveLength(1);
    expect(media.fetches.get('/photo.jpg')).toBeGreaterThanOrEqual(1);
  });

  it('an image of several MiB is uploaded whole', async () => {
    const account = await firstOrganization('li_big_image');
    await publishWithMedia(account, { media: [{ type: 'image', url: media.url('/big.jpg') }] });
    const [record] = await published('li_big_image');
    expect(record?.detail).toMatchObject({ type: 'IMAGE' });
  });

  it('several images make one MultiImage post, in order', async () => {
    const account = await firstOrganization('li_multi');
    const images = ['/photo.jpg', '/photo.png', '/photo.jpg'].map((path) => ({
      type: 'image' as const,
      url: media.url(path),
    }));
    await publishWithMedia(account, { text: 'Three photos', media: images });
    const [record] = await published('li_multi');
    expect(record?.detail).toMatchObject({ text: 'Three photos', type: 'MULTI_IMAGE' });
    const urls = record?.detail.media_urls as string[];
    expect(urls).toHaveLength(3);
    expect(urls.map((u) => u.split('.').at(-1))).toEqual(['jpeg', 'png', 'jpeg']);
  });

  it('a file that is not an image is refused by the upload, and nothing is posted', async () => {
    const account = await firstOrganization('li_not_image');
    const error = await platformError(
      uploadMedia(account, { media: [{ type: 'image', url: media.url('/page.jpg') }] }),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.detail).toMatchObject({ status: 400 });
    expect(await published('li_not_image')).toEqual([]);
  });

  it('an uploaded image is PROCESSING until LinkedIn has processed it: a post naming it before is refused', async () => {
    const account = await firstOrganization('li_processing');
    const request = { text: 'Too soon', media: [{ type: 'image' as const, url: media.url('/photo.jpg') }] };
    const [image] = await uploadMedia(account, request);
    expect(image).toMatch(/^urn:li:image:\w+$/);
    expect(await linkedin.publishing.containerStatus(account, image as string)).toEqual({
      state: 'in_progress',
      message: 'LinkedIn is processing the image (PROCESSING).',
    });
    const early = await platformError(linkedin.publishing.createContainer(account, request, [image as string]));
    expect(early.kind).toBe('invalid_request');
    expect(early.detail).toMatchObject({ status: 400 });
    expect(await published('li_processing')).toEqual([]);
    advanceClock(5_000);
    expect(await linkedin.publishing.containerStatus(account, image as string)).toEqual({ state: 'finished' });
    const { containerId } = await linkedin.publishing.createContainer(account, request, [image as string]);
    expect(containerId).toMatch(/^urn:li:share:\d+$/);
    expect((await published('li_processing'))[0]?.detail).toMatchObject({ text: 'Too soon', type: 'IMAGE' });
  });

  it('an image LinkedIn cannot process (over 36,152,320 pixels) ends PROCESSING_FAILED, and is never posted', async () => {
    const account = await firstOrganization('li_huge');
    const request = { media: [{ type: 'image' as const, url: media.url('/huge.png') }] };
    const [image] = await uploadMedia(account, request);
    advanceClock(5_000);
    expect(await linkedin.publishing.containerStatus(account, image as string)).toEqual({
      state: 'failed',
      message: 'LinkedIn could not process the image (PROCESSING_FAILED)',
    });
    expect((await platformError(linkedin.publishing.createContainer(account, request, [image as string]))).kind).toBe(
      'invalid_request',
    );
    expect(await published('li_huge')).toEqual([]);
  });

  it('a passing failure of an upload is transient, before any post; a post with media is never made without it', async () => {
    const account = await firstOrganization('li_upload_fails');
    const request = { text: 'x', media: [{ type: 'image' as const, url: media.url('/photo.jpg') }] };
    await fault('li_upload_fails', 'transient');
    expect((await platformError(uploadMedia(account, request))).kind).toBe('transient');
    expect((await platformError(linkedin.publishing.createContainer(account, request))).kind).toBe('invalid_request');
    expect(await published('li_upload_fails')).toEqual([]);
  });

  it('a video: initializeUpload with its size, each part PUT in the ranges LinkedIn gives, finalizeUpload, AVAILABLE, then the post', async () => {
    const account = await firstOrganization('li_video');
    const request = {
      text: 'Our launch film',
      media: [
        { type: 'video' as const, url: media.url('/long.mp4'), durationSeconds: 40, sizeBytes: LONG_VIDEO.length },
      ],
    };
    const [video] = await uploadMedia(account, request);
    expect(video).toMatch(/^urn:li:video:\w+$/);
    // Three ranges asked of the media server, one per part: 4 MiB, 4 MiB, 1 MiB.
    expect(media.fetches.get('/long.mp4')).toBe(3);
    expect(await linkedin.publishing.containerStatus(account, video as string)).toEqual({
      state: 'in_progress',
      message: 'LinkedIn is processing the video (PROCESSING).',
    });
    advanceClock(5_000);
    expect(await linkedin.publishing.containerStatus(account, video as string)).toEqual({ state: 'finished' });
    const { containerId } = await linkedin.publishing.createContainer(account, request, [video as string]);
    expect(containerId).toMatch(/^urn:li:share:\d+$/);
    const [record] = await published('li_video');
    expect(record?.detail).toMatchObject({ text: 'Our launch film', type: 'VIDEO' });
    expect(record?.detail.media_urls).toEqual([
      expect.stringMatching(/^https:\/\/media\.licdn\.com\/dms\/video\/\d+\.mp4$/),
    ]);
  });

  it('a video whose bytes are not an MP4 ends PROCESSING_FAILED, and is never posted', async () => {
    const account = await firstOrganization('li_bad_video');
    const request = { media: [{ type: 'video' as const, url: media.url('/png.mp4'), sizeBytes: 108 }] };
    const [video] = await uploadMedia(account, request);
    advanceClock(5_000);
    expect(await linkedin.publishing.containerStatus(account, video as string)).toEqual({
      state: 'failed',
      message: 'LinkedIn could not process the video (PROCESSING_FAILED)',
    });
    expect(await published('li_bad_video')).toEqual([]);
  });

  it('LinkedIn ends an upload only with the ETag of every part, in order', async () => {
    const tokens = await login('li_etags');
    const [page] = await pagesOf(linkedin)(tokens);
    const init = await rest('POST', '/videos?action=initializeUpload', tokens.accessToken, VERSIONED, {
      initializeUploadRequest: { owner: `urn:li:organization:${page?.id}`, fileSizeBytes: 5 * 1024 * 1024 },
    });
    expect(init.status).toBe(200);
    const { video, uploadInstructions } = init.body.value;
    expect(uploadInstructions.map((p: { firstByte: number; lastByte: number }) => [p.firstByte, p.lastByte])).toEqual([
      [0, 4_194_303],
      [4_194_304, 5_242_879],
    ]);
    const etags: string[] = [];
    for (const part of uploadInstructions) {
      const put = await request(part.uploadUrl, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(part.lastByte - part.firstByte + 1, 1),
      });
      await put.body.dump();
      expect(put.statusCode).toBe(200);
      etags.push(String(put.headers.etag));
    }
    const finalize = (ids: string[]) =>
      rest('POST', '/videos?action=finalizeUpload', tokens.accessToken, VERSIONED, {
        finalizeUploadRequest: { video, uploadToken: '', uploadedPartIds: ids },
      });
    expect((await finalize([...etags].reverse())).status).toBe(400);
    expect((await finalize(etags.slice(0, 1))).status).toBe(400);
    expect((await finalize(etags)).status).toBe(200);
  });

  it('a document: initializeUpload, the PDF PUT to the upload URL, AVAILABLE, then the post naming it with its title', async () => {
    const account = await firstOrganization('li_document');
    const request = {
      text: 'Our Q3 report',
      media: [{ type: 'document' as const, url: media.url('/deck.pdf') }],
      options: { document_title: 'Q3 report (PDF)' },
    };
    expect(linkedin.publishing.checkPublish(request)).toEqual([]);
    const [document] = await uploadMedia(account, request);
    expect(document).toMatch(/^urn:li:document:\w+$/);
    expect(await linkedin.publishing.containerStatus(account, document as string)).toEqual({
      state: 'in_progress',
      message: 'LinkedIn is processing the document (PROCESSING).',
    });
    advanceClock(5_000);
    expect(await linkedin.publishing.containerStatus(account, document as string)).toEqual({ state: 'finished' });
    await linkedin.publishing.createContainer(account, request, [document as string]);
    const [record] = await published('li_document');
    expect(record?.detail).toMatchObject({
      text: 'Our Q3 report',
      type: 'DOCUMENT',
      options: { title: 'Q3 report (PDF)' },
      media_urls: [expect.stringMatching(/^https:\/\/media\.licdn\.com\/dms\/document\/\d+\.pdf$/)],
    });
  });

  it('a document whose bytes are not a PDF ends PROCESSING_FAILED, and is never posted', async () => {
    const account = await firstOrganization('li_bad_document');
    const request = {
      media: [{ type: 'document' as const, url: media.url('/photo.png') }],
      options: { document_title: 'Not a PDF' },
    };
    const [document] = await uploadMedia(account, request);
    advanceClock(5_000);
    expect(await linkedin.publishing.containerStatus(account, document as string)).toEqual({
      state: 'failed',
      message: 'LinkedIn could not process the document (PROCESSING_FAILED)',
    });
    expect(await published('li_bad_document')).toEqual([]);
  });

  it('checks before any call: a document alone, with a title, at most 100 MB', () => {
    const check = (draft: Parameters<typeof linkedin.publishing.checkPublish>[0]) =>
      linkedin.publishing.checkPublish(draft).map((p) => p.field);
    const pdf = { type: 'document' as const };
    const titled = { document_title: 'Deck' };
    expect(check({ media: [{ ...pdf, sizeBytes: 104_857_600 }], options: titled })).toEqual([]);
    expect(check({ media: [{ ...pdf, sizeBytes: 104_857_601 }], options: titled })).toEqual(['media_ids']);
    expect(check({ media: [pdf] })).toEqual(['platforms.linkedin.document_title']);
    expect(check({ media: [pdf], options: { document_title: ' ' } })).toEqual(['platforms.linkedin.document_title']);
    expect(check({ media: [pdf, { type: 'image' }], options: titled })).toEqual(['media_ids']);
    expect(check({ media: [{ type: 'image' }], options: titled })).toEqual(['platforms.linkedin.document_title']);
  });

  it('checks before any call: 3,000 UTF-16 code units of text, 20 images, one video of 3 s to 30 min and 500 MB, text or media', () => {
    const check = (draft: Parameters<typeof linkedin.publishing.checkPublish>[0]) =>
      linkedin.publishing.checkPublish(draft).map((p) => p.field);
    expect(check({ text: 'a'.repeat(3000), media: [] })).toEqual([]);
    expect(check({ text: 'a'.repeat(3001), media: [] })).toEqual(['text']);
    // 😀 is two UTF-16 code units.
    expect(check({ text: `${'a'.repeat(2998)}😀`, media: [] })).toEqual([]);
    expect(check({ text: `${'a'.repeat(2999)}😀`, media: [] })).toEqual(['text']);
    const image = { type: 'image' as const };
    expect(check({ media: Array(20).fill(image) })).toEqual([]);
    expect(check({ media: Array(21).fill(image) })).toEqual(['media_ids']);
    // A video: 3 seconds to 30 minutes, at most 500 MB, alone in its post.
    expect(check({ media: [{ type: 'video', durationSeconds: 3 }] })).toEqual([]);
    expect(check({ media: [{ type: 'video', durationSeconds: 1_800, sizeBytes: 524_288_000 }] })).toEqual([]);
    expect(check({ media: [{ type: 'video', durationSeconds: 2 }] })).toEqual(['media_ids']);
    expect(check({ media: [{ type: 'video', durationSeconds: 1_801 }] })).toEqual(['media_ids']);
    expect(check({ media: [{ type: 'video', sizeBytes: 524_288_001 }] })).toEqual(['media_ids']);
    expect(check({ media: [{ type: 'video' }, image] })).toEqual(['media_ids']);
    expect(check({ media: [{ type: 'video' }, { type: 'video' }] })).toEqual(['media_ids']);
    expect(check({ text: '  ', media: [] })).toEqual(['text']);
  });

  it('a post refused for a missing permission, or lost on the way, is reported by its class', async () => {
    const account = await firstOrganization('li_publish_errors');
    await fault('li_publish_errors', 'permission_missing', 'publish');
    expect((await platformError(linkedin.publishing.createContainer(account, { text: 'x', media: [] }))).kind).toBe(
      'permission_missing',
    );
    await fault('li_publish_errors', 'transient', 'publish');
    expect((await platformError(linkedin.publishing.createContainer(account, { text: 'x', media: [] }))).kind).toBe(
      'transient',
    );
    expect(await published('li_publish_errors')).toEqual([]);
  });
});

describe("linkedin: the member's own profile", () => {
  /** The member's own profile, as the account the service stores: the first page a login granting w_member_social offers. */
  async function memberAccount(username: string, granted = ALL_SCOPES): Promise<AccountCredentials> {
    const tokens = await login(username, granted);
    const [page] = await pagesOf(linkedin)(tokens, tokens.scopes ?? []);
    if (page === undefined) throw new Error('nothing offered');
    return { platformUserId: page.id, accessToken: tokens.accessToken };
  }

  it('is offered first, named as the profile names the member, where the login granted w_member_social; the organizations follow', async () => {
    const tokens = await login('li_self');
    const user = await member('li_self');
    const pages = await pagesOf(linkedin)(tokens, tokens.scopes ?? []);
    expect(pages.map((p) => ({ id: p.id, name: p.name }))).toEqual([
      { id: `urn:li:person:${user.id}`, name: user.name },
      ...user.pages.map((p: { id: string; name: string }) => ({ id: p.id, name: p.name })),
    ]);
    expect(pages[0]).toMatchObject({ accessToken: null, avatarUrl: null });
    // Its profile: the member's URN, vanity name and name (GET /rest/me).
    const profile = await linkedin.profile({
      platformUserId: `urn:li:person:${user.id}`,
      accessToken: tokens.accessToken,
    });
    expect(profile).toEqual({
      id: `urn:li:person:${user.id}`,
      username: user.username,
      name: user.name,
      avatarUrl: null,
      followersCount: null,
    });

    // Without w_member_social: the organizations alone.
    const without = ALL_SCOPES.filter((s) => s !== 'w_member_social');
    const orgsOnly = await login('li_self', without);
    expect((await pagesOf(linkedin)(orgsOnly, orgsOnly.scopes ?? [])).map((p) => p.id)).toEqual(
      user.pages.map((p: { id: string }) => p.id),
    );
  });

  it('a post with an image is authored urn:li:person, the image uploaded with the member as its owner', async () => {
    const account = await memberAccount('li_self_image');
    const user = await member('li_self_image');
    expect(account.platformUserId).toBe(`urn:li:person:${user.id}`);
    const { containerId } = await publishWithMedia(account, {
      text: 'My own photo',
      media: [{ type: 'image', url: media.url('/photo.jpg') }],
    });
    expect(containerId).toMatch(/^urn:li:share:\d+$/);
    const records = await published('li_self_image');
    expect(records).toHaveLength(1);
    expect(records[0]?.detail).toMatchObject({
      author: `urn:li:person:${user.id}`,
      text: 'My own photo',
      type: 'IMAGE',
    });
    expect(records[0]?.detail.media_urls).toEqual([
      expect.stringMatching(/^https:\/\/media\.licdn\.com\/dms\/image\/\d+\.jpeg$/),
    ]);
  });

  it('a post with a video is authored urn:li:person, the video uploaded in parts with the member as its owner', async () => {
    const account = await memberAccount('li_self_video');
    const user = await member('li_self_video');
    const { containerId } = await publishWithMedia(account, {
      text: 'My own film',
      media: [{ type: 'video', url: media.url('/long.mp4'), durationSeconds: 40, sizeBytes: LONG_VIDEO.length }],
    });
    expect(containerId).toMatch(/^urn:li:share:\d+$/);
    const [record] = await published('li_self_video');
    expect(record?.detail).toMatchObject({ author: `urn:li:person:${user.id}`, text: 'My own film', type: 'VIDEO' });
  });

  it('a text post, a MultiImage post and a document post are authored urn:li:person too', async () => {
    const account = await memberAccount('li_self_kinds');
    const user = await member('li_self_kinds');
    await linkedin.publishing.createContainer(account, { text: 'Just words', media: [] });
    await publishWithMedia(account, {
      text: 'Two photos',
      media: [
        { type: 'image', url: media.url('/photo.jpg') },
        { type: 'image', url: media.url('/photo.png') },
      ],
    });
    await publishWithMedia(account, {
      text: 'My deck',
      media: [{ type: 'document', url: media.url('/deck.pdf') }],
      options: { document_title: 'My deck (PDF)' },
    });
    const records = await published('li_self_kinds');
    const byText = new Map(records.map((r) => [r.detail.text, r.detail]));
    const author = `urn:li:person:${user.id}`;
    expect(byText.get('Just words')).toMatchObject({ author, type: 'TEXT' });
    expect(byText.get('Two photos')).toMatchObject({ author, type: 'MULTI_IMAGE' });
    expect(byText.get('My deck')).toMatchObject({ author, type: 'DOCUMENT', options: { title: 'My deck (PDF)' } });
  });

  it("LinkedIn refuses a post by another member, and the member's post without w_member_social; the refusal names that permission", async () => {
    const mine = await memberAccount('li_self_refused');
    const theirs = await member('li_self_other');
    const refused = await rest('POST', '/posts', mine.accessToken, VERSIONED, {
      author: `urn:li:person:${theirs.id}`,
      commentary: 'Not mine',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED' } });

    // A grant that lost w_member_social since the connection.
    const without = await login(
      'li_self_refused',
      ALL_SCOPES.filter((s) => s !== 'w_member_social'),
    );
    const account = { platformUserId: mine.platformUserId, accessToken: without.accessToken };
    const error = await platformError(linkedin.publishing.createContainer(account, { text: 'x', media: [] }));
    expect(error.kind).toBe('permission_missing');
    expect(error.detail.missingScopes).toEqual(['w_member_social']);
    expect(await published('li_self_refused')).toEqual([]);
  });

  it('reads no comments (r_member_social is for select developers), replies to none, and its figures need r_member_postAnalytics', async () => {
    const account = await memberAccount('li_self_quiet');
    // LinkedIn itself refuses an app without r_member_social the member's posts.
    const posts = await rest(
      'GET',
      `/posts?q=author&author=${encodeURIComponent(account.platformUserId)}&count=10`,
      account.accessToken,
      VERSIONED,
    );
    expect(posts).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED' } });
    const before = sandbox.requests().length;
    expect(await linkedin.comments?.recentComments(account)).toEqual({ posts: [], comments: [], usagePercent: null });
    expect(sandbox.requests().length).toBe(before);
    const reply = linkedin.comments?.reply(account, 'urn:li:comment:(urn:li:activity:1,2)', 'Thanks');
    expect((await platformError(reply ?? Promise.resolve())).kind).toBe('unsupported');
    // What each action needs of the member's account, in place of the organizations' permissions.
    const granted = ALL_SCOPES;
    expect(missingScopes(linkedin, 'publish', granted, account.platformUserId)).toEqual([]);
    expect(missingScopes(linkedin, 'read_insights', granted, account.platformUserId)).toEqual([
      'r_member_postAnalytics',
    ]);
    expect(missingScopes(linkedin, 'read_comments', granted, account.platformUserId)).toBeNull();
    expect(missingScopes(linkedin, 'read_insights', granted, '12345')).toEqual([]);
    const figures = await platformError(insightsOf(linkedin).accountInsights(account, ['2026-01-01'], ['views']));
    expect(figures).toMatchObject({
      kind: 'permission_missing',
      detail: { missingScopes: ['r_member_postAnalytics'] },
    });
  });
});

describe('linkedin: comments on organization posts', () => {
  function comments() {
    if (linkedin.comments === undefined) throw new Error('the LinkedIn adapter reads no comments');
    return linkedin.comments;
  }

  /** A comment by another member on the organization's newest post, added through the control API. */
  async function commentOn(organization: string, text: string, commentedAt?: string) {
    const { status, body } = await sandbox.control('POST', '/comments', {
      platform: 'linkedin',
      username: organization,
      author_username: 'someone_else',
      text,
      ...(commentedAt === undefined ? {} : { commented_at: commentedAt }),
    });
    expect(status).toBe(201);
    return body as { id: string; post_id: string };
  }

  it("reads the organization's recent posts and their comments, newest first, named by comment URN", async () => {
    const account = await firstOrganization('li_comments_read');
    const first = await commentOn('li_comments_read.company1', 'First!', '2026-11-20T10:00:00.000Z');
    const second = await commentOn('li_comments_read.company1', 'Great news', '2026-11-20T11:00:00.000Z');
    const read = await comments().recentComments(account);
    expect(read?.posts.map((p) => p.id)).toContain(`urn:li:share:${first.post_id}`);
    expect(read?.comments).toEqual([
      {
        id: `urn:li:comment:(urn:li:activity:${second.post_id},${second.id})`,
        postId: `urn:li:share:${second.post_id}`,
        parentId: null,
        authorId: expect.stringMatching(/^urn:li:person:/),
        authorUsername: null,
        text: 'Great news',
        createdAt: new Date('2026-11-20T11:00:00.000Z'),
        hidden: false,
        byAccount: false,
      },
      {
        id: `urn:li:comment:(urn:li:activity:${first.post_id},${first.id})`,
        postId: `urn:li:share:${first.post_id}`,
        parentId: null,
        authorId: expect.stringMatching(/^urn:li:person:/),
        authorUsername: null,
        text: 'First!',
        createdAt: new Date('2026-11-20T10:00:00.000Z'),
        hidden: false,
        byAccount: false,
      },
    ]);
  });

  it("reads the comments under a comment (Get Comments on Comments), each naming its parent's URN", async () => {
    const account = await firstOrganization('li_comments_thread');
    const top = await commentOn('li_comments_thread.company1', 'Hiring?', '2026-11-20T10:00:00.000Z');
    const lonely = await commentOn('li_comments_thread.company1', 'Nice', '2026-11-20T10:30:00.000Z');
    const { status, body: answer } = await sandbox.control('POST', '/comments', {
      platform: 'linkedin',
      username: 'li_comments_thread.company1',
      author_username: 'a_third_member',
      text: 'Same question',
      post_id: top.post_id,
      parent_id: top.id,
      commented_at: '2026-11-20T11:00:00.000Z',
    });
    expect(status).toBe(201);
    const calls = async () =>
      (await sandbox.calls('linkedin', 'li_comments_thread')).data.filter((c) => c.path.includes('/socialActions/'));
    const before = (await calls()).length;
    const read = await comments().recentComments(account);
    const topUrn = `urn:li:comment:(urn:li:activity:${top.post_id},${top.id})`;
    expect(read?.comments.map((c) => [c.text, c.parentId])).toEqual([
      ['Same question', topUrn],
      ['Nice', null],
      ['Hiring?', null],
    ]);
    expect(read?.comments[0]).toMatchObject({
      id: `urn:li:comment:(urn:li:activity:${top.post_id},${answer.id})`,
      postId: `urn:li:share:${top.post_id}`,
      byAccount: false,
    });
    // The post's comments, then the replies of the one comment that has some: "Nice" has none.
    const paths = (await calls()).slice(before).map((c) => decodeURIComponent(c.path));
    expect(paths.filter((p) => p.includes(`,${lonely.id})`))).toEqual([]);
    expect(paths.filter((p) => p.includes(`,${top.id})`))).toHaveLength(1);
  });

  it('a reply is a comment under the comment, made as the organization; it reads back as the account’s own', async () => {
    const account = await firstOrganization('li_comments_reply');
    const comment = await commentOn('li_comments_reply.company1', 'Any openings?');
    const commentUrn = `urn:li:comment:(urn:li:activity:${comment.post_id},${comment.id})`;
    const sent = await comments().reply(account, commentUrn, 'Yes: see our careers page');
    expect(sent).toEqual({ state: 'sent', id: expect.stringMatching(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/) });
    // What LinkedIn holds under the comment: the reply, its actor the organization.
    const { body } = await rest(
      'GET',
      `/socialActions/${encodeURIComponent(commentUrn)}/comments`,
      account.accessToken,
      VERSIONED,
    );
    expect(body.elements).toEqual([
      expect.objectContaining({
        actor: `urn:li:organization:${account.platformUserId}`,
        object: `urn:li:activity:${comment.post_id}`,
        parentComment: commentUrn,
        message: { text: 'Yes: see our careers page', attributes: [] },
      }),
    ]);
  });

  it("deleting the organization's reply: DELETE under its parent comment as the organization; gone from the comment; a second time is no error", async () => {
    const account = await firstOrganization('li_comments_delete');
    const comment = await commentOn('li_comments_delete.company1', 'Is the office open on Friday?');
    const commentUrn = `urn:li:comment:(urn:li:activity:${comment.post_id},${comment.id})`;
    const sent = await comments().reply(account, commentUrn, 'Yes, from 9 to 5');
    if (sent.state !== 'sent') throw new Error('the reply was not sent at once');
    const replyNumber = /,(\d+)\)$/.exec(sent.id)?.[1];
    const deleteReply = comments().deleteReply;
    if (deleteReply === undefined) throw new Error('the LinkedIn adapter deletes no replies');
    await deleteReply(account, sent.id, commentUrn);
    // "Delete a Comment": the reply's id under its parent comment, the organization as the actor.
    const calls = (await sandbox.calls('linkedin', 'li_comments_delete')).data.filter((c) => c.method === 'DELETE');
    expect(calls.map((c) => [decodeURIComponent(c.path), c.query])).toEqual([
      [
        `/api.linkedin.com/rest/socialActions/${commentUrn}/comments/${replyNumber}`,
        { actor: `urn:li:organization:${account.platformUserId}` },
      ],
    ]);
    const { body } = await rest(
      'GET',
      `/socialActions/${encodeURIComponent(commentUrn)}/comments`,
      account.accessToken,
      VERSIONED,
    );
    expect(body.elements).toEqual([]);
    // LinkedIn no longer has it (404): deleted before, which is what was asked.
    await deleteReply(account, sent.id, commentUrn);
    expect(linkedin.scopes.byAction.delete_reply).toEqual(['w_organization_social']);
  });

  it("LinkedIn refuses deleting another member's comment (403 ACCESS_DENIED), and the comment stays", async () => {
    const account = await firstOrganization('li_comments_delete_other');
    const top = await commentOn('li_comments_delete_other.company1', 'Hello');
    const topUrn = `urn:li:comment:(urn:li:activity:${top.post_id},${top.id})`;
    const { body: under } = await sandbox.control('POST', '/comments', {
      platform: 'linkedin',
      username: 'li_comments_delete_other.company1',
      author_username: 'a_third_member',
      text: 'Hello to you',
      post_id: top.post_id,
      parent_id: top.id,
    });
    const otherUrn = `urn:li:comment:(urn:li:activity:${top.post_id},${under.id})`;
    const deleteReply = comments().deleteReply;
    if (deleteReply === undefined) throw new Error('the LinkedIn adapter deletes no replies');
    const refused = await platformError(deleteReply(account, otherUrn, topUrn));
    expect(refused).toMatchObject({ kind: 'permission_missing', detail: { status: 403, code: 'ACCESS_DENIED' } });
    const { body } = await rest(
      'GET',
      `/socialActions/${encodeURIComponent(topUrn)}/comments`,
      account.accessToken,
      VERSIONED,
    );
    expect(body.elements.map((e: { message: { text: string } }) => e.message.text)).toEqual(['Hello to you']);
  });

  it('reading comments needs r_organization_social, replying w_organization_social (403 ACCESS_DENIED)', async () => {
    expect(linkedin.scopes.byAction.read_comments).toEqual(['r_organization_social']);
    expect(linkedin.scopes.byAction.reply).toEqual(['w_organization_social']);
    expect(linkedin.scopes.byAction.hide).toBeUndefined();
    const reader = await firstOrganization('li_comments_noscope', ['r_basicprofile', 'rw_organization_admin']);
    expect((await platformError(comments().recentComments(reader))).kind).toBe('permission_missing');
    const comment = await commentOn('li_comments_noscope.company1', 'Hello');
    const urn = `urn:li:comment:(urn:li:activity:${comment.post_id},${comment.id})`;
    expect((await platformError(comments().reply(reader, urn, 'Hi'))).kind).toBe('permission_missing');
  });

  it('LinkedIn offers no hiding and sends ordinary apps no comment notices', async () => {
    const account = await firstOrganization('li_comments_hide');
    expect(
      (await platformError(comments().setHidden(account, 'urn:li:comment:(urn:li:activity:1,2)', true))).kind,
    ).toBe('unsupported');
    expect((await platformError(comments().subscribeNotices(account))).kind).toBe('unsupported');
    expect(() => comments().parseCommentNotices({ headers: {}, body: '{}' })).toThrow(/notices/);
  });
});

describe('linkedin: organization insights', () => {
  const dayOf = (offset: number) => new Date(now().getTime() + offset * DAY).toISOString().slice(0, 10);

  async function figures(
    username: string,
    metric: string,
    values: { day: string; value: number | null }[],
    postId?: string,
  ) {
    const page = (await member(username)).pages[0].username;
    const body = { platform: 'linkedin', username: page, metric, values, ...(postId ? { post_id: postId } : {}) };
    expect((await sandbox.control('PUT', '/insights', body)).status).toBe(200);
  }

  it('daily share statistics by the service names, the follower count today; no data is null, never 0', async () => {
    const account = await firstOrganization('li_insights');
    const [yesterday, before, today] = [dayOf(-1), dayOf(-2), dayOf(0)];
    await figures('li_insights', 'impressionCount', [
      { day: before, value: null },
      { day: yesterday, value: 120 },
    ]);
    await figures('li_insights', 'likeCount', [
      { day: before, value: 0 },
      { day: yesterday, value: 7 },
    ]);
    await figures('li_insights', 'firstDegreeSize', [{ day: today, value: 42 }]);
    const read = await insightsOf(linkedin).accountInsights(
      account,
      [before, yesterday, today, dayOf(1)],
      ['views', 'likes', 'followers_count'],
    );
    expect(read.figures[before]).toEqual({ views: null, likes: 0, followers_count: null });
    expect(read.figures[yesterday]).toEqual({ views: 120, likes: 7, followers_count: null });
    expect(read.figures[today]?.followers_count).toBe(42);
    // A day still to come has no data.
    expect(read.figures[dayOf(1)]).toEqual({ views: null, likes: null, followers_count: null });
  });

  it("each day's engagement rate (totalShareStatistics.engagement), as LinkedIn answers it beside the counts", async () => {
    const account = await firstOrganization('li_engagement');
    const [yesterday, before] = [dayOf(-1), dayOf(-2)];
    const set = (metric: string, a: number | null, b: number | null) =>
      figures('li_engagement', metric, [
        { day: before, value: a },
        { day: yesterday, value: b },
      ]);
    await set('impressionCount', 400, 0);
    await set('clickCount', 10, 0);
    await set('likeCount', 6, 0);
    await set('commentCount', 2, 0);
    await set('shareCount', 2, 0);
    const urn = encodeURIComponent(`urn:li:organization:${account.platformUserId}`);
    const start = Date.parse(`${before}T00:00:00Z`);
    const raw = await rest(
      'GET',
      `/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${urn}&timeIntervals=(timeRange:(start:${start},end:${start + 2 * DAY}),timeGranularityType:DAY)`,
      account.accessToken,
      VERSIONED,
    );
    // (10 + 6 + 2 + 2) / 400 on the first day; no impression on the second, so no rate.
    expect(
      raw.body.elements.map(
        (e: { totalShareStatistics: { engagement?: number } }) => e.totalShareStatistics.engagement,
      ),
    ).toEqual([0.05, undefined]);
    const read = await insightsOf(linkedin).accountInsights(account, [before, yesterday], ['engagement', 'clicks']);
    expect(read.figures[before]).toEqual({ engagement: 0.05, clicks: 10 });
    expect(read.figures[yesterday]).toEqual({ engagement: null, clicks: 0 });
  });

  it('days older than the rolling 12 months are no data, never asked; an unknown metric is refused', async () => {
    const account = await firstOrganization('li_insights_old');
    const old = dayOf(-400);
    expect((await insightsOf(linkedin).accountInsights(account, [old], ['views'])).figures).toEqual({
      [old]: { views: null },
    });
    expect((await platformError(insightsOf(linkedin).accountInsights(account, [dayOf(-1)], ['reach']))).kind).toBe(
      'invalid_request',
    );
  });

  it('LinkedIn refuses a time range starting before its 12 months, and a caller without the admin permission', async () => {
    const account = await firstOrganization('li_insights_raw');
    const urn = encodeURIComponent(`urn:li:organization:${account.platformUserId}`);
    const start = now().getTime() - 400 * DAY;
    const old = await rest(
      'GET',
      `/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${urn}&timeIntervals=(timeRange:(start:${start},end:${start + DAY}),timeGranularityType:DAY)`,
      account.accessToken,
      VERSIONED,
    );
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ status: 400, code: 'ILLEGAL_ARGUMENT' });

    // Share and follower statistics need rw_organization_admin.
    const narrow = await login('li_insights_raw', ['r_basicprofile', 'w_organization_social']);
    const refused = { platformUserId: account.platformUserId, accessToken: narrow.accessToken };
    expect((await platformError(insightsOf(linkedin).accountInsights(refused, [dayOf(-1)], ['views']))).kind).toBe(
      'permission_missing',
    );
    expect(
      (await platformError(insightsOf(linkedin).accountInsights(refused, [dayOf(0)], ['followers_count']))).kind,
    ).toBe('permission_missing');
  });

  it("a post's lifetime statistics, null where LinkedIn has no data", async () => {
    const account = await firstOrganization('li_post_insights');
    const { containerId } = await linkedin.publishing.createContainer(account, { text: 'numbers', media: [] });
    const postId = containerId.replace('urn:li:share:', '');
    await figures('li_post_insights', 'impressionCount', [{ day: dayOf(0), value: 300 }], postId);
    await figures('li_post_insights', 'commentCount', [{ day: dayOf(0), value: null }], postId);
    const read = await insightsOf(linkedin).postInsights(account, containerId, ['views', 'comments', 'engagement']);
    // A comment count missing: no engagement rate either.
    expect(read.figures).toEqual({ views: 300, comments: null, engagement: null });
    for (const [metric, value] of [
      ['commentCount', 4],
      ['clickCount', 20],
      ['likeCount', 3],
      ['shareCount', 3],
    ] as const) {
      await figures('li_post_insights', metric, [{ day: dayOf(0), value }], postId);
    }
    const rated = await insightsOf(linkedin).postInsights(account, containerId, ['engagement']);
    // (20 + 3 + 4 + 3) / 300.
    expect(rated.figures).toEqual({ engagement: 0.1 });
  });
});
