import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { eq, sql } from 'drizzle-orm';
import type { WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import type { Db } from '../db/connection.ts';
import { workerProcesses } from './tables.ts';

/**
 * graphile-worker unlocks the jobs of a worker that died only after 4 hours. A webhook
 * delivery cannot wait that long, so each worker process records its worker ids and holds
 * a session advisory lock on a connection of its own for as long as it lives: when it
 * dies, PostgreSQL sees the connection close and the lock goes with it. Any worker process
 * (at its start, then every SWEEP_INTERVAL_MS) unlocks the jobs of recorded processes
 * whose lock is free, and they run again.
 *
 * A process that stops leaves no job locked either: the jobs it fetched and never started
 * (graphile-worker's local queue, see below) are unlocked as it forgets itself, once the jobs
 * in hand are done.
 */

export const SWEEP_INTERVAL_MS = 30_000;

function lockKey(processId: string) {
  return sql`hashtextextended(${`switchboard-worker:${processId}`}, 0)`;
}

export interface WorkerLiveness {
  /** Pass to graphile-worker's run() so the ids of its workers are recorded. */
  events: WorkerEvents;
  /** Records this process and takes its lock; call before run(). */
  start(): Promise<void>;
  /** Unlocks the jobs this process still locks and forgets it; call once run()'s runner has stopped. */
  stop(): Promise<void>;
  /** The ids this process's jobs are locked by: its pools' and its workers'. */
  lockers(): readonly string[];
}

/**
 * Waits before taking the lock again after its connection was lost: 0.5 s, doubling up to 5 s,
 * as the job queue waits for the database (queue-pool.ts). While its lock is not held again the
 * others take this process for dead, so the lock is taken again soon after the server answers.
 */
const RELOCK_FIRST_MS = 500;
const RELOCK_MAX_MS = 5_000;

export function workerLiveness(db: Db, url: string, log: (message: string) => void): WorkerLiveness {
  const id = randomUUID();
  const events = new EventEmitter() as WorkerEvents;
  let holder: pg.Client | undefined;
  let stopped = false;
  let relocking = false;
  let sweeper: NodeJS.Timeout | undefined;
  const recorded: Promise<unknown>[] = [];
  /** Every id this process's jobs may be locked by, to record it again after an outage. */
  const workerIds: string[] = [];

  /** Takes this process's lock on a connection of its own, which holds it while the process lives. */
  const hold = async () => {
    const client = new pg.Client({ connectionString: url, application_name: 'switchboard' });
    client.on('error', (error) => {
      log(`worker liveness connection lost: ${error.message}`);
      relock();
    });
    client.on('end', () => {
      if (holder === client) relock();
    });
    await client.connect();
    try {
      await client.query(`select pg_advisory_lock(hashtextextended($1, 0))`, [`switchboard-worker:${id}`]);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    holder = client;
  };

  // With its connection gone (the database restarted, say) the lock is gone too, and the other
  // processes take this one for dead: they unlock its jobs and forget it. So it takes the lock
  // again as soon as it can and records itself anew, or a later death of it would go unseen.
  // Meanwhile a job it runs may also run elsewhere: deliveries are at least once, and a
  // publication is claimed before it is made.
  const relock = () => {
    if (stopped || relocking) return;
    relocking = true;
    const old = holder;
    holder = undefined;
    void old?.end().catch(() => {});
    const attempt = async (wait: number): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) return;
      try {
        await hold();
        await db
          .insert(workerProcesses)
          .values({ id, startedAt: new Date(), workerIds })
          .onConflictDoUpdate({ target: workerProcesses.id, set: { workerIds } });
        relocking = false;
        log('worker liveness restored: this process holds its lock again');
      } catch (error) {
        log(`worker liveness lock not taken again yet: ${(error as Error).message}`);
        await attempt(Math.min(wait * 2, RELOCK_MAX_MS));
      }
    };
    void attempt(RELOCK_FIRST_MS);
  };

  // Jobs are locked by the pool's id or a worker's, depending on how they were fetched: keep both.
  const record = (lockerId: string) => {
    workerIds.push(lockerId);
    recorded.push(
      db
        .update(workerProcesses)
        .set({ workerIds: sql`array_append(${workerProcesses.workerIds}, ${lockerId})` })
        .where(eq(workerProcesses.id, id))
        .catch((error: Error) => log(`could not record worker ${lockerId}: ${error.message}`)),
    );
  };
  events.on('pool:create', ({ workerPool }) => record(workerPool.id));
  events.on('worker:create', ({ worker }) => record(worker.workerId));
  // graphile-worker (0.18) cannot release a local queue that still holds jobs fetched while
  // every worker was busy: it hands them back, then throws ("Cannot background something when
  // the queue is already released") and the pool's graceful shutdown turns forceful. They are
  // taken out as the queue is released, and stay locked by this process until stop() unlocks them.
  events.on('localQueue:setMode', ({ localQueue, oldMode, newMode }) => {
    if (newMode === 'RELEASED' && oldMode === 'WAITING') localQueue.jobQueue.splice(0);
  });

  return {
    events,
    lockers: () => workerIds,
    start: async () => {
      await hold();
      await db.insert(workerProcesses).values({ id, startedAt: new Date() });
      await recoverJobsOfDeadWorkers(db, log, id);
      sweeper = setInterval(() => {
        // A process without its own lock has lost its connection as the others may have (the
        // server restarted): it skips its sweeps until it holds the lock again, when they are
        // likely to hold theirs again too (all retry as often). One taken for gone meanwhile
        // has its jobs run again, which every job allows.
        if (holder === undefined) return;
        recoverJobsOfDeadWorkers(db, log, id).catch((error: Error) => log(`worker sweep failed: ${error.message}`));
      }, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },
    stop: async () => {
      stopped = true;
      if (sweeper) clearInterval(sweeper);
      await Promise.all(recorded);
      // Called once the pool has stopped: what its ids still lock was never started.
      await db
        .transaction(async (tx) => {
          await tx.execute(
            sql`select graphile_worker.force_unlock_workers(${workerProcesses.workerIds}) from ${workerProcesses} where ${workerProcesses.id} = ${id}`,
          );
          await tx.delete(workerProcesses).where(eq(workerProcesses.id, id));
        })
        .catch((error: Error) => log(`could not hand back the jobs this process left locked: ${error.message}`));
      await holder?.end().catch(() => {});
    },
  };
}

/**
 * Unlocks the jobs of worker processes that are gone; returns how many processes were. The
 * process sweeping (`self`) is alive whatever its lock says: its lock may be lost with its
 * connection, and its jobs are running.
 */
export async function recoverJobsOfDeadWorkers(db: Db, log: (message: string) => void, self: string): Promise<number> {
  const processes = await db.select().from(workerProcesses);
  let dead = 0;
  for (const p of processes) {
    if (p.id === self) continue;
    // Taken inside a transaction, the lock is released at its end: a free lock means the
    // process that held it is gone.
    const gone = await db.transaction(async (tx) => {
      const result = await tx.execute<{ free: boolean }>(
        sql`select pg_try_advisory_xact_lock(${lockKey(p.id)}) as free`,
      );
      if (!result.rows[0]?.free) return false;
      await tx.execute(
        sql`select graphile_worker.force_unlock_workers(array(select json_array_elements_text(${JSON.stringify(p.workerIds)}::json)))`,
      );
      await tx.delete(workerProcesses).where(eq(workerProcesses.id, p.id));
      return true;
    });
    if (gone) {
      dead += 1;
      log(`worker process ${p.id} is gone: unlocked the jobs it held`);
    }
  }
  return dead;
}
