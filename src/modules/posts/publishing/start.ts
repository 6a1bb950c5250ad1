/**
 * A due target's start, a new try (startMove), and the read of a target's job run that makes the
 * first try's start in the same statement (loadStarting): a post's first run then costs one round
 * trip where the read and the start were two.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { now } from '../../../clock.ts';
import { valuesOf } from '../../../db/prepared.ts';
import { rowAsValue, rowJsonAsValue } from '../../../db/row-json.ts';
import { inState } from '../../../jobs/workflow.ts';
import { PLATFORMS, platformInfo } from '../../../platforms/index.ts';
import { accountBesideReader } from '../../accounts/index.ts';
import { lockedMoveUpdate, postUpdatedAt, type TargetMoveOfPost, targetMoveCtes } from '../post-status.ts';
import { type PostTarget, posts, postTargets } from '../tables.ts';
import { targetStates } from '../target-workflow.ts';
import type { Loaded, PublishDeps } from './run.ts';

/**
 * The move that starts a due target's new try, as read; a container of an earlier try may have
 * been published after all: asked first. Made only while the target has not started since it
 * was read (its `attempts`, which each start counts): a try started, ended and retried meanwhile
 * is back in `scheduled`, but with another container and count than the ones read.
 */
export function startMove(
  deps: Pick<PublishDeps, 'publishRetryWindowMs'>,
  target: Pick<PostTarget, 'id' | 'postId' | 'attempts' | 'containerId'>,
) {
  const at = now();
  return {
    target,
    name: target.containerId === null ? ('start' as const) : ('start_with_container' as const),
    options: {
      when: {
        shape: 'attempts as read',
        sql: eq(postTargets.attempts, sql.placeholder('when_attempts')),
        values: { when_attempts: target.attempts },
      },
      set: {
        attempts: target.attempts + 1,
        polls: 0,
        failures: 0,
        retryUntil: new Date(at.getTime() + deps.publishRetryWindowMs),
        waitingReason: null,
        // A new try waits its own grace time for a reconnection.
        accountWaitUntil: null,
        error: null,
      },
    },
  } satisfies TargetMoveOfPost;
}

/**
 * A first try's start of the target `id`, as startMove makes it for a target never tried. Its
 * post is the statement's (`startablePost` below), not the move's: no `postId` is read from it.
 */
function firstTryStart(deps: Pick<PublishDeps, 'publishRetryWindowMs'>, id: string) {
  return startMove(deps, { id, postId: '', attempts: 0, containerId: null });
}

/** Platforms on which a target starts at its post's time: none of them publishes an upload ahead. */
const AT_THE_POSTS_TIME = PLATFORMS.filter((p) => platformInfo(p).publishing.publishAhead === undefined);

/** The reader of loadStarting, its move's values aside: placeholders `move_id` (the target), `start_at`, `start_platforms`. */
const startingReader = (() => {
  const targetIs = eq(postTargets.id, sql.placeholder('move_id'));
  const ofTarget = (column: PgColumn) => sql`(select ${column} from ${postTargets} where ${targetIs})`;
  // The post of a target that this statement may start (a first try, so with no container, on a
  // platform that starts it at the post's time), as the snapshot shows it; else none, and then
  // no post is locked and nothing moves.
  const startablePost = sql`(select ${postTargets.postId} from ${postTargets} where ${and(
    targetIs,
    inState(targetStates, ['scheduled']),
    eq(postTargets.attempts, 0),
    isNull(postTargets.containerId),
    sql`${postTargets.platform} = any(${sql.placeholder('start_platforms')}::text[])`,
  )})`;
  const postIsDue = { shape: 'due', sql: sql`${posts.scheduledAt} <= ${sql.placeholder('start_at')}`, values: {} };
  // Only the move's shape is read here (its values are placeholders); its values are each call's.
  const update = lockedMoveUpdate(firstTryStart({ publishRetryWindowMs: 0 }, ''));
  return accountBesideReader(
    'load_target_starting',
    ofTarget(postTargets.accountId),
    {
      // The target as moved, else as the snapshot shows it.
      target: rowJsonAsValue(
        postTargets,
        sql`coalesce((select to_json(moved) from moved), (select to_json(${postTargets}) from ${postTargets} where ${targetIs}))`,
      ),
      post: rowAsValue(posts, sql`${posts.id} = ${ofTarget(postTargets.postId)}`),
      started: sql<boolean>`exists (select 1 from moved)`,
    },
    (db) => targetMoveCtes(db, update, startablePost, postIsDue),
  );
})();

/**
 * The target, its post and its account (as loadTarget reads them), read by the statement that
 * also starts the target when it is a first try due now on a platform that starts it at its
 * post's time, as moveTargetIfPostAt would start it after the read: under its post's lock, with
 * the post's status stored. `started` says whether it did; the target is then answered as
 * started, the post as read. Any other target is only read, and its post is not locked: a later
 * try, one with a container, one not due yet, or one whose post changed while the statement
 * waited for the lock, is left to the caller as read. Null when there is no such target.
 */
export async function loadStarting(
  deps: Pick<PublishDeps, 'db' | 'publishRetryWindowMs'>,
  targetId: string,
): Promise<(Loaded & { started: boolean }) | null> {
  const at = now();
  const update = lockedMoveUpdate(firstTryStart(deps, targetId));
  const { target, post, account, started } = await startingReader(
    deps.db,
    valuesOf(update, {
      values: {
        start_at: posts.scheduledAt.mapToDriverValue(at),
        start_platforms: AT_THE_POSTS_TIME,
        post_updated_at: postUpdatedAt(),
      },
    }),
  );
  return target === null || post === null ? null : { target, post, account, started };
}
