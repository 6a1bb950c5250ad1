import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import type { AccountCredentials, PlatformAdapter, TokenSet } from '../../src/platforms/index.ts';
import {
  commentsOf,
  insightsOf,
  platformError,
  REDIRECT_URI,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.ts';
import { MEDIA_FILES, type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

/** A video of 5 MiB and 100 bytes (three segments), and a GIF of 6 MiB: their first bytes their format's. */
const FILM = Buffer.concat([MEDIA_FILES['/clip.mp4']?.body as Buffer, Buffer.alloc(5 * 1024 * 1024 + 100)]).subarray(
  0,
  5 * 1024 * 1024 + 100,
);
const DANCE = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(6 * 1024 * 1024 - 6)]);
const CLIP_BYTES = MEDIA_FILES['/clip.mp4']?.body.length ?? 0;
const PNG_AS_MP4_BYTES = MEDIA_FILES['/png.mp4']?.body.length ?? 0;

let sandbox: TestSandbox;
let x: PlatformAdapter;
let media: MediaServer;

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer({
    '/film.mp4': { type: 'video/mp4', body: FILM },
    '/dance.gif': { type: 'image/gif', body: DANCE },
  });
  x = sandbox.adapter('x');
});
afterAll(async () => {
  await sandbox.close();
  await media.close();
});
afterEach(() => resetClock());

// "OAuth 2.0 Authorization Code Flow with PKCE": read posts, post, read the user, a refresh token, upload media.
const ALL_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write', 'tweet.moderate.write'];

async function login(username: string, granted?: string[]): Promise<TokenSet> {
  return sandbox.connect('x', username, granted);
}

async function account(username: string): Promise<AccountCredentials> {
  const tokens = await login(username);
  return { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the control API's JSON field by field.
async function user(username: string): Promise<any> {
  return (await sandbox.control('GET', `/users/x/${username}`)).body;
}

async function published(username: string): Promise<{ target_id: string; detail: Record<string, unknown> }[]> {
  const { body } = await sandbox.control('GET', `/activity/x/${username}`);
  return body.data.filter((a: { action: string }) => a.action === 'publish');
}

async function fault(username: string, error: string, trigger: 'call' | 'publish' | 'refresh' = 'call') {
  expect((await sandbox.control('POST', '/faults', { platform: 'x', username, error, trigger })).status).toBe(201);
}

async function customFault(username: string, status: number, body: unknown, trigger: 'call' | 'publish' = 'publish') {
  const set = await sandbox.control('POST', '/faults', {
    platform: 'x',
    username,
    error: 'custom',
    trigger,
    status,
    body,
  });
  expect(set.status).toBe(201);
}

/** A form POST straight to the sandbox's api.x.com token endpoint, with the Basic authentication given. */
async function tokenCall(form: Record<string, string>, basic?: string) {
  const response = await request(`${sandbox.url}/api.x.com/2/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic === undefined ? {} : { authorization: `Basic ${Buffer.from(basic).toString('base64')}` }),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
}

describe('x: sign-in (OAuth 2.0 Authorization Code Flow with PKCE)', () => {
  it('builds the documented authorize URL: the scopes space separated, the state, an S256 code challenge', () => {
    const url = new URL(x.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'st-a' }));
    expect(url.pathname).toBe('/sandbox/x.com/i/oauth2/authorize');
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'switchboard-sandbox',
      redirect_uri: REDIRECT_URI,
      scope: ALL_SCOPES.join(' '),
      state: 'st-a',
      code_challenge_method: 'S256',
    });
    // RFC 7636: BASE64URL(SHA256(verifier)), 43 characters without padding.
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Each trip its own challenge.
    const other = new URL(x.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'st-b' }));
    expect(other.searchParams.get('code_challenge')).not.toBe(params.code_challenge);
    expect(x.scopes.required).toEqual(['tweet.read', 'users.read', 'offline.access']);
  });

  it('a login: the user id, a 2-hour access token, a refresh token, the granted scopes', async () => {
    const before = now().getTime();
    const tokens = await login('x_member');
    expect(tokens.platformUserId).toBe((await user('x_member')).id);
    expect(tokens.scopes).toEqual(ALL_SCOPES);
    const lives = (tokens.expiresAt?.getTime() ?? 0) - before;
    expect(lives).toBeGreaterThanOrEqual(7200_000 - 5_000);
    expect(lives).toBeLessThanOrEqual(7200_000 + 5_000);
    expect(tokens.refreshToken).toMatch(/.+/);
    // X states no lifetime of a refresh token.
    expect(tokens.refreshExpiresAt).toBeNull();
  });

  it('the exchange without the trip state, or with another trip state (a wrong code verifier), is refused', async () => {
    const params = await sandbox.authorize('x', { username: 'x_pkce', state: 'trip-1' });
    const code = params.get('code') as string;
    expect((await platformError(x.exchangeCode(code, REDIRECT_URI))).kind).toBe('invalid_request');
    const wrong = await platformError(x.exchangeCode(code, REDIRECT_URI, 'trip-2'));
    expect(wrong.kind).toBe('token_expired');
    expect(wrong.detail.platformMessage).toBe('Value passed for the token was invalid.');
    // The code was used by the refused exchange: X's codes are single-use.
    expect((await platformError(x.exchangeCode(code, REDIRECT_URI, 'trip-1'))).kind).toBe('token_expired');
    const again = await sandbox.authorize('x', { username: 'x_pkce', state: 'trip-3' });
    const tokens = await x.exchangeCode(again.get('code') as string, REDIRECT_URI, 'trip-3');
    expect(tokens.platformUserId).toBe((await user('x_pkce')).id);
  });

  it('the sandbox asks a confidential client for Basic authentication, and a code challenge on the page', async () => {
    const params = await sandbox.authorize('x', { username: 'x_basic', state: 'b-1' });
    const form = { grant_type: 'authorization_code', code: params.get('code') as string, redirect_uri: REDIRECT_URI };
    const none = await tokenCall({ ...form, code_verifier: 'v'.repeat(43) });
    expect(none).toEqual({
      status: 401,
      body: { error: 'unauthorized_client', error_description: 'Missing valid authorization header' },
    });
    const page = await request(
      `${sandbox.url}/x.com/i/oauth2/authorize?response_type=code&client_id=c&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&scope=tweet.read&state=s`,
    );
    expect(await page.body.text()).toContain('code_challenge is missing');
  });

  it('the sandbox knows its apps: an unregistered client id is refused on the page and at the token endpoint, a wrong secret too', async () => {
    const dialogOf = (clientId: string) =>
      `${sandbox.url}/x.com/i/oauth2/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: 'tweet.read users.read',
        state: 'k',
        code_challenge: 'c'.repeat(43),
        code_challenge_method: 'S256',
      })}`;
    const unknown = await request(dialogOf('never-created'));
    expect(unknown.statusCode).toBe(400);
    expect(await unknown.body.text()).toContain("Something went wrong. You weren't able to give access to the App.");
    const form = { grant_type: 'refresh_token', refresh_token: 'xrt-whatever' };
    expect(await tokenCall(form, 'never-created:secret')).toEqual({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
    });
    expect((await sandbox.control('GET', '/apps/x/never-created')).status).toBe(404);

    const app = { platform: 'x', client_id: 'known-app', client_secret: 'known-secret' };
    expect((await sandbox.control('POST', '/apps', app)).status).toBe(201);
    const known = await request(dialogOf('known-app'));
    expect(await known.body.text()).not.toContain('Something went wrong');
    expect((await tokenCall(form, 'known-app:not-its-secret')).status).toBe(401);
    // Its secret authenticates it; the refresh token is then refused as one X does not take.
    expect(await tokenCall(form, 'known-app:known-secret')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' },
    });
    const seen = await sandbox.control('GET', '/apps/x/known-app');
    expect(seen.body).toEqual({
      platform: 'x',
      client_id: 'known-app',
      uses: { authorize: 0, authorization_code: 0, refresh_token: 1, revoke: 0 },
    });
    expect(JSON.stringify(seen.body)).not.toContain('known-secret');
  });

  it('a verifier sent as plain matches a plain challenge, as RFC 7636 allows', async () => {
    const verifier = 'plain-verifier-'.padEnd(43, 'p');
    // X knows an app only once it is created: the sandbox's control API registers it.
    const registered = await sandbox.control('POST', '/apps', {
      platform: 'x',
      client_id: 'c-plain',
      client_secret: 'secret',
    });
    expect(registered.status).toBe(201);
    const dialog = `${sandbox.url}/x.com/i/oauth2/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'c-plain',
      redirect_uri: REDIRECT_URI,
      scope: 'tweet.read users.read',
      state: 'p',
      code_challenge: verifier,
      code_challenge_method: 'plain',
    })}`;
    const redirect = await sandbox.decide(dialog, { username: 'x_plain' });
    const code = redirect.searchParams.get('code') as string;
    const answer = await tokenCall(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
      'c-plain:secret',
    );
    expect(answer.status).toBe(200);
    // Without offline.access, X gives no refresh token.
    expect(answer.body).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'tweet.read users.read' });
    expect(answer.body.refresh_token).toBeUndefined();
    expect(createHash('sha256').update(verifier).digest('base64url')).not.toBe(verifier);
  });

  it('Cancel comes back with error=access_denied and the state', async () => {
    const params = await sandbox.authorize('x', { username: 'x_cancel', cancel: true, state: 'c-1' });
    expect(Object.fromEntries(params)).toEqual({ error: 'access_denied', state: 'c-1' });
    expect(x.parseCallback(Object.fromEntries(params))).toMatchObject({ outcome: 'denied', error: 'access_denied' });
  });

  it('a login without users.read gives no user id: the connect flow answers permission_missing', async () => {
    const tokens = await login('x_noread', ['tweet.read', 'tweet.write', 'offline.access']);
    expect(tokens.platformUserId).toBe('');
    expect(tokens.scopes).toEqual(['tweet.read', 'tweet.write', 'offline.access']);
  });
});

describe('x: tokens', () => {
  it('a refresh answers a new refresh token; the one used is refused after', async () => {
    const tokens = await login('x_rotate');
    const fresh = await x.refreshToken(tokens);
    expect(fresh.refreshToken).toMatch(/.+/);
    expect(fresh.refreshToken).not.toBe(tokens.refreshToken);
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    expect(fresh.platformUserId).toBe(tokens.platformUserId);
    expect(fresh.scopes).toEqual(ALL_SCOPES);
    // The new access token works.
    expect((await x.profile({ platformUserId: fresh.platformUserId, accessToken: fresh.accessToken })).username).toBe(
      'x_rotate',
    );
    // The used refresh token no longer works: the account needs its successor (or a reconnection).
    const reused = await platformError(x.refreshToken(tokens));
    expect(reused.kind).toBe('token_expired');
    expect(reused.detail).toMatchObject({ status: 400, code: 'invalid_request' });
    // And the successor works once more.
    const third = await x.refreshToken(fresh);
    expect(third.refreshToken).not.toBe(fresh.refreshToken);
  });

  it('a refused refresh (a fault) leaves the refresh token working', async () => {
    const tokens = await login('x_refresh_fault');
    await fault('x_refresh_fault', 'transient', 'refresh');
    expect((await platformError(x.refreshToken(tokens))).kind).toBe('transient');
    expect((await x.refreshToken(tokens)).refreshToken).toMatch(/.+/);
  });

  it('an account without a refresh token cannot be refreshed: token_expired, to be reconnected', async () => {
    const tokens = await login('x_norefresh');
    const { refreshToken: _, ...without } = tokens;
    expect((await platformError(x.refreshToken(without))).kind).toBe('token_expired');
  });

  it('an expired access token and a revoked app read as token_expired (X answers both 401)', async () => {
    const credentials = await account('x_expire');
    expect((await sandbox.control('POST', '/tokens/expire', { platform: 'x', username: 'x_expire' })).status).toBe(200);
    const expired = await platformError(x.profile(credentials));
    expect(expired.kind).toBe('token_expired');
    expect(expired.detail).toMatchObject({ status: 401, platformMessage: 'Unauthorized' });
  });

  it('revokeAccess ends the grant: its access and refresh tokens stop working', async () => {
    const tokens = await login('x_revoke');
    const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
    await x.revokeAccess(credentials);
    expect((await platformError(x.profile(credentials))).kind).toBe('token_expired');
    expect((await platformError(x.refreshToken(tokens))).kind).toBe('token_expired');
  });
});

describe('x: the profile', () => {
  it('reads GET /2/users/me: id, username, name, picture and followers', async () => {
    const credentials = await account('x_profile');
    const made = await user('x_profile');
    expect(await x.profile(credentials)).toEqual({
      id: made.id,
      username: 'x_profile',
      name: made.name,
      avatarUrl: expect.stringMatching(/^https:\/\/pbs\.twimg\.com\//),
      followersCount: made.followers_count,
    });
  });
});

describe('x: publishing', () => {
  it('a text post: POST /2/tweets, the post id, its link under the username', async () => {
    const credentials = await account('x_text');
    const { containerId } = await x.publishing.createContainer(credentials, {
      text: 'Hello from the sandbox',
      media: [],
    });
    expect(containerId).toMatch(/^\d+$/);
    expect(await x.publishing.containerStatus(credentials, containerId)).toEqual({ state: 'published' });
    expect(await x.publishing.publishContainer(credentials, containerId)).toEqual({
      id: containerId,
      permalink: `https://x.com/x_text/status/${containerId}`,
    });
    const [post] = await published('x_text');
    expect(post).toMatchObject({ target_id: containerId, detail: { text: 'Hello from the sandbox' } });
  });

  it('reply_to publishes the post as a reply to that post', async () => {
    const credentials = await account('x_reply');
    const first = await x.publishing.createContainer(credentials, { text: 'first', media: [] });
    const reply = await x.publishing.createContainer(credentials, {
      text: 'second',
      media: [],
      options: { reply_to: first.containerId },
    });
    const posts = await published('x_reply');
    expect(posts.find((p) => p.target_id === reply.containerId)?.detail.options).toEqual({
      reply_to: first.containerId,
    });
    const missing = await platformError(
      x.publishing.createContainer(credentials, { text: 'third', media: [], options: { reply_to: '1' } }),
    );
    expect(missing.kind).toBe('invalid_request');
  });

  it('a thread of three: the first post, then each next a reply to the one before, recorded as each is made', async () => {
    const credentials = await account('x_thread');
    const options = { thread: [{ text: 'second' }, { text: 'third' }] };
    const { containerId } = await x.publishing.createContainer(credentials, { text: 'first', media: [], options });
    expect(await x.publishing.containerStatus(credentials, containerId)).toEqual({ state: 'finished' });
    const recorded: string[] = [];
    const post = await x.publishing.publishContainer(credentials, containerId, {
      options,
      attempt: 1,
      record: async (id) => {
        recorded.push(id);
      },
    });
    const posts = await published('x_thread');
    expect(posts.map((p) => p.detail.text)).toEqual(['first', 'second', 'third']);
    const [first, second, third] = posts.map((p) => p.target_id);
    expect(posts.map((p) => p.detail.options)).toEqual([{ reply_to: null }, { reply_to: first }, { reply_to: second }]);
    expect(post).toEqual({ id: first, permalink: `https://x.com/x_thread/status/${first}` });
    // Each reply marked as being sent (by the target's first try) before it is sent, then
    // recorded once X answered it.
    expect(recorded.map((id) => JSON.parse(id))).toEqual([
      { posts: [first], of: 3, sending: 1 },
      { posts: [first, second], of: 3 },
      { posts: [first, second], of: 3, sending: 1 },
      { posts: [first, second, third], of: 3 },
    ]);
    // The last record is the whole thread: read again, it is published and asks for nothing more.
    expect(await x.publishing.containerStatus(credentials, recorded[3] as string)).toEqual({ state: 'published' });
    expect(await x.publishing.findPublished(credentials, recorded[3] as string)).toEqual(post);
    expect(third).toMatch(/^\d+$/);
  });

  /** A thread of two whose second post was marked as being sent by `attempt`, as a run left it. */
  async function markedThread(username: string, second: string, attempt: number) {
    const credentials = await account(username);
    const options = { thread: [{ text: second }] };
    const { containerId } = await x.publishing.createContainer(credentials, { text: 'first', media: [], options });
    const [first] = (JSON.parse(containerId) as { posts: string[] }).posts;
    const marked = JSON.stringify({ posts: [first], of: 2, sending: attempt });
    const recorded: unknown[] = [];
    const progress = (current: number) => ({
      options,
      attempt: current,
      record: async (id: string) => {
        recorded.push(JSON.parse(id));
      },
    });
    return { credentials, first: first as string, marked, recorded, progress };
  }

  it("a thread post marked as being sent is read back from the timeline as X gives its text (its media's t.co link added, & < > as entities) and recorded, not sent again", async () => {
    const text = 'Two & <more> at https://example.com/a';
    const { credentials, first, marked, recorded, progress } = await markedThread('x_marked_found', text, 1);
    // The lost run had sent it, with a photo, before the run stopped.
    const photo = { type: 'image' as const, url: media.url('/photo.jpg') };
    const [item] = (await x.publishing.createCarouselItems?.(credentials, { media: [photo] })) ?? [];
    const mediaId = /^media:(\d+)/.exec(item ?? '')?.[1];
    const sent = await request(`${sandbox.url}/api.x.com/2/tweets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text, media: { media_ids: [mediaId] }, reply: { in_reply_to_tweet_id: first } }),
    });
    expect(sent.statusCode).toBe(201);
    const { data } = (await sent.body.json()) as { data: { id: string } };

    const post = await x.publishing.publishContainer(credentials, marked, progress(1));
    expect(post.id).toBe(first);
    expect(recorded).toEqual([{ posts: [first, data.id], of: 2 }]);
    expect((await published('x_marked_found')).map((p) => p.detail.text)).toEqual(['first', text]);
  });

  it("a thread post marked as being sent that X does not show: each run of the marking try sends nothing and keeps the mark; a later try (the owner's retry) sends it once", async () => {
    const { credentials, first, marked, recorded, progress } = await markedThread('x_marked_missing', 'Two', 3);
    for (let run = 0; run < 2; run += 1) {
      await expect(x.publishing.publishContainer(credentials, marked, progress(3))).rejects.toMatchObject({
        kind: 'transient',
      });
    }
    expect(recorded).toEqual([]);
    expect((await published('x_marked_missing')).map((p) => p.detail.text)).toEqual(['first']);

    const post = await x.publishing.publishContainer(credentials, marked, progress(4));
    expect(post.id).toBe(first);
    const posts = await published('x_marked_missing');
    expect(posts.map((p) => p.detail.text)).toEqual(['first', 'Two']);
    expect(recorded).toEqual([
      { posts: [first], of: 2 },
      { posts: [first], of: 2, sending: 4 },
      { posts: [first, posts[1]?.target_id], of: 2 },
    ]);
  });

  it('counts the text as X does: 280 by weight, a link 23, CJK and emoji 2', () => {
    const check = (text: string) => x.publishing.checkPublish({ text, media: [] }).map((p) => p.field);
    expect(check('a'.repeat(280))).toEqual([]);
    expect(check('a'.repeat(281))).toEqual(['text']);
    // 140 CJK characters weigh 280.
    expect(check('漢'.repeat(140))).toEqual([]);
    expect(check('漢'.repeat(141))).toEqual(['text']);
    // A long link weighs 23: 257 letters, a space and a 100-character link weigh 281.
    const link = `https://example.com/${'p'.repeat(80)}`;
    expect(check(`${'a'.repeat(256)} ${link}`)).toEqual([]);
    expect(check(`${'a'.repeat(257)} ${link}`)).toEqual(['text']);
    // A family emoji (several code points joined) weighs 2.
    expect(check(`${'a'.repeat(278)}👨‍👩‍👧`)).toEqual([]);
    expect(check(`${'a'.repeat(279)}👨‍👩‍👧`)).toEqual(['text']);
    expect(check('')).toEqual(['text']);
  });

  it('a poll: 2 to 4 choices of up to 25 characters, 5 to 10,080 minutes, no media', async () => {
    const credentials = await account('x_poll');
    const poll = { options: ['Yes', 'No', 'Maybe'], duration_minutes: 1440 };
    const { containerId } = await x.publishing.createContainer(credentials, {
      text: 'Coffee?',
      media: [],
      options: { poll },
    });
    const [post] = await published('x_poll');
    expect(post).toMatchObject({ target_id: containerId, detail: { options: { reply_to: null, poll } } });

    const fields = (options: Record<string, unknown>, media: { type: 'image' }[] = []) =>
      x.publishing.checkPublish({ text: 'Pick one', media, options }).map((p) => p.field);
    expect(fields({ poll: { options: ['a', 'b'], duration_minutes: 5 } })).toEqual([]);
    expect(fields({ poll: { options: ['a', 'b', 'c', 'd'], duration_minutes: 10_080 } })).toEqual([]);
    expect(fields({ poll: { options: ['a'], duration_minutes: 60 } })).toEqual(['platforms.x.poll.options']);
    expect(fields({ poll: { options: ['a', 'b', 'c', 'd', 'e'], duration_minutes: 60 } })).toEqual([
      'platforms.x.poll.options',
    ]);
    expect(fields({ poll: { options: ['a', 'b'.repeat(26)], duration_minutes: 60 } })).toEqual([
      'platforms.x.poll.options',
    ]);
    expect(fields({ poll: { options: ['a', 'b'], duration_minutes: 4 } })).toEqual([
      'platforms.x.poll.duration_minutes',
    ]);
    expect(fields({ poll: { options: ['a', 'b'], duration_minutes: 10_081 } })).toEqual([
      'platforms.x.poll.duration_minutes',
    ]);
    expect(fields({ poll: { options: ['a', 'b'], duration_minutes: 60 } }, [{ type: 'image' }])).toContain('media_ids');
  });

  it("the sandbox refuses a poll outside X's bounds with 400 invalid-request", async () => {
    const credentials = await account('x_poll_raw');
    const response = await request(`${sandbox.url}/api.x.com/2/tweets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Q', poll: { options: ['only one'], duration_minutes: 60 } }),
    });
    expect(response.statusCode).toBe(400);
    expect(await response.body.json()).toMatchObject({
      type: 'https://api.twitter.com/2/problems/invalid-request',
      errors: [{ message: 'poll.options must hold 2 to 4 options' }],
    });
  });

  it('images: each uploaded (POST /2/media/upload, tweet_image) before the post, then named in media.media_ids, up to 4', async () => {
    const credentials = await account('x_images');
    const photo = { type: 'image' as const, url: media.url('/photo.jpg') };
    const items = (await x.publishing.createCarouselItems?.(credentials, { text: 'One photo', media: [photo] })) ?? [];
    expect(items).toHaveLength(1);
    // An image needs no processing: its item is finished without a call.
    expect(await x.publishing.containerStatus(credentials, items[0] as string)).toEqual({ state: 'finished' });
    const one = await x.publishing.createContainer(credentials, { text: 'One photo', media: [photo] }, items);
    const fourMedia = ['/photo.jpg', '/photo.png', '/photo.jpg', '/photo.png'].map((path) => ({
      type: 'image' as const,
      url: media.url(path),
    }));
    const fourItems = (await x.publishing.createCarouselItems?.(credentials, { media: fourMedia })) ?? [];
    const four = await x.publishing.createContainer(credentials, { media: fourMedia }, fourItems);
    const posts = await published('x_images');
    expect(posts.find((p) => p.target_id === one.containerId)?.detail).toMatchObject({
      text: 'One photo',
      type: 'IMAGE',
    });
    const made = posts.find((p) => p.target_id === four.containerId)?.detail;
    const urls = made?.media_urls as string[];
    expect(urls.map((u) => u.slice(u.lastIndexOf('.')))).toEqual(['.jpg', '.png', '.jpg', '.png']);
    // Each image arrived whole, in one request, as the image upload's category.
    const jpeg = MEDIA_FILES['/photo.jpg']?.body.length;
    const png = MEDIA_FILES['/photo.png']?.body.length;
    expect(
      ((made?.media ?? []) as { media_category: string; segments: number[] }[]).map((m) => [
        m.media_category,
        m.segments,
      ]),
    ).toEqual([
      ['tweet_image', [jpeg]],
      ['tweet_image', [png]],
      ['tweet_image', [jpeg]],
      ['tweet_image', [png]],
    ]);
    // The post is made only with its media uploaded first.
    expect((await platformError(x.publishing.createContainer(credentials, { media: [photo] }))).kind).toBe(
      'invalid_request',
    );
  });

  it("checks a post's media before storing it: one video alone of 0.5 to 140 s and 512 MB, or up to 4 images of 5 MB", () => {
    const fields = (draft: Parameters<typeof x.publishing.checkPublish>[0]) =>
      x.publishing.checkPublish(draft).map((p) => [p.field, p.message]);
    const image = { type: 'image' as const, sizeBytes: 1000 };
    const video = (durationSeconds: number, sizeBytes = 1_000_000) => ({
      type: 'video' as const,
      durationSeconds,
      sizeBytes,
    });
    expect(fields({ media: [image, image, image, image] })).toEqual([]);
    expect(fields({ media: [video(0.5)] })).toEqual([]);
    expect(fields({ media: [video(140)] })).toEqual([]);
    expect(fields({ media: [image, image, image, image, image] })).toEqual([
      ['media_ids', 'an X post has at most 4 images'],
    ]);
    expect(fields({ media: [video(10), image] })).toEqual([
      ['media_ids', 'an X post has one video alone, or 1 to 4 images'],
    ]);
    expect(fields({ media: [video(10), video(10)] })).toEqual([
      ['media_ids', 'an X post has one video alone, or 1 to 4 images'],
    ]);
    expect(fields({ media: [video(140.5)] })).toEqual([
      ['media_ids', 'an X video lasts 0.5 to 140 seconds (this video: 140.5 s)'],
    ]);
    expect(fields({ media: [video(0.4)] })).toEqual([
      ['media_ids', 'an X video lasts 0.5 to 140 seconds (this video: 0.4 s)'],
    ]);
    expect(fields({ media: [video(10, 512 * 1024 * 1024 + 1)] })).toEqual([
      ['media_ids[0]', 'an X video has at most 512 MB (this one: 512.0 MB)'],
    ]);
    expect(fields({ media: [image, { type: 'image', sizeBytes: 6 * 1024 * 1024 }] })).toEqual([
      ['media_ids[1]', 'an X image has at most 5 MB (this one: 6.0 MB)'],
    ]);
    // Alone, an image may be an animated GIF, which X takes up to 15 MB.
    expect(fields({ media: [{ type: 'image', sizeBytes: 15 * 1024 * 1024 }] })).toEqual([]);
    expect(fields({ media: [{ type: 'image', sizeBytes: 15 * 1024 * 1024 + 1 }] })).toEqual([
      ['media_ids[0]', 'an X image has at most 5 MB, an animated GIF alone 15 MB (this one: 15.0 MB)'],
    ]);
    // Where its type is known: a still image alone has X's image bound, a GIF alone the GIF's.
    const MB = 1024 * 1024;
    expect(fields({ media: [{ type: 'image', contentType: 'image/jpeg', sizeBytes: 5 * MB }] })).toEqual([]);
    expect(fields({ media: [{ type: 'image', contentType: 'image/jpeg', sizeBytes: 5 * MB + 1 }] })).toEqual([
      ['media_ids[0]', 'an X image has at most 5 MB (a JPEG) (this one: 5.0 MB)'],
    ]);
    expect(fields({ media: [{ type: 'image', contentType: 'image/webp', sizeBytes: 6 * MB }] })).toEqual([
      ['media_ids[0]', 'an X image has at most 5 MB (a WEBP) (this one: 6.0 MB)'],
    ]);
    expect(fields({ media: [{ type: 'image', contentType: 'image/gif', sizeBytes: 15 * MB }] })).toEqual([]);
    expect(fields({ media: [{ type: 'image', contentType: 'image/gif', sizeBytes: 15 * MB + 1 }] })).toEqual([
      ['media_ids[0]', 'an X GIF alone in its post has at most 15 MB (this one: 15.0 MB)'],
    ]);
    // A GIF among other images is uploaded as an image.
    expect(fields({ media: [image, { type: 'image', contentType: 'image/gif', sizeBytes: 6 * MB }] })).toEqual([
      ['media_ids[1]', 'an X image has at most 5 MB (this one: 6.0 MB)'],
    ]);
    expect(fields({ media: [{ type: 'document' }] })).toEqual([
      ['media_ids', 'an X post takes images and videos only'],
    ]);
  });

  it('a video: initialized, appended in 2 MiB segments in order, finalized, read until X processed it, then posted', async () => {
    const credentials = await account('x_video');
    const film = { type: 'video' as const, url: media.url('/film.mp4'), durationSeconds: 12, sizeBytes: FILM.length };
    const request = { text: 'Our film', media: [film] };
    const [item] = (await x.publishing.createCarouselItems?.(credentials, request)) ?? [];
    // Processed for container_processing_seconds (5): pending, then in_progress, then succeeded.
    expect(await x.publishing.containerStatus(credentials, item as string)).toEqual({
      state: 'in_progress',
      message: 'X is processing the medium (pending, 0%).',
      checkAfterSeconds: 5,
    });
    advanceClock(3_000);
    expect(await x.publishing.containerStatus(credentials, item as string)).toEqual({
      state: 'in_progress',
      message: 'X is processing the medium (in_progress, 60%).',
      checkAfterSeconds: 2,
    });
    advanceClock(2_000);
    expect(await x.publishing.containerStatus(credentials, item as string)).toEqual({ state: 'finished' });
    const { containerId } = await x.publishing.createContainer(credentials, request, [item as string]);
    const [post] = await published('x_video');
    expect(post?.target_id).toBe(containerId);
    expect(post?.detail).toMatchObject({ text: 'Our film', type: 'VIDEO' });
    const mediaId = (item as string).split(':')[1];
    expect(post?.detail.media).toEqual([
      {
        id: mediaId,
        media_category: 'tweet_video',
        media_type: 'video/mp4',
        total_bytes: 5 * 1024 * 1024 + 100,
        segments: [2 * 1024 * 1024, 2 * 1024 * 1024, 1024 * 1024 + 100],
      },
    ]);
  });

  it('an animated GIF alone: uploaded in segments as tweet_gif (up to 15 MB), processed, then posted', async () => {
    const credentials = await account('x_gif');
    const request = { media: [{ type: 'image' as const, url: media.url('/dance.gif'), sizeBytes: DANCE.length }] };
    const [item] = (await x.publishing.createCarouselItems?.(credentials, request)) ?? [];
    advanceClock(5_000);
    expect(await x.publishing.containerStatus(credentials, item as string)).toEqual({ state: 'finished' });
    await x.publishing.createContainer(credentials, request, [item as string]);
    const [post] = await published('x_gif');
    expect(post?.detail).toMatchObject({ type: 'GIF' });
    expect(post?.detail.media).toEqual([
      {
        id: (item as string).split(':')[1],
        media_category: 'tweet_gif',
        media_type: 'image/gif',
        total_bytes: 6 * 1024 * 1024,
        segments: [2 * 1024 * 1024, 2 * 1024 * 1024, 2 * 1024 * 1024],
      },
    ]);
  });

  it("a video X fails to process reads as failed, with X's reason; the control API makes processing fail", async () => {
    const credentials = await account('x_video_fails');
    expect((await sandbox.control('PUT', '/settings/x_media_processing', { value: 'fails' })).status).toBe(200);
    try {
      const film = { type: 'video' as const, url: media.url('/clip.mp4'), durationSeconds: 3, sizeBytes: CLIP_BYTES };
      const [item] = (await x.publishing.createCarouselItems?.(credentials, { media: [film] })) ?? [];
      advanceClock(5_000);
      expect(await x.publishing.containerStatus(credentials, item as string)).toEqual({
        state: 'failed',
        message: 'processing failed: Unsupported video format (InvalidMedia)',
      });
    } finally {
      await sandbox.control('PUT', '/settings/x_media_processing', { value: 'succeeds' });
    }
    // Bytes that are not the type announced fail too (a PNG sent as a video).
    const png = { type: 'video' as const, url: media.url('/png.mp4'), durationSeconds: 3, sizeBytes: PNG_AS_MP4_BYTES };
    const [item] = (await x.publishing.createCarouselItems?.(credentials, { media: [png] })) ?? [];
    advanceClock(5_000);
    expect((await x.publishing.containerStatus(credentials, item as string)).state).toBe('failed');
  });

  it('the sandbox refuses what X refuses: a size past the category, a type it does not take, a segment out of order, a finalize before every byte, an expired upload, a post naming media still processing', async () => {
    const tokens = await login('x_chunks');
    const credentials = { accessToken: tokens.accessToken };
    const call = async (path: string, body?: unknown) => {
      const response = await request(`${sandbox.url}/api.x.com/2${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${credentials.accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // biome-ignore lint/suspicious/noExplicitAny: the test reads X's JSON field by field.
      return { status: response.statusCode, body: (await response.body.json()) as any };
    };
    const init = (media_type: string, total_bytes: number, media_category = 'tweet_video') =>
      call('/media/upload/initialize', { media_type, total_bytes, media_category });
    const message = (answer: { body: { errors?: { message: string }[] } }) => answer.body.errors?.[0]?.message;

    const big = await init('video/mp4', 512 * 1024 * 1024 + 1);
    expect([big.status, message(big)]).toEqual([400, 'File size exceeds 536870912 bytes.']);
    const bigGif = await init('image/gif', 15 * 1024 * 1024 + 1, 'tweet_gif');
    expect([bigGif.status, message(bigGif)]).toEqual([400, 'File size exceeds 15728640 bytes.']);
    const avi = await init('video/x-msvideo', 1000);
    expect([avi.status, message(avi)]).toEqual([400, 'Unsupported media type for tweet_video: video/x-msvideo.']);

    const started = await init('video/mp4', 10);
    expect(started.status).toBe(200);
    expect(started.body.data.expires_after_secs).toBe(1_295_999);
    const id = started.body.data.id as string;
    const segment = (index: number, bytes: Buffer) =>
      call(`/media/upload/${id}/append`, { segment_index: index, media: bytes.toString('base64') });
    const outOfOrder = await segment(1, Buffer.alloc(4));
    expect([outOfOrder.status, message(outOfOrder)]).toEqual([
      400,
      'Segment 1 is out of order: the next segment is 0.',
    ]);
    expect((await segment(0, Buffer.alloc(6))).status).toBe(200);
    const early = await call(`/media/upload/${id}/finalize`);
    expect([early.status, message(early)]).toEqual([
      400,
      'Only 6 of 10 bytes were received: the upload cannot be finalized.',
    ]);
    const tooMuch = await segment(1, Buffer.alloc(5));
    expect([tooMuch.status, message(tooMuch)]).toEqual([400, 'The segments exceed total_bytes (10).']);

    // A finalized video still processing cannot be posted.
    const clip = MEDIA_FILES['/clip.mp4']?.body as Buffer;
    const ready = await init('video/mp4', clip.length);
    const readyId = ready.body.data.id as string;
    await call(`/media/upload/${readyId}/append`, { segment_index: 0, media: clip.toString('base64') });
    const finalized = await call(`/media/upload/${readyId}/finalize`);
    expect(finalized.body.data.processing_info).toEqual({ state: 'pending', check_after_secs: 5, progress_percent: 0 });
    const processing = await call('/tweets', { text: 'too soon', media: { media_ids: [readyId] } });
    expect([processing.status, message(processing)]).toEqual([
      400,
      `Your media IDs are invalid: ${readyId} (processing pending)`,
    ]);

    // "The entire file must be uploaded before expires_after_secs seconds."
    advanceClock(1_296_000_000);
    credentials.accessToken = (await x.refreshToken(tokens)).accessToken;
    const expired = await segment(1, Buffer.alloc(4));
    expect([expired.status, message(expired)]).toEqual([400, `The upload ${id} has expired.`]);
  });

  it("the sandbox takes only JPEG, PNG, WEBP and GIF images of at most 5 MB, and only the uploader's media in a post", async () => {
    const credentials = await account('x_upload');
    const upload = (bytes: Buffer, token = credentials.accessToken) =>
      request(`${sandbox.url}/api.x.com/2/media/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ media: bytes.toString('base64'), media_category: 'tweet_image' }),
      });
    const html = await upload(Buffer.from('<!doctype html><title>no</title>'));
    expect(html.statusCode).toBe(400);
    expect(await html.body.json()).toMatchObject({ errors: [{ message: 'Unsupported media type.' }] });
    const big = await upload(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5 * 1024 * 1024)]));
    expect(big.statusCode).toBe(400);
    await big.body.dump();
    const ok = await upload(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    const { data } = (await ok.body.json()) as { data: { id: string; media_key: string } };
    expect(data.media_key).toBe(`3_${data.id}`);
    const other = await account('x_upload_other');
    const post = await request(`${sandbox.url}/api.x.com/2/tweets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'not mine', media: { media_ids: [data.id] } }),
    });
    expect(post.statusCode).toBe(400);
    await post.body.dump();
  });

  it('the sandbox refuses a text over 280 by weight, as X does', async () => {
    const credentials = await account('x_long');
    const response = await request(`${sandbox.url}/api.x.com/2/tweets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: '漢'.repeat(141) }),
    });
    expect(response.statusCode).toBe(403);
    expect(await response.body.json()).toMatchObject({ status: 403, title: 'Forbidden' });
  });
});

describe("x: comments (replies to the account's posts)", () => {
  it("reads the recent posts and their conversations: top-level replies, replies under replies, the account's own", async () => {
    const credentials = await account('x_inbox');
    const { body: made } = await sandbox.control('GET', '/users/x/x_inbox');
    const postId = made.posts[0].id as string;
    const top = await sandbox.control('POST', '/comments', {
      platform: 'x',
      username: 'x_inbox',
      post_id: postId,
      author_username: 'sam_reads',
      text: 'Nice one',
    });
    const under = await sandbox.control('POST', '/comments', {
      platform: 'x',
      username: 'x_inbox',
      post_id: postId,
      parent_id: top.body.id,
      author_username: 'kim_too',
      text: 'Agreed',
    });
    const comments = commentsOf(x);
    const sent = await comments.reply(credentials, top.body.id, 'Thanks!');
    expect(sent).toEqual({ state: 'sent', id: expect.stringMatching(/^\d+$/) });
    const read = await comments.recentComments(credentials, { posts: 5 });
    expect(read.posts.map((p) => p.id)).toContain(postId);
    expect(read.posts.find((p) => p.id === postId)?.permalink).toBe(`https://x.com/x_inbox/status/${postId}`);
    const byId = new Map(read.comments.filter((c) => c.postId === postId).map((c) => [c.id, c]));
    expect(byId.get(top.body.id)).toMatchObject({
      parentId: null,
      authorUsername: 'sam_reads',
      text: 'Nice one',
      byAccount: false,
    });
    expect(byId.get(under.body.id)).toMatchObject({ parentId: top.body.id, authorUsername: 'kim_too' });
    expect(byId.get(sent.state === 'sent' ? sent.id : '')).toMatchObject({
      parentId: top.body.id,
      authorId: credentials.platformUserId,
      byAccount: true,
    });
    expect(await comments.postSummary(credentials, postId)).toMatchObject({
      id: postId,
      permalink: `https://x.com/x_inbox/status/${postId}`,
    });
  });

  it("the account's reply is deleted (DELETE /2/tweets/:id); deleting it again is no error; another's reply is refused", async () => {
    const credentials = await account('x_deleter');
    const top = await sandbox.control('POST', '/comments', {
      platform: 'x',
      username: 'x_deleter',
      author_username: 'sam_reads',
      text: 'Nice one',
    });
    const comments = commentsOf(x);
    const sent = await comments.reply(credentials, top.body.id, 'Thanks!');
    if (sent.state !== 'sent') throw new Error('the reply was not sent at once');
    const deleteReply = comments.deleteReply;
    if (deleteReply === undefined) throw new Error('the X adapter deletes no replies');
    await deleteReply(credentials, sent.id, top.body.id);
    const ids = (await comments.recentComments(credentials, { posts: 5 })).comments.map((c) => c.id);
    expect(ids).toContain(top.body.id);
    expect(ids).not.toContain(sent.id);
    // X no longer has it (404): deleted before, as asked.
    await deleteReply(credentials, sent.id, top.body.id);
    const calls = (await sandbox.calls('x', 'x_deleter')).data.filter((c) => c.method === 'DELETE');
    expect(calls.map((c) => c.path)).toEqual([`/api.x.com/2/tweets/${sent.id}`, `/api.x.com/2/tweets/${sent.id}`]);
    const refused = await platformError(deleteReply(credentials, top.body.id, top.body.id));
    expect(refused.detail).toMatchObject({ status: 403 });
    expect(x.scopes.byAction.delete_reply).toEqual(['tweet.read', 'tweet.write', 'users.read']);
  });

  it('hides and shows a reply (PUT /2/tweets/:id/hidden); without tweet.moderate.write, permission_missing', async () => {
    const credentials = await account('x_hider');
    const made = await sandbox.control('POST', '/comments', {
      platform: 'x',
      username: 'x_hider',
      author_username: 'spammer',
      text: 'buy now',
    });
    await commentsOf(x).setHidden(credentials, made.body.id, true);
    await commentsOf(x).setHidden(credentials, made.body.id, false);
    const { body } = await sandbox.control('GET', '/activity/x/x_hider');
    expect(
      body.data.filter((a: { action: string }) => a.action !== 'publish').map((a: { action: string }) => a.action),
    ).toEqual(['hide', 'unhide']);
    const tokens = await login('x_no_moderate', ['tweet.read', 'tweet.write', 'users.read', 'offline.access']);
    const other = await sandbox.control('POST', '/comments', {
      platform: 'x',
      username: 'x_no_moderate',
      author_username: 'spammer',
      text: 'buy now',
    });
    const refused = await platformError(
      commentsOf(x).setHidden(
        { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken },
        other.body.id,
        true,
      ),
    );
    expect(refused.kind).toBe('permission_missing');
    expect(refused.detail.missingScopes).toEqual(['tweet.moderate.write']);
  });

  it('X sends no comment notices: subscribing is unsupported (polling only)', async () => {
    const credentials = await account('x_notices');
    expect((await platformError(commentsOf(x).subscribeNotices(credentials))).kind).toBe('unsupported');
  });
});

describe('x: insights', () => {
  const today = () => now().toISOString().slice(0, 10);

  it("followers_count is today's public_metrics.followers_count; earlier days have none from X", async () => {
    const credentials = await account('x_followers');
    const set = await sandbox.control('PUT', '/insights', {
      platform: 'x',
      username: 'x_followers',
      metric: 'followers_count',
      values: [{ day: today(), value: 321 }],
    });
    expect(set.status).toBe(200);
    const yesterday = new Date(now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const { figures } = await insightsOf(x).accountInsights(credentials, [yesterday, today()], ['followers_count']);
    expect(figures).toEqual({ [yesterday]: { followers_count: null }, [today()]: { followers_count: 321 } });
  });

  it("a post's public_metrics: views, likes, replies, reposts, quotes, bookmarks; a count X leaves out is null, not 0", async () => {
    const credentials = await account('x_post_figures');
    const { containerId } = await x.publishing.createContainer(credentials, { text: 'Counted', media: [] });
    for (const [metric, value] of [
      ['impression_count', 1200],
      ['like_count', 0],
      ['reply_count', 3],
      ['retweet_count', 2],
      ['quote_count', 1],
      ['bookmark_count', null],
    ] as const) {
      const set = await sandbox.control('PUT', '/insights', {
        platform: 'x',
        username: 'x_post_figures',
        metric,
        post_id: containerId,
        values: [{ day: today(), value }],
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
    }
    const metrics = ['views', 'likes', 'replies', 'reposts', 'quotes', 'bookmarks'];
    const { figures } = await insightsOf(x).postInsights(credentials, containerId, metrics);
    expect(figures).toEqual({ views: 1200, likes: 0, replies: 3, reposts: 2, quotes: 1, bookmarks: null });
    // A post X does not have: answered 200 with an error entry, which the adapter refuses.
    expect((await platformError(insightsOf(x).postInsights(credentials, '1', ['likes']))).kind).toBe('invalid_request');
  });

  it('a refusal for lack of a permission names what insights need', async () => {
    const credentials = await account('x_insights_denied');
    await fault('x_insights_denied', 'permission_missing');
    const error = await platformError(insightsOf(x).accountInsights(credentials, [today()], ['followers_count']));
    expect(error.kind).toBe('permission_missing');
    expect(error.detail.missingScopes).toEqual(['tweet.read', 'users.read']);
  });
});

describe('x: errors', () => {
  it('a 429 is rate_limited, retried at x-rate-limit-reset', async () => {
    const credentials = await account('x_throttled');
    expect(
      (await sandbox.control('POST', '/throttle', { platform: 'x', username: 'x_throttled', seconds: 600 })).status,
    ).toBe(200);
    const error = await platformError(x.profile(credentials));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail.retryAfterSeconds).toBeGreaterThanOrEqual(599);
    expect(error.detail.retryAfterSeconds).toBeLessThanOrEqual(601);
  });

  it("a usage cap (X's usage-capped problem) is rate_limited with its code and the plan named", async () => {
    const credentials = await account('x_capped');
    await customFault('x_capped', 429, {
      title: 'UsageCapExceeded',
      type: 'https://api.twitter.com/2/problems/usage-capped',
      period: 'Monthly',
      scope: 'Product',
      detail: 'Usage cap exceeded: Monthly product cap',
    });
    const error = await platformError(x.publishing.createContainer(credentials, { text: 'capped', media: [] }));
    expect(error.kind).toBe('rate_limited');
    expect(error.detail.code).toBe('usage-capped');
    expect(error.detail.platformMessage).toBe(
      "The X app's usage cap (its plan's monthly posts or reads) is reached; X says: Usage cap exceeded: Monthly product cap",
    );
    // No reset given: checked again a day later.
    expect(error.detail.retryAfterSeconds).toBe(86_400);
    expect(error.message).toMatch(/usage cap/);
    expect(await published('x_capped')).toEqual([]);
  });

  it('an app whose plan lacks the endpoint (client-not-enrolled) is unsupported, the plan named', async () => {
    const credentials = await account('x_enrolled');
    await customFault('x_enrolled', 403, {
      client_id: '123',
      detail:
        'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
      registration_url: 'https://developer.twitter.com/en/docs/projects/overview',
      title: 'Client Forbidden',
      required_enrollment: 'Appropriate Level of API Access',
      reason: 'client-not-enrolled',
      type: 'https://api.twitter.com/2/problems/client-forbidden',
    });
    const error = await platformError(x.publishing.createContainer(credentials, { text: 'plan', media: [] }));
    expect(error.kind).toBe('unsupported');
    expect(error.detail.code).toBe('client-not-enrolled');
    expect(error.message).toMatch(/plan/);
  });

  it('a missing scope is permission_missing naming what publishing needs; a passing fault transient', async () => {
    const credentials = await account('x_faults');
    await fault('x_faults', 'permission_missing', 'publish');
    const missing = await platformError(x.publishing.createContainer(credentials, { text: 'a', media: [] }));
    expect(missing.kind).toBe('permission_missing');
    expect(missing.detail.missingScopes).toEqual(['tweet.read', 'tweet.write', 'users.read']);
    await fault('x_faults', 'transient', 'publish');
    expect((await platformError(x.publishing.createContainer(credentials, { text: 'b', media: [] }))).kind).toBe(
      'transient',
    );
    expect(await published('x_faults')).toEqual([]);
  });
});
