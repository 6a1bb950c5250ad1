/**
 * How long work waits before it tries again, one rule for every workflow: `firstMs` after the
 * first try, times `factor` after each further one, at most `capMs`, less a random share of up
 * to `jitter` of that wait, and never sooner than the platform asked (`Retry-After` and the
 * like, in seconds). The jitter spreads work that failed together (a platform's outage) so it
 * does not come back together; it only ever shortens a wait, so `capMs` stays the longest.
 */
export interface RetryPolicy {
  readonly firstMs: number;
  readonly factor: number;
  readonly capMs: number;
  /** 0 (none) to 1: the largest share of a wait taken off at random. */
  readonly jitter: number;
}

/** A policy, checked: a wrong one would make work spin or never come back. */
export function retryPolicy(policy: RetryPolicy): RetryPolicy {
  const { firstMs, factor, capMs, jitter } = policy;
  if (!(firstMs > 0 && factor >= 1 && capMs >= firstMs && jitter >= 0 && jitter <= 1)) {
    throw new Error(`invalid retry policy ${JSON.stringify(policy)}`);
  }
  return Object.freeze({ ...policy });
}

/**
 * The wait after `tries` tries in a row (0: before the second one). `random` gives a number in
 * [0, 1), as Math.random does; tests hand in a fixed one.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  tries: number,
  retryAfterSeconds?: number,
  random: () => number = Math.random,
): number {
  const wait = Math.min(policy.firstMs * policy.factor ** Math.max(0, tries), policy.capMs);
  const jittered = Math.round(wait * (1 - policy.jitter * random()));
  return Math.max(jittered, Math.ceil((retryAfterSeconds ?? 0) * 1000));
}

/** The moment `retryDelayMs` after `from`. */
export function retryAt(
  from: Date,
  policy: RetryPolicy,
  tries: number,
  retryAfterSeconds?: number,
  random?: () => number,
): Date {
  return new Date(from.getTime() + retryDelayMs(policy, tries, retryAfterSeconds, random));
}

/**
 * Background work that nobody waits on (a token refresh, a notice subscription, reading a
 * comment's time) after a passing failure of its platform: 30 s, doubling, at most an hour.
 */
export const BACKGROUND_RETRY = retryPolicy({ firstMs: 30_000, factor: 2, capMs: 3_600_000, jitter: 0.2 });
