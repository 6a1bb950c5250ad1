import { sql } from 'drizzle-orm';
import { type Static, Type } from 'typebox';
import type { Tx } from '../db/connection.ts';

/**
 * Every background task and the schema of its payload; the worker checks payloads against
 * these before running a task (src/jobs/tasks.ts implements each one).
 */
/** A delivery id: a UUID (anything else would fail the job's query on every retry). */
const DeliveryId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

export const TASK_PAYLOADS = {
  delete_profile: Type.Object({ profile_id: Type.String() }),
  // Attempts these deliveries, each of which has had `attempts_made` attempts so far: all of an
  // event's deliveries at once (the fan-out), or one (a retry, a resend, a test).
  deliver_webhooks: Type.Object({
    delivery_ids: Type.Array(DeliveryId, { minItems: 1, maxItems: 100 }),
    attempts_made: Type.Integer({ minimum: 0 }),
  }),
  // Queued by versions before deliver_webhooks; still run, so an upgrade loses no delivery.
  deliver_webhook: Type.Object({ delivery_id: DeliveryId }),
  notify_webhook_disabled: Type.Object({ endpoint_id: Type.String(), last_error: Type.String() }),
  // Periodic (CRONTAB in tasks.ts): graphile-worker adds a `_cron` field.
  delete_expired_idempotency_keys: Type.Object({}),
  delete_old_webhook_deliveries: Type.Object({}),
  refresh_platform_tokens: Type.Object({}),
  delete_old_connect_links: Type.Object({}),
};
export type TaskName = keyof typeof TASK_PAYLOADS;
export type TaskPayloads = { [T in TaskName]: Static<(typeof TASK_PAYLOADS)[T]> };

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
