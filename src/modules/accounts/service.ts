/**
 * What the /v1/accounts endpoints do: list, get, disconnect, and move an account to another
 * profile (with the checks and steps other modules register for a move).
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import { now } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/connection.ts';
import { ApiError, errors } from '../../http/errors.ts';
import type { Scope } from '../../http/scope.ts';
import { transition } from '../../jobs/workflow.ts';
import type { Platform } from '../../platforms/index.ts';
import { startupRegistry } from '../../registry.ts';
import { emit } from '../events/index.ts';
import { findProfile } from '../profiles/index.ts';
import { accessEndedData, TOKENS_DELETED } from './access.ts';
import { accountAccess } from './access-workflow.ts';
import { visible, visibleRow } from './readers.ts';
import { type Account, type AccountStatus, accounts } from './tables.ts';

function accountNotFound(id: string): ApiError {
  return new ApiError(404, 'account_not_found', `No account ${JSON.stringify(id)}.`);
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

export async function getAccount(db: Queryable, scope: Scope, id: string): Promise<Account> {
  return await findVisible(db, scope, id, false);
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
