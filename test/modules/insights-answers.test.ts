import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AnswerParts, answerCache } from '../../src/modules/insights/answers.ts';

/** The rendered answers an API process keeps (src/modules/insights/answers.ts). */

const parts: AnswerParts = {
  accountId: 'acc_1',
  from: 20_000,
  to: 20_364,
  metrics: ['views', 'likes'],
  missingPermission: null,
  syncedAt: '2026-11-23T12:00:00.123+00:00',
  stamp: '1001,1002',
};

describe('answerCache', () => {
  it('gives back the bytes kept under equal parts, with their tag as conditional requests compute it', () => {
    const cache = answerCache(1);
    expect(cache.keeps).toBe(true);
    expect(cache.get(parts)).toBeUndefined();
    const text = '{"account_id":"acc_1","metrics":{}}';
    const kept = cache.keep(parts, text);
    expect(kept.body.toString()).toBe(text);
    expect(kept.etag).toBe(`"${createHash('sha1').update(text).digest('base64url')}"`);
    expect(cache.get({ ...parts, metrics: ['views', 'likes'] })).toBe(kept);
  });

  it('never gives it for parts that differ in anything', () => {
    const cache = answerCache(1);
    cache.keep(parts, '{}');
    for (const other of [
      { accountId: 'acc_2' },
      { from: 20_001 },
      { to: 20_363 },
      { metrics: ['likes', 'views'] },
      { metrics: ['views'] },
      { missingPermission: 'threads_manage_insights' },
      { syncedAt: null },
      { syncedAt: '2026-11-23T18:00:00.001+00:00' },
      { stamp: null },
      { stamp: '1001,1003' },
      { stamp: '1001' },
    ]) {
      expect(cache.get({ ...parts, ...other }), JSON.stringify(other)).toBeUndefined();
    }
  });

  it('keeps at most its size, dropping the least recently asked first', () => {
    const cache = answerCache(1);
    const big = (n: number) => `"${'x'.repeat(400_000)}${n}"`;
    const at = (n: number) => ({ ...parts, accountId: `acc_${n}` });
    cache.keep(at(1), big(1));
    cache.keep(at(2), big(2));
    expect(cache.get(at(1))).toBeDefined();
    cache.keep(at(3), big(3));
    // 1 MB holds two: 2 was asked least recently.
    expect(cache.get(at(2))).toBeUndefined();
    expect(cache.get(at(1))?.body.toString()).toBe(big(1));
    expect(cache.get(at(3))?.body.toString()).toBe(big(3));
  });

  it('keeps nothing at a size of 0, and still renders', () => {
    const cache = answerCache(0);
    expect(cache.keeps).toBe(false);
    expect(cache.keep(parts, '{"a":1}').body.toString()).toBe('{"a":1}');
    expect(cache.get(parts)).toBeUndefined();
  });
});
