/**
 * Keeps platform tokens alive: a periodic job refreshes each connected account's token
 * ahead of its expiry (at the latest 15 minutes before it; Instagram and Threads long-lived
 * tokens once they are a day old and within a week of their 60 days, see each adapter's
 * RefreshPolicy). A refresh the platform refuses for good ends the account's access
 * (expired, or disconnected when access was revoked); a passing failure is retried with a
 * growing wait, from 30 s up to an hour, as long as a refresh can still work: until the refresh
 * token's end where there is one, though the access token ended meanwhile. A call refused for an
 * ended token refreshes at once (renewAccess).
 */
import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { now } from '../../clock.ts';
import { DAY_MS } from '../../days.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { BACKGROUND_RETRY, retryAt } from '../../jobs/retry.ts';
import { transition } from '../../jobs/workflow.ts';
import {
  type AccountCredentials,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
  platformInfo,
  type RefreshPolicy,
} from '../../platforms/index.ts';
import { decrypt } from '../../secrets.ts';
import { emit } from '../events/index.ts';
import { ownerAppCredentials } from '../platform-apps/index.ts';
import { accessEndedData, endAccountAccess } from './access.ts';
import { accountAccess } from './access-workflow.ts';
import { tokenColumns } from './connections.ts';
import { type Account, accounts } from './tables.ts';

export interface TokenRefreshDeps {
  db: Db;
  secretKey: Buffer;
  platforms: PlatformSet;
  log?: Pick<Logger, 'info' | 'warn'>;
  /** How long before access ends `account.expiring` is sent (ACCOUNT_EXPIRING_NOTICE_SECONDS); 7 days by default. */
  accountExpiringNoticeMs?: number;
}

const DEFAULT_EXPIRING_NOTICE_MS = 7 * DAY_MS;

/** Never later than this before expiry, whatever a platform's policy says. */
const LATEST_BEFORE_EXPIRY_MS = 15 * 60_000;
/** A token refreshed with itself: passing failures past its expiry for this long, and it is called expired. */
const GIVE_UP_AFTER_EXPIRY_MS = DAY_MS;
const BATCH = 100;

export type RefreshOutcome = 'refreshed' | 'retry_later' | 'expired' | 'disconnected' | 'skipped';

function refreshWindow(policy: RefreshPolicy): number {
  return Math.max(policy.refreshBeforeExpiryMs, LATEST_BEFORE_EXPIRY_MS);
}

/**
 * A refresh cannot give a token beyond its refresh token's end (LinkedIn's last access token
 * ends with its refresh token): a live token whose end already reaches it is left alone, or
 * it would be refreshed at every run of its last week. Once it has ended, it is tried again,
 * and the platform's refusal ends the account.
 */
const REFRESH_END_SLACK_MS = 60_000;

function reachesRefreshEnd(account: Account, at: Date): boolean {
  const { tokenExpiresAt, refreshExpiresAt } = account;
  if (account.refreshTokenSealed === null || tokenExpiresAt === null || refreshExpiresAt === null) return false;
  return tokenExpiresAt > at && tokenExpiresAt.getTime() >= refreshExpiresAt.getTime() - REFRESH_END_SLACK_MS;
}

function isDue(policy: RefreshPolicy, account: Account & { tokenExpiresAt: Date }, at: Date): boolean {
  return (
    account.tokenExpiresAt.getTime() <= at.getTime() + refreshWindow(policy) &&
    account.tokenIssuedAt.getTime() <= at.getTime() - policy.minTokenAgeMs &&
    !reachesRefreshEnd(account, at)
  );
}

/** Accounts whose token is due, per platform policy, and not waiting for a retry. */
async function dueAccountIds(deps: TokenRefreshDeps, at: Date): Promise<string[]> {
  const { available, ownerAppsOnly } = deps.platforms;
  // A platform only owners' apps serve has accounts too: its adapter still states its policy.
  const conditions = [...available, ...ownerAppsOnly].map((platform) => {
    const policy = deps.platforms.adapter(platform).refresh;
    return and(
      eq(accounts.platform, platform),
      lte(accounts.tokenExpiresAt, new Date(at.getTime() + refreshWindow(policy))),
      lte(accounts.tokenIssuedAt, new Date(at.getTime() - policy.minTokenAgeMs)),
    );
  });
  if (conditions.length === 0) return [];
  const rows = await deps.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.status, 'connected'),
        isNotNull(accounts.tokenExpiresAt),
        or(isNull(accounts.refreshRetryAt), lte(accounts.refreshRetryAt, at)),
        // reachesRefreshEnd, as SQL.
        sql`not coalesce(${accounts.refreshTokenSealed} is not null and ${accounts.tokenExpiresAt} > ${at.toISOString()}::timestamptz
          and ${accounts.tokenExpiresAt} >= ${accounts.refreshExpiresAt} - make_interval(secs => ${REFRESH_END_SLACK_MS / 1000}), false)`,
        or(...conditions),
      ),
    )
    .orderBy(asc(accounts.tokenExpiresAt))
    .limit(BATCH);
  return rows.map((r) => r.id);
}

/**
 * Refreshes one account's token, holding its row so two workers never refresh the same
 * token (TikTok's refresh token rotates: a second use would fail for good).
 */
export async function refreshAccountToken(deps: TokenRefreshDeps, accountId: string): Promise<RefreshOutcome> {
  return deps.db.transaction(async (tx) => {
    const [account] = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.status, 'connected')))
      .for('update', { skipLocked: true });
    if (!account || account.tokenExpiresAt === null || account.accessTokenSealed === null) return 'skipped';
    const policy = deps.platforms.adapter(account.platform).refresh;
    const at = now();
    // Someone may have refreshed it between the pick and the lock.
    if (!isDue(policy, { ...account, tokenExpiresAt: account.tokenExpiresAt }, at)) return 'skipped';
    return (await refreshHeld(deps, tx, account, at)).outcome;
  });
}

/**
 * The adapter with the app that connected the account, which alone can refresh and revoke its
 * tokens (X binds a refresh token to the client it was issued to): the deployment's, or the
 * owner's own app with the client id recorded at the connection. That app deleted, or replaced
 * by another client id, is a refusal for good (`token_expired`): the account ends `expired`
 * with that reason and is reconnected through the owner's app of now, never refreshed with an
 * app that did not get its token.
 */
export async function adapterOfAccount(
  deps: Pick<TokenRefreshDeps, 'secretKey' | 'platforms'>,
  db: Queryable,
  account: Pick<Account, 'ownerId' | 'platform' | 'ownerAppClientId'>,
): Promise<PlatformAdapter> {
  const { platform, ownerAppClientId } = account;
  if (ownerAppClientId === null) return deps.platforms.adapter(platform);
  const app = await ownerAppCredentials(db, deps.secretKey, account.ownerId, platform);
  const label = platformInfo(platform).label;
  if (app === null) {
    throw new PlatformError(
      'token_expired',
      `the owner's ${label} app that connected this account (client id ${ownerAppClientId}) was deleted; reconnect the account`,
      { platform },
    );
  }
  if (app.clientId !== ownerAppClientId) {
    throw new PlatformError(
      'token_expired',
      `the owner's ${label} app that connected this account (client id ${ownerAppClientId}) was replaced by client id ${app.clientId}; reconnect the account`,
      { platform },
    );
  }
  return deps.platforms.adapter(platform, app);
}

/** What a refresh of a held account came to: the new tokens, or the platform's refusal. */
type Refreshed =
  | { outcome: 'refreshed'; accessToken: string }
  | { outcome: Exclude<RefreshOutcome, 'refreshed' | 'skipped'>; error: PlatformError };

/** Refreshes the token of an account whose row the transaction holds, and records what came of it. */
async function refreshHeld(
  deps: Pick<TokenRefreshDeps, 'secretKey' | 'log' | 'platforms'>,
  tx: Tx,
  account: Account,
  at: Date,
): Promise<Refreshed> {
  if (account.accessTokenSealed === null) throw new Error(`account ${account.id} has no token to refresh`);
  try {
    const adapter = await adapterOfAccount(deps, tx, account);
    const tokens = await adapter.refreshToken({
      accessToken: decrypt(deps.secretKey, account.accessTokenSealed),
      platformUserId: account.platformUserId,
      ...(account.refreshTokenSealed ? { refreshToken: decrypt(deps.secretKey, account.refreshTokenSealed) } : {}),
    });
    await transition(tx, accountAccess, account.id, 'refresh', {
      set: {
        ...tokenColumns(deps.secretKey, tokens, at),
        // A refresh answer that names no scopes keeps the ones granted at connection.
        ...(tokens.scopes !== null ? { scopes: tokens.scopes } : {}),
        refreshRetryAt: null,
        refreshFailures: 0,
        lastRefreshError: null,
      },
    });
    deps.log?.info({ component: 'token-refresh', account_id: account.id }, 'platform token refreshed');
    return { outcome: 'refreshed', accessToken: tokens.accessToken };
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    return { outcome: await recordFailure(deps, tx, account, error, at), error };
  }
}

/**
 * The moment past which no refresh can bring the account's access back: its refresh token's end
 * where it has one (TikTok's), else a day past its access token's end (a token refreshed with
 * itself, Instagram's and Threads', cannot be once it ended; the day covers clocks apart).
 */
function refreshableUntil(account: Account): Date | null {
  if (account.refreshTokenSealed !== null) return account.refreshExpiresAt;
  return account.tokenExpiresAt === null ? null : new Date(account.tokenExpiresAt.getTime() + GIVE_UP_AFTER_EXPIRY_MS);
}

async function recordFailure(
  deps: Pick<TokenRefreshDeps, 'log'>,
  tx: Tx,
  account: Account,
  error: PlatformError,
  at: Date,
): Promise<Exclude<RefreshOutcome, 'refreshed' | 'skipped'>> {
  const until = refreshableUntil(account);
  const pastRefreshing = until !== null && at.getTime() >= until.getTime();
  const fields = { component: 'token-refresh', account_id: account.id, platform: account.platform, kind: error.kind };
  if (error.passing && !pastRefreshing) {
    const next = retryAt(at, BACKGROUND_RETRY, account.refreshFailures, error.detail.retryAfterSeconds);
    await transition(tx, accountAccess, account.id, 'retry_refresh', {
      set: { refreshRetryAt: next, refreshFailures: account.refreshFailures + 1, lastRefreshError: error.message },
    });
    deps.log?.warn(
      { ...fields, retry_at: next.toISOString() },
      `platform token refresh failed (${error.message}); retrying later`,
    );
    return 'retry_later';
  }
  const status = error.kind === 'access_revoked' ? 'disconnected' : 'expired';
  await endAccountAccess(tx, account.id, status, error.message);
  deps.log?.warn(fields, `platform token refresh failed for good (${error.message}); the account is ${status}`);
  return status;
}

/**
 * A call made with `used` was refused for an ended token: the credentials to try it again with.
 * One refresh of an account at a time: this waits for the account's row, which a refresh holds
 * while it runs, and takes the token another refresh gave meanwhile instead of refreshing again
 * (TikTok's refresh token rotates: a second use of the same one is refused for good). Otherwise
 * it refreshes once, whether or not the token looked due. Null: nothing to try again with (the
 * account is no longer connected, or has no refresh token and nothing newer); a refresh that
 * failed is thrown, its refusal recorded as the periodic job records one (a refusal for good ends
 * the account's access, a passing failure keeps it connected with the refresh retried).
 */
export async function renewAccess(
  deps: Pick<TokenRefreshDeps, 'db' | 'secretKey' | 'log' | 'platforms'>,
  accountId: string,
  used: string,
): Promise<AccountCredentials | null> {
  const renewed = await deps.db.transaction(async (tx): Promise<AccountCredentials | PlatformError | null> => {
    const [account] = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.status, 'connected')))
      .for('update');
    if (!account || account.accessTokenSealed === null) return null;
    const current = decrypt(deps.secretKey, account.accessTokenSealed);
    if (current !== used) return { platformUserId: account.platformUserId, accessToken: current };
    if (account.refreshTokenSealed === null) return null;
    const refreshed = await refreshHeld(deps, tx, account, now());
    return refreshed.outcome === 'refreshed'
      ? { platformUserId: account.platformUserId, accessToken: refreshed.accessToken }
      : refreshed.error;
  });
  if (renewed instanceof PlatformError) throw renewed;
  return renewed;
}

/**
 * When the account's access ends unless a refresh pushes the end back, as SQL: its refresh
 * token's end where it has one (TikTok's lives 180 days from the grant, and refreshing keeps that
 * end), else its token's own (Instagram's and Threads' long-lived tokens, refreshed with
 * themselves; null for a token without an end, a Facebook page's).
 */
const accessEnds = sql<Date | null>`case when ${accounts.refreshTokenSealed} is not null
  then ${accounts.refreshExpiresAt} else ${accounts.tokenExpiresAt} end`;

function accessEndOf(account: Account): Date | null {
  return account.refreshTokenSealed !== null ? account.refreshExpiresAt : account.tokenExpiresAt;
}

/**
 * Sends `account.expiring` for each connected account whose access ends within the notice and
 * will not be extended: a refresh token's end, which only a reconnection moves; or the end of a
 * token refreshed with itself whose refresh has failed (a healthy one is refreshed a week before
 * its end and never warned). Once per end: a new end (a reconnection, a refresh at last) gets a
 * new notice when that comes near. Answers how many were sent.
 */
export async function noticeExpiringAccounts(deps: TokenRefreshDeps, at: Date): Promise<number> {
  const horizon = new Date(at.getTime() + (deps.accountExpiringNoticeMs ?? DEFAULT_EXPIRING_NOTICE_MS));
  const due = await deps.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.status, 'connected'),
        sql`${accessEnds} <= ${horizon.toISOString()}::timestamptz`,
        sql`${accessEnds} > ${at.toISOString()}::timestamptz`,
        or(isNotNull(accounts.refreshTokenSealed), gt(accounts.refreshFailures, 0)),
        sql`${accounts.expiringNoticeFor} is distinct from ${accessEnds}`,
      ),
    )
    .orderBy(asc(accessEnds))
    .limit(BATCH);
  let sent = 0;
  for (const { id } of due) {
    const noticed = await deps.db.transaction(async (tx) => {
      const [account] = await tx
        .select()
        .from(accounts)
        .where(and(eq(accounts.id, id), eq(accounts.status, 'connected')))
        .for('update', { skipLocked: true });
      const ends = account ? accessEndOf(account) : null;
      if (!account || ends === null || account.expiringNoticeFor?.getTime() === ends.getTime()) return false;
      await tx.update(accounts).set({ expiringNoticeFor: ends }).where(eq(accounts.id, account.id));
      await emit(tx, {
        ownerId: account.ownerId,
        profileId: account.profileId,
        type: 'account.expiring',
        // At risk: what is due once access has ended; what is due before publishes as usual.
        data: { ...(await accessEndedData(tx, account, ends)), expires_at: ends.toISOString() },
      });
      deps.log?.info(
        { component: 'token-refresh', account_id: account.id, expires_at: ends.toISOString() },
        'account access ends soon and will not be extended: account.expiring sent; reconnect it before then',
      );
      return true;
    });
    if (noticed) sent += 1;
  }
  return sent;
}

/**
 * The periodic job: refreshes every due token, one account at a time, then announces the
 * accounts whose access will end soon without a refresh to extend it.
 */
export async function refreshDueTokens(deps: TokenRefreshDeps): Promise<Record<RefreshOutcome, number>> {
  const counts: Record<RefreshOutcome, number> = {
    refreshed: 0,
    retry_later: 0,
    expired: 0,
    disconnected: 0,
    skipped: 0,
  };
  for (const id of await dueAccountIds(deps, now())) {
    counts[await refreshAccountToken(deps, id)] += 1;
  }
  await noticeExpiringAccounts(deps, now());
  return counts;
}
