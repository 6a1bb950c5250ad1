import { makeWorkerUtils } from 'graphile-worker';
import type pg from 'pg';
import { advanceClock } from '../../src/clock.ts';

/**
 * Moves time forward for the service and its job queue together: the service's clock, and
 * every waiting job's due time (graphile-worker compares run_at with the database's clock,
 * which a test cannot move), as if `ms` had passed. Jobs are read through graphile-worker's
 * public `jobs` view and moved with its WorkerUtils, which leave a running (locked) job alone.
 */
export async function moveTime(pool: pg.Pool, ms: number): Promise<void> {
  advanceClock(ms);
  const { rows } = await pool.query<{ id: string; run_at: Date }>(
    'select id, run_at from graphile_worker.jobs where locked_at is null',
  );
  if (rows.length === 0) return;
  const byDue = new Map<number, string[]>();
  for (const row of rows) {
    const due = row.run_at.getTime();
    byDue.set(due, [...(byDue.get(due) ?? []), row.id]);
  }
  const utils = await makeWorkerUtils({ pgPool: pool });
  try {
    for (const [due, ids] of byDue) await utils.rescheduleJobs(ids, { runAt: new Date(due - ms) });
  } finally {
    await utils.release();
  }
}
