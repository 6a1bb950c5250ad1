import { describe, expect, it } from 'vitest';
import { retryDelayMs, retryPolicy } from '../../src/jobs/retry.ts';

const policy = retryPolicy({ firstMs: 30_000, factor: 2, capMs: 15 * 60_000, jitter: 0.2 });
const none = () => 0;
const most = () => 0.999_999;

describe('the retry policy', () => {
  it('waits the first delay, then times the factor, up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((tries) => retryDelayMs(policy, tries, undefined, none))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000,
    ]);
  });

  it('takes at most the jitter share off a wait, never adding to it', () => {
    expect(retryDelayMs(policy, 0, undefined, most)).toBe(24_000);
    expect(retryDelayMs(policy, 10, undefined, most)).toBe(720_000);
    for (let i = 0; i < 200; i += 1) {
      const wait = retryDelayMs(policy, 1);
      expect(wait).toBeGreaterThanOrEqual(48_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    }
  });

  it("is never sooner than the platform's Retry-After, however the jitter falls", () => {
    expect(retryDelayMs(policy, 0, 3600, most)).toBe(3_600_000);
    expect(retryDelayMs(policy, 0, 30, most)).toBe(30_000);
    expect(retryDelayMs(policy, 0, 0.5, most)).toBe(24_000);
  });

  it('without jitter, a wait is exactly the formula (container polls: 2 s, growing by half, at most a minute)', () => {
    const polls = retryPolicy({ firstMs: 2_000, factor: 1.5, capMs: 60_000, jitter: 0 });
    expect([0, 1, 2, 3, 9, 20].map((tries) => retryDelayMs(polls, tries))).toEqual([
      2_000, 3_000, 4_500, 6_750, 60_000, 60_000,
    ]);
  });

  it('refuses a policy that would spin or never come back', () => {
    expect(() => retryPolicy({ firstMs: 0, factor: 2, capMs: 1000, jitter: 0 })).toThrow(/invalid retry policy/);
    expect(() => retryPolicy({ firstMs: 1000, factor: 0.5, capMs: 1000, jitter: 0 })).toThrow(/invalid retry policy/);
    expect(() => retryPolicy({ firstMs: 1000, factor: 2, capMs: 500, jitter: 0 })).toThrow(/invalid retry policy/);
    expect(() => retryPolicy({ firstMs: 1000, factor: 2, capMs: 5000, jitter: 1.5 })).toThrow(/invalid retry policy/);
  });
});
