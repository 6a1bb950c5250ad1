/**
 * A job queued for later starts at its time, not at its pool's next poll (src/jobs/due-wake.ts).
 * The runners here poll once a minute, so within a test only the wake can start such a job.
 */
import { EventEmitter } from 'node:events';
import { Logger, type Runner, run, type WorkerEvents } from 'graphile-worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { wakeAtDueTimes } from '../../src/jobs/due-wake.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

let database: Database;
const runners: Runner[] = [];
const stops: (() => void)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await database.pool.query('delete from graphile_worker._private_jobs');
});
afterAll(async () => {
  await database.close();
});

/** A runner of the task `noted` taking jobs of `priorities`, idle once its first fetch found nothing. */
async function startRunner(priorities: readonly number[], wake: boolean) {
  const events: WorkerEvents = new EventEmitter();
  if (wake) {
    const due = wakeAtDueTimes(events, database.pool);
    due.nextPool(priorities);
    stops.push(due.stop);
  }
  const ran: { n: string; at: number }[] = [];
  const idle = new Promise<void>((resolve) => {
    events.on('localQueue:getJobs:complete', ({ jobs }) => {
      if (jobs.length === 0) resolve();
    });
  });
  runners.push(
    await run({
      pgPool: database.pool,
      concurrency: 1,
      pollInterval: 60_000,
      noHandleSignals: true,
      logger: new Logger(() => () => {}),
      events,
      preset: { worker: { localQueue: { size: 2 } } },
      taskList: {
        noted: async (payload) => {
          ran.push({ n: (payload as { n: string }).n, at: Date.now() });
        },
      },
    }),
  );
  await idle;
  return ran;
}

/** Queues `noted` due `ms` from the database's now, at `priority`; answers its due time. */
async function queueLater(n: string, ms: number, priority: number): Promise<number> {
  const { rows } = await database.pool.query<{ run_at: Date }>(
    `select run_at from graphile_worker.add_job('noted', json_build_object('n', $1::text),
       run_at => now() + $2::int * interval '1 millisecond', priority => $3::int)`,
    [n, ms, priority],
  );
  return (rows[0] as { run_at: Date }).run_at.getTime();
}

describe('jobs queued for later', () => {
  it('start at their time, though the pool polls once a minute: after the insert woke it too early', async () => {
    const ran = await startRunner([0, 10], true);
    // Its insert's notice makes the pool fetch at once, when the job is not due yet.
    const dueAt = await queueLater('later', 500, 0);
    const [run] = await eventually(async () => (ran.length > 0 ? ran : undefined));
    expect(run?.n).toBe('later');
    expect(run?.at).toBeGreaterThanOrEqual(dueAt - 1);
  });

  it('one after another, of either priority: each is woken for, the second after the first ran', async () => {
    const ran = await startRunner([0, 10], true);
    // The first also comes first by priority: fetched together on a slow machine, they still run in this order.
    await queueLater('first', 300, 0);
    await queueLater('second', 900, 10);
    const both = await eventually(async () => (ran.length === 2 ? ran : undefined));
    expect(both.map((r) => r.n)).toEqual(['first', 'second']);
  });

  it('a pool is not woken for a job of a priority it does not take, nor without the wake at all', async () => {
    const other = await startRunner([20], true);
    const none = await startRunner([0], false);
    await queueLater('not theirs', 200, 0);
    // Well past its time, neither pool has fetched it: both wait for their next poll, a minute on.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(other).toEqual([]);
    expect(none).toEqual([]);
    const { rows } = await database.pool.query<{ count: number }>(
      'select count(*)::int as count from graphile_worker._private_jobs where locked_at is null',
    );
    expect(rows[0]?.count).toBe(1);
  });

  it('refuses, when a pool is declared, priorities that are not whole numbers', () => {
    const due = wakeAtDueTimes(new EventEmitter(), database.pool);
    stops.push(due.stop);
    expect(() => due.nextPool([0, 1.5])).toThrow('job priorities are integers; 1.5 is not');
    expect(() => due.nextPool([0, 10])).not.toThrow();
  });
});
