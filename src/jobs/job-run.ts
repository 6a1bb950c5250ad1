import { AsyncLocalStorage } from 'node:async_hooks';
import { type SQL, sql } from 'drizzle-orm';
import type { Job } from 'graphile-worker';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { madeOnce } from '../made-once.ts';
import { dueAfterSql, waitMsUntil } from './queue.ts';

/**
 * A job that queues its own next run (a post target's next publishing step, under the job's
 * key), or whose run's last change leaves it nothing more to do, ends in the statement of that
 * change: moved to its next run, or deleted (endJobSql), by the migration's
 * `switchboard_end_job`. graphile-worker's own completion, a statement of its own after the run,
 * is then answered without one (queue-pool.ts): a round trip and a commit fewer a run. And
 * add_job, called during the run, would take the key from the running job and insert a new
 * one, which the completion would then delete: three writes where one does.
 *
 * Until that change the job stays locked, so no worker starts the next step while this run
 * makes it; from it on, the job is no longer the run's (its next run may start at once), and
 * a later change of the run queues under the key as any change does. Should the run fail
 * before, graphile-worker runs the job again after its backoff, and it takes the step its work
 * is in by then (unless a change took the key meanwhile: the job it queued has the work, and
 * the failed one is deleted, dropIfDetached); should its process die, the job is unlocked as
 * any is (liveness.ts) and runs at once rather than at the step's time, which every step allows.
 */
interface Running {
  readonly job: Job;
  /** The job is no longer the run's: ended by its change, or its key taken by one (queuedUnderKey). */
  ended: boolean;
  /** The run's outcome is recorded already (markEnded): graphile-worker's record of it makes no statement. */
  recorded: boolean;
}

const running = new AsyncLocalStorage<Running>();

/**
 * Runs that ended their job, by job id, until graphile-worker records each run's outcome
 * (outcomeRecordedInRun). Counted: a job moved to a next run due at once keeps its id, and
 * that next run may end it too before the first run's outcome is recorded.
 */
const endedInRun = new Map<string, number>();

/**
 * What is told of each job a run moved to a later run, once the move is made: its priority and
 * when it falls due, in ms since the epoch on this process's own clock (`Date.now()`, not the
 * service's, which tests move): due-wake.ts.
 */
const movedLater = new Set<(priority: number, dueAtMs: number) => void>();

/**
 * Tells `listener` of every job a run of this process moves to a later run, once the move is
 * made: an update, which sends no notice as an insert does. Answers its unsubscription.
 */
export function onJobMovedLater(listener: (priority: number, dueAtMs: number) => void): () => void {
  movedLater.add(listener);
  return () => {
    movedLater.delete(listener);
  };
}

/** A listener's failure is not the move's: the move is made and committed when this is said. */
function tellMovedLater(priority: number, dueAtMs: number): void {
  for (const listener of movedLater) {
    try {
      listener(priority, dueAtMs);
    } catch {
      // The job is found at its pool's next fetch, as one moved without a listener.
    }
  }
}

/** One statement on the job queue's pool: graphile-worker's `helpers.query`. */
export type JobQuery = (text: string, values: unknown[]) => Promise<{ rowCount: number | null }>;

/** Runs a job's task, as the job whose run may end it (endJobSql). */
export async function runJob(job: Job, run: () => Promise<void>, query: JobQuery): Promise<void> {
  const state: Running = { job, ended: false, recorded: false };
  try {
    await running.run(state, run);
  } catch (error) {
    // Unreachable, the database would hold the slot until it answers: the failure is recorded as any is.
    if (!isDatabaseUnavailable(error)) await dropIfDetached(state, query);
    throw error;
  }
}

/**
 * A keyed job whose key was taken during its run, which then failed: add_job, given the key of a
 * running job, queues a new one and leaves the running one keyless at its last attempt. Failed
 * as graphile-worker fails a job, that one would stay in the table for good, a job out of
 * attempts to every count, though the new job has its work. It is deleted instead, while its run
 * still locks it, and its failure recorded without a statement (outcomeRecordedInRun).
 */
async function dropIfDetached(state: Running, query: JobQuery): Promise<void> {
  const { job } = state;
  if (state.recorded || job.key === null || job.locked_by === null || job.job_queue_id !== null) return;
  try {
    const { rowCount } = await query(
      'delete from graphile_worker._private_jobs where id = $1::bigint and locked_by = $2::text and key is null',
      [job.id, job.locked_by],
    );
    if (rowCount === 1) markEnded(state);
  } catch {
    // The failure is recorded as graphile-worker records any.
  }
}

/** The run of the job with this key, while the job is still the run's. */
function runOf(key: string): Running | undefined {
  const state = running.getStore();
  // A job in a named queue also holds its queue's lock, which only graphile-worker's completion releases.
  if (state === undefined || state.ended || state.job.key !== key || state.job.job_queue_id !== null) return undefined;
  return state;
}

/** Whether the job running here is the one with this key, and still the run's: its run may end it (endJobSql). */
export function runsAsJob(key: string): boolean {
  return runOf(key) !== undefined;
}

/**
 * Says that a change of the run queued the next run under the job's key instead (add_job, which
 * takes the key from the running job): the job is then no longer the run's to end, and a later
 * change of the run queues under the key too.
 */
export function queuedUnderKey(key: string): void {
  const state = runOf(key);
  if (state !== undefined) state.ended = true;
}

/** A job's end in the statement of its run's last change. */
export interface JobEnd {
  /** A VOLATILE call, for the select list of the change's effect (db/with-effects.ts); its values are placeholders. */
  readonly sql: SQL;
  /** Its shape (`sql`'s text depends on this alone) and the values of its placeholders (db/prepared.ts). */
  readonly shape: string;
  readonly values: Readonly<Record<string, unknown>>;
  /** Says that the change, and so the job's end, was made and committed. */
  readonly made: () => void;
}

/**
 * Ends the job running here, with this key (runsAsJob), in the statement of the run's change:
 * moved to `next` (its next run), or deleted (no `next`). The job is moved or deleted only while
 * the run's pool still locks it: one unlocked under the run (its process taken for gone after a
 * database restart) may hold a change queued under its key since, which the run's end must not
 * undo; the next run is then queued only if no job of the key waits to run: one another run holds
 * may have read the work's state before this run's change (switchboard_end_job). A change in a
 * transaction cannot end its job: `made` must be said once the change is committed, and a
 * rolled-back end said made would leave the job locked. The next run has `nextPayload`, else
 * this run's payload.
 */
export function endJobSql(key: string, next?: Date, nextPayload?: Readonly<Record<string, unknown>>): JobEnd {
  const state = runOf(key);
  if (state === undefined) throw new Error(`not the run of the job ${key}`);
  const { job } = state;
  return {
    sql: next === undefined ? jobEndCalls().end : jobEndCalls().next,
    shape: next === undefined ? 'end job' : 'end job, next run',
    values: {
      end_job_id: job.id,
      end_job_locked_by: job.locked_by,
      ...(next === undefined
        ? {}
        : {
            end_job_wait_ms: waitMsUntil(next),
            end_job_key: key,
            end_job_task: job.task_identifier,
            end_job_payload: JSON.stringify(nextPayload ?? job.payload),
            end_job_max_attempts: job.max_attempts,
            end_job_priority: job.priority,
          }),
    },
    made: () => {
      markEnded(state);
      if (next !== undefined) tellMovedLater(job.priority, Date.now() + waitMsUntil(next));
    },
  };
}

/** endJobSql's two calls, the same at every run (its values are placeholders). */
const jobEndCalls = madeOnce(() => {
  const p = (name: string) => sql.placeholder(`end_job_${name}`);
  const call = (nextRun: SQL) => sql`switchboard_end_job(${p('id')}::bigint, array[${p('locked_by')}::text]${nextRun})`;
  return {
    end: call(sql``),
    next: call(sql`, next_run_at => ${dueAfterSql(sql`${p('wait_ms')}`)}, next_key => ${p('key')}::text, next_task => ${p('task')}::text,
          next_payload => ${p('payload')}::json, next_max_attempts => ${p('max_attempts')}::int,
          next_priority => ${p('priority')}::int`),
  };
});

/** The run's job ended by a change of the run, now committed: no longer the run's, and its outcome recorded. */
function markEnded(state: Running): void {
  state.ended = true;
  state.recorded = true;
  endedInRun.set(state.job.id, (endedInRun.get(state.job.id) ?? 0) + 1);
}

/** The end of a job with nothing left to do, for a statement after its run's last change (ownJobEnd). */
export interface OwnJobEnd {
  /** The job's id and the locker its run holds it by: `switchboard_end_job(id, array[locked_by])`. */
  readonly jobId: string;
  readonly lockedBy: string;
  /** Says that the end was made and committed. */
  readonly made: () => void;
}

/**
 * The deletion of the job running here, keyed or not, for a run whose changes are all committed
 * and that has nothing left to do, to be made by a statement shared with other work (webhook
 * attempts' group commit) rather than by graphile-worker's completion, a statement of its own:
 * `switchboard_end_job(jobId, array[lockedBy])`, then `made()` once committed. Undefined where no
 * job runs here, its run has ended it already, or it is in a named queue. That function deletes
 * the job only while the run's locker still holds it, or while nobody does and it has no key.
 */
export function ownJobEnd(): OwnJobEnd | undefined {
  const state = running.getStore();
  if (state === undefined || state.ended || state.job.job_queue_id !== null || state.job.locked_by === null) {
    return undefined;
  }
  return { jobId: state.job.id, lockedBy: state.job.locked_by, made: () => markEnded(state) };
}

/**
 * Whether the job ended in its run, so that graphile-worker's record of the run's outcome is
 * answered without a statement (and forgets it): the job is moved or gone, and may already be
 * another run's.
 */
export function outcomeRecordedInRun(jobId: string): boolean {
  const runs = endedInRun.get(jobId);
  if (runs === undefined) return false;
  if (runs === 1) endedInRun.delete(jobId);
  else endedInRun.set(jobId, runs - 1);
  return true;
}
