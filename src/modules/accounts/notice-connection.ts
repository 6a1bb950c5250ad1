/**
 * What a connection does to an account's subscription to comment notices: it is asked again at
 * once (notice-subscriptions.ts does the asking).
 */
import type { Tx } from '../../db/connection.ts';
import { enqueue } from '../../jobs/queue.ts';
import { COMMENT_PLATFORMS, type Platform } from '../../platforms/index.ts';
import type { NoticeSubscriptionState } from './tables.ts';

/** A job that has not reported within this long is taken as lost: the schedule queues another. */
export const LEASE_MS = 15 * 60_000;

/** The subscription columns a connection or reconnection of `platform` sets: asked again at once. */
export function noticeSubscriptionOnConnection(platform: Platform, at: Date) {
  const applies = COMMENT_PLATFORMS.includes(platform);
  return {
    commentNotices: applies ? ('pending' as NoticeSubscriptionState) : null,
    commentNoticesError: null,
    commentNoticesRetryAt: applies ? new Date(at.getTime() + LEASE_MS) : null,
    commentNoticesAttempts: 0,
  };
}

/** Queues the subscription of an account just connected (in the connection's transaction). */
export async function queueNoticeSubscription(tx: Tx, accountId: string, platform: Platform): Promise<void> {
  if (!COMMENT_PLATFORMS.includes(platform)) return;
  await enqueue(
    tx,
    'subscribe_comment_notices',
    { account_id: accountId },
    { jobKey: `subscribe_comment_notices:${accountId}` },
  );
}
