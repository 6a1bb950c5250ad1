import { describe, expect, it } from 'vitest';
import { madeOnce } from '../src/made-once.ts';

describe('madeOnce', () => {
  it('makes the value at the first call only, and answers that value after', () => {
    let made = 0;
    const value = madeOnce(() => {
      made += 1;
      return { n: made };
    });
    expect(made).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(first).toEqual({ n: 1 });
    expect(made).toBe(1);
  });

  it('keeps a value that is undefined, not making it again', () => {
    let made = 0;
    const value = madeOnce(() => {
      made += 1;
      return undefined;
    });
    value();
    value();
    expect(made).toBe(1);
  });

  it('makes the value again at the next call when making it threw', () => {
    let calls = 0;
    const value = madeOnce(() => {
      calls += 1;
      if (calls === 1) throw new Error('not yet');
      return 'ready';
    });
    expect(() => value()).toThrow('not yet');
    expect(value()).toBe('ready');
  });
});
