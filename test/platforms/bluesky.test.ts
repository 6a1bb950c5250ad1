import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blueskyPlatform } from '../../src/platforms/bluesky/index.ts';
import { hostUrlFor } from '../../src/platforms/http.ts';
import type { AccountCredentials, GrantedTokenSet, PlatformAdapter } from '../../src/platforms/index.ts';
import { platformError, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
let bluesky: PlatformAdapter;
let metadataServer: Server;
let dispatcher: Agent;
let redirectUri: string;

beforeAll(async () => {
  sandbox = await startSandbox();
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
});
