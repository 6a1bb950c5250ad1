/**
 * Storing a connection: a new account with its tokens (encrypted) and platform profile, or an
 * existing one reconnected (the access workflow's `reconnect`); which stored account a login is
 * of; and the credentials an adapter acts as the account with.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Tx } from '../../db/connection.ts';
import { newId } from '../../ids.ts';
import { stateValues, transition } from '../../jobs/workflow.ts';
import {
  type AccountCredentials,
  type GrantedTokenSet,
  type Platform,
  PlatformError,
  type PlatformProfile,
  type TokenSet,
} from '../../platforms/index.ts';
import { decrypt, encrypt } from '../../secrets.ts';
import { accountAccess } from './access-workflow.ts';
import { noticeSubscriptionOnConnection, queueNoticeSubscription } from './notice-connection.ts';
import { type Account, accounts } from './tables.ts';

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

/** What a successful login says of one platform account: its platform, tokens and profile. */
interface ConnectionValues {
  platform: Platform;
  tokens: GrantedTokenSet;
  profile: PlatformProfile;
  /** The owner's own app the login went through (its client id); null: the deployment's. */
  ownerAppClientId?: string | null;
}

/** The columns a connection or reconnection writes beside its state: the platform's profile, the new tokens. */
function connectionColumns(secretKey: Buffer, values: ConnectionValues, at: Date) {
  return {
    username: values.profile.username,
    displayName: values.profile.name,
    avatarUrl: values.profile.avatarUrl,
    // Kept under the id the platform names it by now (an account stored under an alias, such
    // as Instagram's app-scoped id, takes its professional account id).
    platformUserId: values.tokens.platformUserId,
    scopes: values.tokens.scopes,
    platformAliases: (values.tokens.aliases ?? []).filter((id) => id !== values.tokens.platformUserId),
    ...tokenColumns(secretKey, values.tokens, at),
    // Its tokens can be refreshed and revoked only by the app that got them.
    ownerAppClientId: values.ownerAppClientId ?? null,
    refreshRetryAt: null,
    refreshFailures: 0,
    lastRefreshError: null,
    // Every connection and reconnection subscribes the account to its comment notices again.
    ...noticeSubscriptionOnConnection(values.platform, at),
    connectedAt: at,
  };
}

/**
 * Reconnects the account row `accountId` (the caller found it, locked it and checked that the
 * login is of that platform account): new tokens and profile, `connected` again (the access
 * workflow's `reconnect`, from any state), in the same profile under the same id.
 */
export async function replaceConnection(
  tx: Tx,
  secretKey: Buffer,
  accountId: string,
  values: ConnectionValues,
): Promise<Account> {
  const at = now();
  const account = await transition(tx, accountAccess, accountId, 'reconnect', {
    set: { ...connectionColumns(secretKey, values, at), updatedAt: at },
  });
  if (!account) throw new Error('the account was not saved');
  await queueNoticeSubscription(tx, account.id, values.platform);
  return account;
}

/**
 * Stores a connected account in `profileId`, or replaces the tokens and profile of the
 * owner's existing row for that platform account (which stays in its profile: moving is
 * the caller's decision). Answers the row and whether it existed before.
 */
export async function saveConnectedAccount(
  tx: Tx,
  secretKey: Buffer,
  values: ConnectionValues & { ownerId: string; profileId: string },
): Promise<{ account: Account; existed: boolean }> {
  const [existing] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.ownerId, values.ownerId), samePlatformAccount(values.platform, [values.tokens])))
    .orderBy(sql`${accounts.platformUserId} = ${values.tokens.platformUserId} desc`)
    .limit(1)
    .for('update');
  if (existing) return { account: await replaceConnection(tx, secretKey, existing.id, values), existed: true };
  const at = now();
  const [account] = await tx
    .insert(accounts)
    .values({
      id: newId('account'),
      ownerId: values.ownerId,
      profileId: values.profileId,
      platform: values.platform,
      status: 'connected',
      ...stateValues(accountAccess, 'connected'),
      ...connectionColumns(secretKey, values, at),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!account) throw new Error('the account was not saved');
  await queueNoticeSubscription(tx, account.id, values.platform);
  return { account, existed: false };
}

/**
 * True when a login's tokens are of the platform account `account` is: the id the platform
 * gives it now, or another id it gives the same account (Instagram's app-scoped one), on
 * either side.
 */
export function grantIsOf(account: Account, tokens: Pick<GrantedTokenSet, 'platformUserId' | 'aliases'>): boolean {
  const known = new Set([account.platformUserId, ...account.platformAliases]);
  return [tokens.platformUserId, ...(tokens.aliases ?? [])].some((id) => known.has(id));
}

/**
 * The owner's rows of these platform accounts: stored under the id the platform gives now, or
 * under one of the other ids it gives the same account (an account connected before the
 * service kept Instagram's professional account id was stored under its app-scoped id).
 */
export function samePlatformAccount(
  platform: Platform,
  grants: readonly Pick<GrantedTokenSet, 'platformUserId' | 'aliases'>[],
): SQL | undefined {
  const ids = [...new Set(grants.flatMap((g) => [g.platformUserId, ...(g.aliases ?? [])]))];
  return and(eq(accounts.platform, platform), inArray(accounts.platformUserId, ids));
}

/** What an adapter needs to act as the account. */
export function credentialsOf(secretKey: Buffer, account: Account): AccountCredentials {
  // A disconnected account's token is deleted; nothing may act as it until it is reconnected.
  if (account.accessTokenSealed === null) {
    throw new PlatformError('token_expired', `account ${account.id} is disconnected: reconnect it first`, {
      platform: account.platform,
    });
  }
  return { platformUserId: account.platformUserId, accessToken: decrypt(secretKey, account.accessTokenSealed) };
}
