import type pg from 'pg';
import { advanceClock } from '../../src/clock.ts';

/**
 * Moves time forward for the service and its job queue together: the service's clock, and
 * every queued job's due time (graphile-worker compares run_at with the database's clock,
 * which a test cannot move), as if `ms` had passed.
 */
export async function moveTime(pool: pg.Pool, ms: number): Promise<void> {
  advanceClock(ms);
  await pool.query(
    `update graphile_worker._private_jobs set run_at = run_at - $1::double precision * interval '1 millisecond' where locked_at is null`,
    [ms],
  );
}
