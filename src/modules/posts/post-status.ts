/**
 * A post's lock and its status. The status is computed from its targets' statuses and stored
 * in one statement, under the post's lock: every transaction that changes a post's targets
 * (their status, or which targets it has) takes that lock first, jobs and API alike, so the
 * statuses it is computed from stay so until the commit, and the stored status is exact.
 * Lock order, everywhere a post's targets change: the post's row, then target rows, so
 * concurrent jobs and requests of one post never deadlock.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { type StatementPart, valuesOf } from '../../db/prepared.ts';
import { type MoveUpdate, type TransitionOptions, transition, transitionUpdate } from '../../jobs/workflow.ts';
import { emitAll, emitInChange, type NewEvent } from '../events/index.ts';
import { type Post, type PostStatus, type PostTarget, posts, postTargets } from './tables.ts';
import { type TargetState, type TargetTransition, targetStates } from './target-workflow.ts';

/**
 * A post's status from its targets' (`status` names the targets' status column in the rows it
 * is aggregated over), as docs/posts.md states it: no targets or any `draft`: draft; all
 * cancelled: cancelled; any publishing, or scheduled beside published or failed ones: publishing; any
 * scheduled: scheduled; none failed: published; failed beside published: partially_published;
 * else failed. In SQL, so that storing it is one statement (refreshPostStatus).
 */
export function postStatusSql(status: SQL | PgColumn): SQL<PostStatus> {
  return sql<PostStatus>`case
    when count(*) = 0 or bool_or(${status} = 'draft') then 'draft'
    when bool_or(${status} = 'awaiting_approval') then 'awaiting_approval'
    when bool_and(${status} = 'cancelled') then 'cancelled'
    when bool_or(${status} = 'publishing') then 'publishing'
    when bool_or(${status} = 'scheduled') then
      case when bool_or(${status} in ('published', 'failed')) then 'publishing' else 'scheduled' end
    when not bool_or(${status} = 'failed') then 'published'
    when bool_or(${status} = 'published') then 'partially_published'
    else 'failed' end`;
}

/**
 * Locks a post's row: the first lock of every transaction that changes the post's targets
 * (jobs and API alike), so two of them never wait on each other's targets.
 */
export async function lockPost(tx: Tx, postId: string): Promise<void> {
  await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update');
}

/**
 * Recomputes and stores a post's status from its targets (call after changing any, under the
 * post's lock: every change of a target's status takes it, so the statuses read here stay so
 * until the commit).
 */
export async function refreshPostStatus(tx: Tx, postId: string): Promise<Post> {
  const [post] = await tx
    .update(posts)
    .set({
      status: sql`(select ${postStatusSql(postTargets.status)} from ${postTargets} where ${postTargets.postId} = ${postId})`,
      updatedAt: now(),
    })
    .where(eq(posts.id, postId))
    .returning();
  if (!post) throw new Error(`post ${postId} vanished while its status was refreshed`);
  return post;
}

/** A post's version: its row's `xmin`, which every update of the row changes. */
const postVersionSql = sql<string>`${posts}.xmin::text`;

/** A move of one target, with its post's lock, its post's status and its events (moveTargetOfPost). */
export interface TargetMoveOfPost {
  target: Pick<PostTarget, 'id' | 'postId'>;
  name: TargetTransition;
  options?: Omit<TransitionOptions<TargetState, typeof postTargets>, 'effect'>;
  /** What the move reports: recorded, and acted on by every subscriber, only when it is made. */
  events?: readonly NewEvent[];
  /** Its effect (a SELECT over `moved`: db/with-effects.ts), run only when it is made. */
  effect?: StatementPart;
}

/**
 * The move as one statement (moveInOneStatement), made only while the post's time is still
 * `scheduledAt`, the time the caller read and decided the move on. Answers the target as moved;
 * null when nothing was done: the target was not in a state the move allows, the post's time
 * changed, or another change of the post was committed while the statement waited for its lock.
 */
export async function moveTargetIfPostAt(
  db: Db,
  move: TargetMoveOfPost,
  scheduledAt: Date,
): Promise<PostTarget | null> {
  return await moveInOneStatement(db, move, {
    shape: 'post at',
    sql: sql`${posts.scheduledAt} = ${sql.placeholder('post_at')}`,
    values: { post_at: scheduledAt },
  });
}

/**
 * The move, with its post's lock, the post's status stored and its events recorded (what
 * lockPost, transition, refreshPostStatus and emit do in a transaction). Answers the target as
 * moved; null when it was not in a state the move allows. First tried as one statement (five
 * round trips fewer); made as that transaction when the statement was refused, for the target's
 * state or for a change of the post committed while it waited for the lock: the transaction
 * waits for the lock and reads after it, so under contention it always ends.
 */
export async function moveTargetOfPost(db: Db, move: TargetMoveOfPost): Promise<PostTarget | null> {
  const { target } = move;
  const made = await moveInOneStatement(db, move);
  if (made !== null) return made;
  return await db.transaction(async (tx) => {
    await lockPost(tx, target.postId);
    const moved = await transition(tx, targetStates, target.id, move.name, {
      ...move.options,
      ...(move.effect === undefined ? {} : { effect: move.effect }),
    });
    if (moved === null) return null;
    await refreshPostStatus(tx, target.postId);
    await emitAll(tx, move.events ?? []);
    return moved;
  });
}

/**
 * The move in one statement: the post's lock, the target's transition, the post's status
 * computed with the target's new one, and the events with their fan-out; made only while the
 * post, as locked, is the version the statement's snapshot shows (and `postHolds`, a condition
 * on the locked post, holds).
 *
 * Why the version: a statement reads one snapshot, taken before it waits for the post's lock, so
 * the targets it computes the post's status from are as they were then, not as the lock's holder
 * left them. Every change of a post's targets' statuses updates the post (refreshPostStatus)
 * under that lock: a post whose locked row is the one the snapshot shows has its targets'
 * statuses as read, and the status computed from them, with this target's new one, is exact.
 */
async function moveInOneStatement(
  db: Db,
  move: TargetMoveOfPost,
  postHolds?: StatementPart,
): Promise<PostTarget | null> {
  const { target } = move;
  const update = lockedMoveUpdate(move);
  const values = valuesOf(update, postHolds, move.effect, {
    values: { post_id: target.postId, post_updated_at: postUpdatedAt() },
  });
  const effects = move.effect === undefined ? [] : [move.effect.sql];
  const [row] = await emitInChange(db, move.events ?? [], {
    shape: `move of a post's target: ${update.shape}, post ${postHolds?.shape ?? 'as read'}, effect ${move.effect?.shape ?? 'none'}`,
    build: (handle) => {
      const ctes = targetMoveCtes(handle, update, sql`${sql.placeholder('post_id')}`, postHolds);
      return { with: ctes, answer: ctes[1] };
    },
    made: sql`exists (select 1 from moved)`,
    effects,
    values,
  });
  return (row as PostTarget | undefined) ?? null;
}

/** The target's transition, made only with its post's lock (the CTE `post_lock` of targetMoveCtes). */
export function lockedMoveUpdate(move: Pick<TargetMoveOfPost, 'target' | 'name' | 'options'>): MoveUpdate {
  return transitionUpdate(targetStates, move.target.id, move.name, {
    ...move.options,
    when: {
      shape: `post locked, ${move.options?.when?.shape ?? 'state'}`,
      sql: and(sql`exists (select 1 from post_lock)`, move.options?.when?.sql) ?? sql`true`,
      values: move.options?.when?.values ?? {},
    },
  });
}

/** The value of the placeholder `post_updated_at` of targetMoveCtes: the post's time of change. */
export function postUpdatedAt(): unknown {
  return posts.updatedAt.mapToDriverValue(now());
}

/**
 * The CTEs of a move of a post's target in one statement, in order: `post_lock` (the post `postId`
 * names, locked FOR UPDATE while it is the version the statement's snapshot shows and `postHolds`
 * holds), `moved` (the move, lockedMoveUpdate's) and `post_stored` (the post's status, computed
 * with the target's new one, and `post_updated_at`, stored when the move is made).
 */
export function targetMoveCtes(handle: Queryable, update: MoveUpdate, postId: SQL, postHolds?: StatementPart) {
  // A row locked FOR UPDATE is its newest version, whatever the snapshot; the subquery reads the
  // snapshot's, once: a post changed since has another xmin, and is neither locked nor moved on.
  const snapshot = sql`(select ${postVersionSql} from ${posts} where ${posts.id} = ${postId})`;
  const postLock = handle
    .$with('post_lock', {})
    .as(
      sql`select 1 from ${posts} where ${and(eq(posts.id, postId), sql`${postVersionSql} = ${snapshot}`, postHolds?.sql)} for update`,
    );
  const moved = handle.$with('moved').as(update.update(handle));
  const stored = handle.$with('post_stored', {}).as(
    handle
      .update(posts)
      .set({
        status: sql`(select ${postStatusSql(sql`coalesce(m.status, t.status)`)} from ${postTargets} t left join moved m on m.id = t.id where t.post_id = ${postId})`,
        updatedAt: sql`${sql.placeholder('post_updated_at')}`,
      })
      .where(and(eq(posts.id, postId), sql`exists (select 1 from moved)`))
      .getSQL(),
  );
  return [postLock, moved, stored] as const;
}
