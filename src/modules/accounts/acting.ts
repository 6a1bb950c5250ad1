/**
 * Acting as an account on its platform. Every call made with an account's token goes through
 * actAsAccount, so what a refused token means is decided in one place: a call refused for an
 * ended token (`token_expired`) is tried once more with a refreshed token before anything is
 * decided of the account. An access token that lapsed while the platform refused refreshes for a
 * while thus does not end an account whose refresh token still works; the account ends only when
 * the refresh itself is refused for good (or the retried call is refused again).
 */
import type { BaseLogger } from 'pino';
import type { Db } from '../../db/connection.ts';
import { platformFailure } from '../../http/platform-errors.ts';
import {
  type AccountCredentials,
  type PlatformAdapter,
  PlatformError,
  type PlatformSet,
} from '../../platforms/index.ts';
import { noteAccountFailure } from './access.ts';
import { credentialsOf } from './connections.ts';
import type { Account } from './tables.ts';
import { adapterOfAccount, renewAccess } from './token-refresh.ts';

export interface ActingDeps {
  db: Db;
  secretKey: Buffer;
  /** The adapters: the account's token is refreshed with the app that connected it (adapterOfAccount). */
  platforms: PlatformSet;
}

/**
 * Runs `call` with the account's credentials and the adapter of the app that connected it (the
 * owner's own, or the deployment's; an owner's app since deleted or replaced is `token_expired`
 * at once); on a `token_expired` refusal, once more with the
 * credentials a refresh (or a refresh made meanwhile) gave. Throws what the call (or the refresh)
 * threw otherwise: the caller hands a PlatformError to noteAccountFailure as before.
 */
export async function actAsAccount<T>(
  deps: ActingDeps,
  account: Account,
  call: (credentials: AccountCredentials, adapter: PlatformAdapter) => Promise<T>,
): Promise<T> {
  const credentials = credentialsOf(deps.secretKey, account);
  const adapter = await adapterOfAccount(deps, deps.db, account);
  try {
    return await call(credentials, adapter);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== 'token_expired') throw error;
    const renewed = await renewAccess(deps, account.id, credentials.accessToken);
    if (renewed === null) throw error;
    return await call(renewed, adapter);
  }
}

/**
 * actAsAccount, a platform's refusal noted on the account where it concerns it
 * (noteAccountFailure: an ended token, a revoked access, a missing permission) and answered
 * instead of thrown, for the caller to decide what it means for its own work.
 */
export async function actAsAccountNoting<T>(
  deps: ActingDeps,
  account: Account,
  call: (credentials: AccountCredentials, adapter: PlatformAdapter) => Promise<T>,
): Promise<{ done: T } | { refused: PlatformError }> {
  try {
    return { done: await actAsAccount(deps, account, call) };
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    await deps.db.transaction((tx) => noteAccountFailure(tx, account.id, error, account.connectedAt));
    return { refused: error };
  }
}

/**
 * actAsAccount for a request a person made: a platform's refusal marks the account where it
 * concerns it (noteAccountFailure), is logged as `refused` with the account and the refusal, and
 * is answered as the API answers a platform's refusal (platformFailure).
 */
export async function actAsAccountAnswering<T>(
  deps: ActingDeps & { log: Pick<BaseLogger, 'warn'> },
  account: Account,
  refused: string,
  call: (credentials: AccountCredentials, adapter: PlatformAdapter) => Promise<T>,
): Promise<T> {
  const answer = await actAsAccountNoting(deps, account, call);
  if ('done' in answer) return answer.done;
  const error = answer.refused;
  deps.log.warn({ account_id: account.id, platform: account.platform, kind: error.kind, err: error.message }, refused);
  throw platformFailure(error);
}
