import { Logger, type LogLevel, type Runner, run } from 'graphile-worker';
import type pg from 'pg';
import type { Logger as Pino } from 'pino';
import { CRONTAB, type TaskDeps, taskList } from './tasks.ts';

/** graphile-worker's log lines, through the service's pino logger. */
function workerLogger(log: Pino): Logger {
  return new Logger((scope) => (level: LogLevel, message: string, meta?: unknown) => {
    const fields = { component: 'worker', ...scope, ...(meta && typeof meta === 'object' ? meta : {}) };
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    log[method](fields, message);
  });
}

/** Starts a worker pool that runs jobs from the shared queue until stopped. */
export async function startWorker(
  options: TaskDeps & { pool: pg.Pool; concurrency: number; log: Pino },
): Promise<Runner> {
  return await run({
    pgPool: options.pool,
    concurrency: options.concurrency,
    taskList: taskList(options),
    // Periodic tasks are declared in code (tasks.ts), not in a crontab file.
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger(options.log),
  });
}
