import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';

/** A write that takes a few milliseconds, as a transaction does, and logs each batch. */
function slowWrite(batches: number[][], inFlight: { now: number; most: number }) {
  return async (items: number[]) => {
    batches.push(items);
    inFlight.now += 1;
    inFlight.most = Math.max(inFlight.most, inFlight.now);
    await new Promise((resolve) => setTimeout(resolve, 5));
    inFlight.now -= 1;
    if (items.includes(13)) throw new Error('13 is refused');
    return items.map((n) => n * 2);
  };
}

describe('GroupCommit', () => {
  it('writes items submitted meanwhile together, at most `parallel` writes at once, each caller getting its own result', async () => {
    const batches: number[][] = [];
    const inFlight = { now: 0, most: 0 };
    const group = new GroupCommit(slowWrite(batches, inFlight), { maxBatch: 50, parallel: 2 });
    const items = Array.from({ length: 300 }, (_, i) => i + 100);
    const results = await Promise.all(items.map((n) => group.submit(n)));
    expect(results).toEqual(items.map((n) => n * 2));
    expect(batches.flat().sort()).toEqual(items);
    expect(batches.length).toBeLessThan(items.length / 10);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(50);
    expect(inFlight.most).toBeLessThanOrEqual(2);
  });

  it('writes an item alone when nothing else is waiting', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit(slowWrite(batches, { now: 0, most: 0 }));
    expect(await group.submit(1)).toBe(2);
    expect(await group.submit(2)).toBe(4);
    expect(batches).toEqual([[1], [2]]);
  });

  it('fails only the caller of an item the write refuses: the batch is written again item by item', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit(slowWrite(batches, { now: 0, most: 0 }), { maxBatch: 100, parallel: 1 });
    const settled = await Promise.allSettled([11, 12, 13, 14].map((n) => group.submit(n)));
    expect(settled).toEqual([
      { status: 'fulfilled', value: 22 },
      { status: 'fulfilled', value: 24 },
      { status: 'rejected', reason: new Error('13 is refused') },
      { status: 'fulfilled', value: 28 },
    ]);
    expect(batches).toEqual([[11, 12, 13, 14], [11], [12], [13], [14]]);
  });

  it('without eachAgain, fails every caller of a failed batch at once, with no write per item', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit(slowWrite(batches, { now: 0, most: 0 }), {
      maxBatch: 100,
      parallel: 1,
      eachAgain: false,
    });
    const settled = await Promise.allSettled([11, 12, 13, 14].map((n) => group.submit(n)));
    expect(settled).toEqual([11, 12, 13, 14].map(() => ({ status: 'rejected', reason: new Error('13 is refused') })));
    expect(batches).toEqual([[11, 12, 13, 14]]);
  });

  describe('with a gathering', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A write that answers at once and logs each batch with the (fake) time it started. */
    function loggedWrite(batches: { at: number; items: number[] }[]) {
      return async (items: number[]) => {
        batches.push({ at: performance.now() - start, items });
        return items.map((n) => n * 2);
      };
    }
    let start = 0;
    function fakeClock(): void {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
      start = performance.now();
    }

    it('writes the items that came within the gathering of the first one together, when it ends', async () => {
      fakeClock();
      const batches: { at: number; items: number[] }[] = [];
      const group = new GroupCommit(loggedWrite(batches), { gatherMs: 50 });
      const first = group.submit(1);
      await vi.advanceTimersByTimeAsync(20);
      const second = group.submit(2);
      await vi.advanceTimersByTimeAsync(29);
      expect(batches).toEqual([]);
      const third = group.submit(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([{ at: 50, items: [1, 2, 3] }]);
      expect(await Promise.all([first, second, third])).toEqual([2, 4, 6]);
      // The next item starts a gathering of its own.
      const fourth = group.submit(4);
      await vi.advanceTimersByTimeAsync(50);
      expect(await fourth).toBe(8);
      expect(batches).toEqual([
        { at: 50, items: [1, 2, 3] },
        { at: 100, items: [4] },
      ]);
    });

    it('writes what waited during a write in flight as soon as it ends, when its gathering has ended', async () => {
      fakeClock();
      const batches: { at: number; items: number[] }[] = [];
      const logged = loggedWrite(batches);
      const group = new GroupCommit(
        async (items: number[]) => {
          const results = await logged(items);
          await new Promise((resolve) => setTimeout(resolve, 100));
          return results;
        },
        { gatherMs: 50, parallel: 1 },
      );
      const results = [group.submit(1)];
      await vi.advanceTimersByTimeAsync(60);
      results.push(group.submit(2));
      await vi.advanceTimersByTimeAsync(80);
      results.push(group.submit(3));
      await vi.advanceTimersByTimeAsync(20);
      // The first write ran from 50 to 150; 2's gathering ended at 110, so it goes as that write
      // ends (the next turn of the event loop), with 3, whose own would end at 190.
      expect(batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
      expect(batches[1]?.at).toBeGreaterThanOrEqual(150);
      expect(batches[1]?.at).toBeLessThan(160);
      await vi.advanceTimersByTimeAsync(100);
      expect(await Promise.all(results)).toEqual([2, 4, 6]);
    });

    it('writes a full batch at once, without waiting for the gathering to end', async () => {
      fakeClock();
      const batches: { at: number; items: number[] }[] = [];
      const group = new GroupCommit(loggedWrite(batches), { gatherMs: 1000, maxBatch: 3 });
      const results = [1, 2].map((n) => group.submit(n));
      await vi.advanceTimersByTimeAsync(600);
      results.push(group.submit(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([{ at: 600, items: [1, 2, 3] }]);
      expect(await Promise.all(results)).toEqual([2, 4, 6]);
      // The first gathering's end is called off: the next item's own ends a second after it came.
      const fourth = group.submit(4);
      await vi.advanceTimersByTimeAsync(999);
      expect(batches).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([
        { at: 600, items: [1, 2, 3] },
        { at: 1600, items: [4] },
      ]);
      expect(await fourth).toBe(8);
    });

    it('with a quiet time, ends the gathering once no item has come for that long', async () => {
      fakeClock();
      const batches: { at: number; items: number[] }[] = [];
      const group = new GroupCommit(loggedWrite(batches), { gatherMs: 50, quietMs: 5 });
      const results = [group.submit(1)];
      await vi.advanceTimersByTimeAsync(3);
      results.push(group.submit(2));
      await vi.advanceTimersByTimeAsync(3);
      results.push(group.submit(3));
      // 3 came at 6: the gathering ends at 11, not at 50 (nor at 5, five after the first).
      await vi.advanceTimersByTimeAsync(4);
      expect(batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([{ at: 11, items: [1, 2, 3] }]);
      expect(await Promise.all(results)).toEqual([2, 4, 6]);
    });

    it('with a quiet time, writes a full batch at once, calling off the gathering it had set again', async () => {
      fakeClock();
      const batches: { at: number; items: number[] }[] = [];
      const group = new GroupCommit(loggedWrite(batches), { gatherMs: 50, quietMs: 5, maxBatch: 3 });
      const results = [group.submit(1)];
      await vi.advanceTimersByTimeAsync(3);
      results.push(group.submit(2));
      // At 5 the gathering's timer finds 2 came at 3, and is set again for 8.
      await vi.advanceTimersByTimeAsync(3);
      results.push(group.submit(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([{ at: 6, items: [1, 2, 3] }]);
      // The timer set for 8 is called off; the next item's gathering ends five after it came.
      expect(vi.getTimerCount()).toBe(0);
      results.push(group.submit(4));
      await vi.advanceTimersByTimeAsync(4);
      expect(batches).toEqual([{ at: 6, items: [1, 2, 3] }]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([
        { at: 6, items: [1, 2, 3] },
        { at: 11, items: [4] },
      ]);
      expect(await Promise.all(results)).toEqual([2, 4, 6, 8]);
    });

    it('with a quiet time, still ends the gathering at its length however often items come', async () => {
      fakeClock();
      const batches: { at: number; items: number[] }[] = [];
      const group = new GroupCommit(loggedWrite(batches), { gatherMs: 50, quietMs: 5 });
      const results: Promise<number>[] = [];
      // An item every 3 ms, from 0 to 57: never 5 ms without one.
      for (let n = 0; n < 20; n++) {
        results.push(group.submit(n));
        await vi.advanceTimersByTimeAsync(3);
      }
      expect(batches[0]).toEqual({ at: 50, items: Array.from({ length: 17 }, (_, n) => n) });
      await vi.advanceTimersByTimeAsync(50);
      expect(batches.map((b) => b.items.length)).toEqual([17, 3]);
      expect(await Promise.all(results)).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
    });
  });

  it('fails every caller when the write answers a wrong number of results', async () => {
    const group = new GroupCommit(async (items: number[]) => items.slice(1));
    await expect(group.submit(1)).rejects.toThrow(/0 results for 1 items/);
  });
});
