/**
 * The queue pool a runner of bulk work is given (pollingPool): its listening connection hears no
 * job's insert, so it does not fetch at every time-critical job added, and still finds its jobs by
 * polling; the main pool hears every insert.
 */
import { EventEmitter } from 'node:events';
import { Logger, type Runner, run, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Database } from '../../src/db/connection.ts';
import { queuePool } from '../../src/jobs/queue-pool.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

let database: Database;
const runners: Runner[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await database.close();
});

/** A runner of the task `noted` on `pgPool`, and the client it listens on once graphile-worker has it. */
async function startRunner(pgPool: pg.Pool, ran: string[]) {
  const events: WorkerEvents = new EventEmitter();
  const listening = new Promise<pg.PoolClient>((resolve) => {
    events.once('pool:listen:success', ({ client }) => resolve(client as pg.PoolClient));
  });
  runners.push(
    await run({
      pgPool,
      concurrency: 1,
      pollInterval: 100,
      noHandleSignals: true,
      logger: new Logger(() => () => {}),
      events,
      taskList: {
        noted: async (payload) => {
          ran.push((payload as { n: string }).n);
        },
      },
    }),
  );
  return { listening };
}

/** The channels a connection listens on: queued after graphile-worker's LISTEN on the same client, so answered after it. */
async function channels(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ channel: string }>('select pg_listening_channels() as channel');
  return rows.map((r) => r.channel).sort();
}

describe('the queue pools', () => {
  it('listen: the main pool for job inserts and migrations, the polling pool for migrations only', async () => {
    const queue = queuePool(
      database.pool,
      () => {},
      () => [],
      database.pool,
    );
    const main = await startRunner(queue.pool, []);
    const polling = await startRunner(queue.pollingPool, []);
    expect(await channels(await main.listening)).toEqual(['jobs:insert', 'worker:migrate']);
    expect(await channels(await polling.listening)).toEqual(['worker:migrate']);
  });

  it("the runners' listening connections come from their own pool: a pool of one connection still runs jobs", async () => {
    // Before, each runner's LISTEN held one of the pool's connections for good: with one
    // connection the second runner never started, and no job ever got a connection.
    const statements = createPool(database.url, 1);
    const listening = createPool(database.url, 2);
    try {
      const queue = queuePool(
        statements,
        () => {},
        () => [],
        listening,
      );
      // Either runner may fetch the job first (both poll every 100 ms, and the polling one's poll
      // may come before the main one's fetch at the insert), and either running it shows a job
      // gets the one connection: both note it here.
      const ran: string[] = [];
      const main = await startRunner(queue.pool, ran);
      const polling = await startRunner(queue.pollingPool, ran);
      expect(await channels(await main.listening)).toEqual(['jobs:insert', 'worker:migrate']);
      expect(await channels(await polling.listening)).toEqual(['worker:migrate']);
      expect(listening.totalCount).toBe(2);
      await database.pool.query(`select graphile_worker.add_job('noted', json_build_object('n', 'two'))`);
      expect(await eventually(async () => (ran.length > 0 ? ran : undefined))).toEqual(['two']);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await statements.end();
      await listening.end();
    }
  });

  it('the polling pool still runs a job added after it started', async () => {
    const queue = queuePool(
      database.pool,
      () => {},
      () => [],
      database.pool,
    );
    const ran: string[] = [];
    const polling = await startRunner(queue.pollingPool, ran);
    await polling.listening;
    await database.pool.query(`select graphile_worker.add_job('noted', json_build_object('n', 'one'))`);
    expect(await eventually(async () => (ran.length > 0 ? ran : undefined))).toEqual(['one']);
  });
});
