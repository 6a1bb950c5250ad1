/**
 * Jobs without a key added by the statement that writes their rows, as one insert rather than
 * a call of graphile-worker's add_job a job (src/jobs/queue.ts, unkeyedJobsSql): each job as
 * add_job would have added it, the workers woken as add_job wakes them, and, where the task
 * has no row yet, every job added once, through add_job.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { Logger, type Runner, run, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { withEffects } from '../../src/db/with-effects.ts';
import { enqueue, unkeyedJobsSql } from '../../src/jobs/queue.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

let database: Database;
let listener: pg.Client;
let runner: Runner | undefined;
const notices: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (message) => {
    if (message.channel === 'jobs:insert') notices.push(message.payload ?? '');
  });
  await listener.query('listen "jobs:insert"');
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
  await database.pool.query('delete from graphile_worker._private_jobs');
  await forgetNotices();
});
afterAll(async () => {
  await listener.end();
  await database.close();
});

/** The statement of the test: `count` rows (n = 1, 2, ...) and a `poll_comments` job for each, account n. */
function jobsOfRows(count: number) {
  const jobs = unkeyedJobsSql('poll_comments', { account_id: sql`n::text` }, 'numbered', 'numbered_jobs');
  return withEffects({
    with: [['numbered', sql`select n from generate_series(1, ${count}::int) as g(n)`], jobs.with],
    effects: jobs.effects,
    select: sql`1 as done`,
    from: sql`(values (1)) as v`,
  });
}

interface JobRow {
  task: string;
  payload: unknown;
  priority: number;
  max_attempts: number;
  attempts: number;
  key: string | null;
  job_queue_id: number | null;
  flags: unknown;
  locked_at: Date | null;
  revision: number;
  due_at_its_transaction: boolean;
}

async function jobRows(): Promise<JobRow[]> {
  const { rows } = await database.pool.query<JobRow>(
    `select t.identifier as task, j.payload, j.priority, j.max_attempts, j.attempts, j.key, j.job_queue_id, j.flags,
       j.locked_at, j.revision, j.run_at = j.created_at as due_at_its_transaction
     from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`,
  );
  return rows;
}

/** The notices heard so far: the listener's round trip comes after any notice of a commit before it. */
async function noticesHeard(): Promise<{ count: number }[]> {
  await listener.query('select 1');
  return notices.map((payload) => JSON.parse(payload) as { count: number });
}

/** Forgets the notices of what the test did before (heard first, as noticesHeard). */
async function forgetNotices(): Promise<void> {
  await noticesHeard();
  notices.length = 0;
}

/** The task's row made (by a job add_job added, then deleted), and nothing else left of it: no job, no notice. */
async function withTaskKnown(): Promise<void> {
  await database.db.transaction((tx) => enqueue(tx, 'poll_comments', { account_id: 'known task' }));
  await database.pool.query('delete from graphile_worker._private_jobs');
  await forgetNotices();
}

async function taskRows(): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    `select count(*)::int as n from graphile_worker._private_tasks where identifier = 'poll_comments'`,
  );
  return rows[0]?.n ?? 0;
}

const pollOf = (accountId: string) => ({
  task: 'poll_comments',
  payload: { account_id: accountId },
  // The task's priority is bulk (20); 25 attempts is graphile-worker's default.
  priority: 20,
  max_attempts: 25,
  attempts: 0,
  key: null,
  job_queue_id: null,
  flags: null,
  locked_at: null,
  revision: 0,
  // Due now: the time of the transaction that added it, as its creation.
  due_at_its_transaction: true,
});

describe('jobs added without a key by the statement of their rows', () => {
  it('adds each job once through add_job where the task has no row yet, and then the task has one', async () => {
    await database.pool.query(`delete from graphile_worker._private_tasks where identifier = 'poll_comments'`);
    await database.db.execute(jobsOfRows(3));
    expect(await jobRows()).toEqual([pollOf('1'), pollOf('2'), pollOf('3')]);
    expect(await taskRows()).toBe(1);
    // add_job wakes the workers itself, once a job.
    expect(await noticesHeard()).toEqual([
      expect.objectContaining({ count: 1 }),
      expect.objectContaining({ count: 1 }),
      expect.objectContaining({ count: 1 }),
    ]);
  });

  it('adds each job as add_job does and wakes the workers once for all of them', async () => {
    await database.db.transaction((tx) => enqueue(tx, 'poll_comments', { account_id: 'by add_job' }));
    await forgetNotices();
    await database.db.execute(jobsOfRows(2));
    expect(await jobRows()).toEqual([pollOf('by add_job'), pollOf('1'), pollOf('2')]);
    expect(await noticesHeard()).toEqual([expect.objectContaining({ count: 2 })]);
  });

  it('adds nothing and wakes no one for no rows', async () => {
    await withTaskKnown();
    await database.db.execute(jobsOfRows(0));
    expect(await jobRows()).toEqual([]);
    expect(await noticesHeard()).toEqual([]);
  });

  it('wakes the workers at each statement of one transaction, not once for the transaction', async () => {
    await withTaskKnown();
    await database.db.transaction(async (tx) => {
      await tx.execute(jobsOfRows(1));
      await tx.execute(jobsOfRows(1));
    });
    expect(await jobRows()).toEqual([pollOf('1'), pollOf('1')]);
    expect(await noticesHeard()).toEqual([
      expect.objectContaining({ count: 1 }),
      expect.objectContaining({ count: 1 }),
    ]);
  });

  it('has a worker that polls once a minute run the jobs as soon as they are added', async () => {
    await withTaskKnown();
    const ran: string[] = [];
    const events: WorkerEvents = new EventEmitter();
    // Neither heard too late nor found by the workers' first fetches: the jobs are added once the
    // listening connection's LISTEN is done (a round trip queued behind it) and both workers found none.
    const listening = new Promise<pg.PoolClient>((resolve) =>
      events.once('pool:listen:success', ({ client }) => resolve(client)),
    );
    let emptyFetches = 0;
    const idle = new Promise<void>((resolve) =>
      events.on('worker:getJob:empty', () => {
        emptyFetches += 1;
        if (emptyFetches === 2) resolve();
      }),
    );
    runner = await run({
      pgPool: database.pool,
      concurrency: 2,
      pollInterval: 60_000,
      noHandleSignals: true,
      logger: new Logger(() => () => {}),
      events,
      taskList: {
        poll_comments: async (payload) => {
          ran.push((payload as { account_id: string }).account_id);
        },
      },
    });
    await (await listening).query('select 1');
    await idle;
    await database.db.execute(jobsOfRows(2));
    // Within the 10 s eventually waits, far less than the minute a poll would take.
    await eventually(async () => (ran.length === 2 ? true : undefined));
    expect(ran.sort()).toEqual(['1', '2']);
  });
});
