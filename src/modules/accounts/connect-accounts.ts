/**
 * What a successful platform login does to the owner's accounts: the rules the connect
 * flow applies (one profile per platform account, the plan's account limit; for a reconnect
 * link, the login must be of the account it names), then the accounts saved and
 * `account.connected` emitted, all in the caller's transaction.
 */
import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import type { GrantedTokenSet, Platform, PlatformProfile } from '../../platforms/index.ts';
import { emit } from '../events/index.ts';
import { lockOwner } from '../owners/index.ts';
import { grantIsOf, replaceConnection, samePlatformAccount, saveConnectedAccount } from './connections.ts';
import { renderAccount } from './json.ts';
import { accountInProfile } from './readers.ts';
import { type Account, accounts } from './tables.ts';

/** One platform account the login gave access to. */
export interface AccountGrant {
  tokens: GrantedTokenSet;
  profile: PlatformProfile;
  /** The client id of the owner's own app the login went through; absent: the deployment's app. */
  ownerAppClientId?: string;
}

export type ConnectAccountsResult =
  | { ok: true; accounts: Account[] }
  | { ok: false; error: 'account_in_other_profile' | 'plan_account_limit' };

/**
 * Connects every grant to `profileId`, or none: a platform account already in another
 * of the owner's profiles, or more accounts than the owner's plan allows, refuses all.
 * A grant for an account already in this profile replaces its tokens (a reconnection).
 */
export async function connectAccounts(
  tx: Tx,
  secretKey: Buffer,
  target: { ownerId: string; profileId: string; platform: Platform },
  grants: AccountGrant[],
): Promise<ConnectAccountsResult> {
  // Connections of one owner take turns, so two of them cannot both fit the last slot.
  const owner = await lockOwner(tx, target.ownerId);
  if (!owner) throw new Error(`owner ${target.ownerId} does not exist`);
  const existing = await tx
    .select({ id: accounts.id, profileId: accounts.profileId })
    .from(accounts)
    .where(
      and(
        eq(accounts.ownerId, target.ownerId),
        samePlatformAccount(
          target.platform,
          grants.map((g) => g.tokens),
        ),
      ),
    );
  // Also when it is disconnected there: its comments and insights belong to that client,
  // so the owner moves it first (POST /v1/accounts/{id}/move) if it changed hands.
  if (existing.some((a) => a.profileId !== target.profileId)) return { ok: false, error: 'account_in_other_profile' };

  if (owner.accountLimit !== null) {
    // Disconnected accounts hold no slot; the ones this login (re)connects are counted once.
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(accounts)
      .where(
        and(
          eq(accounts.ownerId, target.ownerId),
          ne(accounts.status, 'disconnected'),
          existing.length > 0
            ? notInArray(
                accounts.id,
                existing.map((a) => a.id),
              )
            : undefined,
        ),
      );
    if ((row?.count ?? 0) + grants.length > owner.accountLimit) return { ok: false, error: 'plan_account_limit' };
  }

  const connected: Account[] = [];
  for (const grant of grants) {
    const { account, existed } = await saveConnectedAccount(tx, secretKey, {
      ownerId: target.ownerId,
      profileId: target.profileId,
      platform: target.platform,
      tokens: grant.tokens,
      profile: grant.profile,
      ownerAppClientId: grant.ownerAppClientId ?? null,
    });
    await emit(tx, {
      ownerId: account.ownerId,
      profileId: account.profileId,
      type: 'account.connected',
      data: { account: renderAccount(account, null), reconnected: existed },
    });
    connected.push(account);
  }
  return { ok: true, accounts: connected };
}

export type ReconnectAccountResult =
  | { ok: true; account: Account }
  /**
   * `account_gone`: the account is no longer in the link's profile (moved, or deleted with its
   * profile); `account_mismatch`: the login is of another platform account.
   */
  | { ok: false; error: 'account_gone' | 'account_mismatch' | 'plan_account_limit' };

/**
 * Reconnects the one account a reconnect link names with what the login granted: the same row
 * (its id and profile) takes the new tokens and becomes `connected`, and `account.connected`
 * says `reconnected: true`. Refused, changing nothing, when the account is no longer in
 * `profileId` on `platform`, or when the login is of another platform account: a reconnect
 * link must never put someone else's tokens under the account its owner asked about.
 */
export async function reconnectAccount(
  tx: Tx,
  secretKey: Buffer,
  target: { ownerId: string; profileId: string; accountId: string; platform: Platform },
  grant: AccountGrant,
): Promise<ReconnectAccountResult> {
  // Connections of one owner take turns (the account limit, below).
  const owner = await lockOwner(tx, target.ownerId);
  if (!owner) throw new Error(`owner ${target.ownerId} does not exist`);
  const account = await accountInProfile(tx, target, target.accountId, 'update');
  if (!account || account.platform !== target.platform) return { ok: false, error: 'account_gone' };
  if (!grantIsOf(account, grant.tokens)) return { ok: false, error: 'account_mismatch' };
  // Connected and expired accounts hold their slot already; a disconnected one holds none,
  // so bringing it back takes a free one, as it would through a connect link.
  if (account.status === 'disconnected' && owner.accountLimit !== null) {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(accounts)
      .where(and(eq(accounts.ownerId, target.ownerId), ne(accounts.status, 'disconnected')));
    if ((row?.count ?? 0) + 1 > owner.accountLimit) return { ok: false, error: 'plan_account_limit' };
  }
  const reconnected = await replaceConnection(tx, secretKey, account.id, {
    platform: target.platform,
    tokens: grant.tokens,
    profile: grant.profile,
    ownerAppClientId: grant.ownerAppClientId ?? null,
  });
  await emit(tx, {
    ownerId: reconnected.ownerId,
    profileId: reconnected.profileId,
    type: 'account.connected',
    data: { account: renderAccount(reconnected, null), reconnected: true },
  });
  return { ok: true, account: reconnected };
}
