/**
 * How comments come in. Platform webhooks first (as Meta recommends): the notice is
 * verified in the request and stored by a job. Polling is the safety net: each connected
 * account whose platform has comments is read every COMMENT_POLL_INTERVAL_SECONDS, at a
 * phase of its own so that accounts do not all poll at once, over its recent posts only,
 * and less often while the platform reports its rate limit nearly used.
 */

import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { appendTo } from '../../append-to.ts';
import { now } from '../../clock.ts';
import type { Db, Tx } from '../../db/connection.ts';
import { eachLimited } from '../../each-limited.ts';
import { phaseMs } from '../../jobs/phase.ts';
import { enqueue, jobSql, type TaskPayloads } from '../../jobs/queue.ts';
import { BACKGROUND_RETRY, retryDelayMs } from '../../jobs/retry.ts';
import { sharedHistogram } from '../../metrics/shared.ts';
import {
  type AccountCredentials,
  COMMENT_PLATFORMS,
  type CommentNotice,
  type CommentsCapability,
  commentsOf,
  type Platform,
  type PlatformComment,
  PlatformError,
  type PlatformSet,
  platformInfo,
} from '../../platforms/index.ts';
import {
  type Account,
  accountsOfPlatformUsers,
  actAsAccount,
  connectedAccountById,
  connectedAccounts,
  noteAccountFailure,
} from '../accounts/index.ts';
import { confirmedTimes, type IncomingComment, storeComments, storeCommentsOfAccounts } from './store.ts';
import { commentSyncState } from './tables.ts';

export interface IntakeDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
  log: Logger;
  commentPollIntervalMs: number;
}

/** The most recent posts a poll reads the comments of. */
export const POLL_POSTS = 10;

/** A notice's comment as the `ingest_comment_notices` job carries it (JSON: times as ISO text). */
export type NoticeComment = TaskPayloads['ingest_comment_notices']['comments'][number];

export function toNoticeComment({ accountPlatformUserId, comment: c, noticedAt, named }: CommentNotice): NoticeComment {
  return {
    ...(named ? { named: true } : {}),
    account_platform_user_id: accountPlatformUserId,
    id: c.id,
    post_id: c.postId,
    parent_id: c.parentId,
    author_id: c.authorId,
    author_username: c.authorUsername,
    text: c.text,
    commented_at: c.createdAt?.toISOString() ?? null,
    noticed_at: noticedAt.toISOString(),
    hidden: c.hidden,
    by_account: c.byAccount,
  };
}

/** Tries of a notice whose comments' times could not be read for a passing reason, before polling is left to do it. */
const TIME_READ_ATTEMPTS = 8;

const noticeLagMetric = sharedHistogram({
  name: 'switchboard_comment_notice_lag_seconds',
  help: "From a platform's comment notice arriving to the comment being stored (and its comment.created sent, when due), by platform.",
  labelNames: ['platform'],
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
});

/** Platform reads of comments' times a notice job makes at once (each with its own account's token). */
const READS_AT_ONCE = 8;

/** A platform user a job's notices name, the accounts connected as it, and its comments in the job. */
interface UserNotices {
  platformUserId: string;
  accounts: Account[];
  items: NoticeComment[];
}

/**
 * Stores what a job's platform notices reported (the notices of a moment, whatever their
 * users), for every owner's account of the platform user each names (one platform account may
 * be connected by several owners), in one transaction (one per account should that fail). A
 * notice for a user no account has is dropped (an account disconnected since, or another app's
 * test). The storing waits for every user's read of times (below), each bounded by the
 * platform client's timeout.
 *
 * A comment by another person the notice gives no time of (Instagram's) has its time read from
 * the platform first, once for all the owners, and only if not stored with it already: a notice
 * may come up to 36 hours late, after Meta's retries, and `comment.created` is for comments
 * younger than 24 hours by the platform's time. A comment the platform no longer has is
 * dropped. When the read fails, the comment is stored with the notice's time, unconfirmed (no
 * event yet), and the read is tried again later (a passing failure) or left to the next poll.
 */
export async function ingestNotices(
  deps: Pick<IntakeDeps, 'db' | 'log' | 'platforms' | 'secretKey'>,
  platform: Platform,
  notices: readonly NoticeComment[],
  attempt = 0,
): Promise<void> {
  const byUser = new Map<string, NoticeComment[]>();
  for (const n of notices) appendTo(byUser, n.account_platform_user_id, n);
  const accountsOf = await accountsOfPlatformUsers(deps.db, platform, [...byUser.keys()]);
  const users: UserNotices[] = [];
  for (const [platformUserId, items] of byUser) {
    const accounts = accountsOf.get(platformUserId) ?? [];
    if (accounts.length > 0) users.push({ platformUserId, accounts, items });
    else {
      deps.log.info(
        { platform, platform_user_id: platformUserId, comments: items.length },
        'platform notice for a user no account has; dropped',
      );
    }
  }
  if (users.length === 0) return;
  const confirmed = await confirmedTimes(
    deps.db,
    users.flatMap((u) => u.accounts.map((a) => a.id)),
    users.flatMap((u) => untimed(u.items)),
  );
  const reads = await eachLimited(users, READS_AT_ONCE, async (u) => ({
    times: await readTimes(deps, platform, u, confirmed),
    whole: await readNamed(deps, platform, u),
  }));
  // Comments whose read failed for a passing reason go back to the queue, by how long their
  // platform asked to wait: one account's long wait holds back no other's.
  const retries = new Map<number, NoticeComment[]>();
  const stores: { accountId: string; incoming: IncomingComment[] }[] = [];
  for (const [i, { accounts, items }] of users.entries()) {
    const { times: read, whole } = reads[i] as { times: Read<Map<string, Date>>; whole: Read<PlatformComment[]> };
    for (const failed of [read.retry, whole.retry]) {
      if (failed === null || attempt + 1 >= TIME_READ_ATTEMPTS) continue;
      const wait = retryDelayMs(BACKGROUND_RETRY, attempt, failed.error.detail.retryAfterSeconds);
      appendTo(retries, wait, ...items.filter((n) => failed.ids.has(n.id)));
    }
    const incoming = items.flatMap((n): IncomingComment[] => {
      if (n.named || read.gone.has(n.id)) return [];
      const known = n.commented_at ?? read.found.get(n.id)?.toISOString() ?? null;
      return [
        {
          id: n.id,
          postId: n.post_id,
          parentId: n.parent_id,
          authorId: n.author_id,
          authorUsername: n.author_username,
          text: n.text,
          createdAt: new Date(known ?? n.noticed_at),
          timeConfirmed: known !== null,
          hidden: n.hidden,
          byAccount: n.by_account,
        },
      ];
    });
    incoming.push(...whole.found);
    for (const account of accounts) stores.push({ accountId: account.id, incoming });
  }
  if (retries.size > 0) {
    await deps.db.transaction(async (tx) => {
      for (const [wait, comments] of retries) {
        await enqueue(
          tx,
          'ingest_comment_notices',
          { platform, comments, attempt: attempt + 1 },
          { runAt: new Date(now().getTime() + wait) },
        );
      }
    });
  }
  await storeEachAccount(deps, stores);
  const stored = now().getTime();
  for (const [i, { items }] of users.entries()) {
    const { times, whole } = reads[i] as { times: Read<Map<string, Date>>; whole: Read<PlatformComment[]> };
    const read = new Set(whole.found.map((c) => c.id));
    for (const n of items) {
      if (times.gone.has(n.id) || (n.named && !read.has(n.id))) continue;
      noticeLagMetric.observe({ platform }, Math.max(0, stored - Date.parse(n.noticed_at)) / 1000);
    }
  }
}

/**
 * Stores the job's comments of every account in one transaction. When that fails (one
 * account's rows refused, or a deadlock with a profile's deletion), each account is stored in a
 * transaction of its own, so the others are not held back by it, and the first failure is
 * thrown for the job to be tried again (what is stored by then is not stored twice).
 */
async function storeEachAccount(
  deps: Pick<IntakeDeps, 'db' | 'log'>,
  stores: readonly { accountId: string; incoming: IncomingComment[] }[],
): Promise<void> {
  try {
    await deps.db.transaction((tx) => storeCommentsOfAccounts(tx, stores));
    return;
  } catch (error) {
    if (stores.length === 1) throw error;
    deps.log.warn(
      { err: error, accounts: stores.length },
      "storing a notice job's comments together failed; storing each account's on its own",
    );
  }
  const failures: unknown[] = [];
  for (const store of stores) {
    try {
      await deps.db.transaction((tx) => storeCommentsOfAccounts(tx, [store]));
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * The ids of the comments by other people the notices give no time of. The account's own
 * comments never get comment.created: their time is not worth a call (a poll brings it).
 */
function untimed(items: readonly NoticeComment[]): string[] {
  return items.filter((n) => n.commented_at === null && !n.by_account && !n.named).map((n) => n.id);
}

/** What a read of a notice's comments from the platform found. */
interface Read<T> {
  found: T;
  /** Comments the platform no longer has. */
  gone: Set<string>;
  /** The comments whose read failed for a passing reason, to be tried again, and why; null otherwise. */
  retry: { ids: Set<string>; error: PlatformError } | null;
}

/**
 * The times of the user's notice comments that have none and are not stored with one yet for
 * every one of its accounts (`confirmed`: by platform comment id, the accounts that have it so),
 * read with one connected account's token.
 */
async function readTimes(
  deps: Pick<IntakeDeps, 'db' | 'log' | 'platforms' | 'secretKey'>,
  platform: Platform,
  { accounts, items }: UserNotices,
  confirmed: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<Read<Map<string, Date>>> {
  const everywhere = (id: string) => accounts.every((a) => confirmed.get(id)?.has(a.id) === true);
  const wanted = [...new Set(untimed(items).filter((id) => !everywhere(id)))];
  return await readAsAccount(deps, platform, accounts, wanted, new Map(), {
    what: 'the times of',
    meanwhile: 'stored without comment.created',
    read: (comments, credentials) => comments.commentTimes(credentials, wanted),
    ids: (times) => new Set(times.keys()),
  });
}

/**
 * The comments the user's notices only named (`named`), read whole with one connected
 * account's token (with the account's answers under them). When the read fails they are not
 * stored (a notice gives nothing to store): tried again after a passing failure, else left to the poll.
 */
async function readNamed(
  deps: Pick<IntakeDeps, 'db' | 'log' | 'platforms' | 'secretKey'>,
  platform: Platform,
  { accounts, items }: UserNotices,
): Promise<Read<PlatformComment[]>> {
  const wanted = [...new Set(items.filter((n) => n.named).map((n) => n.id))];
  return await readAsAccount(deps, platform, accounts, wanted, [], {
    what: '',
    meanwhile: 'not stored',
    read: async (comments, credentials) => {
      if (comments.readComments === undefined) throw new Error(`${platform} cannot read a named comment`);
      return await comments.readComments(credentials, wanted);
    },
    ids: (found) => new Set(found.map((c) => c.id)),
  });
}

/** Reads `wanted` comments of a notice with one of `accounts`' tokens, as `how` says; `none` when there is nothing to read or nobody to read it. */
async function readAsAccount<T>(
  deps: Pick<IntakeDeps, 'db' | 'log' | 'platforms' | 'secretKey'>,
  platform: Platform,
  accounts: readonly Account[],
  wanted: readonly string[],
  none: T,
  how: {
    what: string;
    meanwhile: string;
    read: (comments: CommentsCapability, credentials: AccountCredentials) => Promise<T>;
    ids: (found: T) => Set<string>;
  },
): Promise<Read<T>> {
  const nothing: Read<T> = { found: none, gone: new Set(), retry: null };
  const reader = accounts.find((a) => a.status === 'connected');
  if (wanted.length === 0 || reader === undefined) return nothing;
  const reading = `reading ${how.what ? `${how.what} ` : ''}a notice's comments`;
  try {
    const adapter = deps.platforms().adapter(platform);
    const found = await actAsAccount(
      { db: deps.db, secretKey: deps.secretKey, platforms: deps.platforms() },
      reader,
      (credentials) => how.read(commentsOf(adapter), credentials),
    );
    const have = how.ids(found);
    const gone = new Set(wanted.filter((id) => !have.has(id)));
    if (gone.size > 0) {
      deps.log.info(
        { platform, account_id: reader.id, comments: [...gone] },
        'comments of a notice are gone from the platform; dropped',
      );
    }
    return { found, gone, retry: null };
  } catch (error) {
    if (!(error instanceof PlatformError)) {
      // Not the platform's answer (a token that cannot be unsealed, a fault of the service's):
      // trying again would fail the same way, and the job's other users must not wait on it.
      deps.log.error(
        { platform, account_id: reader.id, err: error, comments: wanted.length },
        `${reading} failed unexpectedly; ${how.meanwhile} until a poll reads them`,
      );
      return nothing;
    }
    await deps.db.transaction((tx) => noteAccountFailure(tx, reader.id, error, reader.connectedAt));
    deps.log.warn(
      { platform, account_id: reader.id, kind: error.kind, err: error.message, comments: wanted.length },
      error.passing
        ? `${reading} failed; ${how.meanwhile} for now, read again later`
        : `${reading} failed; ${how.meanwhile} until a poll reads them`,
    );
    return { ...nothing, retry: error.passing ? { ids: new Set(wanted), error } : null };
  }
}

/**
 * Every minute: queues a poll for each connected comment account that is due. An account seen
 * for the first time is due at once when it was connected within the last interval (its
 * recent comments come in right after the connection), else at its phase in the interval.
 */
export async function scheduleCommentPolls(deps: Pick<IntakeDeps, 'db' | 'commentPollIntervalMs'>): Promise<number> {
  const at = now();
  const interval = deps.commentPollIntervalMs;
  return await deps.db.transaction(async (tx) => {
    const connected = await connectedAccounts(tx, COMMENT_PLATFORMS);
    const ids = connected.map((a) => a.id);
    const recently = at.getTime() - interval;
    const firstPolls = connected.map(({ id, connectedAt }) =>
      (connectedAt.getTime() > recently ? at : new Date(at.getTime() + phaseMs(id, interval))).toISOString(),
    );
    // One statement whatever the number of accounts (each list one array parameter; drizzle
    // would spread a bare array into a row of parameters).
    await tx.execute(sql`
      insert into ${commentSyncState} (account_id, next_poll_at)
      select * from unnest(${sql.param(ids)}::text[], ${sql.param(firstPolls)}::timestamptz[])
      on conflict do nothing`);
    const due = await tx.execute<{ account_id: string }>(sql`
      with due as (
        update ${commentSyncState}
        set next_poll_at = ${new Date(at.getTime() + interval)}
        where ${commentSyncState.nextPollAt} <= ${at}
          and ${commentSyncState.accountId} = any(${sql.param(ids)}::text[])
        returning account_id
      )
      select account_id, ${jobSql(
        'poll_comments',
        { account_id: sql`account_id` },
        { jobKey: sql`'poll_comments:' || account_id` },
      )} from due`);
    return due.rows.length;
  });
}

/** Poll spacing by the share of its rate limit the platform reports used. */
function intervalFactor(usagePercent: number | null): number {
  if (usagePercent === null || usagePercent < 75) return 1;
  return usagePercent < 90 ? 2 : 4;
}

/** Reads the account's recent posts' comments and stores them; a failure waits for the next poll. */
export async function pollComments(deps: IntakeDeps, accountId: string): Promise<void> {
  const { db } = deps;
  const account = await connectedAccountById(db, accountId);
  if (account === null) return;
  const platform = account.platform;
  if (platformInfo(platform).comments === null) return;
  const interval = deps.commentPollIntervalMs;
  const readAt = now();
  try {
    const adapter = deps.platforms().adapter(platform);
    const read = await actAsAccount(
      { db, secretKey: deps.secretKey, platforms: deps.platforms() },
      account,
      (credentials) => commentsOf(adapter).recentComments(credentials, { posts: POLL_POSTS }),
    );
    const factor = intervalFactor(read.usagePercent);
    await db.transaction(async (tx) => {
      const stored = await storeComments(tx, account.id, read.comments, read.posts, { hiddenReadAt: readAt });
      await afterPoll(tx, account, interval * factor, null);
      if (factor > 1 || stored.length > 0) {
        deps.log.info(
          { account_id: account.id, platform, new_comments: stored.length, usage_percent: read.usagePercent },
          factor > 1 ? 'comments polled; platform usage high, next poll later' : 'comments polled',
        );
      }
    });
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const wait = Math.max(interval, (error.detail.retryAfterSeconds ?? 0) * 1000);
    await db.transaction(async (tx) => {
      await noteAccountFailure(tx, account.id, error, account.connectedAt);
      await afterPoll(tx, account, wait, `${error.kind}: ${error.message}`);
    });
    deps.log.warn(
      { account_id: account.id, platform, kind: error.kind, err: error.message, next_poll_in_s: wait / 1000 },
      'polling comments failed; the next poll will try again',
    );
  }
}

async function afterPoll(tx: Tx, account: Account, waitMs: number, lastError: string | null): Promise<void> {
  const at = now();
  const next = new Date(at.getTime() + waitMs);
  await tx
    .insert(commentSyncState)
    .values({ accountId: account.id, nextPollAt: next, lastPolledAt: at, lastError })
    .onConflictDoUpdate({
      target: commentSyncState.accountId,
      set: { nextPollAt: sql`greatest(${commentSyncState.nextPollAt}, ${next})`, lastPolledAt: at, lastError },
    });
}
