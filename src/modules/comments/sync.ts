/**
 * The sync rule: POST /v1/comments/sync reads each account's comments now, at most once a
 * minute per account.
 */
import { inArray, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { enqueue } from '../../jobs/queue.ts';
import { COMMENT_PLATFORMS, platformInfo } from '../../platforms/index.ts';
import { type Account, accountsToSync } from '../accounts/index.ts';
import type { CommentDeps } from './inbox.ts';
import { commentSyncState } from './tables.ts';

/** POST /v1/comments/sync reads an account at most this often. */
export const MANUAL_SYNC_GAP_MS = 60_000;

/**
 * POST /v1/comments/sync: queues a poll of each account now. At most once a minute per
 * account: any account read by a sync less than a minute ago makes it 429 and queues nothing.
 */
export async function syncComments(
  deps: CommentDeps,
  scope: Scope,
  accountIds: readonly string[] | undefined,
): Promise<Account[]> {
  const accounts = await accountsToSync(deps.db, scope, accountIds, COMMENT_PLATFORMS, (unsupported) => {
    const label = platformInfo(unsupported[0].platform).label;
    return new ApiError(
      422,
      'unsupported_platform',
      `${label} offers no comment API to ordinary apps; nothing to sync.`,
      {
        account_ids: unsupported.map((a) => a.id),
      },
    );
  });
  if (accounts.length === 0) return [];
  return await deps.db.transaction(async (tx) => {
    const at = now();
    const ids = accounts.map((a) => a.id);
    const taken = await tx
      .insert(commentSyncState)
      .values(ids.map((accountId) => ({ accountId, nextPollAt: at, lastManualSyncAt: at })))
      .onConflictDoUpdate({
        target: commentSyncState.accountId,
        set: { lastManualSyncAt: at },
        setWhere: sql`${commentSyncState.lastManualSyncAt} is null or ${commentSyncState.lastManualSyncAt} <= ${new Date(at.getTime() - MANUAL_SYNC_GAP_MS)}`,
      })
      .returning({ accountId: commentSyncState.accountId });
    if (taken.length < ids.length) {
      const free = new Set(taken.map((t) => t.accountId));
      const limited = ids.filter((id) => !free.has(id));
      const rows = await tx
        .select({ last: commentSyncState.lastManualSyncAt })
        .from(commentSyncState)
        .where(inArray(commentSyncState.accountId, limited));
      const latest = Math.max(...rows.map((r) => r.last?.getTime() ?? 0));
      const wait = Math.max(1, Math.ceil((latest + MANUAL_SYNC_GAP_MS - at.getTime()) / 1000));
      throw new ApiError(
        429,
        'sync_rate_limited',
        `Comments of an account are synced at most once a minute; retry after ${wait} s.`,
        { account_ids: limited },
        { 'Retry-After': String(wait) },
      );
    }
    for (const id of ids) {
      await enqueue(tx, 'poll_comments', { account_id: id }, { jobKey: `poll_comments:${id}` });
    }
    return accounts;
  });
}
