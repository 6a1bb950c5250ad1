import { sql } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { TASKS, type TaskName } from './queue.ts';

/** The queue's jobs of one task, by state, as graphile-worker's public `jobs` view shows them. */
export interface TaskJobCounts {
  task: TaskName;
  /** Due and not taken by a worker. */
  waiting: number;
  /** Taken by a worker (locked). */
  running: number;
  /** Due later: scheduled, or waiting out a retry's backoff. */
  scheduled: number;
  /** Out of attempts: kept by graphile-worker, never run again. */
  failed: number;
  /** How long the oldest waiting job has been due, in seconds (0 without one). */
  lagSeconds: number;
}

/**
 * Every task's jobs by state, in one statement over the whole queue (every worker process's).
 * Each task is answered, with zeros when it has no job.
 */
export async function jobCounts(db: Db): Promise<TaskJobCounts[]> {
  const { rows } = await db.execute<{
    task: string;
    waiting: number;
    running: number;
    scheduled: number;
    failed: number;
    lag: number;
  }>(sql`
    select task_identifier as task,
      count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as waiting,
      count(*) filter (where locked_at is not null)::int as running,
      count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as scheduled,
      count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed,
      coalesce(extract(epoch from now() - min(run_at)
        filter (where locked_at is null and attempts < max_attempts and run_at <= now())), 0)::float8 as lag
    from graphile_worker.jobs
    group by task_identifier`);
  const byTask = new Map(rows.map((r) => [r.task, r]));
  return (Object.keys(TASKS) as TaskName[]).map((task) => {
    const r = byTask.get(task);
    return {
      task,
      waiting: r?.waiting ?? 0,
      running: r?.running ?? 0,
      scheduled: r?.scheduled ?? 0,
      failed: r?.failed ?? 0,
      lagSeconds: r?.lag ?? 0,
    };
  });
}
