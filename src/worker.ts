import { type ParsedCronItem, parseCrontab, type Runner, run } from 'graphile-worker';
import type pg from 'pg';
import type { Logger as Pino } from 'pino';
import { createPool } from './db/connection.ts';
import { wakeAtDueTimes } from './jobs/due-wake.ts';
import { workerLiveness } from './jobs/liveness.ts';
import { priorityOf, TASKS, type TaskName } from './jobs/queue.ts';
import { queuePool } from './jobs/queue-pool.ts';
import { superviseRunners } from './jobs/supervise.ts';
import { workerLogger } from './jobs/worker-log.ts';
import { installModules } from './modules.ts';
import { CRONTAB, type TaskDeps, taskList } from './tasks.ts';

/**
 * Connections for graphile-worker's `LISTEN`: one for each of the two job pools, held while it
 * runs. They are not taken from the process's pool, whose DB_POOL_SIZE connections are all left
 * to statements (with two of them held for good, a pool of 2 would run no job at all).
 */
const LISTENING_CONNECTIONS = 2;

/** The priorities of the tasks a job pool takes (every task has one: jobs/queue.ts). */
function prioritiesOf(only: (name: string) => boolean): number[] {
  const taken = (Object.keys(TASKS) as TaskName[]).filter((name) => only(name));
  return [...new Set(taken.map(priorityOf))];
}

export interface RunningWorker {
  /** Finishes the jobs in hand, then stops. */
  stop(): Promise<void>;
}

/**
 * Starts the worker: two graphile-worker pools on the shared queue until stopped. The main pool
 * (`concurrency` jobs at once, and the periodic tasks) takes every task but the bulk ones, the
 * time-critical first (queue.ts, PRIORITIES); the bulk pool takes only the bulk tasks,
 * `bulkConcurrency` at once. Priorities order what is due, but a bulk job once started keeps its
 * slot and its share of the CPU: a backlog of insights history on every slot would slow a burst of
 * posts due now to a third of its pace. So bulk work never holds more than its own few slots.
 */
export async function startWorker(
  options: TaskDeps & {
    pool: pg.Pool;
    databaseUrl: string;
    concurrency: number;
    bulkConcurrency: number;
    log: Pino;
    /** Called once if a job pool stops without being asked to (superviseRunners). */
    onFailure: (error: Error) => void;
    /**
     * Whether this process adds the periodic tasks' jobs (default true). Without them it runs only
     * the jobs queued for it, so a test that runs a periodic task itself, on a moved clock, is not
     * raced by the same task started at a minute's turn.
     */
    periodic?: boolean;
  },
): Promise<RunningWorker> {
  installModules();
  const liveness = workerLiveness(options.db, options.databaseUrl, (message) =>
    options.log.warn({ component: 'worker' }, message),
  );
  await liveness.start();
  const tasks = taskList(options);
  // Named as the process's pool is, so pg_stat_activity counts them with the worker's connections.
  const listening = createPool(options.databaseUrl, LISTENING_CONNECTIONS, options.pool.options.application_name);
  const queue = queuePool(
    options.pool,
    (message) => options.log.warn({ component: 'worker' }, message),
    liveness.lockers,
    listening,
  );
  const bulk = (name: string) => TASKS[name as TaskName].priority === 'bulk';
  const dueWake = wakeAtDueTimes(liveness.events, options.pool);
  const pool = (concurrency: number, only: (name: string) => boolean, cron: ParsedCronItem[], pgPool: pg.Pool) => {
    // One query locks a batch of due jobs for this process instead of one query per job;
    // jobs locked by a process that dies are unlocked by liveness.ts.
    const fetchSize = concurrency * 2;
    dueWake.nextPool(prioritiesOf(only), fetchSize);
    return run({
      pgPool,
      concurrency,
      // A pool fetches only the jobs of the tasks it is given.
      taskList: Object.fromEntries(Object.entries(tasks).filter(([name]) => only(name))),
      // Periodic tasks are declared in code (tasks.ts), never read from a crontab file: each pool
      // is given its parsed items, none for the bulk pool (an empty `crontab` string counts as
      // none given, and graphile-worker then looks for a file named crontab in the working
      // directory and logs that it failed to read one).
      parsedCronItems: cron,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: workerLogger(options.log),
      events: liveness.events,
      preset: {
        worker: {
          localQueue: { size: fetchSize },
          // No batched completions (completeJobBatchDelay): in graphile-worker 0.18 a batch that
          // fails once (the database restarting) is never retried, and the pool shuts itself
          // down for good while the process lives on (graphile/worker#636). One completion a
          // job, retried by queuePool until the database answers, keeps it working through an
          // outage.
        },
      },
    });
  };
  const runners: Runner[] = [];
  try {
    const cron = options.periodic === false ? [] : parseCrontab(CRONTAB);
    runners.push(await pool(options.concurrency, (name) => !bulk(name), cron, queue.pool));
    // Bulk work may start a poll later (a second at most): the bulk pool does not fetch at every
    // insert of a time-critical job (queue-pool.ts, pollingPool).
    runners.push(await pool(options.bulkConcurrency, bulk, [], queue.pollingPool));
    const supervision = superviseRunners(runners, liveness.events, options.onFailure);
    return {
      stop: async () => {
        supervision.stopping();
        dueWake.stop();
        await Promise.all(runners.map((runner) => runner.stop()));
        // The outcomes of the last jobs are recorded before the jobs this process still locks
        // are handed back, or a job done while the database was away would run again.
        await queue.settled();
        await listening.end();
        await liveness.stop();
      },
    };
  } catch (error) {
    dueWake.stop();
    await Promise.all(runners.map((runner) => runner.stop()));
    await queue.settled();
    await listening.end();
    await liveness.stop();
    throw error;
  }
}
