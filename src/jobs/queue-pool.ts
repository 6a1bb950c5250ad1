import type pg from 'pg';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { outcomeRecordedInRun } from './job-run.ts';

export interface QueuePool {
  /** What graphile-worker is given as `pgPool`. */
  pool: pg.Pool;
  /**
   * The same, for a runner that finds its jobs by polling alone: its listening connection hears
   * no job's insert, only graphile-worker's notice of a breaking migration.
   */
  pollingPool: pg.Pool;
  /**
   * Resolves once no outcome is being recorded and no connection waited for: a stopping worker
   * awaits it after its runners have stopped, before it hands back the jobs it still locks.
   */
  settled(): Promise<void>;
}

/**
 * The pool graphile-worker is given: the process's own, except that it waits out a database
 * that has gone away instead of failing.
 *
 * graphile-worker (0.18) records a job's outcome without awaiting it. When that statement fails
 * with an error it does not retry itself (a refused connection, or one lost under the
 * statement, among them), the rejection goes unhandled and the whole process dies. So here a
 * connection is waited for as long as the database cannot be reached, and the statements that
 * record an outcome run again on a new connection when theirs is lost. Each is one statement
 * that can run twice: one records the done job (completionOf: deleted only while this process
 * still locks it; `lockers` are its pools' and workers' ids); the other unlocks the failed job
 * only while this pool still locks it (should a first run of either have taken effect, its
 * answer lost, and the pool have locked the job again since, the second would act under the
 * new run: a window as narrow as the moment between a commit and its answer). The outcome of a
 * job that ended in its run (job-run.ts) is answered without a statement.
 *
 * Each runner holds a connection for `LISTEN` for as long as it runs: it is taken from
 * `listening`, not from `pool`, so that all of `pool` is left to statements.
 */
export function queuePool(
  pool: pg.Pool,
  log: (message: string) => void,
  lockers: () => readonly string[],
  listening: pg.Pool,
): QueuePool {
  let waitingSince: number | undefined;
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    work.then(
      () => pending.delete(work),
      () => pending.delete(work),
    );
    return work;
  };

  const waitForConnection = async (): Promise<pg.PoolClient> => {
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
      try {
        const client = await pool.connect();
        if (waitingSince !== undefined) {
          log(`job queue: the database answers again, after ${Math.round((Date.now() - waitingSince) / 1000)} s`);
          waitingSince = undefined;
        }
        return client;
      } catch (error) {
        // A pool that is ending never answers again: its last users fail as they would anyway.
        if (pool.ending || !unreachable(error)) throw error;
        waiting(error);
        await pause(wait);
      }
    }
  };
  const connect = () => track(waitForConnection());
  const waiting = (error: unknown) => {
    if (waitingSince !== undefined) return;
    waitingSince = Date.now();
    log(`job queue: waiting for the database: ${(error as Error).message}`);
  };

  /** Runs an outcome statement again, on new connections, until one stays up through it. */
  const recordOutcome = async (statement: pg.QueryConfig): Promise<pg.QueryResult> => {
    // Paced as the connections are: a connection can be had while its statements still fail
    // (PgBouncer with its server away).
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
      const client = await connect();
      try {
        const result = await client.query(statement);
        client.release();
        return result;
      } catch (error) {
        client.release(error as Error);
        if (!unreachable(error)) throw error;
        waiting(error);
        await pause(wait);
      }
    }
  };

  const withRecordedOutcomes = (client: pg.PoolClient): pg.PoolClient => {
    let released = false;
    const release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      client.release(error);
    };
    const query = async (statement: pg.QueryConfig) => {
      try {
        return await client.query(statement);
      } catch (error) {
        if (!unreachable(error)) throw error;
        // Its connection is gone: handed back at once (graphile-worker's own release then does
        // nothing), so that waiting for a new one never waits on the slots of dead ones.
        release(error as Error);
        return await recordOutcome(statement);
      }
    };
    const recordJobOutcome = async (statement: pg.QueryConfig): Promise<pg.QueryResult> => {
      const jobId = outcomeJobId(statement);
      if (jobId !== undefined && outcomeRecordedInRun(jobId)) return recordedInRun(statement);
      return await query(completionOf(statement, lockers()));
    };
    return new Proxy(client, {
      get(target, property) {
        if (property === 'release') return release;
        if (property === 'query') {
          return (...args: unknown[]) => {
            const [statement] = args;
            if (isOutcomeStatement(statement)) return track(recordJobOutcome(statement));
            return (target.query as (...a: unknown[]) => unknown)(...args);
          };
        }
        return bound(target, property);
      },
    });
  };

  const queuePoolOver = (listener: (client: pg.PoolClient) => pg.PoolClient) =>
    new Proxy(pool, {
      get(target, property) {
        if (property === 'connect') {
          // The callback form is graphile-worker's LISTEN connection, which retries by itself.
          return (callback?: Parameters<pg.Pool['connect']>[0]) =>
            callback
              ? listening.connect((error, client, done) => callback(error, client && listener(client), done))
              : connect().then(withRecordedOutcomes);
        }
        return bound(target, property);
      },
    });

  return {
    pool: queuePoolOver((client) => client),
    pollingPool: queuePoolOver(deafToInserts),
    settled: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What graphile-worker's listening connection sends to start and stop listening (main.ts, 0.18). */
const LISTEN_ALL = 'LISTEN "jobs:insert"; LISTEN "worker:migrate";';
const UNLISTEN_ALL = 'UNLISTEN "jobs:insert"; UNLISTEN "worker:migrate";';

/**
 * A listening connection that hears no job's insert. Every pool that listens fetches at each
 * insert, whatever its task; a pool that takes bulk work only (which may start a little later)
 * would fetch nothing at nearly all of them, so it finds its jobs by polling instead. The notice
 * of a breaking migration, which stops the pool, is still heard.
 */
function deafToInserts(client: pg.PoolClient): pg.PoolClient {
  const only = (text: string) =>
    text === LISTEN_ALL ? 'LISTEN "worker:migrate";' : text === UNLISTEN_ALL ? 'UNLISTEN "worker:migrate";' : text;
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') {
        return (...args: unknown[]) => {
          const [statement, ...rest] = args;
          return (target.query as (...a: unknown[]) => unknown)(
            typeof statement === 'string' ? only(statement) : statement,
            ...rest,
          );
        };
      }
      return bound(target, property);
    },
  });
}

/**
 * A database that cannot be reached now: as the API sees it (isDatabaseUnavailable), or its host
 * name not resolving, as a database container's does while it is recreated. Every connection
 * here is to the database, so a failed lookup can only be its own.
 */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return isDatabaseUnavailable(error) || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/** Waits between attempts to connect: 0.25 s, doubling up to 5 s. */
const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 5_000;

/**
 * graphile-worker's prepared statements that record a job's outcome (sql/completeJobs.ts and
 * sql/failJobs.ts): complete_job, complete_job_q, complete_jobs, fail_job, fail_job_q. They are
 * named only while `preparedStatements` is on, its default.
 */
const OUTCOME_STATEMENT = /^(complete_jobs?|complete_job_q|fail_job|fail_job_q)\//;

function isOutcomeStatement(statement: unknown): statement is pg.QueryConfig {
  const name = (statement as { name?: unknown } | undefined)?.name;
  return typeof statement === 'object' && typeof name === 'string' && OUTCOME_STATEMENT.test(name);
}

/**
 * The job a complete_job or fail_job statement records the outcome of (the others, batched,
 * are not used here).
 */
function outcomeJobId(statement: pg.QueryConfig): string | undefined {
  const values = statement.values ?? [];
  if (statement.name?.startsWith('complete_job/')) return typeof values[0] === 'string' ? values[0] : undefined;
  if (!statement.name?.startsWith('fail_job/') || typeof values[1] !== 'string') return undefined;
  const failed = JSON.parse(values[1]) as { jobId?: unknown }[];
  return failed.length === 1 && typeof failed[0]?.jobId === 'string' ? failed[0].jobId : undefined;
}

/**
 * The answer to an outcome of a job that ended in its run (job-run.ts): no statement is made,
 * as the job is moved to its next run or gone, and may already be another run's, which neither
 * graphile-worker's deletion nor its failure's backoff may touch. (Its release of the jobs still
 * running when a shutdown's grace ends, fail_jobs, touches only jobs its pool locks, and a
 * stopping pool locks no new ones: that needs no such answer.)
 */
function recordedInRun(statement: pg.QueryConfig): pg.QueryResult {
  const command = statement.name?.startsWith('complete_job/') ? 'DELETE' : 'UPDATE';
  return { command, rowCount: 0, oid: 0, fields: [], rows: [] };
}

/**
 * graphile-worker's completion of a job (complete_job) deletes it by id alone. But a job can be
 * unlocked under its run: after a database restart, another process takes this one for dead
 * (liveness.ts) until it holds its lock again. A keyed job unlocked so may since hold the next
 * run queued under its key (add_job writes into the key's waiting job), and deleting it would
 * lose that run. So a completion ends the job as a run's last change does, by the migration's
 * `switchboard_end_job` (src/db/migrations/0045_end_job.sql): deleted only while one of this
 * process's pools or workers still locks it (as graphile-worker's fail_job asks), or while nobody
 * does and it has no key (nothing can have been queued into it: its run is done). A keyed one
 * left so runs again, and every step reads its work's state first. (A job this process itself
 * took again meanwhile is still this process's: the statement knows the job's id only, not
 * which run.) Run twice (recordOutcome's retry after a lost answer), it finds the job gone.
 * complete_jobs and complete_job_q (batched completions, named job queues) are not used here.
 */
const COMPLETE_JOB = /^delete from ((?:"[^"]+"|\w+))\._private_jobs as jobs\nwhere id = \$1::bigint$/;

function completionOf(statement: pg.QueryConfig, lockedBy: readonly string[]): pg.QueryConfig {
  if (!statement.name?.startsWith('complete_job/')) return statement;
  const schema = COMPLETE_JOB.exec(statement.text)?.[1];
  const [jobId] = statement.values ?? [];
  // A graphile-worker whose statement reads otherwise is one this service was not built with;
  // switchboard_end_job knows graphile-worker's schema by its default name only.
  if (schema !== '"graphile_worker"' || typeof jobId !== 'string') {
    throw new Error(`graphile-worker's complete_job reads otherwise: ${statement.text}`);
  }
  return {
    name: `switchboard_${statement.name}`,
    text: 'select switchboard_end_job($1::bigint, $2::text[])',
    values: [jobId, [...lockedBy]],
  };
}

/** A property of the real object, its methods bound to it, as a proxy hands them out. */
function bound<T extends object>(target: T, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === 'function' ? value.bind(target) : value;
}
