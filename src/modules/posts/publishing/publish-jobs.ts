/**
 * The `publish_target` job of a target: each target has at most one (its job key), so queueing
 * it again moves its next step to the new time.
 */
import { sql } from 'drizzle-orm';
import { isTransaction, type Queryable, type Tx } from '../../../db/connection.ts';
import type { StatementPart } from '../../../db/prepared.ts';
import { endJobSql, queuedUnderKey, runsAsJob } from '../../../jobs/job-run.ts';
import { dueAfterSql, enqueue, jobSql, type TaskPayloads, waitMsUntil } from '../../../jobs/queue.ts';
import { type TransitionOptions, transition } from '../../../jobs/workflow.ts';
import type { PostTarget, postTargets } from '../tables.ts';
import { type TargetState, type TargetTransition, targetStates } from '../target-workflow.ts';

/** The job that publishes a target: one per target, so rescheduling replaces it. */
function publishJobKey(targetId: string): string {
  return `publish_target:${targetId}`;
}

export async function queuePublish(tx: Tx, targetId: string, runAt: Date): Promise<void> {
  await enqueue(tx, 'publish_target', { target_id: targetId }, { runAt, jobKey: publishJobKey(targetId) });
}

/**
 * queuePublish as the effect of a statement: the next step, at `runAt`, of each target the CTE
 * `rows` names (its `id` column; by default a transition's `moved`). A part of a statement built
 * once per shape (db/prepared.ts): its time is a placeholder named after the CTE, so that two
 * such parts of one statement never fill one placeholder.
 */
export function queuePublishOfMoved(runAt: Date, rows: 'moved' | 'returned_accounts_targets' = 'moved'): StatementPart {
  const wait = `${rows}_publish_wait_ms`;
  return {
    shape: `queue publish_target of ${rows}`,
    sql: sql`select ${jobSql(
      'publish_target',
      { target_id: sql`t.id` },
      { runAt: dueAfterSql(sql`${sql.placeholder(wait)}`), jobKey: sql`${publishJobKey('')}::text || t.id` },
    )} from ${sql.raw(rows)} as t`,
    values: { [wait]: waitMsUntil(runAt) },
  };
}

/**
 * A target's next step, due at `runAt`, once a move of it is made (`made`, said when the move's
 * statement has made it): run by the target's own job, the move ends that job in its statement
 * (jobs/job-run.ts), moved to the step's time (no second job row); run elsewhere (a route, a
 * cancellation), or `queued` (a move in a transaction, whose commit comes after `made` is said,
 * so that an end said made could yet be undone), the move queues the step under the target's
 * key. Either is the move's effect, a SELECT over `moved`.
 */
export function nextStep(targetId: string, runAt: Date, queued = false): { effect: StatementPart; made: () => void } {
  const key = publishJobKey(targetId);
  if (queued || !runsAsJob(key)) return { effect: queuePublishOfMoved(runAt), made: () => queuedUnderKey(key) };
  // Every transition whose effect this is leaves its target started (target-workflow.ts): the
  // next run is told so. Where that no longer holds, it costs the start a second statement (begin).
  return endOfOwnJob(key, runAt, { target_id: targetId, started: true });
}

/** A target's last move: run by the target's own job, the job ends (deleted) with it; elsewhere it has no effect on jobs. */
export function lastStep(targetId: string): { effect?: StatementPart; made: () => void } {
  const key = publishJobKey(targetId);
  return runsAsJob(key) ? endOfOwnJob(key) : { made: () => {} };
}

function endOfOwnJob(
  key: string,
  next?: Date,
  nextPayload?: TaskPayloads['publish_target'],
): { effect: StatementPart; made: () => void } {
  const end = endJobSql(key, next, nextPayload);
  return { effect: { shape: end.shape, sql: sql`select ${end.sql} from moved`, values: end.values }, made: end.made };
}

/** A target's transition whose next step is due at `runAt`, once it takes effect (nextStep). */
export async function transitionThenStep(
  db: Queryable,
  target: PostTarget,
  name: TargetTransition,
  options: Omit<TransitionOptions<TargetState, typeof postTargets>, 'effect'>,
  runAt: Date,
): Promise<PostTarget | null> {
  // In a transaction, the job is not ended with the move: should the commit fail, the job's end
  // would be undone where its run had said it made (job-run.ts), and the job would stay locked.
  const { effect, made } = nextStep(target.id, runAt, isTransaction(db));
  const moved = await transition(db, targetStates, target.id, name, { ...options, effect });
  if (moved !== null) made();
  return moved;
}
