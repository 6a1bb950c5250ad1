/**
 * The account's own values of the options a post names where its platform lists them (a
 * definition's `listedOptions`: Pinterest's `board_id`, one of the account's boards), read from
 * the platform for the checks of a new or changed post (validation.ts).
 *
 * They are read before the post's transaction, never in it: a platform may take seconds to
 * answer, and a read refused for an ended token refreshes it, which locks the account's row for
 * update while the transaction holds it FOR SHARE until it ends: the two would wait for each
 * other. What one request read is kept for that request (the memo below): each account's values
 * are read once however often its checks run.
 */
import type { Db } from '../../db/connection.ts';
import type { Scope } from '../../http/scope.ts';
import { PLATFORMS, type Platform, type PlatformSet } from '../../platforms/index.ts';
import { type ListedValues, readListedValues } from '../accounts/index.ts';
import type { PlatformsJson } from './json.ts';
import { listedOptionValues } from './options.ts';

export interface ListedValueDeps {
  db: Db;
  platforms: () => PlatformSet;
  secretKey: Buffer;
}

/**
 * Thrown by the checks when an account's values were not read for what they check: the post
 * changed between the read and the transaction (another PATCH gave it other accounts or
 * options, an account was reconnected meanwhile). The caller reads them and checks again.
 */
export class ListedValuesUnread extends Error {
  constructor(
    readonly accountIds: readonly string[],
    readonly options: PlatformsJson,
  ) {
    super('listed option values were not read for the post as checked');
  }
}

/** The values one request read, by account and option. */
export class ListedValueMemo {
  private readonly values = new Map<string, Map<string, ListedValues>>();
  private readAgain = true;

  constructor(
    private readonly deps: ListedValueDeps,
    private readonly scope: Scope,
  ) {}

  /** Reads the values a post on `accountIds` with `options` names that are not read yet. */
  async read(accountIds: readonly string[], options: PlatformsJson): Promise<void> {
    const named = new Map(PLATFORMS.map((p) => [p, [...listedOptionValues(options, p).keys()]]));
    const unread = accountIds.filter((id) => !this.values.has(id));
    const wanted = (platform: Platform) => named.get(platform) ?? [];
    if (unread.length === 0 || [...named.values()].every((o) => o.length === 0)) return;
    const read = await readListedValues(
      { db: this.deps.db, secretKey: this.deps.secretKey, platforms: this.deps.platforms() },
      this.scope,
      unread,
      wanted,
    );
    for (const [accountId, byOption] of read) this.values.set(accountId, byOption);
  }

  /**
   * The account's values of `option` as read; `undefined` when they were not read, and may be
   * (the checks then throw ListedValuesUnread); `null` when they were not read and will not be
   * in this request (the post changed again after they were read once more): the value is then
   * left unchecked.
   */
  valuesOf(accountId: string, option: string): ListedValues | undefined | null {
    const read = this.values.get(accountId)?.get(option);
    if (read !== undefined) return read;
    return this.readAgain ? undefined : null;
  }

  /**
   * Runs `check` (a transaction whose checks look the values up here), and once more after
   * reading what it found unread; what is unread then too (the post changed again meanwhile)
   * is left unchecked rather than read without end.
   */
  async untilRead<T>(check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (!(error instanceof ListedValuesUnread)) throw error;
      for (const id of error.accountIds) this.values.delete(id);
      await this.read(error.accountIds, error.options);
    }
    this.readAgain = false;
    return await check();
  }
}
