export interface GroupCommitOptions {
  /** The most items one write takes (500). */
  maxBatch?: number;
  /** The most writes in flight at once (2). */
  parallel?: number;
  /** Whether a failed batch is written again item by item (true). */
  eachAgain?: boolean;
  /**
   * How long after the first waiting item came its write starts, unless maxBatch items are
   * waiting or quietMs ends the gathering first (0: at the next turn of the event loop). Where a
   * write's cost is mostly its own, not its items' (a job), this bounds the writes a second of a
   * steady stream of items however fast each write is.
   */
  gatherMs?: number;
  /**
   * With gatherMs: a gathering also ends once no item has come for this long (0: it runs its
   * whole gatherMs). A caller that sends its next items only once its last are answered (a
   * sender with a few connections) is then held up for a write of what it sent, not for the
   * whole gathering, which would otherwise bound it to its connections' worth a gathering.
   */
  quietMs?: number;
}

/**
 * Group commit: callers hand over an item and wait for it to be written; items that arrive
 * while earlier writes are in flight go together in the next one. Under load many items share
 * one transaction (a round trip and a commit each instead of one per item); under light load
 * an item waits for nothing but its own write (and its gathering, where one is set).
 *
 * A batch that fails is written again item by item, so one item the database refuses fails
 * only its own caller; where no item can be refused on its own (the failure is the database's,
 * not an item's), `eachAgain: false` fails every caller of the batch at once instead of making the
 * last wait for one failed write per item before it.
 */
export class GroupCommit<T, R> {
  private readonly queue: {
    item: T;
    at: number;
    resolve: (result: R) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private inFlight = 0;
  private scheduled = false;
  private gathering: NodeJS.Timeout | undefined;
  private readonly maxBatch: number;
  private readonly parallel: number;
  private readonly eachAgain: boolean;
  private readonly gatherMs: number;
  private readonly quietMs: number;
  /** When the last item came (performance.now), where a gathering ends at a quiet moment. */
  private lastAt = 0;

  /** @param write writes the items (in one transaction) and returns one result per item, in order. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.parallel = options.parallel ?? 2;
    this.eachAgain = options.eachAgain ?? true;
    this.gatherMs = options.gatherMs ?? 0;
    this.quietMs = options.quietMs ?? 0;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const at = this.gatherMs > 0 ? performance.now() : 0;
      this.queue.push({ item, at, resolve, reject });
      this.lastAt = at;
      // A full batch goes at the next turn of the event loop, not at the end of its gathering.
      if (this.gathering !== undefined && this.queue.length >= this.maxBatch) {
        clearTimeout(this.gathering);
        this.gathering = undefined;
        this.scheduled = false;
      }
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.parallel || this.queue.length === 0) return;
    this.scheduled = true;
    this.startWhenGathered();
  }

  /**
   * Starts the write once the gathering ends: gatherMs after the first waiting item came, or
   * quietMs after the last one, whichever is sooner. A timer that finds an item came meanwhile
   * is set again for the new end.
   */
  private startWhenGathered(): void {
    const run = () => {
      this.gathering = undefined;
      this.scheduled = false;
      void this.flush();
    };
    const wait = this.gatheringLeft();
    // Else the next macrotask, so items submitted in the same turn of the event loop share a write.
    if (wait <= 0) {
      setImmediate(run);
      return;
    }
    const timer = () => {
      const left = this.gatheringLeft();
      if (left > 0) this.gathering = setTimeout(timer, left);
      else run();
    };
    this.gathering = setTimeout(timer, wait);
  }

  /** How long the waiting items' gathering has left, in ms (0 or less: it has ended, or there is none). */
  private gatheringLeft(): number {
    const first = this.queue[0];
    if (this.gatherMs <= 0 || first === undefined || this.queue.length >= this.maxBatch) return 0;
    const end = first.at + this.gatherMs;
    return (this.quietMs > 0 ? Math.min(end, this.lastAt + this.quietMs) : end) - performance.now();
  }

  private async flush(): Promise<void> {
    if (this.inFlight >= this.parallel || this.queue.length === 0) return;
    this.inFlight += 1;
    const batch = this.queue.splice(0, this.maxBatch);
    try {
      await this.settle(batch);
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }

  private async settle(batch: GroupCommit<T, R>['queue']): Promise<void> {
    try {
      const results = await this.write(batch.map((b) => b.item));
      if (results.length !== batch.length) {
        throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
      }
      for (const [i, b] of batch.entries()) b.resolve(results[i] as R);
    } catch (error) {
      if (batch.length === 1 || !this.eachAgain) {
        for (const b of batch) b.reject(error);
        return;
      }
      for (const b of batch) await this.settle([b]);
    }
  }
}
