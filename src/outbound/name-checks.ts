/**
 * The checks of host names that outbound requests share (src/outbound/http-client.ts: before every
 * request, and for every new connection). A check resolves the name and refuses it unless every
 * address is allowed; through `getaddrinfo`, each lookup holds one of libuv's four threads for a
 * round trip to the resolver, with no cache of its own. A request that made a lookup of its own
 * every time would, at an agency's rate of deliveries to many receivers, queue on those threads
 * (and hold up the file reads and other work that share them). So a request takes:
 * - the answer of the name's latest check (the last started of those that answered) if it
 *   allowed the name at most REUSE_ALLOWED_MS before;
 * - else the answer of a check still under way that started at most SHARE_UNDER_WAY_MS before
 *   it: bounded, so that one slow lookup (a lost packet waits out the resolver's timeout) holds
 *   up only the requests of its first moments;
 * - else a check of its own. A refusal is never reused: the next request checks again.
 * What a request reuses decides only whether it is sent. A new connection takes the addresses of
 * a check (`lookup`): one still under way that started at most SHARE_UNDER_WAY_MS before it, else
 * its own; never an answer that has already come. So a connection goes only to an address allowed
 * by a check that started at most SHARE_UNDER_WAY_MS before it opened, and connections opened
 * together (a burst to a receiver not yet connected opens one for each request in flight) make
 * one lookup between them rather than one each.
 */

const SHARE_UNDER_WAY_MS = 100;
const REUSE_ALLOWED_MS = 1000;
/**
 * From this many names on, those with no check under way and no allowing answer of the last
 * REUSE_ALLOWED_MS are dropped, once a REUSE_ALLOWED_MS at most.
 */
const PRUNE_AT = 512;

interface Check<T> {
  done: Promise<T>;
  startedAt: number;
}

interface Name<T> {
  /** The latest check started, while it is under way. */
  underWay?: Check<T>;
  /** The answer of the latest started check that has answered, and when it came. */
  answer?: { startedAt: number; allowed: boolean; at: number };
}

/** `T`: what a check answers when it allows the name (the addresses it allowed). */
export class SharedNameChecks<T> {
  private readonly names = new Map<string, Name<T>>();
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly check: (hostname: string) => Promise<T>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves when `hostname` is allowed; rejects with the check's error when it is not. */
  async ensure(hostname: string): Promise<void> {
    const now = this.now();
    const name = this.names.get(hostname);
    if (name !== undefined && reusable(name, now)) return;
    await this.underWayOrOwn(hostname, name, now);
  }

  /**
   * The answer of a check of `hostname` for a new connection: one under way that started at most
   * SHARE_UNDER_WAY_MS before, else one of its own; never an answer that has already come.
   */
  lookup(hostname: string): Promise<T> {
    return this.underWayOrOwn(hostname, this.names.get(hostname), this.now());
  }

  private underWayOrOwn(hostname: string, known: Name<T> | undefined, now: number): Promise<T> {
    let name = known;
    if (name?.underWay && now - name.underWay.startedAt <= SHARE_UNDER_WAY_MS) return name.underWay.done;
    if (name === undefined) {
      if (this.names.size >= PRUNE_AT && now - this.prunedAt >= REUSE_ALLOWED_MS) this.prune(now);
      name = {};
      this.names.set(hostname, name);
    }
    const entry = name;
    const check: Check<T> = {
      startedAt: now,
      done: this.check(hostname).then(
        (answer) => {
          this.answered(hostname, entry, check, true);
          return answer;
        },
        (error: unknown) => {
          this.answered(hostname, entry, check, false);
          throw error;
        },
      ),
    };
    entry.underWay = check;
    return check.done;
  }

  /** How many names are kept (for the tests of pruning). */
  get size(): number {
    return this.names.size;
  }

  private answered(hostname: string, name: Name<T>, check: Check<T>, allowed: boolean): void {
    if (name.underWay === check) name.underWay = undefined;
    // An older check that answers late says less than a newer one's answer.
    if (name.answer === undefined || check.startedAt > name.answer.startedAt) {
      name.answer = { startedAt: check.startedAt, allowed, at: this.now() };
    }
    if (name.underWay === undefined && !name.answer.allowed && this.names.get(hostname) === name) {
      this.names.delete(hostname);
    }
  }

  private prune(now: number): void {
    this.prunedAt = now;
    for (const [hostname, name] of this.names) {
      if (name.underWay === undefined && !reusable(name, now)) this.names.delete(hostname);
    }
  }
}

/** Whether the name's latest answer allowed it recently enough to be taken again. */
function reusable(name: Name<unknown>, now: number): boolean {
  return name.answer?.allowed === true && now - name.answer.at <= REUSE_ALLOWED_MS;
}
