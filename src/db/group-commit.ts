/**
 * Group commit: callers hand over an item and wait for it to be written; items that arrive
 * while earlier writes are in flight go together in the next one. Under load many items share
 * one transaction (a round trip and a commit each instead of one per item); under light load
 * an item waits for nothing but its own write.
 *
 * A batch that fails is written again item by item, so one item the database refuses fails
 * only its own caller; where no item can be refused on its own (the failure is the database's,
 * not an item's), `eachAgain: false` fails every caller of the batch at once instead of making the
 * last wait for one failed write per item before it.
 */
export class GroupCommit<T, R> {
  private readonly queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;

  /**
   * @param write writes the items (in one transaction) and returns one result per item, in order.
   * @param maxBatch the most items one write takes.
   * @param parallel the most writes in flight at once.
   * @param eachAgain whether a failed batch is written again item by item.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 500,
    private readonly parallel = 2,
    private readonly eachAgain = true,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.parallel || this.queue.length === 0) return;
    this.scheduled = true;
    // The next macrotask, so items submitted in the same turn of the event loop share a write.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
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
