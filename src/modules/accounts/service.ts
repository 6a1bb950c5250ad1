/**
 * Connected platform accounts: storing one with its tokens (encrypted), reading its
 * credentials for an adapter call, marking it expired or disconnected (with the event),
 * and what the /v1/accounts endpoints do: list, get, disconnect, move to another profile.
 */
import { and, asc, eq, gt, inArray, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { appendTo } from '../../append-to.ts';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId, newId } from '../../ids.ts';
import { stateValues, transition } from '../../jobs/workflow.ts';
import {
  type AccountCredentials,
  type GrantedTokenSet,
  type Platform,
  PlatformError,
  type PlatformProfile,
  type TokenSet,
} from '../../platforms/index.ts';
import { startupRegistry } from '../../registry.ts';
import { decrypt, encrypt } from '../../secrets.ts';
import { emit } from '../events/index.ts';
import { findProfile, profilesBeingDeleted } from '../profiles/index.ts';
import { accountAccess } from './access-workflow.ts';
import { renderAccount, renderRisk } from './json.ts';
import { noticeSubscriptionOnConnection, queueNoticeSubscription } from './notice-connection.ts';
import { postsAtRiskOf } from './posts-at-risk.ts';
import { type Account, type AccountStatus, accounts } from './tables.ts';

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

const TOKENS_DELETED = {
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

function accountNotFound(id: string): ApiError {
  return new ApiError(404, 'account_not_found', `No account ${JSON.stringify(id)}.`);
}

/**
 * The accounts the caller may see: the owner's, only its profile's when scoped, and never
 * one whose profile is being deleted (it is gone with the profile for every caller).
 */
async function visible(db: Queryable, scope: Pick<Scope, 'ownerId' | 'profileId'>): Promise<SQL | undefined> {
  return and(
    eq(accounts.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(accounts.profileId, scope.profileId),
    notInArray(accounts.profileId, await profilesBeingDeleted(db, scope.ownerId)),
  );
}

/** A page (`limit + 1` rows, by id) of the accounts the caller sees, optionally filtered. */
export async function listAccounts(
  db: Db,
  scope: Scope,
  query: {
    platform?: Platform | undefined;
    status?: AccountStatus | undefined;
    limit: number;
    after?: string | undefined;
  },
): Promise<Account[]> {
  return await db
    .select()
    .from(accounts)
    .where(
      and(
        await visible(db, scope),
        query.platform === undefined ? undefined : eq(accounts.platform, query.platform),
        query.status === undefined ? undefined : eq(accounts.status, query.status),
        query.after === undefined ? undefined : gt(accounts.id, query.after),
      ),
    )
    .orderBy(asc(accounts.id))
    .limit(query.limit + 1);
}

/** The account `id` names, if the caller may see it; locked FOR UPDATE when asked (in a transaction). */
async function findVisible(db: Queryable, scope: Scope, id: string, lock: boolean): Promise<Account> {
  const row = await visibleRow(db, scope, id, lock);
  if (!row) throw accountNotFound(id);
  return row;
}

async function visibleRow(
  db: Queryable,
  scope: Pick<Scope, 'ownerId' | 'profileId'>,
  id: string,
  lock: boolean,
): Promise<Account | undefined> {
  // Not shaped like an account id: it names nothing, and the database need not be asked.
  if (!looksLikeId('account', id)) return undefined;
  const query = db
    .select()
    .from(accounts)
    .where(and(await visible(db, scope), eq(accounts.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/**
 * The accounts among `ids` the caller sees, locked FOR SHARE in the caller's transaction: a
 * post naming them is checked and stored against their profile and status as they are, since
 * a move or disconnection (FOR UPDATE) waits until that transaction ends. Ids the caller does
 * not see (or that name nothing) are left out.
 */
export async function lockAccountsForPosting(tx: Tx, scope: Scope, ids: readonly string[]): Promise<Account[]> {
  const wellFormed = ids.filter((id) => looksLikeId('account', id));
  if (wellFormed.length === 0) return [];
  return await tx
    .select()
    .from(accounts)
    .where(and(await visible(tx, scope), inArray(accounts.id, wellFormed)))
    .orderBy(asc(accounts.id))
    .for('share');
}

/** The accounts the caller sees, optionally only these ids or platforms (unlocked reads). */
async function visibleAccounts(
  db: Queryable,
  scope: Scope,
  filter: { ids?: readonly string[]; platforms?: readonly Platform[] } = {},
): Promise<Account[]> {
  const ids = filter.ids?.filter((id) => looksLikeId('account', id));
  if (ids?.length === 0 || filter.platforms?.length === 0) return [];
  return await db
    .select()
    .from(accounts)
    .where(
      and(
        await visible(db, scope),
        ids === undefined ? undefined : inArray(accounts.id, ids),
        filter.platforms === undefined ? undefined : inArray(accounts.platform, [...filter.platforms]),
      ),
    )
    .orderBy(asc(accounts.id));
}

/**
 * The accounts a manual sync names, in the order named, or (none named) every connected one
 * on `platforms` the caller sees. Refuses the whole request, queuing nothing: 404
 * `account_not_found` for ids the caller does not see, `refuseUnsupported` for accounts of
 * other platforms, 409 `account_not_connected` for expired or disconnected ones.
 */
export async function accountsToSync(
  db: Queryable,
  scope: Scope,
  accountIds: readonly string[] | undefined,
  platforms: readonly Platform[],
  refuseUnsupported: (unsupported: [Account, ...Account[]]) => ApiError,
): Promise<Account[]> {
  if (accountIds === undefined) {
    const all = await visibleAccounts(db, scope, { platforms });
    return all.filter((a) => a.status === 'connected');
  }
  const found = await visibleAccounts(db, scope, { ids: accountIds });
  const byId = new Map(found.map((a) => [a.id, a]));
  const missing = accountIds.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new ApiError(404, 'account_not_found', `No account ${JSON.stringify(missing[0])}.`, { account_ids: missing });
  }
  const [first, ...more] = found.filter((a) => !platforms.includes(a.platform));
  if (first !== undefined) throw refuseUnsupported([first, ...more]);
  const notConnected = found.filter((a) => a.status !== 'connected');
  if (notConnected.length > 0) {
    throw new ApiError(
      409,
      'account_not_connected',
      `The account ${notConnected[0]?.id} is ${notConnected[0]?.status}; reconnect it first.`,
      { account_ids: notConnected.map((a) => a.id) },
    );
  }
  return accountIds.map((id) => byId.get(id) as Account);
}

/** The ids of a profile's accounts: for a module's profile deletion step. */
export async function accountIdsOfProfile(db: Queryable, profile: { ownerId: string; id: string }): Promise<string[]> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.ownerId, profile.ownerId), eq(accounts.profileId, profile.id)));
  return rows.map((r) => r.id);
}

/** The connected accounts on these platforms (id, connected_at) in live profiles, for periodic work over all owners. */
export async function connectedAccounts(
  db: Queryable,
  platforms: readonly Platform[],
): Promise<{ id: string; connectedAt: Date }[]> {
  if (platforms.length === 0) return [];
  // A profile being deleted is gone for background work too: reading its accounts would call
  // the platforms (and store data) for a client the owner asked to forget.
  const deleting = await profilesBeingDeleted(db);
  return await db
    .select({ id: accounts.id, connectedAt: accounts.connectedAt })
    .from(accounts)
    .where(
      and(
        eq(accounts.status, 'connected'),
        inArray(accounts.platform, [...platforms]),
        notInArray(accounts.profileId, deleting),
      ),
    );
}

/**
 * The account with this id if it is connected and its profile is not being deleted, else
 * null: for background work that is about to call the platform for it.
 */
export async function connectedAccountById(db: Queryable, id: string): Promise<Account | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), eq(accounts.status, 'connected')));
  if (!row) return null;
  return (await findProfile(db, row.ownerId, row.profileId)) ? row : null;
}

/** What a row naming an account shows of it now: enough to tell what the account can do. */
export interface AccountState {
  id: string;
  platform: Platform;
  status: AccountStatus;
  scopes: string[];
}

/** What a `visibleAccountReader` answers: the account's state, and each subquery's value. */
type AccountBeside<Beside extends Record<string, SQL>> = AccountState & { profileId: string } & {
  [K in keyof Beside]: Beside[K] extends SQL<infer T> ? T : never;
};

/**
 * A read, in one prepared statement, of the account `id` names (if the caller may see it) and,
 * beside it, another module's subqueries over that module's own tables: the accounts module
 * reads its table, the caller's module its own, and neither names the other's. A subquery
 * refers to the account by the placeholder `id` and may have placeholders of its own; `ownerId`,
 * `profileId` and `deleting` are the read's. Null when the caller may not see the account.
 */
export function visibleAccountReader<Beside extends Record<string, SQL>>(
  name: string,
  beside: Beside,
): (
  db: Db,
  scope: Scope,
  id: string,
  values?: Record<string, unknown> & { ownerId?: never; profileId?: never; deleting?: never },
) => Promise<AccountBeside<Beside> | null> {
  const statement = preparedPerDb((db) => {
    const profileId = sql.placeholder('profileId');
    return db
      .select({
        id: accounts.id,
        profileId: accounts.profileId,
        platform: accounts.platform,
        status: accounts.status,
        scopes: accounts.scopes,
        ...beside,
      })
      .from(accounts)
      .where(
        and(
          eq(accounts.id, sql.placeholder('id')),
          eq(accounts.ownerId, sql.placeholder('ownerId')),
          // A profile key sees its profile's accounts; an owner key (no profile) sees them all.
          sql`(${profileId}::text is null or ${accounts.profileId} = ${profileId})`,
          sql`${accounts.profileId} <> all(${sql.placeholder('deleting')}::text[])`,
        ),
      )
      .prepare(name);
  });
  return async (db, scope, id, values = {}) => {
    if (!looksLikeId('account', id)) return null;
    const deleting = await profilesBeingDeleted(db, scope.ownerId);
    const [row] = await statement(db).execute({
      ...values,
      id,
      ownerId: scope.ownerId,
      profileId: scope.profileId,
      deleting,
    });
    return (row as AccountBeside<Beside> | undefined) ?? null;
  };
}

/** What each of these accounts (whoever owns it) allows now, by id: for a module that lists rows keyed by account. */
export async function accountStates(db: Db, ids: readonly string[]): Promise<Map<string, AccountState>> {
  if (ids.length === 0) return new Map();
  const rows = await accountStatesStatement(db).execute({ ids: [...new Set(ids)] });
  return new Map(rows.map((r) => [r.id, r]));
}

const accountStatesStatement = preparedPerDb((db) =>
  db
    .select({ id: accounts.id, platform: accounts.platform, status: accounts.status, scopes: accounts.scopes })
    .from(accounts)
    .where(sql`${accounts.id} = any(${sql.placeholder('ids')}::text[])`)
    .prepare('account_states'),
);

/** Every owner's account of each of these platform users that is not disconnected, by platform user (a platform notice names only the user). */
export async function accountsOfPlatformUsers(
  db: Queryable,
  platform: Platform,
  platformUserIds: readonly string[],
): Promise<Map<string, Account[]>> {
  const found = new Map<string, Account[]>();
  if (platformUserIds.length === 0) return found;
  const rows = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.platform, platform),
        inArray(accounts.platformUserId, [...new Set(platformUserIds)]),
        sql`${accounts.status} <> 'disconnected'`,
      ),
    );
  for (const row of rows) appendTo(found, row.platformUserId, row);
  return found;
}

/** The account with this id, whoever owns it, locked FOR SHARE when asked: for background work that holds only an id. */
export async function accountById(db: Queryable, id: string, lock?: 'share'): Promise<Account | null> {
  const query = db.select().from(accounts).where(eq(accounts.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

export async function getAccount(db: Queryable, scope: Scope, id: string): Promise<Account> {
  return await findVisible(db, scope, id, false);
}

/**
 * The owner's account `id` while it is in `profileId` and that profile is not being deleted,
 * else null (moved to another profile, or gone with its profile); locked FOR UPDATE when asked:
 * what a reconnect link made for that account in that profile may still reconnect.
 */
export async function accountInProfile(
  db: Queryable,
  place: { ownerId: string; profileId: string },
  id: string,
  lock?: 'update',
): Promise<Account | null> {
  return (await visibleRow(db, place, id, lock === 'update')) ?? null;
}

/**
 * Disconnects an account: it becomes `disconnected`, its tokens are deleted (nothing may
 * act as it until it is reconnected), and `account.disconnected` is emitted in the same
 * transaction. An account already disconnected is answered as it is, with no second event.
 */
export async function disconnectAccount(db: Db, scope: Scope, id: string): Promise<Account> {
  return await db.transaction(async (tx) => {
    const account = await findVisible(tx, scope, id, true);
    if (account.status === 'disconnected') return account;
    const updated = await transition(tx, accountAccess, account.id, 'disconnect', {
      set: { ...TOKENS_DELETED, refreshRetryAt: null, refreshFailures: 0, lastRefreshError: null },
    });
    if (!updated) throw new Error('the locked account row was not updated');
    await emit(tx, {
      ownerId: updated.ownerId,
      profileId: updated.profileId,
      type: 'account.disconnected',
      data: await accessEndedData(tx, updated),
    });
    return updated;
  });
}

/**
 * What another module may hold against moving an account to another profile (the posts
 * module: posts waiting to be published): the error to answer, or null. It runs in the
 * move's transaction, after the account's row is locked FOR UPDATE.
 */
export type AccountMoveCheck = (tx: Tx, account: Account) => Promise<ApiError | null>;

const moveChecks = startupRegistry<AccountMoveCheck>('account move checks');

export function registerAccountMoveCheck(check: AccountMoveCheck): void {
  moveChecks.register(check);
}

/**
 * What a module does, in the move's transaction, once the account is in its new profile
 * (`account` as it is now): data that names the account's profile follows it.
 */
export type AccountMoveStep = (tx: Tx, account: Account, fromProfileId: string) => Promise<void>;

const moveSteps = startupRegistry<AccountMoveStep>('account move steps');

export function registerAccountMoveStep(step: AccountMoveStep): void {
  moveSteps.register(step);
}

/**
 * Moves an account to the profile `profileRef` names (id or external_id, within the
 * owner). Comments and insights are keyed by the account, so they follow it with nothing
 * to copy; posts made through the API stay in their profile (their profile_id is not
 * touched); registered move steps carry along what names the profile (platform posts).
 * Refused with the first objection of a registered move check (the posts module's 409
 * `account_has_scheduled_posts`); the row is locked first, so nothing a check looks at can
 * change between the check and the move. Moving to the profile it is in changes nothing. No
 * event is emitted.
 */
export async function moveAccount(db: Db, scope: Scope, id: string, profileRef: string): Promise<Account> {
  const checks = moveChecks.items();
  const steps = moveSteps.items();
  return await db.transaction(async (tx) => {
    const account = await findVisible(tx, scope, id, true);
    const target = await findProfile(tx, scope.ownerId, profileRef);
    if (!target) throw errors.profileNotFound(profileRef);
    if (target.id === account.profileId) return account;
    for (const check of checks) {
      const objection = await check(tx, account);
      if (objection) throw objection;
    }
    const [moved] = await tx
      .update(accounts)
      .set({ profileId: target.id, updatedAt: now() })
      .where(and(eq(accounts.ownerId, scope.ownerId), eq(accounts.id, account.id)))
      .returning();
    if (!moved) throw new Error('the locked account row was not updated');
    for (const step of steps) await step(tx, moved, account.profileId);
    return moved;
  });
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
   * then): a reconnection since gave new tokens, and the old one's refusal says nothing of them.
   */
  madeWith?: Date,
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
