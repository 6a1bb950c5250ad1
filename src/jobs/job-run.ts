import { AsyncLocalStorage } from 'node:async_hooks';
import type { Job } from 'graphile-worker';
import { now } from '../clock.ts';

/**
 * A job that queues its own next run (a post target's next publishing step, under the job's
 * key) needs no second job row: it is moved to that time as its completion is recorded
 * (queue-pool.ts). graphile-worker's add_job, called during the run, would instead take the key
 * from the running job and insert a new one, and the running job would then be deleted: three
 * writes where one does. The job also stays locked until then, so no worker starts the next
 * step while this run ends. Should the run fail, graphile-worker runs the job again after its
 * backoff, and it takes the step its work is in by then; should its process die, the job is
 * unlocked as any is (liveness.ts) and runs at once rather than at the step's time, which every
 * step allows.
 */
interface Running {
  readonly job: Job;
  next?: Date;
}

/** A job's next run, as its completion queues it. */
export interface NextRun {
  /** On the service's clock, from the moment it is read (nextRunOf). */
  readonly waitMs: number;
  readonly key: string;
  readonly task: string;
  readonly payload: unknown;
  readonly priority: number;
  readonly maxAttempts: number;
}

const running = new AsyncLocalStorage<Running>();

/** The next runs of jobs whose run succeeded, by job id, until their completion is recorded. */
const nextRuns = new Map<string, { at: Date; job: Job }>();

/** Runs a job's task; a next run it asked for (runAgainAt) is kept for the job's completion. */
export async function runJob(job: Job, run: () => Promise<void>): Promise<void> {
  const state: Running = { job };
  await running.run(state, run);
  if (state.next !== undefined) nextRuns.set(job.id, { at: state.next, job });
}

/** Whether the job running here is the one with this key, which can then run again (runAgainAt). */
export function runsAsJob(key: string): boolean {
  return running.getStore()?.job.key === key;
}

/** Asks, from the run of the job with this key, that the job run again at `at` once this run succeeds. */
export function runAgainAt(key: string, at: Date): void {
  const state = running.getStore();
  if (state?.job.key !== key) throw new Error(`not the run of the job ${key}`);
  state.next = at;
}

/**
 * The next run of a job whose run succeeded, for the statement that records its completion;
 * kept until that statement succeeds (nextRunRecorded), as graphile-worker may build it again
 * to retry it.
 */
export function nextRunOf(jobId: string): NextRun | undefined {
  const next = nextRuns.get(jobId);
  if (next === undefined) return undefined;
  const { job, at } = next;
  return {
    waitMs: Math.max(0, at.getTime() - now().getTime()),
    // Set: runAgainAt is only answered for a job with this key.
    key: job.key ?? '',
    task: job.task_identifier,
    payload: job.payload,
    priority: job.priority,
    maxAttempts: job.max_attempts,
  };
}

/** The job's completion, with its next run, is recorded. */
export function nextRunRecorded(jobId: string): void {
  nextRuns.delete(jobId);
}
