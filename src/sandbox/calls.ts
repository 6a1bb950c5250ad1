/**
 * The calls the imitated platform APIs received, per account: what a platform counts against
 * its rate limits, so tests and benches can tell how many calls the service made. Kept in
 * the sandbox process's memory (cheap enough for thousands of calls a second): a counter that
 * never caps, and the last KEPT_PER_ACCOUNT calls, so a long-running `npm start` stays bounded.
 */

/** One call as the log keeps it. */
export interface LoggedCall {
  method: string;
  /** The path after the sandbox's mount, host included: `/graph.instagram.com/v27.0/{id}/insights`. */
  path: string;
  /** The query string's parameters, without the secrets (`access_token`, `client_secret`). */
  query: Record<string, unknown>;
  at: Date;
}

/** How many calls of each account are kept to be listed (the count goes on beyond them). */
export const KEPT_PER_ACCOUNT = 1_000;

/** Query parameters a log must not repeat: whoever reads the control API would read live credentials. */
const SECRET_PARAMETERS = new Set(['access_token', 'client_secret']);

/** One account's calls: the count since the start (or the last reset), and the latest ones in a ring. */
class AccountCalls {
  count = 0;
  private readonly kept: LoggedCall[] = [];
  /** Where the next call goes once the ring is full: the oldest kept one. */
  private oldest = 0;

  add(call: LoggedCall): void {
    this.count += 1;
    if (this.kept.length < KEPT_PER_ACCOUNT) {
      this.kept.push(call);
      return;
    }
    this.kept[this.oldest] = call;
    this.oldest = (this.oldest + 1) % KEPT_PER_ACCOUNT;
  }

  /** The kept calls, oldest first. */
  entries(): LoggedCall[] {
    return [...this.kept.slice(this.oldest), ...this.kept.slice(0, this.oldest)];
  }
}

export class CallLog {
  private readonly accounts = new Map<string, AccountCalls>();
  private readonly platforms = new Map<string, number>();
  /** The path the sandbox is mounted at (`/sandbox`), left out of the logged paths. */
  private mount = '';

  /** Where the sandbox is mounted, so logged paths read as the platform's own (host first). */
  mountedAt(prefix: string): void {
    this.mount = prefix.replace(/\/+$/, '');
  }

  /** A call to `platform` with a token of `accountId`, made `at` (the sandbox's clock, which tests move). */
  record(
    platform: string,
    accountId: string,
    request: { method: string; url: string; query: unknown },
    at: Date,
  ): void {
    const [rawPath = ''] = request.url.split('?');
    const path = this.mount !== '' && rawPath.startsWith(`${this.mount}/`) ? rawPath.slice(this.mount.length) : rawPath;
    const query: Record<string, unknown> = {};
    if (request.query !== null && typeof request.query === 'object') {
      for (const [name, value] of Object.entries(request.query)) {
        if (!SECRET_PARAMETERS.has(name)) query[name] = value;
      }
    }
    let calls = this.accounts.get(accountId);
    if (calls === undefined) {
      calls = new AccountCalls();
      this.accounts.set(accountId, calls);
    }
    calls.add({ method: request.method, path, query, at });
    this.platforms.set(platform, (this.platforms.get(platform) ?? 0) + 1);
  }

  /** The account's calls: every one counted, and the kept ones oldest first. */
  of(accountId: string): { count: number; kept: LoggedCall[] } {
    const calls = this.accounts.get(accountId);
    return calls === undefined ? { count: 0, kept: [] } : { count: calls.count, kept: calls.entries() };
  }

  /** Every call counted, in all and per platform. */
  totals(): { total: number; byPlatform: Map<string, number> } {
    let total = 0;
    for (const n of this.platforms.values()) total += n;
    return { total, byPlatform: new Map(this.platforms) };
  }

  reset(): void {
    this.accounts.clear();
    this.platforms.clear();
  }
}
