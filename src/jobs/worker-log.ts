/**
 * graphile-worker's log lines, through the service's pino logger. graphile-worker hands each
 * job's line the whole job row, payload included: a comment notice's job carries up to a hundred
 * comments (other people's text and names), a sign-in job an e-mail address. A line names its
 * job instead (id, task, attempt), whatever its level, and a job's success, one line a job, is
 * at debug: at an agency's scale that is hundreds of lines a second with nothing to act on (what
 * waits, lags or failed is in the queue's gauges, jobs/metrics.ts). Failures stay at error, with
 * the error's message and stack.
 */
import { Logger, type LogLevel } from 'graphile-worker';
import type { Logger as Pino } from 'pino';

/**
 * graphile-worker's advice for a pool of its own: it warns at every start when the pool it is
 * given has fewer connections than a job pool has slots. Here it is given the process's pool
 * (DB_POOL_SIZE, default 10), smaller than the slots on purpose: a running job holds none of the
 * queue's connections (the local queue fetches for every slot in one query), most jobs wait on a
 * platform or a receiver, and docs/deployment.md (Sizing) says when to raise it. An operator reads
 * a warning as a fault, so this one line is logged at debug.
 */
const POOL_SMALLER_THAN_SLOTS = /^WARNING: having maxPoolSize \(\d+\) smaller than concurrency \(\d+\)/;

/** What a log line says of a job: never its payload, its key or its last error's text. */
interface LoggedJob {
  id: string;
  task: string;
  attempts: number;
  max_attempts: number;
}

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

function loggedJob(job: Fields): LoggedJob {
  return {
    id: String(job.id),
    task: String(job.task_identifier),
    attempts: Number(job.attempts),
    max_attempts: Number(job.max_attempts),
  };
}

/** A line's fields: graphile-worker's own, with any job it names reduced to what identifies it. */
function workerLogFields(scope: object, meta: unknown): Fields {
  const fields: Fields = { component: 'worker', ...scope };
  if (!isRecord(meta)) return fields;
  for (const [name, value] of Object.entries(meta)) {
    fields[name] = name === 'job' && isRecord(value) ? loggedJob(value) : value;
  }
  return fields;
}

function workerLogLevel(level: LogLevel, message: string, meta: unknown): 'error' | 'warn' | 'info' | 'debug' {
  if (POOL_SMALLER_THAN_SLOTS.test(message)) return 'debug';
  if (isRecord(meta) && meta.success === true) return 'debug';
  return level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
}

export function workerLogger(log: Pino): Logger {
  return new Logger((scope) => (level: LogLevel, message: string, meta?: unknown) => {
    log[workerLogLevel(level, message, meta)](workerLogFields(scope, meta), message);
  });
}
