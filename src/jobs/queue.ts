import { sql } from 'drizzle-orm';
import type { Tx } from '../db/connection.ts';

/** Every background task and its payload. The worker's task list implements each one. */
export interface TaskPayloads {
  delete_profile: { profile_id: string };
  /** Periodic (crontab); graphile-worker adds a `_cron` field. */
  delete_expired_idempotency_keys: Record<string, unknown>;
}
export type TaskName = keyof TaskPayloads;

/**
 * Adds a graphile-worker job in the caller's transaction, so the job exists exactly when
 * the change that needs it commits.
 */
export async function enqueue<T extends TaskName>(
  tx: Tx,
  task: T,
  payload: TaskPayloads[T],
  options: { jobKey?: string; runAt?: Date; maxAttempts?: number } = {},
): Promise<void> {
  await tx.execute(sql`select graphile_worker.add_job(
    ${task}::text,
    payload => ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts => ${options.maxAttempts ?? 25}::int,
    job_key => ${options.jobKey ?? null}::text
  )`);
}
