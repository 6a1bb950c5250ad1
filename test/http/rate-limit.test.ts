import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteEndedRateLimitWindows } from '../../src/http/rate-limit-store.ts';
import { auth, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { cleanupDataDirs, stopAllCli } from '../helpers/process.ts';
import { alternateOverTwoApis } from '../helpers/rate-limit-rounds.ts';

/** docs/api-conventions.md, "Rate limit". */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A well-formed owner key that no one was ever given. */
function madeUpKey(): string {
  return `sb_owner_${randomBytes(32).toString('base64url')}`;
}

async function profilesWith(app: TestApp, headers: Record<string, string>) {
  return await app.app.inject({ method: 'GET', url: '/v1/profiles', headers });
}

/** Counts what the app asks of its database pool while `work` runs. */
async function queriesDuring(app: TestApp, work: () => Promise<void>): Promise<number> {
  const pool = app.database.pool;
  const query = pool.query.bind(pool);
  const connect = pool.connect.bind(pool);
  let count = 0;
  pool.query = ((...args: Parameters<typeof pool.query>) => {
    count += 1;
    return query(...args);
  }) as typeof pool.query;
  pool.connect = ((...args: Parameters<typeof pool.connect>) => {
    count += 1;
    return connect(...args);
  }) as typeof pool.connect;
  try {
    await work();
  } finally {
    pool.query = query;
    pool.connect = connect;
  }
  return count;
}

describe('the rate limit', () => {
  it('counts every made-up key against the address: more of them than the limit get 429', async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await profilesWith(t, auth(madeUpKey()))).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // Requests without a key share that count.
    expect((await profilesWith(t, {})).statusCode).toBe(429);
  });

  it('answers a limited address without asking the database', async () => {
    const app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    t = app;
    for (let i = 0; i < 2; i += 1) expect((await profilesWith(app, auth(madeUpKey()))).statusCode).toBe(401);
    const statuses: number[] = [];
    const queries = await queriesDuring(app, async () => {
      for (let i = 0; i < 20; i += 1) statuses.push((await profilesWith(app, auth(madeUpKey()))).statusCode);
    });
    expect(statuses).toEqual(Array(20).fill(429));
    expect(queries).toBe(0);
  });

  it('gives a key it has accepted a count of its own, untouched by a flood from its address', async () => {
    const app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    t = app;
    const owner = await app.createOwner();
    // Its first request is looked up, and counts against the address.
    expect((await profilesWith(app, auth(owner.key))).statusCode).toBe(200);
    const flood: number[] = [];
    for (let i = 0; i < 5; i += 1) flood.push((await profilesWith(app, auth(madeUpKey()))).statusCode);
    expect(flood).toEqual([401, 401, 429, 429, 429]);

    const own: number[] = [];
    const remaining: (string | undefined)[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await profilesWith(app, auth(owner.key));
      own.push(res.statusCode);
      remaining.push(res.headers['ratelimit-remaining'] as string | undefined);
    }
    expect(own).toEqual([200, 200, 200, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0']);
    // The scheme name is case-insensitive: the same key, the same count.
    expect((await profilesWith(app, { authorization: `bearer ${owner.key}` })).statusCode).toBe(429);

    // A valid key this process has not accepted yet counts against the limited address.
    const newcomer = await app.createOwner();
    expect((await profilesWith(app, auth(newcomer.key))).statusCode).toBe(429);
  });

  it('answers 429 rate_limited with Retry-After and RateLimit-* headers, per key', async () => {
    const app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    t = app;
    const a = await app.createOwner();
    const b = await app.createOwner();
    // Accepted once each (two of the address's three), then each key counts on its own.
    for (const key of [a.key, b.key]) expect((await profilesWith(app, auth(key))).statusCode).toBe(200);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await profilesWith(app, auth(a.key));
      statuses.push(res.statusCode);
      if (i === 0) {
        expect(res.headers['ratelimit-limit']).toBe('3');
        expect(res.headers['ratelimit-remaining']).toBe('2');
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      if (i === 3) {
        expect(res.json().error).toMatchObject({ code: 'rate_limited', request_id: res.headers['request-id'] });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another key has its own allowance.
    expect((await profilesWith(app, auth(b.key))).statusCode).toBe(200);
  });

  it('counts requests of one key sent at once each once: exactly the limit pass', async () => {
    const app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '10' });
    t = app;
    const owner = await app.createOwner();
    expect((await profilesWith(app, auth(owner.key))).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 25 }, () => profilesWith(app, auth(owner.key))));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
    const remaining = answers.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['ratelimit-remaining']));
    expect(remaining.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('forgets ended windows in its periodic clean-up, and only those', async () => {
    const app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '10' });
    t = app;
    await app.database.pool.query(
      `insert into rate_limit_windows (key, window_ms, started_at, hits) values
         ('ip:ended', 60000, now() - interval '61 seconds', 10),
         ('ip:live', 60000, now() - interval '59 seconds', 3)`,
    );
    expect(await deleteEndedRateLimitWindows(app.database.db)).toBe(1);
    const { rows } = await app.database.pool.query('select key, hits from rate_limit_windows order by key');
    expect(rows).toEqual([{ key: 'ip:live', hits: 3 }]);
  });

  it('is one count across two API processes on one database', async () => {
    const database = await createTestDatabase();
    try {
      const env = {
        DATABASE_URL: database.url,
        SECRET_KEY: randomBytes(32).toString('hex'),
        PORT: '0',
        RATE_LIMIT_PER_MINUTE: '6',
      };
      const { first, rounds: answers } = await alternateOverTwoApis(env);
      // Each process looks the key up once (counted against the address), then counts it as the key.
      expect(first).toEqual([200, 200]);
      expect(answers).toEqual([
        { status: 200, remaining: '5' },
        { status: 200, remaining: '4' },
        { status: 200, remaining: '3' },
        { status: 200, remaining: '2' },
        { status: 200, remaining: '1' },
        { status: 200, remaining: '0' },
        { status: 429, remaining: '0' },
        { status: 429, remaining: '0' },
      ]);
    } finally {
      await stopAllCli();
      await cleanupDataDirs();
      await database.close();
    }
  }, 120_000);
});
