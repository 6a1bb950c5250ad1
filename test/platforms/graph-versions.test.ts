/**
 * The API version each Meta platform's calls name: one setting per platform, by default the
 * current one (Meta's Graph API Changelog, updated October 29, 2026: v27.0, introduced November
 * 4, 2026, for graph.facebook.com and graph.instagram.com; Threads names v1.0 only). And what
 * the sandbox answers a version, as Meta's Platform Versioning page says Graph does: "once a
 * version is no longer usable, any calls made to it will be defaulted to the next oldest,
 * usable version".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createPlatforms } from '../../src/platforms/index.ts';
import { REDIRECT_URI, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => resetClock());

/** The versions the requests name on `host`, each once, in the order first seen. */
function versionsOn(requests: string[], host: string): string[] {
  const found = requests.map((r) => new RegExp(`^[A-Z]+ /${host.replaceAll('.', '\\.')}/(v\\d+\\.\\d+)/`).exec(r)?.[1]);
  return [...new Set(found.filter((v): v is string => v !== undefined))];
}

/** Moves the service's and the sandbox's clock to `iso`. */
function clockAt(iso: string): void {
  advanceClock(Date.parse(iso) - now().getTime());
}

describe('the version each Meta adapter names', () => {
  it('is the current one unless set: v27.0 in every versioned Facebook and Instagram URL, v1.0 for Threads', async () => {
    const before = sandbox.requests().length;
    const facebook = await sandbox.connect('facebook', 'version_fb');
    await sandbox.adapter('facebook').pages?.(facebook, facebook.scopes ?? []);
    await sandbox.connect('instagram', 'version_ig');
    await sandbox.connect('threads', 'version_th');
    const sent = sandbox.requests().slice(before);
    // The login dialog, the code and token exchanges and the Graph calls alike.
    expect(sent.filter((r) => r.startsWith('GET /www.facebook.com/v27.0/dialog/oauth?'))).toHaveLength(1);
    expect(sent.filter((r) => r.startsWith('GET /graph.facebook.com/v27.0/oauth/access_token?'))).toHaveLength(2);
    expect(versionsOn(sent, 'www.facebook.com')).toEqual(['v27.0']);
    expect(versionsOn(sent, 'graph.facebook.com')).toEqual(['v27.0']);
    expect(versionsOn(sent, 'graph.instagram.com')).toEqual(['v27.0']);
    expect(versionsOn(sent, 'graph.threads.net')).toEqual(['v1.0']);
  });

  it('is the one FACEBOOK_GRAPH_VERSION, INSTAGRAM_GRAPH_VERSION and THREADS_GRAPH_VERSION name', async () => {
    const config = loadConfig({
      FACEBOOK_GRAPH_VERSION: 'v24.0',
      INSTAGRAM_GRAPH_VERSION: 'v25.0',
      THREADS_GRAPH_VERSION: 'v1.0',
    });
    const platforms = createPlatforms({ ...config, sandboxUrl: sandbox.url });
    const before = sandbox.requests().length;
    for (const platform of ['facebook', 'instagram', 'threads'] as const) {
      const adapter = platforms.adapter(platform);
      const redirect = await sandbox.decide(adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's' }), {
        username: `configured_${platform}`,
      });
      const tokens = await adapter.exchangeCode(redirect.searchParams.get('code') as string, REDIRECT_URI);
      await adapter.profile({ platformUserId: tokens.platformUserId, accessToken: tokens.accessToken });
    }
    const sent = sandbox.requests().slice(before);
    expect(sent.filter((r) => r.startsWith('GET /www.facebook.com/v24.0/dialog/oauth?'))).toHaveLength(1);
    expect(sent.filter((r) => r.startsWith('GET /graph.facebook.com/v24.0/oauth/access_token?'))).toHaveLength(2);
    expect(versionsOn(sent, 'www.facebook.com')).toEqual(['v24.0']);
    expect(versionsOn(sent, 'graph.facebook.com')).toEqual(['v24.0']);
    expect(versionsOn(sent, 'graph.instagram.com')).toEqual(['v25.0']);
    expect(versionsOn(sent, 'graph.threads.net')).toEqual(['v1.0']);
  });

  it('refuses a setting that is not a version', () => {
    for (const variable of ['FACEBOOK_GRAPH_VERSION', 'INSTAGRAM_GRAPH_VERSION', 'THREADS_GRAPH_VERSION']) {
      expect(() => loadConfig({ [variable]: '27' })).toThrow(`${variable}="27"`);
      expect(() => loadConfig({ [variable]: 'v27.0/me' })).toThrow(`${variable}=`);
    }
  });
});

describe('what the sandbox answers a version, on its clock', () => {
  it("answers each version until the Changelog's end for it, and an ended one as the oldest still served", async () => {
    clockAt('2026-12-01T00:00:00Z');
    const facebook = await sandbox.connect('facebook', 'version_clock_fb');
    const instagram = await sandbox.connect('instagram', 'version_clock_ig');
    // v20.0 ended on September 24, 2026; v21.0 is served until January 21, 2027.
    const december = [
      ['v27.0', 'v27.0'],
      ['v26.0', 'v26.0'],
      ['v22.0', 'v22.0'],
      ['v21.0', 'v21.0'],
      ['v20.0', 'v21.0'],
      ['v2.8', 'v21.0'],
    ];
    for (const [asked, served] of december) {
      for (const [host, token] of [
        ['graph.facebook.com', facebook.accessToken],
        ['graph.instagram.com', instagram.accessToken],
      ] as const) {
        const answer = await sandbox.raw('GET', `/${host}/${asked}/me`, { access_token: token, fields: 'id' });
        expect(answer.status, `${host} ${asked}`).toBe(200);
        expect(answer.headers['facebook-api-version'], `${host} ${asked}`).toBe(served);
      }
    }
    clockAt('2027-02-01T00:00:00Z');
    const later = await sandbox.connect('facebook', 'version_clock_fb_later');
    for (const [asked, served] of [
      ['v22.0', 'v22.0'],
      ['v21.0', 'v22.0'],
      ['v20.0', 'v22.0'],
    ]) {
      const answer = await sandbox.raw('GET', `/graph.facebook.com/${asked}/me`, { access_token: later.accessToken });
      expect(answer.status, asked).toBe(200);
      expect(answer.headers['facebook-api-version'], asked).toBe(served);
    }
  });

  it('answers a version not introduced yet, or no version, as an unknown path (code 2500)', async () => {
    const facebook = await sandbox.connect('facebook', 'version_unknown_fb');
    // Before v27.0 was introduced, on November 4, 2026.
    clockAt('2026-11-01T00:00:00Z');
    for (const asked of ['v27.0', 'v28.0', 'v27', 'latest']) {
      const answer = await sandbox.raw('GET', `/graph.facebook.com/${asked}/me`, {
        access_token: facebook.accessToken,
      });
      expect(answer.status, asked).toBe(400);
      expect(answer.body.error, asked).toMatchObject({ code: 2500, message: 'Unknown path components: /me' });
    }
    const served = await sandbox.raw('GET', '/graph.facebook.com/v26.0/me', { access_token: facebook.accessToken });
    expect(served.status).toBe(200);
    expect(served.headers['facebook-api-version']).toBe('v26.0');
  });

  it('Threads answers v1.0 only, without a version header', async () => {
    const threads = await sandbox.connect('threads', 'version_th_only');
    const v1 = await sandbox.raw('GET', '/graph.threads.net/v1.0/me', { access_token: threads.accessToken });
    expect(v1.status).toBe(200);
    expect(v1.headers['facebook-api-version']).toBeUndefined();
    for (const asked of ['v2.0', 'v0.9', 'v27.0']) {
      const answer = await sandbox.raw('GET', `/graph.threads.net/${asked}/me`, { access_token: threads.accessToken });
      expect(answer.status, asked).toBe(400);
      expect(answer.body.error, asked).toMatchObject({ code: 2500, message: 'Unknown path components: /me' });
    }
  });
});
