/**
 * Acting as an account on its platform. Every call made with an account's token goes through
 * actAsAccount, so what a refused token means is decided in one place: a call refused for an
 * ended token (`token_expired`) is tried once more with a refreshed token before anything is
 * decided of the account. An access token that lapsed while the platform refused refreshes for a
 * while thus does not end an account whose refresh token still works; the account ends only when
 * the refresh itself is refused for good (or the retried call is refused again).
 */
import type { Db } from '../../db/connection.ts';
import { type AccountCredentials, type PlatformAdapter, PlatformError } from '../../platforms/index.ts';
import { credentialsOf } from './connections.ts';
import type { Account } from './tables.ts';
import { renewAccess } from './token-refresh.ts';

export interface ActingDeps {
  db: Db;
  secretKey: Buffer;
  /** The account's platform's adapter, which also refreshes its token. */
  adapter: PlatformAdapter;
}

/**
 * Runs `call` with the account's credentials; on a `token_expired` refusal, once more with the
 * credentials a refresh (or a refresh made meanwhile) gave. Throws what the call (or the refresh)
 * threw otherwise: the caller hands a PlatformError to noteAccountFailure as before.
 */
export async function actAsAccount<T>(
  deps: ActingDeps,
  account: Account,
  call: (credentials: AccountCredentials) => Promise<T>,
): Promise<T> {
  const credentials = credentialsOf(deps.secretKey, account);
  try {
    return await call(credentials);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== 'token_expired') throw error;
    const renewed = await renewAccess(deps, deps.adapter, account.id, credentials.accessToken);
    if (renewed === null) throw error;
    return await call(renewed);
  }
}
