/**
 * Reads of accounts: which the caller sees (the owner's, its profile's when scoped, never of a
 * profile being deleted), and what other modules ask of accounts through index.ts (accounts to
 * post on or sync, connected accounts for periodic work, one account by id, beside their own
 * figures, or by platform user).
 */
import { and, asc, eq, inArray, notInArray, type Placeholder, type SQL, sql, type WithSubquery } from 'drizzle-orm';
import { appendTo } from '../../append-to.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import {
  executeOneOf,
  executePreparedByText,
  executeShaped,
  oneOfPart,
  oneOfPlaceholders,
  preparedOutsideTransactions,
  preparedPerDb,
  valuesOf,
} from '../../db/prepared.ts';
import { rowAsValue } from '../../db/row-json.ts';
import { ApiError } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { looksLikeId } from '../../ids.ts';
import type { Platform } from '../../platforms/index.ts';
import { findProfile, profilesBeingDeleted } from '../profiles/index.ts';
import { type Account, type AccountStatus, accounts } from './tables.ts';

/**
 * The accounts the caller may see: the owner's, only its profile's when scoped, and never
 * one whose profile is being deleted (it is gone with the profile for every caller).
 */
export async function visible(db: Queryable, scope: Pick<Scope, 'ownerId' | 'profileId'>): Promise<SQL | undefined> {
  return and(
    eq(accounts.ownerId, scope.ownerId),
    scope.profileId === null ? undefined : eq(accounts.profileId, scope.profileId),
    notInArray(accounts.profileId, await profilesBeingDeleted(db, scope.ownerId)),
  );
}

/** The account `id` names if `scope` (an owner, and its profile or none) sees it, else undefined; locked FOR UPDATE when asked. */
export async function visibleRow(
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
export async function visibleAccounts(
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

/** What a profile's report shows of an account, and reads its figures by: never its tokens. */
export type ReportedAccount = Pick<
  Account,
  'id' | 'platform' | 'platformUserId' | 'username' | 'displayName' | 'status' | 'scopes'
>;

/** Every account of a profile, whatever its status, oldest first: what a profile's report covers. */
export async function accountsOfProfile(
  db: Queryable,
  profile: { ownerId: string; id: string },
): Promise<ReportedAccount[]> {
  return await db
    .select({
      id: accounts.id,
      platform: accounts.platform,
      platformUserId: accounts.platformUserId,
      username: accounts.username,
      displayName: accounts.displayName,
      status: accounts.status,
      scopes: accounts.scopes,
    })
    .from(accounts)
    .where(and(eq(accounts.ownerId, profile.ownerId), eq(accounts.profileId, profile.id)))
    .orderBy(asc(accounts.id));
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
  const [row] = await executePreparedByText(db, (handle) =>
    handle
      .select()
      .from(accounts)
      .where(and(eq(accounts.id, id), eq(accounts.status, 'connected'))),
  );
  if (!row) return null;
  return (await findProfile(db, row.ownerId, row.profileId)) ? row : null;
}

/** What a row naming an account shows of it now: enough to tell what the account can do. */
export interface AccountState {
  id: string;
  platform: Platform;
  /** Who the account is on its platform: what an action needs may differ by account (ScopePolicy.forAccount). */
  platformUserId: string;
  status: AccountStatus;
  scopes: string[];
}

/** The columns of an account's state, as AccountState names them. */
const STATE = {
  id: accounts.id,
  platform: accounts.platform,
  platformUserId: accounts.platformUserId,
  status: accounts.status,
  scopes: accounts.scopes,
};

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
      .select({ ...STATE, profileId: accounts.profileId, ...beside })
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
  const rows = await executeOneOf(accountStatesStatements(db), ids);
  return new Map(rows.map((r) => [r.id, r]));
}

/** A page of one account's comments reads its state with the one-id statement, whose plan is kept (oneOf). */
const accountStatesStatements = preparedPerDb((db) => {
  const idIs = oneOfPlaceholders(accounts.id);
  const read = (condition: SQL, name: string) => db.select(STATE).from(accounts).where(condition).prepare(name);
  return { one: read(idIs.one, 'account_state'), many: read(idIs.many, 'account_states') };
});

/** Every owner's account of each of these platform users that is not disconnected, by platform user (a platform notice names only the user). */
export async function accountsOfPlatformUsers(
  db: Queryable,
  platform: Platform,
  platformUserIds: readonly string[],
): Promise<Map<string, Account[]>> {
  const found = new Map<string, Account[]>();
  if (platformUserIds.length === 0) return found;
  // Built once per shape (oneOfPart: two for any number of users): every batch of notices asks it.
  const users = oneOfPart(accounts.platformUserId, platformUserIds, 'platform_user_ids');
  const rows = await executeShaped(
    db,
    `accounts of platform users, ${users.shape}`,
    (handle) =>
      handle
        .select()
        .from(accounts)
        .where(
          and(eq(accounts.platform, sql.placeholder('platform')), users.sql, sql`${accounts.status} <> 'disconnected'`),
        ),
    valuesOf(users, { values: { platform } }),
  );
  for (const row of rows) appendTo(found, row.platformUserId, row);
  return found;
}

/** What an `accountBesideReader` answers: the account (null: none), and each subquery's value. */
type AccountWith<Beside extends Record<string, SQL>> = { account: Account | null } & {
  [K in keyof Beside]: Beside[K] extends SQL<infer T> ? T : never;
};

/**
 * A read, in one prepared statement, of the account `accountId` names (whoever owns it; an SQL
 * expression over the caller's own tables, with placeholders of its own) and, beside it, the
 * caller's subqueries, as visibleAccountReader reads them: for background work that reads an
 * account with the row that names it, one round trip where two were. Always one answer; its
 * account is null when `accountId` names none. The caller's `ctes` (its own change, made in the
 * same statement) come first; the account and the subqueries read the statement's snapshot.
 */
export function accountBesideReader<Beside extends Record<string, SQL>>(
  name: string,
  accountId: SQL,
  beside: Beside,
  ctes?: (db: Db) => readonly WithSubquery[],
): (db: Db, values: Record<string, unknown>) => Promise<AccountWith<Beside>> {
  const statement = preparedPerDb((db) =>
    db
      .with(...(ctes?.(db) ?? []))
      .select({ account: rowAsValue(accounts, eq(accounts.id, accountId)), ...beside })
      .from(sql`(select) as one`)
      .prepare(name),
  );
  return async (db, values) => {
    const [row] = await statement(db).execute(values);
    return row as AccountWith<Beside>;
  };
}

/** The account with this id, whoever owns it, locked FOR SHARE when asked: for background work that holds only an id. */
export async function accountById(db: Queryable, id: string, lock?: 'share'): Promise<Account | null> {
  // Every step of a publication and of a reply reads its account: prepared, where it can be.
  const prepared = lock === undefined ? accountByIdStatement(db) : undefined;
  if (prepared !== undefined) return (await prepared.execute({ id }))[0] ?? null;
  const [row] = await executeShaped(
    db,
    lock === undefined ? 'account by id' : `account by id, locked for ${lock}`,
    (handle) => {
      const query = accountWithId(handle, sql.placeholder('id'));
      return lock === undefined ? query : query.for(lock);
    },
    { id },
  );
  return row ?? null;
}

/**
 * The accounts with these ids, whoever owns them, locked FOR SHARE in the order of their ids (the
 * order every storing of several accounts takes), by id: for background work that stores for
 * several accounts at once, one statement for all of them rather than one each.
 */
export async function accountsByIdsLocked(tx: Tx, ids: readonly string[]): Promise<Map<string, Account>> {
  if (ids.length === 0) return new Map();
  const idIs = oneOfPart(accounts.id, ids, 'ids');
  const rows = await executeShaped(
    tx,
    `accounts by ids, locked for share, ${idIs.shape}`,
    (handle) => handle.select().from(accounts).where(idIs.sql).orderBy(asc(accounts.id)).for('share'),
    idIs.values,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

function accountWithId(db: Queryable, id: string | Placeholder) {
  return db.select().from(accounts).where(eq(accounts.id, id));
}

const accountByIdStatement = preparedOutsideTransactions((db) =>
  accountWithId(db, sql.placeholder('id')).prepare('account_by_id'),
);

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
