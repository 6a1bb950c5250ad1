import { describe, expect, it } from 'vitest';
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
    const group = new GroupCommit(slowWrite(batches, inFlight), 50, 2);
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
    const group = new GroupCommit(slowWrite(batches, { now: 0, most: 0 }), 100, 1);
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
    const group = new GroupCommit(slowWrite(batches, { now: 0, most: 0 }), 100, 1, false);
    const settled = await Promise.allSettled([11, 12, 13, 14].map((n) => group.submit(n)));
    expect(settled).toEqual([11, 12, 13, 14].map(() => ({ status: 'rejected', reason: new Error('13 is refused') })));
    expect(batches).toEqual([[11, 12, 13, 14]]);
  });

  it('fails every caller when the write answers a wrong number of results', async () => {
    const group = new GroupCommit(async (items: number[]) => items.slice(1));
    await expect(group.submit(1)).rejects.toThrow(/0 results for 1 items/);
  });
});
