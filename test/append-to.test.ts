import { describe, expect, it } from 'vitest';
import { appendTo } from '../src/append-to.ts';

describe('appendTo', () => {
  it('groups values by key in the order they came, each list the map’s own', () => {
    const given = ['a2', 'a3'];
    const map = new Map<string, string[]>();
    appendTo(map, 'a', ...given);
    appendTo(map, 'b', 'b1');
    appendTo(map, 'a', 'a4');
    appendTo(map, 'c');
    expect([...map]).toEqual([
      ['a', ['a2', 'a3', 'a4']],
      ['b', ['b1']],
      ['c', []],
    ]);
    // The caller's array is not the map's list, so it is left as it was.
    expect(given).toEqual(['a2', 'a3']);
  });
});
