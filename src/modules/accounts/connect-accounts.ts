/**
 * What a successful platform login does to the owner's accounts: the rules the connect
 * flow applies (one profile per platform account, the plan's account limit), then the
 * accounts saved and `account.connected` emitted, all in the caller's transaction.
 */
import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.ts';
import type { GrantedTokenSet, Platform, PlatformProfile } from '../../platforms/index.ts';
import { emit } from '../events/index.ts';
import { lockOwner } from '../owners/index.ts';
import { renderAccount } from './json.ts';
import { samePlatformAccount, saveConnectedAccount } from './service.ts';
import { type Account, accounts } from './tables.ts';

/** One platform account the login gave access to. */
export interface AccountGrant {
  tokens: GrantedTokenSet;
  profile: PlatformProfile;
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
    });
    await emit(tx, {
      ownerId: account.ownerId,
      profileId: account.profileId,
      type: 'account.connected',
      data: { account: renderAccount(account), reconnected: existed },
    });
    connected.push(account);
  }
  return { ok: true, accounts: connected };
}
