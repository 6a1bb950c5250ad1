/**
 * Connected platform accounts: storing one with its tokens (encrypted), reading its
 * credentials for an adapter call, and marking it expired or disconnected (with the event).
 * The connect flow and the /v1/accounts endpoints build on this.
 */
import { and, eq } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Tx } from '../../db/connection.ts';
import { accounts } from '../../db/schema.ts';
import { newId } from '../../ids.ts';
import {
  type AccountCredentials,
  type Platform,
  PlatformError,
  type PlatformProfile,
  type TokenSet,
} from '../../platforms/index.ts';
import { decrypt, encrypt } from '../../secrets.ts';
import { emit } from '../events/service.ts';

export type Account = typeof accounts.$inferSelect;
export type AccountStatus = 'connected' | 'expired' | 'disconnected';

export function renderAccount(a: Account) {
  return {
    id: a.id,
    profile_id: a.profileId,
    platform: a.platform,
    platform_user_id: a.platformUserId,
    username: a.username,
    display_name: a.displayName,
    avatar_url: a.avatarUrl,
    status: a.status,
    permissions: a.scopes,
    connected_at: a.connectedAt.toISOString(),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

/** The columns a token grant sets (encrypted where secret). */
export function tokenColumns(secretKey: Buffer, tokens: TokenSet, issuedAt: Date) {
  return {
    accessTokenSealed: encrypt(secretKey, tokens.accessToken),
    tokenExpiresAt: tokens.expiresAt,
    tokenIssuedAt: issuedAt,
    ...(tokens.refreshToken !== undefined
      ? {
          refreshTokenSealed: encrypt(secretKey, tokens.refreshToken),
          refreshExpiresAt: tokens.refreshExpiresAt ?? null,
        }
      : {}),
  };
}

/**
 * Stores a connected account in `profileId`, or replaces the tokens and profile of the
 * owner's existing row for that platform account (which stays in its profile: moving is
 * the caller's decision). Answers the row and whether it existed before.
 */
export async function saveConnectedAccount(
  tx: Tx,
  secretKey: Buffer,
  values: { ownerId: string; profileId: string; platform: Platform; tokens: TokenSet; profile: PlatformProfile },
): Promise<{ account: Account; existed: boolean }> {
  const at = now();
  const profileColumns = {
    username: values.profile.username,
    displayName: values.profile.name,
    avatarUrl: values.profile.avatarUrl,
  };
  const state = {
    status: 'connected',
    scopes: values.tokens.scopes,
    ...tokenColumns(secretKey, values.tokens, at),
    refreshRetryAt: null,
    refreshFailures: 0,
    lastRefreshError: null,
  };
  const [existing] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.ownerId, values.ownerId),
        eq(accounts.platform, values.platform),
        eq(accounts.platformUserId, values.tokens.platformUserId),
      ),
    )
    .for('update');
  if (existing) {
    const [account] = await tx
      .update(accounts)
      .set({ ...profileColumns, ...state, connectedAt: at, updatedAt: at })
      .where(eq(accounts.id, existing.id))
      .returning();
    return { account: account as Account, existed: true };
  }
  const [account] = await tx
    .insert(accounts)
    .values({
      id: newId('account'),
      ownerId: values.ownerId,
      profileId: values.profileId,
      platform: values.platform,
      platformUserId: values.tokens.platformUserId,
      ...profileColumns,
      ...state,
      connectedAt: at,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return { account: account as Account, existed: false };
}

/** What an adapter needs to act as the account. */
export function credentialsOf(secretKey: Buffer, account: Account): AccountCredentials {
  // A disconnected account's token is deleted; nothing may act as it until it is reconnected.
  if (account.accessTokenSealed === null) {
    throw new PlatformError('token_expired', `account ${account.id} is disconnected: reconnect it first`, {
      platform: account.platform as Platform,
    });
  }
  return { platformUserId: account.platformUserId, accessToken: decrypt(secretKey, account.accessTokenSealed) };
}

/**
 * Marks a connected account expired (it must be reconnected) or disconnected, and emits
 * `account.expired` / `account.disconnected`; does nothing when it is no longer connected.
 */
export async function endAccountAccess(
  tx: Tx,
  accountId: string,
  status: Exclude<AccountStatus, 'connected'>,
  reason: string,
): Promise<Account | null> {
  const [account] = await tx
    .update(accounts)
    .set({ status, lastRefreshError: reason, refreshRetryAt: null, updatedAt: now() })
    .where(and(eq(accounts.id, accountId), eq(accounts.status, 'connected')))
    .returning();
  if (!account) return null;
  await emit(tx, {
    ownerId: account.ownerId,
    profileId: account.profileId,
    type: status === 'expired' ? 'account.expired' : 'account.disconnected',
    data: { account: renderAccount(account) },
  });
  return account;
}
