import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/** The server process behind the connection the pool lends for one statement. */
async function backendPid(pool: Database['pool']): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
  return rows[0]?.pid as number;
}

async function poolWith(idleSeconds: string): Promise<Database> {
  return await openDatabase(
    loadConfig({ DATABASE_URL: database.url, DB_POOL_SIZE: '1', DB_IDLE_TIMEOUT_SECONDS: idleSeconds }),
    () => {},
  );
}

describe('DB_IDLE_TIMEOUT_SECONDS', () => {
  it('keeps an unused connection open until it has been unused that long, then closes it', async () => {
    const kept = await poolWith('60');
    const closed = await poolWith('1');
    try {
      const keptPid = await backendPid(kept.pool);
      const closedPid = await backendPid(closed.pool);
      // Timers fire in the order they fall due: the 1 s one before this 2.5 s wait ends.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(kept.pool.totalCount).toBe(1);
      expect(await backendPid(kept.pool)).toBe(keptPid);
      expect(closed.pool.totalCount).toBe(0);
      expect(await backendPid(closed.pool)).not.toBe(closedPid);
    } finally {
      await kept.close();
      await closed.close();
    }
  });

  it('takes whole seconds from 1 to 86400', () => {
    expect(loadConfig({}).dbIdleTimeoutSeconds).toBe(300);
    expect(loadConfig({ DB_IDLE_TIMEOUT_SECONDS: '86400' }).dbIdleTimeoutSeconds).toBe(86_400);
    for (const wrong of ['0', '86401', 'soon']) {
      expect(() => loadConfig({ DB_IDLE_TIMEOUT_SECONDS: wrong }), wrong).toThrow(/DB_IDLE_TIMEOUT_SECONDS/);
    }
  });
});
