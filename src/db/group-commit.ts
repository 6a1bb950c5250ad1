export interface GroupCommitOptions {
  /** The most items one write takes (500). */
  maxBatch?: number;
  /** The most writes in flight at once (2). */
  parallel?: number;
  /** Whether a failed batch is written again item by item (true). */
  eachAgain?: boolean;
  /**
   * How long after the first waiting item came its write starts at the soonest, unless maxBatch
   * items are waiting (0: at the next turn of the event loop). Where a write's cost is mostly its
   * own, not its items' (a job), this bounds the writes a second however fast each one is.
   */
  gatherMs?: number;
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

  /** @param write writes the items (in one transaction) and returns one result per item, in order. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.parallel = options.parallel ?? 2;
    this.eachAgain = options.eachAgain ?? true;
    this.gatherMs = options.gatherMs ?? 0;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, at: this.gatherMs > 0 ? performance.now() : 0, resolve, reject });
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
    const run = () => {
      this.gathering = undefined;
      this.scheduled = false;
      void this.flush();
    };
    const first = this.queue[0];
    const gathering = this.gatherMs > 0 && first !== undefined && this.queue.length < this.maxBatch;
    const wait = gathering ? first.at + this.gatherMs - performance.now() : 0;
    // Else the next macrotask, so items submitted in the same turn of the event loop share a write.
    if (wait > 0) this.gathering = setTimeout(run, wait);
    else setImmediate(run);
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
