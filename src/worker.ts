import { Logger, type LogLevel, run } from 'graphile-worker';
import type pg from 'pg';
import type { Logger as Pino } from 'pino';
import { workerLiveness } from './jobs/liveness.ts';
import { installModules } from './modules.ts';
import { CRONTAB, type TaskDeps, taskList } from './tasks.ts';

/** graphile-worker's log lines, through the service's pino logger. */
function workerLogger(log: Pino): Logger {
  return new Logger((scope) => (level: LogLevel, message: string, meta?: unknown) => {
    const fields = { component: 'worker', ...scope, ...(meta && typeof meta === 'object' ? meta : {}) };
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    log[method](fields, message);
  });
}

export interface RunningWorker {
  /** Finishes the jobs in hand, then stops. */
  stop(): Promise<void>;
}

/** Starts a worker pool that runs jobs from the shared queue until stopped. */
export async function startWorker(
  options: TaskDeps & { pool: pg.Pool; databaseUrl: string; concurrency: number; log: Pino },
): Promise<RunningWorker> {
  installModules();
  const liveness = workerLiveness(options.db, options.databaseUrl, (message) =>
    options.log.warn({ component: 'worker' }, message),
  );
  await liveness.start();
  try {
    const runner = await run({
      pgPool: options.pool,
      concurrency: options.concurrency,
      taskList: taskList(options),
      // Periodic tasks are declared in code (tasks.ts), not in a crontab file.
      crontab: CRONTAB,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: workerLogger(options.log),
      events: liveness.events,
      preset: {
        worker: {
          // One query locks a batch of due jobs for this process instead of one query per job;
          // jobs locked by a process that dies are unlocked by liveness.ts.
          localQueue: { size: options.concurrency * 2 },
          // Jobs that finish in the same turn of the event loop are deleted in one statement.
          completeJobBatchDelay: 0,
        },
      },
    });
    return {
      stop: async () => {
        await runner.stop();
        await liveness.stop();
      },
    };
  } catch (error) {
    await liveness.stop();
    throw error;
  }
}
