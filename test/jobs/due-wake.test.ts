/**
 * A job queued for later starts at its time, not at its pool's next poll (src/jobs/due-wake.ts).
 * The runners here poll once a minute, so within a test only the wake can start such a job.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { Logger, type Runner, run, type TaskList, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { executeSqlPreparedByText } from '../../src/db/prepared.ts';
import { wakeAtDueTimes } from '../../src/jobs/due-wake.ts';
import { endJobSql, runJob } from '../../src/jobs/job-run.ts';
import { queuePool } from '../../src/jobs/queue-pool.ts';
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

/**
 * A query runner for the wake's lookups, which counts those answered (`answered`); with `late`,
 * its i-th lookup is `delays[i]` ms late (later ones are not): sent late (`sent`, as one waiting
 * for a connection of a busy pool), or run at once and answered late (`answered`).
 */
function lookups(late?: { how: 'sent' | 'answered'; delays: readonly number[] }): {
  db: Pick<pg.Pool, 'query'>;
  answered: () => number;
} {
  let calls = 0;
  let answered = 0;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const query = async (statement: pg.QueryConfig) => {
    const delay = late?.delays[calls] ?? 0;
    calls += 1;
    if (late?.how === 'sent') await wait(delay);
    const answer = await database.pool.query(statement);
    if (late?.how === 'answered') await wait(delay);
    answered += 1;
    return answer;
  };
  return { db: { query } as unknown as Pick<pg.Pool, 'query'>, answered: () => answered };
}

/**
 * A runner of the task `noted` (and of `tasks`) taking jobs of `priorities`, on the service's
 * queue pool and with a local queue as its pools have (src/worker.ts), woken at its jobs' times
 * through `wake` (its lookups read through that query runner) or not at all; answered once it
 * listens for inserts and its first fetch found nothing: the jobs it ran, and how many fetches
 * it made.
 */
async function startRunner(priorities: readonly number[], wake: Pick<pg.Pool, 'query'> | false, tasks: TaskList = {}) {
  const events: WorkerEvents = new EventEmitter();
  const lockers: string[] = [];
  events.on('pool:create', ({ workerPool }) => lockers.push(workerPool.id));
  events.on('worker:create', ({ worker }) => lockers.push(worker.workerId));
  if (wake) {
    const due = wakeAtDueTimes(events, wake);
    due.nextPool(priorities, 2);
    stops.push(due.stop);
  }
  const ran: { n: string; at: number }[] = [];
  let fetches = 0;
  const idle = new Promise<void>((resolve) => {
    events.on('localQueue:getJobs:complete', ({ jobs }) => {
      fetches += 1;
      if (jobs.length === 0) resolve();
    });
  });
  const listening = new Promise<pg.PoolClient>((resolve) => {
    events.once('pool:listen:success', ({ client }) => resolve(client as pg.PoolClient));
  });
  const queue = queuePool(
    database.pool,
    () => {},
    () => lockers,
    database.pool,
  );
  runners.push(
    await run({
      pgPool: queue.pool,
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
        ...tasks,
      },
    }),
  );
  // Queued on the listening connection after its LISTEN, so answered once the runner hears inserts.
  await (await listening).query('select 1');
  await idle;
  return { ran, fetches: () => fetches };
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
    const { ran } = await startRunner([0, 10], database.pool);
    // Its insert's notice makes the pool fetch at once, when the job is not due yet.
    const dueAt = await queueLater('later', 500, 0);
    const [run] = await eventually(async () => (ran.length > 0 ? ran : undefined));
    expect(run?.n).toBe('later');
    expect(run?.at).toBeGreaterThanOrEqual(dueAt - 1);
  });

  it('one after another, of either priority: each is woken for, the second after the first ran', async () => {
    const { ran } = await startRunner([0, 10], database.pool);
    // The first also comes first by priority: fetched together on a slow machine, they still run in this order.
    await queueLater('first', 300, 0);
    await queueLater('second', 900, 10);
    const both = await eventually(async () => (ran.length === 2 ? ran : undefined));
    expect(both.map((r) => r.n)).toEqual(['first', 'second']);
  });

  it('one that falls due between the fetch and its lookup: the pool is woken at once', async () => {
    // The lookup after the insert's fetch is sent 700 ms late, when the job is 500 ms overdue.
    const { ran } = await startRunner([0], lookups({ how: 'sent', delays: [0, 700] }).db);
    const dueAt = await queueLater('overdue', 200, 0);
    const [run] = await eventually(async () => (ran.length > 0 ? ran : undefined));
    expect(run?.n).toBe('overdue');
    expect(run?.at).toBeGreaterThanOrEqual(dueAt - 1);
  });

  it('a job found by a fetch made while a slow lookup is read is still woken for at its time', async () => {
    // The first insert's lookup reads at once and is answered 1.2 s later; the second's, made
    // after the second insert, finds a job due before the first's.
    const { ran } = await startRunner([0], lookups({ how: 'answered', delays: [0, 1200] }).db);
    const laterAt = await queueLater('later', 3000, 0);
    const soonerAt = await queueLater('sooner', 1800, 0);
    const both = await eventually(async () => (ran.length === 2 ? ran : undefined));
    expect(both.map((r) => r.n)).toEqual(['sooner', 'later']);
    // Woken for at its own time, not only at the first job's.
    expect(both[0]?.at).toBeGreaterThanOrEqual(soonerAt - 1);
    expect(both[0]?.at).toBeLessThan(laterAt);
  });

  it('a job of its priority that it cannot take (a task it does not know) wakes it once, not at every fetch', async () => {
    const { ran, fetches } = await startRunner([0], lookups({ how: 'sent', delays: [0, 500] }).db);
    await database.pool.query(
      `select graphile_worker.add_job('unknown', '{}'::json, run_at => now() + interval '200 milliseconds', priority => 0)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The first fetch, the insert's and the one wake for the job overdue at its lookup (and at
    // most one or two that graphile-worker makes of its own): not one every few milliseconds.
    expect(fetches()).toBeLessThanOrEqual(5);
    expect(ran).toEqual([]);
    const dueAt = await queueLater('known', 300, 0);
    const [run] = await eventually(async () => (ran.length > 0 ? ran : undefined));
    expect(run?.n).toBe('known');
    expect(run?.at).toBeGreaterThanOrEqual(dueAt - 1);
  });

  it('a job its own run moved to a later run (its next step) starts at that time', async () => {
    // The run moves its job only once the lookup after the fetch that took it has been
    // answered, so no lookup can find it moved.
    const { db: counted, answered } = lookups();
    const runs: number[] = [];
    let movedTo = 0;
    await startRunner([0], counted, {
      stepped: async (_payload, helpers) => {
        runs.push(Date.now());
        if (runs.length > 1) return;
        // The lookups after the runner's first fetch and after the insert's.
        await eventually(async () => (answered() >= 2 ? true : undefined));
        await runJob(
          helpers.job,
          async () => {
            // The step's change: the job moved to its next run, due 600 ms on, in its statement.
            const end = endJobSql('stepped:1', new Date(Date.now() + 600));
            await executeSqlPreparedByText(database.db, sql`select ${end.sql}`, end.values);
            const { rows } = await database.pool.query<{ run_at: Date }>(
              `select run_at from graphile_worker._private_jobs where key = 'stepped:1'`,
            );
            movedTo = (rows[0] as { run_at: Date }).run_at.getTime();
            end.made();
          },
          helpers.query,
        );
      },
    });
    await database.pool.query(`select graphile_worker.add_job('stepped', '{}'::json, job_key => 'stepped:1')`);
    const both = await eventually(async () => (runs.length === 2 ? runs : undefined));
    expect(both[1]).toBeGreaterThanOrEqual(movedTo - 1);
  });

  it('a wake for a job due later (its run moved it) leaves the wake for a job due sooner', async () => {
    const { db: counted, answered } = lookups();
    let movedTo = 0;
    const { ran } = await startRunner([0], counted, {
      stepped: async (_payload, helpers) => {
        if (movedTo > 0) return;
        // Every lookup so far answered (the first fetch's, the two inserts'): the wake for 'sooner' is set.
        await eventually(async () => (answered() >= 3 ? true : undefined));
        await runJob(
          helpers.job,
          async () => {
            const end = endJobSql('stepped:2', new Date(Date.now() + 4000));
            await executeSqlPreparedByText(database.db, sql`select ${end.sql}`, end.values);
            movedTo = Date.now() + 4000;
            end.made();
          },
          helpers.query,
        );
      },
    });
    const soonerAt = await queueLater('sooner', 1500, 0);
    await database.pool.query(`select graphile_worker.add_job('stepped', '{}'::json, job_key => 'stepped:2')`);
    const [run] = await eventually(async () => (ran.length > 0 ? ran : undefined));
    expect(run?.n).toBe('sooner');
    expect(run?.at).toBeGreaterThanOrEqual(soonerAt - 1);
    expect(run?.at).toBeLessThan(movedTo - 1000);
  });

  it('a job due just after a full batch of due jobs starts at its time', async () => {
    const { ran } = await startRunner([0], database.pool);
    // Two due now fill a fetch (the runners fetch two at most); the third falls due 300 ms on.
    await database.pool.query(
      `select graphile_worker.add_jobs(array[
         ('noted', json_build_object('n', 'a'), null, now(), null, null, 0, null)::graphile_worker.job_spec,
         ('noted', json_build_object('n', 'b'), null, now(), null, null, 0, null)::graphile_worker.job_spec])`,
    );
    const laterAt = await queueLater('c', 300, 0);
    const all = await eventually(async () => (ran.length === 3 ? ran : undefined));
    expect(all.map((r) => r.n).sort()).toEqual(['a', 'b', 'c']);
    expect(all.find((r) => r.n === 'c')?.at).toBeGreaterThanOrEqual(laterAt - 1);
  });

  it('a pool is not woken for a job of a priority it does not take, nor without the wake at all', async () => {
    const { ran: other } = await startRunner([20], database.pool);
    const { ran: none } = await startRunner([0], false);
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
    expect(() => due.nextPool([0, 1.5], 2)).toThrow('job priorities are integers; 1.5 is not');
    expect(() => due.nextPool([0, 10], 2)).not.toThrow();
  });
});
