/**
 * The rate limit counted in Redis (REDIS_URL; docs/api-conventions.md, "Rate limit"): one count
 * across two API processes, nothing counted in the database, and requests that go on uncounted,
 * with a line in the log, while Redis cannot be reached.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { auth } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { cleanupDataDirs, makeDataDir, startCli, stopAllCli, waitForBanner } from '../helpers/process.ts';
import { alternateOverTwoApis } from '../helpers/rate-limit-rounds.ts';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.ts';

let database: Database;
let redis: RedisServer;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = await startRedisServer();
});
afterAll(async () => {
  await stopAllCli();
  await cleanupDataDirs();
  await redis?.stop();
  await database?.close();
});

describe('the rate limit in Redis (REDIS_URL)', () => {
  it('is one count across two API processes, kept in Redis, not in the database', async () => {
    const env = {
      DATABASE_URL: database.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
      PORT: '0',
      RATE_LIMIT_PER_MINUTE: '6',
      REDIS_URL: redis.url,
    };
    const { processes, first, rounds: answers } = await alternateOverTwoApis(env);
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
    const { rows } = await database.pool.query('select count(*)::int as n from rate_limit_windows');
    expect(rows).toEqual([{ n: 0 }]);
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('switchboard:rate-limit:*');
      // The key's count and the address's.
      expect(keys).toHaveLength(2);
      const counts = await Promise.all(keys.map((key) => client.get(key)));
      expect(counts.map(Number).sort()).toEqual([2, 8]);
    } finally {
      client.disconnect();
    }
    for (const api of processes) expect((await api.stop()).code).toBe(0);
  });

  it('lets requests through uncounted while Redis cannot be reached, says so in the log, and counts again once it is back', async () => {
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const gone = await startRedisServer({ password });
    const api = startCli(['api'], {
      DATABASE_URL: database.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
      PORT: '0',
      RATE_LIMIT_PER_MINUTE: '2',
      REDIS_URL: gone.url,
      DATA_DIR: await makeDataDir(),
    });
    const { base } = await waitForBanner(api);
    await gone.stop();
    // Made-up keys: each request counts against the address, and is refused as unknown.
    const statuses = async (n: number) => {
      const list = [];
      for (let i = 0; i < n; i += 1) {
        const res = await fetch(`${base}/v1/profiles`, {
          headers: auth(`sb_owner_${randomBytes(32).toString('base64url')}`),
        });
        await res.arrayBuffer();
        list.push(res.status);
      }
      return list;
    };
    // Not one 429 past the limit of 2: uncounted.
    expect(await statuses(4)).toEqual([401, 401, 401, 401]);
    await api.waitFor(/rate limit: Redis \(REDIS_URL\) cannot be reached/);
    // The URL holds the password: it is never written out.
    expect(api.stdout + api.stderr).not.toContain(password);

    const back = await startRedisServer({ port: gone.port, password });
    try {
      await api.waitFor(/rate limit: Redis \(REDIS_URL\) answers again/, { timeoutMs: 60_000 });
      expect(await statuses(3)).toEqual([401, 401, 429]);
    } finally {
      expect((await api.stop()).code).toBe(0);
      await back.stop();
    }
  });
});
