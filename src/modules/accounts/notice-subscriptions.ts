/**
 * Subscribing each account to its platform's comment notices. Meta sends an account's notices
 * only once the account is subscribed to the app (Instagram `POST /me/subscribed_apps`, a
 * Facebook page `POST /{page-id}/subscribed_apps`), whatever the app subscribed to in its
 * dashboard: without it, comments come only through the poll. Every connection and reconnection
 * asks again (`pending`, a job at once); a passing failure is tried again with a growing wait,
 * driven by the schedule, so nothing depends on one job surviving; a refusal (a permission the
 * user did not grant, say) leaves the account `failed`, polled only, until it is reconnected.
 */
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import type { Db } from '../../db/connection.ts';
import { jobSql } from '../../jobs/queue.ts';
import { BACKGROUND_RETRY, retryDelayMs } from '../../jobs/retry.ts';
import { commentsOf, PlatformError, type PlatformSet } from '../../platforms/index.ts';
import { noteAccountFailure } from './access.ts';
import { actAsAccount } from './acting.ts';
import { LEASE_MS } from './notice-connection.ts';
import { accounts } from './tables.ts';

/** Passing failures in a row before the account is left to polling (about a day of tries). */
const MAX_ATTEMPTS = 30;

export interface NoticeSubscriptionDeps {
  db: Db;
  platforms: PlatformSet;
  secretKey: Buffer;
  log: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Every minute: queues the subscription of each connected account that is `pending` and due (a
 * retry's time has come, or a job was lost), leasing it so it is queued once.
 */
export async function scheduleNoticeSubscriptions(deps: Pick<NoticeSubscriptionDeps, 'db'>): Promise<number> {
  const at = now();
  const due = await deps.db.execute<{ id: string }>(sql`
    with due as (
      update ${accounts}
      set comment_notices_retry_at = ${new Date(at.getTime() + LEASE_MS)}
      where ${and(
        eq(accounts.commentNotices, 'pending'),
        eq(accounts.status, 'connected'),
        isNotNull(accounts.commentNoticesRetryAt),
        lte(accounts.commentNoticesRetryAt, at),
      )}
      returning id
    )
    select id, ${jobSql(
      'subscribe_comment_notices',
      { account_id: sql`id` },
      { jobKey: sql`'subscribe_comment_notices:' || id` },
    )} from due`);
  return due.rows.length;
}

/** Subscribes one account (the `subscribe_comment_notices` job). */
export async function subscribeCommentNotices(deps: NoticeSubscriptionDeps, accountId: string): Promise<void> {
  const [account] = await deps.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.status, 'connected'), eq(accounts.commentNotices, 'pending')));
  if (account === undefined) return;
  const platform = account.platform;
  const fields = { component: 'comment-notices', account_id: account.id, platform };
  try {
    const adapter = deps.platforms.adapter(platform);
    await actAsAccount({ db: deps.db, secretKey: deps.secretKey, platforms: deps.platforms }, account, (credentials) =>
      commentsOf(adapter).subscribeNotices(credentials),
    );
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const at = now();
    const attempts = account.commentNoticesAttempts + 1;
    const passing = error.passing && attempts < MAX_ATTEMPTS;
    const wait = retryDelayMs(BACKGROUND_RETRY, account.commentNoticesAttempts, error.detail.retryAfterSeconds);
    await deps.db.transaction(async (tx) => {
      await noteAccountFailure(tx, account.id, error, account.connectedAt);
      await tx
        .update(accounts)
        .set({
          commentNotices: passing ? 'pending' : 'failed',
          commentNoticesError: error.message,
          commentNoticesRetryAt: passing ? new Date(at.getTime() + wait) : null,
          commentNoticesAttempts: attempts,
          updatedAt: at,
        })
        .where(and(eq(accounts.id, account.id), eq(accounts.commentNotices, 'pending')));
    });
    // A platform that sends no notices at all (LinkedIn) is no failure to act on.
    const log = error.kind === 'unsupported' ? deps.log.info.bind(deps.log) : deps.log.warn.bind(deps.log);
    log(
      { ...fields, kind: error.kind, err: error.message, attempts },
      error.kind === 'unsupported'
        ? 'the platform sends no comment notices; its comments come by polling'
        : passing
          ? `subscribing the account to comment notices failed; trying again in ${Math.round(wait / 1000)} s, comments come by polling meanwhile`
          : 'subscribing the account to comment notices failed; its comments come by polling only until it is reconnected',
    );
    return;
  }
  const at = now();
  await deps.db
    .update(accounts)
    .set({
      commentNotices: 'subscribed',
      commentNoticesError: null,
      commentNoticesRetryAt: null,
      commentNoticesAttempts: 0,
      updatedAt: at,
    })
    .where(and(eq(accounts.id, account.id), eq(accounts.commentNotices, 'pending')));
  deps.log.info(fields, 'account subscribed to comment notices');
}
