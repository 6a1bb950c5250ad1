/**
 * How long work waits after a passing failure before it is tried again: `firstMs`, doubling
 * with each failure in a row, at most `capMs`, and never sooner than the platform asked
 * (`Retry-After` and the like, in seconds).
 */
export function backoffMs(
  failures: number,
  policy: { firstMs: number; capMs: number },
  retryAfterSeconds: number | undefined,
): number {
  return Math.max(Math.min(policy.firstMs * 2 ** failures, policy.capMs), (retryAfterSeconds ?? 0) * 1000);
}
