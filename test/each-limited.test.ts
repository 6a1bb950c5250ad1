import { describe, expect, it } from 'vitest';
import { eachLimited } from '../src/each-limited.ts';

describe('eachLimited', () => {
  it('runs at most `limit` at once, a lane taking the next item as its last ends, answers in the items’ order', async () => {
    let running = 0;
    let most = 0;
    const ended: number[] = [];
    // The first item ends only once the four others have: they must run in the other lane meanwhile.
    let releaseFirst = () => {};
    const othersDone = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const answers = await eachLimited(['slow', 'a', 'b', 'c', 'd'], 2, async (item, i) => {
      running += 1;
      most = Math.max(most, running);
      if (i === 0) await othersDone;
      else await Promise.resolve();
      running -= 1;
      ended.push(i);
      if (ended.length === 4) releaseFirst();
      return `${item}${i}`;
    });
    expect(answers).toEqual(['slow0', 'a1', 'b2', 'c3', 'd4']);
    expect(most).toBe(2);
    expect(ended).toEqual([1, 2, 3, 4, 0]);
  });

  it('rejects with the first failure, and answers nothing for no items', async () => {
    await expect(
      eachLimited([1, 2, 3], 3, async (n) => {
        if (n === 2) throw new Error('two failed');
        return n;
      }),
    ).rejects.toThrow('two failed');
    expect(await eachLimited([], 4, async () => 1)).toEqual([]);
  });
});
