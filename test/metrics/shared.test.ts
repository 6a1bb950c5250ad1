import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/db/connection.ts';
import { createPool } from '../../src/db/connection.ts';
import { flushSharedMetrics, sharedCounter, sharedHistogram } from '../../src/metrics/shared.ts';
import { createTestDatabase } from '../helpers/database.ts';

/** docs/deployment.md, "Metrics": what each process counts reaches the shared sums, and is not lost on the way. */

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const jobs = sharedCounter({ name: 'test_jobs_total', help: 'Test jobs.', labelNames: ['kind'] });
const waits = sharedHistogram({ name: 'test_wait_seconds', help: 'Test waits.', labelNames: [], buckets: [1, 10] });
const calls = sharedCounter({ name: 'test_calls_total', help: 'Test calls.', labelNames: ['status', 'platform'] });
const lags = sharedHistogram({
  name: 'test_lag_seconds',
  help: 'Test lags.',
  labelNames: ['status', 'platform'],
  buckets: [10, 1],
});

async function stored(): Promise<Record<string, number>> {
  const { rows } = await database.pool.query<{ name: string; labels: string; bucket: string; value: number }>(
    `select name, labels, bucket, value from metric_counts where name like 'test_%' order by 1, 2, 3`,
  );
  return Object.fromEntries(rows.map((r) => [`${r.name} ${r.labels} ${r.bucket}`, r.value]));
}

/** A database handle whose pool is closed: every statement on it fails. */
async function unreachableDb(): Promise<Db> {
  const closed = createPool(database.url, 1);
  await closed.end();
  return drizzle(closed) as Db;
}

describe('shared metrics', () => {
  it('adds each flush to the sums, as the flushes of several processes add up', async () => {
    jobs.inc({ kind: 'a' }, 2);
    waits.observe({}, 0.5);
    waits.observe({}, 4);
    await flushSharedMetrics(database.db);
    jobs.inc({ kind: 'a' }, 3);
    jobs.inc({ kind: 'b' });
    waits.observe({}, 30);
    await flushSharedMetrics(database.db);
    expect(await stored()).toEqual({
      'test_jobs_total {"kind":"a"} ': 5,
      'test_jobs_total {"kind":"b"} ': 1,
      'test_wait_seconds {} +Inf': 1,
      'test_wait_seconds {} 1': 1,
      'test_wait_seconds {} 10': 1,
      'test_wait_seconds {} count': 3,
      'test_wait_seconds {} sum': 34.5,
    });
  });

  it('stores labels as JSON in the order of their names, however they are declared or given', async () => {
    calls.inc({ status: 'ok', platform: 'a "quoted" \\ name' });
    calls.inc({ platform: 'a "quoted" \\ name', status: 'ok' }, 2);
    lags.observe({ platform: 'x', status: 'late' }, 2);
    await flushSharedMetrics(database.db);
    expect(await stored()).toMatchObject({
      'test_calls_total {"platform":"a \\"quoted\\" \\\\ name","status":"ok"} ': 3,
      'test_lag_seconds {"platform":"x","status":"late"} 10': 1,
      'test_lag_seconds {"platform":"x","status":"late"} count': 1,
      'test_lag_seconds {"platform":"x","status":"late"} sum': 2,
    });
  });

  it('stores one series for labels given in any order, left out, undefined, or beside names it does not have', async () => {
    calls.inc({ status: 'same', platform: undefined as unknown as string });
    calls.inc({ status: 'same' } as { status: string; platform: string });
    calls.inc({ status: 'same', extra: 'x' } as unknown as { status: string; platform: string });
    await flushSharedMetrics(database.db);
    const rows = Object.entries(await stored()).filter(([key]) => key.includes('same'));
    expect(rows).toEqual([['test_calls_total {"status":"same"} ', 3]]);
  });

  it('stores values JSON writes alike (null, NaN) as one series, as they read on /metrics', async () => {
    calls.inc({ status: null as unknown as string, platform: 'odd' });
    calls.inc({ status: Number.NaN as unknown as string, platform: 'odd' }, 2);
    await flushSharedMetrics(database.db);
    expect((await stored())['test_calls_total {"platform":"odd","status":null} ']).toBe(3);
  });

  it('counts what is counted while a flush waits for the database, in the next flush', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The flush's statement waits at the gate, as on a busy database.
    const waiting = new Proxy(database.db, {
      get: (target, key, receiver) =>
        key === 'execute'
          ? async (...args: Parameters<Db['execute']>) => {
              await gate;
              return await target.execute(...args);
            }
          : Reflect.get(target, key, receiver),
    });
    const before = (await stored())['test_jobs_total {"kind":"flight"} '] ?? 0;
    jobs.inc({ kind: 'flight' }, 3);
    const flushing = flushSharedMetrics(waiting);
    jobs.inc({ kind: 'flight' }, 4);
    open();
    await flushing;
    expect((await stored())['test_jobs_total {"kind":"flight"} ']).toBe(before + 3);
    await flushSharedMetrics(database.db);
    expect((await stored())['test_jobs_total {"kind":"flight"} ']).toBe(before + 7);
  });

  it('keeps what a failed flush could not write beside what was counted meanwhile, and writes both with the next one', async () => {
    const unreachable = await unreachableDb();
    const before = (await stored())['test_jobs_total {"kind":"meanwhile"} '] ?? 0;
    jobs.inc({ kind: 'meanwhile' }, 5);
    const failing = flushSharedMetrics(unreachable);
    jobs.inc({ kind: 'meanwhile' }, 6);
    await expect(failing).rejects.toThrow();
    await flushSharedMetrics(database.db);
    expect((await stored())['test_jobs_total {"kind":"meanwhile"} ']).toBe(before + 11);
  });

  it('keeps what a failed flush could not write, and writes it with the next one', async () => {
    const unreachable = await unreachableDb();
    const before = await stored();
    jobs.inc({ kind: 'a' }, 7);
    await expect(flushSharedMetrics(unreachable)).rejects.toThrow();
    jobs.inc({ kind: 'a' }, 1);
    await flushSharedMetrics(database.db);
    expect((await stored())['test_jobs_total {"kind":"a"} ']).toBe((before['test_jobs_total {"kind":"a"} '] ?? 0) + 8);
  });
});
