import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../../src/clock.ts';
import { blueskyApi } from '../../src/platforms/bluesky/api.ts';
import { blueskyPlatform } from '../../src/platforms/bluesky/index.ts';
import { openSession } from '../../src/platforms/bluesky/session.ts';
import { hostUrlFor } from '../../src/platforms/http.ts';
import type { AccountCredentials, GrantedTokenSet, PlatformAdapter } from '../../src/platforms/index.ts';
import { commentsOf, insightsOf, platformError, sent, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { MEDIA_FILES, type MediaServer, startMediaServer } from '../helpers/sandbox-media.ts';

let sandbox: TestSandbox;
let bluesky: PlatformAdapter;
let metadataServer: Server;
let dispatcher: Agent;
let redirectUri: string;
let media: MediaServer;

/** An image of 2,000,001 bytes: one past the blob limit ("May be up to 2 MB, formerly limited to 1 MB"). */
const LARGE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(2_000_001 - 3)]);

beforeAll(async () => {
  sandbox = await startSandbox();
  media = await startMediaServer({ '/large.jpg': { type: 'image/jpeg', body: LARGE } });
  dispatcher = new Agent();
  // The service's address, where the authorization server reads the client metadata document.
  metadataServer = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(bluesky.clientMetadata?.(redirectUri)));
  });
  await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
  const { port } = metadataServer.address() as AddressInfo;
  redirectUri = `http://127.0.0.1:${port}/connect/callback/bluesky`;
  bluesky = blueskyPlatform.create(
    {
      clientId: `http://127.0.0.1:${port}/oauth/bluesky/client-metadata.json`,
      clientSecret: 'a secret of the tests',
      hostUrl: hostUrlFor('sandbox', sandbox.url),
      dispatcher,
    },
    () => new Date(),
  );
});
afterAll(async () => {
  await media.close();
  await sandbox.close();
  await dispatcher.close();
  await new Promise((resolve) => metadataServer.close(resolve));
});

/** Pushes the request for `handle`, walks the entryway's page (allow, or cancel) and answers where it sent the browser. */
async function signIn(handle: string, state: string, choice: { granted?: string[]; cancel?: boolean } = {}) {
  const pageUrl = await bluesky.pushAuthorization?.({ redirectUri, state, loginHint: handle });
  if (pageUrl === undefined) throw new Error('no pushed authorization');
  const first = await request(pageUrl, { dispatcher });
  await first.body.text();
  expect(first.statusCode).toBe(303);
  const dialog = new URL(String(first.headers.location), pageUrl).toString();
  return await sandbox.decide(dialog, { username: handle, ...choice });
}

async function connect(handle: string, granted?: string[]): Promise<GrantedTokenSet> {
  const back = await signIn(handle, `state-of-${handle}`, granted ? { granted } : {});
  const callback = bluesky.parseCallback(Object.fromEntries(back.searchParams));
  if (callback.outcome !== 'code') throw new Error(`denied: ${back}`);
  return await bluesky.exchangeCode(callback.code, redirectUri, `state-of-${handle}`, callback.issuer);
}

const credentialsOf = (tokens: GrantedTokenSet): AccountCredentials => ({
  platformUserId: tokens.platformUserId,
  accessToken: tokens.accessToken,
});

// biome-ignore lint/suspicious/noExplicitAny: the tests read the control API's JSON field by field.
async function publications(handle: string): Promise<any[]> {
  const { body } = await sandbox.control('GET', `/activity/bluesky/${handle}`);
  return body.data.filter((a: { action: string }) => a.action === 'publish');
}

describe('Bluesky sign-in (AT Protocol OAuth)', () => {
  it('resolves the handle to its PDS, pushes the request there and sends the browser to the entryway with its URI only', async () => {
    const pageUrl = new URL(
      (await bluesky.pushAuthorization?.({ redirectUri, state: 's-1', loginHint: '@Alice.bsky.social' })) ?? '',
    );
    expect(pageUrl.toString().startsWith(`${sandbox.url}/bsky.social/oauth/authorize?`)).toBe(true);
    expect([...pageUrl.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    expect(pageUrl.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const asked = sandbox.requests();
    // Handle, DID document, the PDS's resource metadata, the issuer's metadata, then the pushed request (twice: the first without a nonce).
    expect(asked.some((r) => r.startsWith('GET /alice.bsky.social/.well-known/atproto-did'))).toBe(true);
    expect(asked.some((r) => /^GET \/plc\.directory\/did:plc:[a-z2-7]{24}$/.test(r))).toBe(true);
    expect(
      asked.some((r) => r.startsWith('GET /morel.us-east.host.bsky.network/.well-known/oauth-protected-resource')),
    ).toBe(true);
    expect(asked.filter((r) => r === 'POST /bsky.social/oauth/par').length).toBe(2);
  });

  it('exchanges the code for DPoP-bound tokens of the DID, reads the profile, and rotates the refresh token', async () => {
    const tokens = await connect('bob.bsky.social');
    expect(tokens.platformUserId).toMatch(/^did:plc:[a-z2-7]{24}$/);
    expect(tokens.scopes).toEqual(['atproto', 'transition:generic']);
    expect(tokens.refreshToken).toMatch(/^bsky-rt-/);
    // The entryway's access tokens last an hour.
    expect(Math.round(((tokens.expiresAt?.getTime() ?? 0) - Date.now()) / 60_000)).toBe(60);
    const profile = await bluesky.profile(credentialsOf(tokens));
    expect(profile).toMatchObject({ id: tokens.platformUserId, username: 'bob.bsky.social', name: 'Bob Bsky Social' });

    const fresh = await bluesky.refreshToken({ ...credentialsOf(tokens), refreshToken: tokens.refreshToken as string });
    expect(fresh.refreshToken).not.toBe(tokens.refreshToken);
    expect(
      (await bluesky.profile({ platformUserId: tokens.platformUserId, accessToken: fresh.accessToken })).username,
    ).toBe('bob.bsky.social');
    // The refresh token used no longer works: the account would need reconnecting.
    const again = await platformError(
      bluesky.refreshToken({ ...credentialsOf(tokens), refreshToken: tokens.refreshToken as string }),
    );
    expect(again.kind).toBe('token_expired');
  });

  it("refuses a code exchanged with another trip (its PKCE verifier and DPoP key are that trip's)", async () => {
    const back = await signIn('carol.bsky.social', 'trip-a');
    const callback = bluesky.parseCallback(Object.fromEntries(back.searchParams));
    if (callback.outcome !== 'code') throw new Error('denied');
    expect(callback.issuer).toBe('https://bsky.social');
    // The entryway's invalid_grant: the code cannot be had again, so the sign-in starts over.
    const error = await platformError(bluesky.exchangeCode(callback.code, redirectUri, 'trip-b', callback.issuer));
    expect(error).toMatchObject({ kind: 'token_expired', detail: { code: 'invalid_grant' } });
  });

  it('reads a cancelled page as access_denied', async () => {
    const back = await signIn('dave.bsky.social', 'trip-c', { cancel: true });
    expect(bluesky.parseCallback(Object.fromEntries(back.searchParams))).toMatchObject({
      outcome: 'denied',
      error: 'access_denied',
      state: 'trip-c',
    });
  });

  it('grants what the user ticked: without transition:generic the account lacks what the service requires', async () => {
    const tokens = await connect('erin.bsky.social', ['atproto']);
    expect(tokens.scopes).toEqual(['atproto']);
    expect(bluesky.scopes.required).toEqual(['atproto', 'transition:generic']);
  });

  it('refuses a handle that is not one, and one that resolves to no DID, before sending anyone anywhere', async () => {
    const notOne = await platformError(
      bluesky.pushAuthorization?.({ redirectUri, state: 's', loginHint: 'not a handle' }) ?? Promise.resolve(),
    );
    expect(notOne.kind).toBe('invalid_request');
    const unknown = await platformError(
      bluesky.pushAuthorization?.({ redirectUri, state: 's', loginHint: 'no-such.example.com' }) ?? Promise.resolve(),
    );
    expect(unknown.kind).toBe('invalid_request');
  });
});

describe("Bluesky's refusals", () => {
  it("classifies the PDS's answers: ExpiredToken, InsufficientScope, a 429 until ratelimit-reset, a 502, a takedown", async () => {
    const credentials = credentialsOf(await connect('rosa.bsky.social'));
    const refusal = async (error: string) => {
      const made = await sandbox.control('POST', '/faults', {
        platform: 'bluesky',
        username: 'rosa.bsky.social',
        error,
        trigger: 'call',
      });
      expect(made.status).toBe(201);
      return await platformError(bluesky.profile(credentials));
    };
    expect(await refusal('token_expired')).toMatchObject({ kind: 'token_expired', detail: { code: 'ExpiredToken' } });
    expect(await refusal('permission_missing')).toMatchObject({
      kind: 'permission_missing',
      detail: { status: 403, code: 'InsufficientScope' },
    });
    // 429 RateLimitExceeded with ratelimit-reset a minute ahead (the sandbox's default wait).
    const limited = await refusal('rate_limited');
    expect(limited.kind).toBe('rate_limited');
    expect(limited.detail.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(limited.detail.retryAfterSeconds).toBeLessThanOrEqual(61);
    expect(await refusal('transient')).toMatchObject({ kind: 'transient', detail: { status: 502 } });
    const custom = await sandbox.control('POST', '/faults', {
      platform: 'bluesky',
      username: 'rosa.bsky.social',
      error: 'custom',
      status: 400,
      body: { error: 'AccountTakedown', message: 'Account has been taken down' },
      trigger: 'call',
    });
    expect(custom.status).toBe(201);
    expect(await platformError(bluesky.profile(credentials))).toMatchObject({
      kind: 'access_revoked',
      detail: { code: 'AccountTakedown' },
    });
  });
});

describe('Bluesky posts', () => {
  it('publishes a text post with its links and hashtags as facets in UTF-8 bytes, under the key chosen before the call', async () => {
    const tokens = await connect('frank.bsky.social');
    const credentials = credentialsOf(tokens);
    const text = 'Café ☕ news at https://example.com/a #launch';
    const { containerId } = await bluesky.publishing.createContainer(credentials, {
      text,
      media: [],
      options: { languages: ['en'] },
    });
    const post = await bluesky.publishing.publishContainer(credentials, containerId);
    expect(post.id).toMatch(new RegExp(`^at://${tokens.platformUserId}/app\\.bsky\\.feed\\.post/[2-7a-z]{13}$`));
    const rkey = post.id.split('/').pop();
    expect(post.permalink).toBe(`https://bsky.app/profile/${tokens.platformUserId}/post/${rkey}`);
    const [published] = await publications('frank.bsky.social');
    // "Café ☕ news at " is 18 bytes in UTF-8 (é 2, ☕ 3); the link 21 bytes; then " " and "#launch".
    expect(published.detail.record).toMatchObject({
      $type: 'app.bsky.feed.post',
      text,
      langs: ['en'],
      facets: [
        {
          index: { byteStart: 18, byteEnd: 39 },
          features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a' }],
        },
        { index: { byteStart: 40, byteEnd: 47 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'launch' }] },
      ],
    });
  });

  it("finds a bare domain, a mention, a hashtag and a cashtag as Bluesky's app does, in UTF-8 bytes after an emoji and an accent", async () => {
    const kim = await connect('kim.bsky.social');
    const credentials = credentialsOf(await connect('ulla.bsky.social'));
    const text = 'Señor 🎉 read example.com/news, ask @kim.bsky.social. #Fête! $swb';
    const { containerId } = await bluesky.publishing.createContainer(credentials, { text, media: [] });
    await bluesky.publishing.publishContainer(credentials, containerId);
    const [published] = await publications('ulla.bsky.social');
    expect(published.detail.record.text).toBe(text);
    // "Señor " is 7 bytes (ñ 2), "🎉" 4, " read " 6: the domain starts at 17 and is 16 bytes, its
    // comma left out and "https://" put before it. ", ask " is 6: the mention is 39 to 55, 16
    // bytes. ". " is 2: "#Fête" is 57 to 63 (ê 2), its "!" left out. "! " is 2: "$swb" is 65 to
    // 69, a tag of its ticker in capitals.
    expect(published.detail.record.facets).toEqual([
      {
        index: { byteStart: 17, byteEnd: 33 },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/news' }],
      },
      {
        $type: 'app.bsky.richtext.facet',
        index: { byteStart: 39, byteEnd: 55 },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: kim.platformUserId }],
      },
      { index: { byteStart: 57, byteEnd: 63 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'Fête' }] },
      { index: { byteStart: 65, byteEnd: 69 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: '$SWB' }] },
    ]);
  });

  it("keys a post by the service's clock: the TID's first 11 characters are its microseconds", async () => {
    const credentials = credentialsOf(await connect('vera.bsky.social'));
    const at = new Date('2031-05-06T07:08:09.123Z');
    const fixed = blueskyPlatform.create(
      {
        clientId: 'https://switchboard.example/oauth/bluesky/client-metadata.json',
        clientSecret: 'a secret of the tests',
        hostUrl: hostUrlFor('sandbox', sandbox.url),
        dispatcher,
      },
      () => at,
    );
    // The keys are chosen with the container; the calls, whose DPoP proofs the PDS times, on today's clock.
    const { containerId } = await fixed.publishing.createContainer(credentials, {
      text: 'From the future',
      media: [],
      options: { thread: [{ text: 'and after it' }] },
    });
    await bluesky.publishing.publishContainer(credentials, containerId);
    const records = await publications('vera.bsky.social');
    const keys = records.map((r: { target_id: string }) => r.target_id.split('/').pop() as string);
    expect(keys.length).toBe(2);
    // "Record Key": TID, base32-sortable (234567abcdefghijklmnopqrstuvwxyz), 53 bits of
    // microseconds since the epoch, then 10 of clock id.
    const micros = (tid: string) =>
      [...tid.slice(0, 11)].reduce((sum, c) => sum * 32 + '234567abcdefghijklmnopqrstuvwxyz'.indexOf(c), 0);
    for (const key of keys) {
      expect(key).toMatch(/^[2-7a-j][2-7a-z]{12}$/);
      expect(Math.floor(micros(key) / 1000)).toBeGreaterThanOrEqual(at.getTime());
      expect(Math.floor(micros(key) / 1000)).toBeLessThanOrEqual(at.getTime() + 1);
    }
    // The thread's later post is keyed after the first, though the clock stood still.
    expect((keys[1] as string) > (keys[0] as string)).toBe(true);
  });

  it('publishes once when the first answer was lost: the second try finds the record under its key', async () => {
    const credentials = credentialsOf(await connect('gina.bsky.social'));
    const { containerId } = await bluesky.publishing.createContainer(credentials, { text: 'Once only', media: [] });
    const first = await bluesky.publishing.publishContainer(credentials, containerId);
    // The service never learnt of the first: it tries again, and reads back after a crash.
    const second = await bluesky.publishing.publishContainer(credentials, containerId);
    expect(second).toEqual(first);
    expect(await bluesky.publishing.findPublished(credentials, containerId)).toEqual(first);
    expect((await publications('gina.bsky.social')).length).toBe(1);
    const { containerId: never } = await bluesky.publishing.createContainer(credentials, {
      text: 'Never sent',
      media: [],
    });
    expect(await bluesky.publishing.findPublished(credentials, never)).toBeNull();
  });

  it('counts the text in graphemes: 300 are taken, 301 refused before any call', () => {
    expect(bluesky.publishing.checkPublish({ text: '👍🏽'.repeat(300), media: [] })).toEqual([]);
    expect(bluesky.publishing.checkPublish({ text: '👍🏽'.repeat(301), media: [] }).map((p) => p.field)).toEqual([
      'text',
    ]);
  });

  it('publishes up to four images with their alt texts and aspect ratios, uploaded as blobs', async () => {
    const credentials = credentialsOf(await connect('hana.bsky.social'));
    const image = (path: string) => ({ type: 'image' as const, url: media.url(path), width: 1200, height: 800 });
    const { containerId } = await bluesky.publishing.createContainer(credentials, {
      text: 'Two views',
      media: [image('/photo.jpg'), image('/photo.png')],
      options: { alt_texts: ['The harbour at dawn'] },
    });
    await bluesky.publishing.publishContainer(credentials, containerId);
    const [published] = await publications('hana.bsky.social');
    const embed = published.detail.record.embed;
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(
      embed.images.map((i: { alt: string; aspectRatio: unknown; image: { mimeType: string } }) => [
        i.alt,
        i.aspectRatio,
        i.image.mimeType,
      ]),
    ).toEqual([
      ['The harbour at dawn', { width: 1200, height: 800 }, 'image/jpeg'],
      ['', { width: 1200, height: 800 }, 'image/png'],
    ]);
    // One past the blob limit is refused before the post is written.
    const large = await platformError(
      bluesky.publishing.createContainer(credentials, {
        text: 'Too big',
        media: [{ type: 'image', url: media.url('/large.jpg') }],
      }),
    );
    expect(large.kind).toBe('invalid_request');
    expect(
      bluesky.publishing
        .checkPublish({ text: 'x', media: [{ type: 'image', sizeBytes: 2_000_001 }] })
        .map((p) => p.field),
    ).toEqual(['media_ids']);
    expect(
      bluesky.publishing.checkPublish({ text: 'x', media: Array(5).fill({ type: 'image' }) }).map((p) => p.field),
    ).toEqual(['media_ids']);
  });

  it('publishes a link card, and a mention as the DID its handle resolves to', async () => {
    const mentioned = await connect('ivy.bsky.social');
    const credentials = credentialsOf(await connect('jack.bsky.social'));
    const card = { uri: 'https://example.com/news', title: 'News', description: 'What happened' };
    const { containerId } = await bluesky.publishing.createContainer(credentials, {
      text: 'Hello @ivy.bsky.social and @no-one.bsky.social',
      media: [],
      options: { link_card: card },
    });
    await bluesky.publishing.publishContainer(credentials, containerId);
    const [published] = await publications('jack.bsky.social');
    expect(published.detail.record.embed).toEqual({ $type: 'app.bsky.embed.external', external: card });
    // "Hello " is 6 bytes; "@ivy.bsky.social" 16. The handle that resolves to nothing (the sandbox
    // has no user with a hyphen) stays text. Bluesky's RichText types a mention's facet, not a link's.
    expect(published.detail.record.facets).toEqual([
      {
        $type: 'app.bsky.richtext.facet',
        index: { byteStart: 6, byteEnd: 22 },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: mentioned.platformUserId }],
      },
    ]);
    expect(
      bluesky.publishing.checkPublish({ text: 'x', media: [{ type: 'image' }], options: { link_card: card } }),
    ).toEqual([
      { field: 'platforms.bluesky.link_card', message: 'a Bluesky post with images or a video takes no link card' },
    ]);
    // A card with a picture: the image is uploaded as a blob and named as the card's thumb.
    const pictured = await bluesky.publishing.createContainer(credentials, {
      text: 'With a picture',
      media: [],
      options: { link_card: { ...card, media_ids: ['m-picture'] } },
      optionMedia: { 'm-picture': { type: 'image', url: media.url('/photo.png') } },
    });
    await bluesky.publishing.publishContainer(credentials, pictured.containerId);
    const [, withPicture] = await publications('jack.bsky.social');
    expect(withPicture.detail.record.embed).toMatchObject({
      $type: 'app.bsky.embed.external',
      external: {
        ...card,
        thumb: { $type: 'blob', mimeType: 'image/png', size: MEDIA_FILES['/photo.png']?.body.length },
      },
    });
    expect(
      bluesky.publishing
        .checkPublish({
          text: 'x',
          media: [],
          options: { link_card: { ...card, media_ids: ['m-film'] } },
          optionMedia: { 'm-film': { type: 'video' } },
        })
        .map((p) => p.field),
    ).toEqual(['platforms.bluesky.link_card.media_ids']);
  });

  it("gives a thread's later post its own images with their alt texts", async () => {
    const credentials = credentialsOf(await connect('olga.bsky.social'));
    const { containerId } = await bluesky.publishing.createContainer(credentials, {
      text: 'First',
      media: [],
      options: { thread: [{ text: 'Second', media_ids: ['m-a', 'm-b'], alt_texts: ['A quay at noon'] }] },
      optionMedia: {
        'm-a': { type: 'image', url: media.url('/photo.jpg'), width: 400, height: 300 },
        'm-b': { type: 'image', url: media.url('/photo.png') },
      },
    });
    await bluesky.publishing.publishContainer(credentials, containerId);
    const [, second] = await publications('olga.bsky.social');
    expect(second.detail.record.text).toBe('Second');
    expect(
      second.detail.record.embed.images.map((i: { alt: string; aspectRatio?: unknown }) => [i.alt, i.aspectRatio]),
    ).toEqual([
      ['A quay at noon', { width: 400, height: 300 }],
      ['', undefined],
    ]);
    expect(
      bluesky.publishing
        .checkPublish({
          text: 'x',
          media: [],
          options: { thread: [{ text: 'y', media_ids: ['m-a'], alt_texts: ['one', 'two'] }] },
          optionMedia: { 'm-a': { type: 'image' } },
        })
        .map((p) => p.field),
    ).toEqual(['platforms.bluesky.thread[0].alt_texts']);
  });

  it('publishes a thread as a reply chain under its first post, and resumes one cut short without writing a post twice', async () => {
    const tokens = await connect('kate.bsky.social');
    const credentials = credentialsOf(tokens);
    const request = { text: 'One', media: [], options: { thread: [{ text: 'Two' }, { text: 'Three' }] } };
    const { containerId } = await bluesky.publishing.createContainer(credentials, request);
    // The first run fails at its third post: Two is written, Three refused as a passing failure.
    const create = /^\/morel\.us-east\.host\.bsky\.network\/xrpc\/com\.atproto\.repo\.createRecord$/;
    const run = bluesky.publishing.publishContainer(credentials, containerId);
    for (const n of [1, 2, 3]) {
      const held = sandbox.hold(create);
      await held.arrived;
      if (n === 3) {
        const fault = { platform: 'bluesky', username: 'kate.bsky.social', error: 'transient', trigger: 'publish' };
        expect((await sandbox.control('POST', '/faults', fault)).status).toBe(201);
      }
      held.release();
    }
    expect((await platformError(run)).kind).toBe('transient');
    expect((await publications('kate.bsky.social')).map((p) => p.detail.record.text)).toEqual(['One', 'Two']);
    expect(await bluesky.publishing.findPublished(credentials, containerId)).toBeNull();
    // The next run reads One and Two back and writes Three under them.
    const post = await bluesky.publishing.publishContainer(credentials, containerId);
    const records = (await publications('kate.bsky.social')).map((p) => p.detail.record);
    expect(records.map((r) => r.text)).toEqual(['One', 'Two', 'Three']);
    const rootUri = post.id;
    expect(records[0].reply).toBeUndefined();
    expect(records[1].reply.root.uri).toBe(rootUri);
    expect(records[1].reply.parent.uri).toBe(rootUri);
    expect(records[2].reply.root.uri).toBe(rootUri);
    expect(records[2].reply.parent.uri).not.toBe(rootUri);
    // Another run writes nothing again and answers the same post.
    expect(await bluesky.publishing.publishContainer(credentials, containerId)).toEqual(post);
    expect(await bluesky.publishing.findPublished(credentials, containerId)).toEqual(post);
    expect((await publications('kate.bsky.social')).length).toBe(3);
  });
});

/** The query of the requests the sandbox received at `path`, in order. */
function queriesAt(path: string): URLSearchParams[] {
  return sandbox
    .requests()
    .filter((r) => r.split('?')[0] === path)
    .map((r) => new URL(r.slice(r.indexOf(' ') + 1), 'http://sandbox.test').searchParams);
}

describe('Bluesky videos', () => {
  const CLIP = MEDIA_FILES['/clip.mp4']?.body as Buffer;
  const clip = { type: 'video' as const, url: '', width: 1080, height: 1920, durationSeconds: 12, sizeBytes: 0 };
  const video = () => ({ ...clip, url: media.url('/clip.mp4'), sizeBytes: CLIP.length });
  afterEach(async () => {
    resetClock();
    await sandbox.control('PUT', '/settings/bluesky_video_processing', { value: 'succeeds' });
    await sandbox.control('PUT', '/settings/bluesky_video_daily_uploads', { value: 25 });
  });

  it('sends the video to the video service with a token its PDS signed, reads the job until the video is stored, and posts its blob', async () => {
    const credentials = credentialsOf(await connect('lena.bsky.social'));
    const request = { text: 'Our film', media: [video()], options: { alt_texts: ['A boat leaving the harbour'] } };
    const before = Math.floor(Date.now() / 1000);
    const [item] = (await bluesky.publishing.createCarouselItems?.(credentials, request)) ?? [];
    // Two service tokens: one for the video service's allowance, one for the PDS's uploadBlob (30 minutes).
    const tokens = queriesAt('GET /morel.us-east.host.bsky.network/xrpc/com.atproto.server.getServiceAuth').slice(-2);
    expect(tokens.map((q) => [q.get('aud'), q.get('lxm')])).toEqual([
      ['did:web:video.bsky.app', 'app.bsky.video.getUploadLimits'],
      ['did:web:morel.us-east.host.bsky.network', 'com.atproto.repo.uploadBlob'],
    ]);
    expect(Number(tokens[1]?.get('exp')) - before).toBeGreaterThanOrEqual(1800);
    expect(Number(tokens[1]?.get('exp')) - before).toBeLessThanOrEqual(1801 + 60);
    const [upload] = queriesAt('POST /video.bsky.app/xrpc/app.bsky.video.uploadVideo').slice(-1);
    expect(upload?.get('did')).toBe(credentials.platformUserId);
    // Processing takes container_processing_seconds (5): the post waits for it.
    const first = await bluesky.publishing.containerStatus(credentials, item as string);
    expect(first.state).toBe('in_progress');
    await expect(bluesky.publishing.createContainer(credentials, request, [item as string])).rejects.toThrow(
      /not ready/,
    );
    advanceClock(5_000);
    expect(await bluesky.publishing.containerStatus(credentials, item as string)).toEqual({ state: 'finished' });
    const { containerId } = await bluesky.publishing.createContainer(credentials, request, [item as string]);
    const post = await bluesky.publishing.publishContainer(credentials, containerId);
    expect(post.permalink).toMatch(/^https:\/\/bsky\.app\/profile\/did:plc:[a-z2-7]{24}\/post\/[a-z2-7]{13}$/);
    const [published] = await publications('lena.bsky.social');
    const embed = published.detail.record.embed;
    expect(embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      video: { $type: 'blob', mimeType: 'video/mp4', size: CLIP.length },
      alt: 'A boat leaving the harbour',
      aspectRatio: { width: 1080, height: 1920 },
    });
    expect(embed.video.ref.$link).toMatch(/^bafkrei[a-z2-7]{52}$/);
  });

  it('a video sent again is the one processed before (already_exists): its job names the blob once that is stored, and the posts show one video', async () => {
    const credentials = credentialsOf(await connect('mona.bsky.social'));
    const request = { text: 'Again', media: [video()] };
    const upload = async () =>
      ((await bluesky.publishing.createCarouselItems?.(credentials, request)) ?? [])[0] as string;
    const first = await upload();
    // Sent again while the first is processed (a retried run): the second job waits for the first's video.
    const second = await upload();
    expect(second).not.toBe(first);
    expect((await bluesky.publishing.containerStatus(credentials, second)).state).toBe('in_progress');
    advanceClock(5_000);
    expect(await bluesky.publishing.containerStatus(credentials, first)).toEqual({ state: 'finished' });
    expect(await bluesky.publishing.containerStatus(credentials, second)).toEqual({ state: 'finished' });
    // Sent again once it is stored: the upload answers 409 already_exists, and the job names the blob at once.
    const third = await upload();
    expect(await bluesky.publishing.containerStatus(credentials, third)).toEqual({ state: 'finished' });
    // Every job names the one video: a post of each shows the same blob.
    for (const item of [first, second, third]) {
      const { containerId } = await bluesky.publishing.createContainer(credentials, request, [item]);
      await bluesky.publishing.publishContainer(credentials, containerId);
    }
    const embeds = (await publications('mona.bsky.social')).map((p) => p.detail.record.embed);
    expect(embeds.map((e) => e.$type)).toEqual(Array(3).fill('app.bsky.embed.video'));
    expect(embeds[1].video).toEqual(embeds[0].video);
    expect(embeds[2].video).toEqual(embeds[0].video);
  });

  it("the sandbox's video service takes only a token its PDS signed for it, bound to the method, from the video's account", async () => {
    const tokens = await connect('quinn.bsky.social');
    const api = blueskyApi({
      options: { clientId: 'c', clientSecret: 's', hostUrl: hostUrlFor('sandbox', sandbox.url), dispatcher },
      now: () => new Date(),
    });
    const session = openSession(tokens.accessToken);
    const exp = Math.floor(Date.now() / 1000) + 1800;
    const signed = async (aud: string, lxm: string) =>
      String((await api.xrpc(session, 'GET', 'com.atproto.server.getServiceAuth', { query: { aud, lxm, exp } })).token);
    const pdsAud = 'did:web:morel.us-east.host.bsky.network';
    const upload = async (token: string | undefined, did = tokens.platformUserId) => {
      const answer = await api.service({
        method: 'POST',
        url: `https://video.bsky.app/xrpc/app.bsky.video.uploadVideo?did=${did}&name=clip.mp4`,
        ...(token === undefined ? {} : { bearer: token }),
        bytes: { body: MEDIA_FILES['/clip.mp4']?.body as Buffer, contentType: 'video/mp4' },
      });
      return [answer.status, (answer.body as { error?: string }).error];
    };
    expect(await upload(undefined)).toEqual([401, 'AuthMissing']);
    expect(await upload(await signed('did:web:video.bsky.app', 'com.atproto.repo.uploadBlob'))).toEqual([
      401,
      'BadJwtAudience',
    ]);
    expect(await upload(await signed(pdsAud, 'app.bsky.video.getUploadLimits'))).toEqual([401, 'BadJwtLexiconMethod']);
    expect(
      await upload(await signed(pdsAud, 'com.atproto.repo.uploadBlob'), 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa'),
    ).toEqual([400, 'InvalidRequest']);
    // getServiceAuth: a token bound to a method lasts an hour at most.
    const tooLong = await platformError(
      api.xrpc(session, 'GET', 'com.atproto.server.getServiceAuth', {
        query: { aud: pdsAud, lxm: 'com.atproto.repo.uploadBlob', exp: Math.floor(Date.now() / 1000) + 3700 },
      }),
    );
    expect(tooLong.detail.code).toBe('BadExpiration');
    const [status] = await upload(await signed(pdsAud, 'com.atproto.repo.uploadBlob'));
    expect(status).toBe(200);
  });

  it("a refusal by the video service is the video's, never the account's expired token", async () => {
    const credentials = credentialsOf(await connect('pia.bsky.social'));
    const held = sandbox.hold(/^\/video\.bsky\.app\/xrpc\/app\.bsky\.video\.uploadVideo/);
    const upload = bluesky.publishing.createCarouselItems?.(credentials, { media: [video()] }) ?? Promise.resolve(null);
    await held.arrived;
    // The video service answers 401 ExpiredToken, as it does for a service token that has ended.
    const fault = { platform: 'bluesky', username: 'pia.bsky.social', error: 'token_expired', trigger: 'call' };
    expect((await sandbox.control('POST', '/faults', fault)).status).toBe(201);
    held.release();
    const refused = await platformError(upload);
    expect(refused.kind).toBe('invalid_request');
    expect(refused.detail.status).toBe(401);
    // The account's own session still works.
    expect((await bluesky.profile(credentials)).username).toBe('pia.bsky.social');
  });

  it('a video Bluesky fails to process reads as failed with its reason; an account past its daily allowance is told so before sending', async () => {
    const credentials = credentialsOf(await connect('nina.bsky.social'));
    expect((await sandbox.control('PUT', '/settings/bluesky_video_processing', { value: 'fails' })).status).toBe(200);
    const [item] = (await bluesky.publishing.createCarouselItems?.(credentials, { media: [video()] })) ?? [];
    const status = await bluesky.publishing.containerStatus(credentials, item as string);
    expect(status.state).toBe('failed');
    expect(status.message).toMatch(/Bluesky could not process the video/);
    expect((await sandbox.control('PUT', '/settings/bluesky_video_daily_uploads', { value: 1 })).status).toBe(200);
    const uploads = queriesAt('POST /video.bsky.app/xrpc/app.bsky.video.uploadVideo').length;
    const refused = await platformError(
      bluesky.publishing.createCarouselItems?.(credentials, { media: [video()] }) ?? Promise.resolve(null),
    );
    expect(refused.kind).toBe('rate_limited');
    expect(refused.detail.retryAfterSeconds).toBeGreaterThan(0);
    expect(queriesAt('POST /video.bsky.app/xrpc/app.bsky.video.uploadVideo').length).toBe(uploads);
  });

  it('refuses before any call a video beside images, one over 300,000,000 bytes or 10 minutes, one in a later thread post, and a card beside it', () => {
    const check = (draft: Parameters<typeof bluesky.publishing.checkPublish>[0]) =>
      bluesky.publishing.checkPublish(draft).map((p) => p.field);
    // "May be up to 300mb, formerly limited to 100mb"; "videos up to 10 minutes long" (Bluesky, 2026-08-25).
    expect(check({ text: 'x', media: [{ type: 'video', sizeBytes: 300_000_000, durationSeconds: 600 }] })).toEqual([]);
    expect(check({ text: 'x', media: [{ type: 'video' }, { type: 'image' }] })).toEqual(['media_ids']);
    expect(check({ text: 'x', media: [{ type: 'video', sizeBytes: 300_000_001 }] })).toEqual(['media_ids']);
    expect(check({ text: 'x', media: [{ type: 'video', durationSeconds: 601 }] })).toEqual(['media_ids']);
    expect(
      check({
        text: 'x',
        media: [],
        options: { thread: [{ text: 'y', media_ids: ['m1'] }] },
        optionMedia: { m1: { type: 'video' } },
      }),
    ).toEqual(['platforms.bluesky.thread[0].media_ids']);
    expect(
      check({
        text: 'x',
        media: [{ type: 'video' }],
        options: { link_card: { uri: 'https://example.com', title: 't', description: 'd' } },
      }),
    ).toEqual(['platforms.bluesky.link_card']);
    expect(check({ text: 'x', media: [{ type: 'video' }], options: { alt_texts: ['a'.repeat(1001)] } })).toEqual([
      'platforms.bluesky.alt_texts',
    ]);
  });
});

describe('Bluesky insights', () => {
  const today = () => new Date().toISOString().slice(0, 10);

  it("followers_count is today's followersCount; earlier days have none from Bluesky", async () => {
    const credentials = credentialsOf(await connect('lena.bsky.social'));
    const set = await sandbox.control('PUT', '/insights', {
      platform: 'bluesky',
      username: 'lena.bsky.social',
      metric: 'followersCount',
      values: [{ day: today(), value: 321 }],
    });
    expect(set.status).toBe(200);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { figures } = await insightsOf(bluesky).accountInsights(
      credentials,
      [yesterday, today()],
      ['followers_count'],
    );
    expect(figures).toEqual({ [yesterday]: { followers_count: null }, [today()]: { followers_count: 321 } });
  });

  it("a post's likes, reposts, replies and quotes; no views", async () => {
    const credentials = credentialsOf(await connect('mona.bsky.social'));
    const { containerId } = await bluesky.publishing.createContainer(credentials, { text: 'Counted', media: [] });
    const post = await bluesky.publishing.publishContainer(credentials, containerId);
    for (const [metric, value] of [
      ['likeCount', 12],
      ['repostCount', 3],
      ['replyCount', 2],
      ['quoteCount', 1],
    ] as const) {
      const set = await sandbox.control('PUT', '/insights', {
        platform: 'bluesky',
        username: 'mona.bsky.social',
        metric,
        post_id: post.id,
        values: [{ day: today(), value }],
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
    }
    const { figures } = await insightsOf(bluesky).postInsights(credentials, post.id, [
      'likes',
      'reposts',
      'replies',
      'quotes',
    ]);
    expect(figures).toEqual({ likes: 12, reposts: 3, replies: 2, quotes: 1 });
    expect((await platformError(insightsOf(bluesky).postInsights(credentials, post.id, ['views']))).kind).toBe(
      'invalid_request',
    );
    // Not a post's at:// URI as the adapter makes them ("AT URI Scheme", "Record Key"): refused before any call.
    const rkey = post.id.split('/').pop();
    const asked = sandbox.requests().length;
    for (const uri of [
      `at://mona.bsky.social/app.bsky.feed.post/${rkey}`,
      `at://${credentials.platformUserId}/app.bsky.feed.like/${rkey}`,
      `at://${credentials.platformUserId}/app.bsky.feed.post/self`,
      `at://${credentials.platformUserId}/app.bsky.feed.post/${rkey}#/text`,
      `https://bsky.app/profile/${credentials.platformUserId}/post/${rkey}`,
    ]) {
      expect((await platformError(insightsOf(bluesky).postInsights(credentials, uri, ['likes']))).kind, uri).toBe(
        'invalid_request',
      );
    }
    expect(sandbox.requests().length).toBe(asked);
  });
});

describe('Bluesky replies', () => {
  /** A reply by someone else, through the control API: its id, an at:// URI of its author's repository. */
  async function replyBy(
    handle: string,
    postId: string,
    author: string,
    text: string,
    parentId?: string,
  ): Promise<string> {
    const made = await sandbox.control('POST', '/comments', {
      platform: 'bluesky',
      username: handle,
      post_id: postId,
      author_username: author,
      text,
      ...(parentId === undefined ? {} : { parent_id: parentId }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.id;
  }

  it("lists the replies under the account's recent posts at every depth, answers one, and deletes its own answer", async () => {
    const tokens = await connect('nora.bsky.social');
    const credentials = credentialsOf(tokens);
    const { containerId } = await bluesky.publishing.createContainer(credentials, { text: 'Ask me', media: [] });
    const post = await bluesky.publishing.publishContainer(credentials, containerId);
    const first = await replyBy('nora.bsky.social', post.id, 'olga.bsky.social', 'Why?');
    expect(first).toMatch(/^at:\/\/did:plc:[a-z2-7]{24}\/app\.bsky\.feed\.post\/[a-z2-7]{13}$/);
    const nested = await replyBy('nora.bsky.social', post.id, 'paul.bsky.social', 'Because', first);

    const comments = commentsOf(bluesky);
    const read = await comments.recentComments(credentials);
    expect(read.posts.map((p) => [p.id, p.text, p.permalink])).toEqual([[post.id, 'Ask me', post.permalink]]);
    expect(read.comments.map((c) => [c.id, c.parentId, c.authorUsername, c.text, c.hidden, c.byAccount])).toEqual([
      [nested, first, 'paul.bsky.social', 'Because', false, false],
      [first, null, 'olga.bsky.social', 'Why?', false, false],
    ]);

    const answer = await sent(comments.reply(credentials, nested, 'Thanks!'));
    expect(answer.id).toMatch(new RegExp(`^at://${tokens.platformUserId}/app\\.bsky\\.feed\\.post/`));
    const { body } = await sandbox.control('GET', '/activity/bluesky/nora.bsky.social');
    const replied = body.data.find((a: { action: string }) => a.action === 'reply');
    // The answer's root is the post, its parent the reply it answers.
    expect(replied.detail.record.reply.root.uri).toBe(post.id);
    expect(replied.detail.record.reply.parent.uri).toBe(nested);
    const again = await comments.recentComments(credentials);
    expect(again.comments.find((c) => c.id === answer.id)).toMatchObject({
      parentId: nested,
      byAccount: true,
      text: 'Thanks!',
    });

    await comments.deleteReply?.(credentials, answer.id, nested);
    expect((await comments.recentComments(credentials)).comments.some((c) => c.id === answer.id)).toBe(false);
    // Deleting it again is no error.
    await comments.deleteReply?.(credentials, answer.id, nested);
  });

  it("hides a reply through the post's threadgate hiddenReplies, and shows it again", async () => {
    const credentials = credentialsOf(await connect('quinn.bsky.social'));
    const { containerId } = await bluesky.publishing.createContainer(credentials, { text: 'Gated', media: [] });
    const post = await bluesky.publishing.publishContainer(credentials, containerId);
    const rude = await replyBy('quinn.bsky.social', post.id, 'rex.bsky.social', 'Rude');
    const deep = await replyBy('quinn.bsky.social', post.id, 'sam.bsky.social', 'Ruder', rude);
    const comments = commentsOf(bluesky);
    await comments.setHidden(credentials, deep, true);
    await comments.setHidden(credentials, rude, true);
    const hidden = await comments.recentComments(credentials);
    expect(hidden.comments.map((c) => [c.id, c.hidden])).toEqual([
      [deep, true],
      [rude, true],
    ]);
    const { body } = await sandbox.control('GET', '/activity/bluesky/quinn.bsky.social');
    expect(
      body.data
        .filter((a: { action: string }) => a.action === 'hide')
        .map((a: { target_id: string }) => a.target_id)
        .sort(),
    ).toEqual([rude, deep].sort());
    await comments.setHidden(credentials, rude, false);
    expect((await comments.recentComments(credentials)).comments.map((c) => [c.id, c.hidden])).toEqual([
      [deep, true],
      [rude, false],
    ]);
    // Only the thread's author hides replies in it.
    const other = credentialsOf(await connect('tara.bsky.social'));
    expect((await platformError(comments.setHidden(other, deep, true))).kind).toBe('invalid_request');
  });
});
