/**
 * The `publish_target` job of a target: each target has at most one (its job key), so queueing
 * it again moves its next step to the new time.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/connection.ts';
import { dueSql, enqueue, jobSql } from '../../../jobs/queue.ts';

/** The job that publishes a target: one per target, so rescheduling replaces it. */
function publishJobKey(targetId: string): string {
  return `publish_target:${targetId}`;
}

export async function queuePublish(tx: Tx, targetId: string, runAt: Date): Promise<void> {
  await enqueue(tx, 'publish_target', { target_id: targetId }, { runAt, jobKey: publishJobKey(targetId) });
}

/** queuePublish as the effect of a target's transition (its `effect`): the moved target's next step, at `runAt`. */
export function queuePublishOfMoved(runAt: Date): SQL {
  const job = jobSql(
    'publish_target',
    { target_id: sql`moved.id` },
    { runAt: dueSql(runAt), jobKey: sql`${publishJobKey('')}::text || moved.id` },
  );
  return sql`select ${job} from moved`;
}
