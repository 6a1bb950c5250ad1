import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, now, resetClock } from '../../src/clock.ts';
import type { PlatformAdapter } from '../../src/platforms/index.ts';
import { CallLog, KEPT_PER_ACCOUNT } from '../../src/sandbox/calls.ts';
import { platformError, startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sandbox: TestSandbox;
let instagram: PlatformAdapter;

beforeAll(async () => {
  sandbox = await startSandbox();
  instagram = sandbox.adapter('instagram');
});
afterAll(() => sandbox.close());
afterEach(() => resetClock());

const calls = async (platform: string, username: string, since?: string) => {
  const answer = await sandbox.control(
    'GET',
    `/calls/${platform}/${username}${since === undefined ? '' : `?since=${encodeURIComponent(since)}`}`,
  );
  expect(answer.status).toBe(200);
  return answer.body as {
    count: number;
    data: { method: string; path: string; query: Record<string, unknown>; at: string }[];
  };
};

describe('the call log', () => {
  it("counts each call made with a user's token, with method, path, query without secrets and time, oldest first", async () => {
    const account = await sandbox.credentials('instagram', 'calls_ig');
    // The code exchange carries no token; the long-lived exchange carries the short-lived one,
    // and `/me` the long-lived one (the professional account id).
    const connected = await calls('instagram', 'calls_ig');
    expect(connected).toEqual({
      count: 2,
      data: [
        {
          method: 'GET',
          path: '/graph.instagram.com/access_token',
          query: { grant_type: 'ig_exchange_token' },
          at: expect.any(String),
        },
        { method: 'GET', path: '/graph.instagram.com/v27.0/me', query: { fields: 'user_id' }, at: expect.any(String) },
      ],
    });
    const start = now().getTime();
    await instagram.profile(account);
    const after = await calls('instagram', 'calls_ig');
    expect(after.count).toBe(3);
    expect(after.data[2]).toEqual({
      method: 'GET',
      path: '/graph.instagram.com/v27.0/me',
      query: { fields: 'user_id,username,name,profile_picture_url,followers_count' },
      at: expect.any(String),
    });
    const at = Date.parse(after.data[2]?.at ?? '');
    expect(at).toBeGreaterThanOrEqual(start);
    expect(at).toBeLessThanOrEqual(now().getTime());

    // A token Threads does not know, and a token no platform knows, count for nobody.
    await sandbox.raw('GET', '/graph.threads.net/v1.0/me', { access_token: account.accessToken });
    await sandbox.raw('GET', '/graph.instagram.com/v25.0/me', { access_token: 'IGAAnobody' });
    expect((await calls('instagram', 'calls_ig')).count).toBe(3);
    await sandbox.control('POST', '/users', { platform: 'instagram', username: 'calls_other' });
    expect(await calls('instagram', 'calls_other')).toEqual({ count: 0, data: [] });
  });

  it('counts the calls the platform refuses too: a fault, a throttle, an expired token', async () => {
    const account = await sandbox.credentials('instagram', 'calls_refused');
    const before = (await calls('instagram', 'calls_refused')).count;
    await sandbox.control('POST', '/faults', { platform: 'instagram', username: 'calls_refused', error: 'transient' });
    expect((await platformError(instagram.profile(account))).kind).toBe('transient');
    await sandbox.control('POST', '/throttle', { platform: 'instagram', username: 'calls_refused', seconds: 60 });
    expect((await platformError(instagram.profile(account))).kind).toBe('rate_limited');
    await sandbox.control('POST', '/throttle', { platform: 'instagram', username: 'calls_refused', seconds: 0 });
    await sandbox.control('POST', '/tokens/expire', { platform: 'instagram', username: 'calls_refused' });
    expect((await platformError(instagram.profile(account))).kind).toBe('token_expired');
    expect((await calls('instagram', 'calls_refused')).count).toBe(before + 3);
  });

  it('since keeps the kept calls made at or after that time, in count and data', async () => {
    const account = await sandbox.credentials('threads', 'calls_since');
    const threads = sandbox.adapter('threads');
    advanceClock(60_000);
    const from = now().toISOString();
    await threads.profile(account);
    const since = await calls('threads', 'calls_since', from);
    // The profile reads /me, then the followers count from threads_insights.
    expect(since.data.map((c) => c.path)).toEqual([
      '/graph.threads.net/v1.0/me',
      `/graph.threads.net/v1.0/${account.platformUserId}/threads_insights`,
    ]);
    expect(since.count).toBe(2);
    expect((await calls('threads', 'calls_since')).count).toBeGreaterThan(2);
    advanceClock(1000);
    expect(await calls('threads', 'calls_since', now().toISOString())).toEqual({ count: 0, data: [] });
  });

  it('GET /calls counts every platform; DELETE /calls forgets every call', async () => {
    await sandbox.credentials('threads', 'calls_totals');
    const totals = await sandbox.control('GET', '/calls');
    expect(totals.status).toBe(200);
    expect(Object.keys(totals.body.by_platform).sort()).toEqual([
      'bluesky',
      'facebook',
      'google_business',
      'instagram',
      'linkedin',
      'pinterest',
      'threads',
      'tiktok',
      'x',
      'youtube',
    ]);
    expect(totals.body.by_platform.threads).toBeGreaterThan(0);
    expect(totals.body.total).toBe(
      Object.values(totals.body.by_platform as Record<string, number>).reduce((a, b) => a + b, 0),
    );

    const reset = await sandbox.control('DELETE', '/calls');
    expect(reset.status).toBe(204);
    expect((await sandbox.control('GET', '/calls')).body).toEqual({
      total: 0,
      by_platform: {
        instagram: 0,
        threads: 0,
        tiktok: 0,
        facebook: 0,
        linkedin: 0,
        youtube: 0,
        x: 0,
        google_business: 0,
        pinterest: 0,
        bluesky: 0,
      },
    });
    expect(await calls('threads', 'calls_totals')).toEqual({ count: 0, data: [] });
  });

  it('answers 400 invalid_request for a malformed since, platform or username, 404 for an unknown user', async () => {
    await sandbox.control('POST', '/users', { platform: 'instagram', username: 'calls_bad' });
    for (const path of [
      '/calls/instagram/calls_bad?since=yesterday',
      '/calls/instagram/calls_bad?until=2026-01-01T00:00:00Z',
      '/calls/myspace/calls_bad',
      '/calls/instagram/calls%00bad',
    ]) {
      const answer = await sandbox.control('GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    const missing = await sandbox.control('GET', '/calls/instagram/calls_nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });
});

describe('CallLog', () => {
  it('keeps the last calls of each account, oldest first, while its count goes on', () => {
    const log = new CallLog();
    log.mountedAt('/sandbox');
    const extra = 5;
    for (let n = 0; n < KEPT_PER_ACCOUNT + extra; n += 1) {
      log.record(
        'instagram',
        'a',
        { method: 'GET', url: `/sandbox/graph.instagram.com/v25.0/me?n=${n}`, query: { n, access_token: 't' } },
        new Date(n),
      );
    }
    log.record('threads', 'b', { method: 'POST', url: '/sandbox/graph.threads.net/v1.0/me', query: {} }, new Date(0));
    const a = log.of('a');
    expect(a.count).toBe(KEPT_PER_ACCOUNT + extra);
    expect(a.kept).toHaveLength(KEPT_PER_ACCOUNT);
    expect(a.kept[0]).toEqual({
      method: 'GET',
      path: '/graph.instagram.com/v25.0/me',
      query: { n: extra },
      at: new Date(extra),
    });
    expect(a.kept.at(-1)?.query).toEqual({ n: KEPT_PER_ACCOUNT + extra - 1 });
    expect(log.of('b').count).toBe(1);
    expect(log.totals()).toEqual({
      total: KEPT_PER_ACCOUNT + extra + 1,
      byPlatform: new Map([
        ['instagram', KEPT_PER_ACCOUNT + extra],
        ['threads', 1],
      ]),
    });
    log.reset();
    expect(log.of('a')).toEqual({ count: 0, kept: [] });
    expect(log.totals().total).toBe(0);
  });
});
