/**
 * What every step of a target's publication works with: the job's dependencies, the target and
 * its post as loaded, the state the target is in, and a wait in that state for its next job.
 */
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../../../db/connection.ts';
import { rowAsValue } from '../../../db/row-json.ts';
import type { AccountCredentials, Platform, PlatformAdapter, PlatformSet } from '../../../platforms/index.ts';
import { type Account, accountBesideReader } from '../../accounts/index.ts';
import type { MediaUrlContext } from '../../media/index.ts';
import { type Post, type PostTarget, posts, postTargets } from '../tables.ts';
import { type TargetState, targetStates } from '../target-workflow.ts';
import { transitionThenStep } from './publish-jobs.ts';

export interface PublishDeps {
  db: Db;
  secretKey: Buffer;
  platforms: PlatformSet;
  media: MediaUrlContext;
  /** How long passing failures of one try are retried. */
  publishRetryWindowMs: number;
  /** How long a target whose account expired waits for its reconnection (0: it fails at once). */
  accountReconnectGraceMs: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export interface Loaded {
  target: PostTarget;
  post: Post;
  /** The target's account, read with it (null: gone). */
  account: Account | null;
}

/** The target, its post and its account, in one prepared statement: what every run of a target's job reads first. */
export async function loadTarget(db: Db, targetId: string): Promise<Loaded | null> {
  const { target, post, account } = await targetWithAccount(db, { id: targetId });
  return target === null || post === null ? null : { target, post, account };
}

/**
 * The target and its post, without its account; with `lockPost`, the post's row is locked (as
 * lockPost locks it) in the same statement. The post is then read as locked, the target as the
 * statement began (a change committed while the lock was waited for is not seen): what acts on it
 * must be a conditional transition, which such a change makes fail, or read the target again.
 */
export async function targetAndPost(
  db: Queryable,
  targetId: string,
  options: { lockPost?: boolean } = {},
): Promise<Omit<Loaded, 'account'> | null> {
  const query = db
    .select({ target: postTargets, post: posts })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(eq(postTargets.id, targetId));
  const [row] = options.lockPost ? await query.for('update', { of: posts }) : await query;
  return row ?? null;
}

/** A target (placeholder `id`), its post and its account, read by the accounts module with the target and post beside. */
const targetWithAccount = (() => {
  const targetIs = eq(postTargets.id, sql.placeholder('id'));
  const ofTarget = (column: PgColumn) => sql`(select ${column} from ${postTargets} where ${targetIs})`;
  return accountBesideReader('load_target_with_account', ofTarget(postTargets.accountId), {
    target: rowAsValue(postTargets, targetIs),
    post: rowAsValue(posts, sql`${posts.id} = ${ofTarget(postTargets.postId)}`),
  });
})();

/** The state a target's row is in. */
export function stateOf(target: PostTarget): TargetState | undefined {
  const found = Object.entries(targetStates.workflow.states).find(
    ([, columns]) => columns.status === target.status && columns.step === target.step,
  );
  return found?.[0] as TargetState | undefined;
}

/** A target waits (saying why) in its state, and its next step is queued for then; one moved on meanwhile is left. */
export async function waitUntil(
  db: Queryable,
  target: PostTarget,
  next: Date,
  values: Partial<PostTarget>,
): Promise<void> {
  const state = stateOf(target);
  if (state === undefined || !targetStates.workflow.transitions.wait.from.includes(state)) return;
  await transitionThenStep(db, target, 'wait', { from: [state], set: values }, next);
}

/** One run of a step: the job's dependencies, the target and its post, and the account's adapter and credentials. */
export interface Run {
  deps: PublishDeps;
  adapter: PlatformAdapter;
  credentials: AccountCredentials;
  target: PostTarget;
  post: Post;
  platform: Platform;
}
