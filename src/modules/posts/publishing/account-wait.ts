/**
 * An expired account (found so when the target's time comes, or told by the platform during a
 * step) can be reconnected by its owner: the target waits for that in its step (`wait`,
 * waiting_reason `account_expired`) until ACCOUNT_RECONNECT_GRACE_SECONDS after it began to,
 * making no platform call; the reconnection (`account.connected`, reconnected) queues it at once
 * and it goes on (`reconnected`); the grace time over, it fails with `account_not_connected`.
 * A disconnected account is not waited for: it was removed on purpose.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { now } from '../../../clock.ts';
import { valuesOf } from '../../../db/prepared.ts';
import type { PlatformError } from '../../../platforms/index.ts';
import { type Account, accountById, noteAccountFailure } from '../../accounts/index.ts';
import type { EventStatementPart, RecordedEvent } from '../../events/index.ts';
import { type PostTarget, postTargets } from '../tables.ts';
import { type TargetState, targetStates } from '../target-workflow.ts';
import { queuePublishOfMoved } from './publish-jobs.ts';
import { type PublishDeps, waitUntil } from './run.ts';

/**
 * The waiting_reason of a target waiting for its expired account's reconnection: a code, not a
 * sentence like the other reasons, so that clients can tell this wait (one their user can end)
 * from the others.
 */
const ACCOUNT_EXPIRED = 'account_expired';

/**
 * What became of a target whose account was found expired: it waits for a reconnection; its
 * grace time ended (`until`); or the account is no longer expired (reconnected, or
 * disconnected meanwhile), as it is now.
 */
type AccountWait = { waiting: true } | { ended: Date } | { account: Account | null };

/**
 * A target whose account is expired waits for its reconnection, in its step, until the grace
 * time that began with its first such wait of this try ends; `cause`, the platform's word that
 * the token expired, marks the account first (with `account.expired`).
 */
export async function awaitReconnection(
  deps: PublishDeps,
  target: PostTarget,
  cause?: PlatformError,
  madeWith?: Date,
): Promise<AccountWait> {
  return await deps.db.transaction(async (tx) => {
    if (cause) await noteAccountFailure(tx, target.accountId, cause, madeWith);
    // The account's row is held (shared) until the wait is recorded: a reconnection that
    // commits first is seen here, and one that commits later finds the target waiting and
    // queues it (queueTargetsOfReturnedAccounts); none is missed.
    const account = await accountById(tx, target.accountId, 'share');
    if (account?.status !== 'expired') return { account };
    const at = now();
    if (target.accountWaitUntil !== null && at.getTime() >= target.accountWaitUntil.getTime()) {
      return { ended: target.accountWaitUntil };
    }
    const until = target.accountWaitUntil ?? new Date(at.getTime() + deps.accountReconnectGraceMs);
    await waitUntil(tx, target, until, { waitingReason: ACCOUNT_EXPIRED, accountWaitUntil: until });
    return { waiting: true };
  });
}

/** States a target may wait for its account in, and go on from once it is reconnected. */
export const ACCOUNT_WAIT_STATES: readonly TargetState[] = targetStates.workflow.transitions.reconnected.from;

/** The account an event names, when it is one whose waiting targets should go on now. */
function returnedAccountId(event: RecordedEvent): string | null {
  if (event.type !== 'account.connected' && event.type !== 'account.disconnected') return null;
  const { data } = JSON.parse(event.body) as { data?: { account?: { id?: unknown }; reconnected?: unknown } };
  if (event.type === 'account.connected' && data?.reconnected !== true) return null;
  const id = data?.account?.id;
  return typeof id === 'string' ? id : null;
}

/**
 * An account reconnected (`account.connected`, `reconnected: true`) or disconnected: its
 * targets waiting for a reconnection are queued now (each target's job key replaces its
 * waiting job), to go on publishing, or to fail at once rather than at the end of their grace
 * time. An events subscriber: run in the transaction of the account's change, so the jobs
 * exist exactly when the change does. It reads the targets without locking them: that
 * transaction holds the account's row, which a run about to wait takes first too
 * (awaitReconnection), so neither waits on the other in a circle.
 */
export function queueTargetsOfReturnedAccounts(events: readonly RecordedEvent[]): EventStatementPart | null {
  const accountIds = [...new Set(events.map(returnedAccountId).filter((id) => id !== null))];
  if (accountIds.length === 0) return null;
  const waiting = sql`select ${postTargets.id} as id from ${postTargets}
    where ${and(
      sql`${postTargets.accountId} = any(${sql.placeholder('returned_accounts_ids')}::text[])`,
      eq(postTargets.status, 'publishing'),
      isNotNull(postTargets.accountWaitUntil),
      sql`exists (select 1 from recorded_events)`,
    )}`;
  const queue = queuePublishOfMoved(now(), 'returned_accounts_targets');
  return {
    shape: `targets of returned accounts, ${queue.shape}`,
    with: [['returned_accounts_targets', waiting]],
    effects: [['returned_accounts_jobs', queue.sql]],
    values: valuesOf({ values: { returned_accounts_ids: accountIds } }, queue),
  };
}
