/**
 * A job that ends in the statement of its run's last change (src/jobs/job-run.ts): moved to its
 * next run, which may start at once, or deleted. graphile-worker's own record of the run's
 * outcome, which follows the run, must then touch nothing: by then the job may be another
 * run's.
 */
import { EventEmitter } from 'node:events';
import { type SQL, sql } from 'drizzle-orm';
import { Logger, type Runner, run, type WorkerEvents } from 'graphile-worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { executeSqlPreparedByText } from '../../src/db/prepared.ts';
import { endJobSql, type OwnJobEnd, ownJobEnd, queuedUnderKey, runJob } from '../../src/jobs/job-run.ts';
import { queuePool } from '../../src/jobs/queue-pool.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

let database: Database;
let runner: Runner | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query('create table job_end_marks (n int primary key, at timestamptz not null default now())');
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
  await database.pool.query(`delete from graphile_worker._private_jobs`);
  await database.pool.query('delete from job_end_marks');
});
afterAll(async () => {
  await database.close();
});

interface JobRow {
  id: string;
  key: string | null;
  locked_by: string | null;
  attempts: number;
  last_error: string | null;
  run_at: Date;
}

async function jobRows(): Promise<JobRow[]> {
  const { rows } = await database.pool.query<JobRow>(
    'select id::text, key, locked_by, attempts, last_error, run_at from graphile_worker._private_jobs order by id',
  );
  return rows;
}

/** A deferred: what a run waits on, opened by the test. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * A worker pool (two jobs at once) of the task `step`, on the service's queue pool, whose
 * runs are the service's (runJob). Each run is given its number, from 1. `outcomeOfFirstRun`
 * resolves once graphile-worker has recorded the first run's outcome, through the queue pool.
 */
async function startPool(step: (runNumber: number, payload: { key: string }) => Promise<void>) {
  const events: WorkerEvents = new EventEmitter();
  const lockers: string[] = [];
  events.on('pool:create', ({ workerPool }) => lockers.push(workerPool.id));
  events.on('worker:create', ({ worker }) => lockers.push(worker.workerId));
  const queue = queuePool(
    database.pool,
    () => {},
    () => lockers,
    database.pool,
  );
  const firstRunEnded = gate();
  // graphile-worker asks for the outcome's statement as it says the job complete (worker.ts,
  // job:complete); the queue pool has it in hand from then until settled. A turn of the event
  // loop lets the steps between the connection and the statement be taken.
  events.once('job:complete', () => firstRunEnded.open());
  const outcomeOfFirstRun = firstRunEnded.opened.then(async () => {
    await queue.settled();
    await new Promise((resolve) => setImmediate(resolve));
    await queue.settled();
  });
  let runs = 0;
  runner = await run({
    pgPool: queue.pool,
    concurrency: 2,
    pollInterval: 100,
    noHandleSignals: true,
    // The failing run's error is the test's own.
    logger: new Logger(() => () => {}),
    events,
    taskList: {
      step: async (payload, helpers) => {
        runs += 1;
        const runNumber = runs;
        await runJob(helpers.job, () => step(runNumber, payload as { key: string }), helpers.query);
      },
    },
  });
  return { lockers, outcomeOfFirstRun };
}

/** A change made by a run with its job's end as its effect: a mark row, and the job ended with it. */
async function markAndEnd(n: number, key: string, next?: Date, nextPayload?: Record<string, unknown>): Promise<void> {
  const end = endJobSql(key, next, nextPayload);
  const effect: SQL = sql`select ${end.sql} from marked`;
  await executeSqlPreparedByText(
    database.db,
    sql`with marked as (insert into job_end_marks (n) values (${n}) returning n) select (select count(*) from (${effect}) as e) as ended from marked`,
    end.values,
  );
  end.made();
}

async function addJob(key: string): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `select id::text from graphile_worker.add_job('step', json_build_object('key', $1::text), job_key => $1)`,
    [key],
  );
  return rows[0]?.id ?? '';
}

const HOUR_MS = 3_600_000;

/**
 * The first run ends its job with a next run due at once, and waits until that next run has
 * begun (the pool locks the job again) before it ends, with `firstRunEnds`; the second run then
 * moves the job an hour on once the test lets it.
 */
async function secondRunBegunBeforeTheFirstEnds(key: string, firstRunEnds: () => Promise<void>) {
  const secondStarted = gate();
  const secondMayEnd = gate();
  const pool = await startPool(async (runNumber, payload) => {
    if (runNumber === 1) {
      await markAndEnd(1, payload.key, new Date());
      await secondStarted.opened;
      await firstRunEnds();
      return;
    }
    secondStarted.open();
    await secondMayEnd.opened;
    await markAndEnd(2, payload.key, new Date(Date.now() + HOUR_MS));
  });
  const id = await addJob(key);
  await pool.outcomeOfFirstRun;
  return { id, lockers: pool.lockers, letSecondEnd: secondMayEnd.open };
}

describe("a job ended in its run's last change", () => {
  it.each([
    {
      how: "moved to a next run due at once, which begins before the first run ends: the first run's completion leaves the job to the second",
      key: 'job-end:complete',
      firstRunEnds: async () => {},
    },
    {
      how: "that fails after its end: graphile-worker's failure leaves the next run, begun meanwhile, its job, locked and without an error",
      key: 'job-end:fail',
      firstRunEnds: async () => {
        throw new Error('failed after its end');
      },
    },
  ])('$how', async ({ key, firstRunEnds }) => {
    const { id, lockers, letSecondEnd } = await secondRunBegunBeforeTheFirstEnds(key, firstRunEnds);
    try {
      const [running, ...others] = await jobRows();
      expect(others).toEqual([]);
      expect(running).toMatchObject({ id, key, attempts: 1, last_error: null });
      expect(lockers).toContain(running?.locked_by);
    } finally {
      letSecondEnd();
    }
    const [moved] = await eventually(async () => {
      const rows = await jobRows();
      return rows[0]?.locked_by === null ? rows : undefined;
    });
    expect(moved).toMatchObject({ id, key, attempts: 0, last_error: null });
    expect((moved?.run_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(HOUR_MS - 300_000);
    const marks = await database.pool.query<{ n: number }>('select n from job_end_marks order by n');
    expect(marks.rows.map((r) => r.n)).toEqual([1, 2]);
  });

  it.each([
    {
      how: 'held by another run (its process taken for gone, the job run again elsewhere): the next run is queued beside it, under the key',
      key: 'job-end:held',
      meanwhile: async (id: string) => {
        await database.pool.query(
          `update graphile_worker._private_jobs set locked_by = 'another-process', locked_at = now() where id = $1`,
          [id],
        );
      },
      expected: (id: string, key: string) => [
        { id, key: null, locked_by: 'another-process' },
        { key, locked_by: null, attempts: 0, runsIn: HOUR_MS },
      ],
    },
    {
      how: 'taken by a change made during the run (a job queued two hours on): the change stands, nothing more is queued',
      key: 'job-end:waiting',
      meanwhile: async (_id: string, key: string) => {
        await database.pool.query(
          `select graphile_worker.add_job('step', json_build_object('key', $1::text), job_key => $1, run_at => now() + interval '2 hours')`,
          [key],
        );
      },
      expected: (_id: string, key: string) => [{ key, locked_by: null, attempts: 0, runsIn: 2 * HOUR_MS }],
    },
  ])('whose key is $how', async ({ key, meanwhile, expected }) => {
    const added = gate();
    let jobId = '';
    const { outcomeOfFirstRun } = await startPool(async (runNumber, payload) => {
      if (runNumber !== 1) return;
      await added.opened;
      await meanwhile(jobId, payload.key);
      await markAndEnd(1, payload.key, new Date(Date.now() + HOUR_MS));
    });
    jobId = await addJob(key);
    added.open();
    await outcomeOfFirstRun;
    const rows = (await jobRows()).map(({ run_at, ...row }) => ({
      ...row,
      runsIn: Math.round((run_at.getTime() - Date.now()) / HOUR_MS) * HOUR_MS,
    }));
    expect(rows).toMatchObject(expected(jobId, key));
    expect(rows).toHaveLength(expected(jobId, key).length);
  });

  it.each([
    { by: "another's change", key: 'job-end:taken-then-failed', own: false },
    { by: "the run's own change (queued under its key)", key: 'job-end:own-then-failed', own: true },
  ])(
    "whose key $by took during a run that then failed is deleted, not left out of attempts for good; the change's job stands",
    async ({ key, own }) => {
      const added = gate();
      const { outcomeOfFirstRun } = await startPool(async (runNumber, payload) => {
        if (runNumber !== 1) return;
        await added.opened;
        await database.pool.query(
          `select graphile_worker.add_job('step', json_build_object('key', $1::text), job_key => $1, run_at => now() + interval '2 hours')`,
          [payload.key],
        );
        if (own) queuedUnderKey(payload.key);
        throw new Error('failed after its key was taken');
      });
      const id = await addJob(key);
      added.open();
      await outcomeOfFirstRun;
      const rows = await jobRows();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ key, locked_by: null, attempts: 0, last_error: null });
      expect(rows[0]?.id).not.toBe(id);
    },
  );

  it('whose key stayed its own, and whose run failed, is failed as graphile-worker fails a job: kept, with its key, to run again', async () => {
    const key = 'job-end:failed';
    const { outcomeOfFirstRun } = await startPool(async (runNumber) => {
      if (runNumber === 1) throw new Error('failed with its key');
    });
    const id = await addJob(key);
    await outcomeOfFirstRun;
    expect(await jobRows()).toMatchObject([
      { id, key, locked_by: null, attempts: 1, last_error: 'failed with its key' },
    ]);
  });

  it.each([
    { where: 'moved to its next run', key: 'job-end:told', heldElsewhere: false },
    { where: 'queued beside the job another run holds', key: 'job-end:told-beside', heldElsewhere: true },
  ])('gives its next run the payload its run names, $where', async ({ key, heldElsewhere }) => {
    const added = gate();
    let jobId = '';
    const { outcomeOfFirstRun } = await startPool(async (runNumber, payload) => {
      if (runNumber !== 1) return;
      await added.opened;
      if (heldElsewhere) {
        await database.pool.query(
          `update graphile_worker._private_jobs set locked_by = 'another-process', locked_at = now() where id = $1`,
          [jobId],
        );
      }
      await markAndEnd(1, payload.key, new Date(Date.now() + HOUR_MS), { key: payload.key, seen: 'started' });
    });
    jobId = await addJob(key);
    added.open();
    await outcomeOfFirstRun;
    const { rows } = await database.pool.query<{ id: string; key: string | null; payload: unknown }>(
      'select id::text, key, payload from graphile_worker._private_jobs order by id',
    );
    const next = { key, payload: { key, seen: 'started' } };
    expect(rows).toMatchObject(
      heldElsewhere ? [{ id: jobId, key: null, payload: { key } }, next] : [{ id: jobId, ...next }],
    );
    expect(rows).toHaveLength(heldElsewhere ? 2 : 1);
  });

  it('ended with no next run is deleted with its change', async () => {
    const { outcomeOfFirstRun } = await startPool(async (_runNumber, { key }) => {
      await markAndEnd(1, key);
    });
    await addJob('job-end:done');
    await outcomeOfFirstRun;
    expect(await jobRows()).toEqual([]);
    const marks = await database.pool.query<{ n: number }>('select n from job_end_marks');
    expect(marks.rows).toEqual([{ n: 1 }]);
  });
});

describe('a job ended by a statement after its run’s changes (ownJobEnd)', () => {
  /** Counts the statements by which graphile-worker's completion of a job is made (queue-pool.ts). */
  function countCompletions(): { count: () => number } {
    let completions = 0;
    const counted = new WeakSet<object>();
    database.pool.on('acquire', (client) => {
      if (counted.has(client)) return;
      counted.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const name = (args[0] as { name?: unknown } | undefined)?.name;
        if (typeof name === 'string' && name.startsWith('switchboard_complete_job')) completions += 1;
        return query(...args);
      };
    });
    return { count: () => completions };
  }

  it('is deleted by that statement, and graphile-worker records its outcome without one; a job that does not end itself is completed as before', async () => {
    const completions = countCompletions();
    let endedAgain: OwnJobEnd | undefined;
    const { outcomeOfFirstRun } = await startPool(async (runNumber) => {
      if (runNumber !== 1) return;
      const end = ownJobEnd();
      if (end === undefined) throw new Error('no job of its own in its run');
      await database.pool.query('select switchboard_end_job($1::bigint, array[$2::text])', [end.jobId, end.lockedBy]);
      end.made();
      endedAgain = ownJobEnd();
    });
    await database.pool.query(`select graphile_worker.add_job('step', '{}'::json)`);
    await outcomeOfFirstRun;
    expect(await jobRows()).toEqual([]);
    expect(completions.count()).toBe(0);
    // Its end is made once: asked again in the same run, there is no job of its own to end.
    expect(endedAgain).toBeUndefined();
    await database.pool.query(`select graphile_worker.add_job('step', '{}'::json)`);
    await eventually(async () => ((await jobRows()).length === 0 && completions.count() === 1 ? true : undefined));
  });

  it('is not given outside a job’s run', () => {
    expect(ownJobEnd()).toBeUndefined();
  });
});
