/**
 * An account's access ending: `expired` or `disconnected` (tokens deleted), each with its event
 * and what it puts at risk; and what a platform's refusal of a call means for the account (an
 * ended token, revoked access, a missing permission), which every caller of an adapter acting as
 * an account reports here.
 */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { transition } from '../../jobs/workflow.ts';
import type { Platform, PlatformError } from '../../platforms/index.ts';
import { emit } from '../events/index.ts';
import { accountAccess } from './access-workflow.ts';
import { renderAccount, renderRisk } from './json.ts';
import { postsAtRiskOf } from './posts-at-risk.ts';
import { type Account, type AccountStatus, accounts } from './tables.ts';

/** The token columns of a disconnected account: access removed for good is not kept. */
export const TOKENS_DELETED = {
  accessTokenSealed: null,
  tokenExpiresAt: null,
  refreshTokenSealed: null,
  refreshExpiresAt: null,
} as const;

/**
 * The data of an event about an account's access ending (or about to end, from `from`): the
 * account, and what that puts at risk with the first 100 posts' ids.
 */
export async function accessEndedData(tx: Queryable, account: Account, from?: Date): Promise<Record<string, unknown>> {
  const risk = await postsAtRiskOf(tx, account.id, from);
  return {
    account: renderAccount(account, account.status === 'connected' ? null : risk),
    posts_at_risk: { ...renderRisk(risk), post_ids: risk.postIds },
  };
}

/**
 * Marks a connected account expired (it must be reconnected), or a connected or expired
 * one disconnected, and emits `account.expired` / `account.disconnected`; does nothing
 * when it is in neither state.
 */
export async function endAccountAccess(
  tx: Tx,
  accountId: string,
  status: Exclude<AccountStatus, 'connected'>,
  reason: string,
): Promise<Account | null> {
  const account = await transition(tx, accountAccess, accountId, status === 'expired' ? 'expire' : 'disconnect', {
    set: {
      lastRefreshError: reason,
      refreshRetryAt: null,
      // Access removed for good: the tokens are of no more use, so they are not kept.
      ...(status === 'disconnected' ? TOKENS_DELETED : {}),
    },
  });
  if (!account) return null;
  await emit(tx, {
    ownerId: account.ownerId,
    profileId: account.profileId,
    type: status === 'expired' ? 'account.expired' : 'account.disconnected',
    data: await accessEndedData(tx, account),
  });
  return account;
}

/**
 * What a platform's refusal of a call means for the account itself: a token that ran out
 * makes it `expired`, revoked access (or a deleted platform account) `disconnected`, each
 * with its event; other kinds concern only that call. Every caller of an adapter acting
 * as an account passes its PlatformErrors here, in a transaction of its own or its
 * caller's.
 */
export async function noteAccountFailure(
  tx: Tx,
  accountId: string,
  error: PlatformError,
  /**
   * When the connection the refused call was made with was made (the account's `connectedAt`
   * as the caller read it before the call): a reconnection since gave new tokens, and the old
   * one's refusal says nothing of them. Every caller says it, since any call may be on its way
   * while the client reconnects; undefined only where no call was made with the account's tokens.
   */
  madeWith: Date | undefined,
): Promise<Account | null> {
  if (madeWith !== undefined) {
    const [current] = await tx
      .select({ connectedAt: accounts.connectedAt })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (current && current.connectedAt.getTime() > madeWith.getTime()) return null;
  }
  if (error.kind === 'token_expired') return await endAccountAccess(tx, accountId, 'expired', error.message);
  if (error.kind === 'access_revoked') return await endAccountAccess(tx, accountId, 'disconnected', error.message);
  if (error.kind === 'permission_missing') return await forgetScopes(tx, accountId, error.detail.missingScopes ?? []);
  return null;
}

/**
 * A platform refused a call for lack of these scopes: the account's recorded permissions
 * stop claiming them (where a platform does not say at connection which scopes the user
 * ticked, the service records those it asked for and learns here what was left out).
 */
async function forgetScopes(tx: Tx, accountId: string, missing: readonly string[]): Promise<Account | null> {
  if (missing.length === 0) return null;
  const dropped = sql`array[${sql.join(
    missing.map((scope) => sql`${scope}`),
    sql`, `,
  )}]::text[]`;
  const [account] = await tx
    .update(accounts)
    .set({
      scopes: sql`array(select s from unnest(${accounts.scopes}) with ordinality as u(s, n) where s <> all(${dropped}) order by n)`,
      updatedAt: now(),
    })
    .where(and(eq(accounts.id, accountId), sql`${accounts.scopes} && ${dropped}`))
    .returning();
  return account ?? null;
}

/**
 * A platform told the service that these users removed the app: every owner's account of
 * theirs becomes `disconnected` (tokens deleted, `account.disconnected` emitted). Answers
 * the accounts it disconnected.
 */
export async function disconnectPlatformUsers(
  db: Db,
  platform: Platform,
  platformUserIds: string[],
  reason: string,
): Promise<Account[]> {
  if (platformUserIds.length === 0) return [];
  return await db.transaction(async (tx) => {
    const found = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(
        and(
          eq(accounts.platform, platform),
          // A notice may name the account by another of its ids (Instagram's app-scoped one).
          or(
            inArray(accounts.platformUserId, platformUserIds),
            sql`${accounts.platformAliases} && ${sql.param(platformUserIds)}::text[]`,
          ),
        ),
      )
      .orderBy(asc(accounts.id))
      .for('update');
    const ended: Account[] = [];
    for (const { id } of found) {
      const account = await endAccountAccess(tx, id, 'disconnected', reason);
      if (account) ended.push(account);
    }
    return ended;
  });
}
