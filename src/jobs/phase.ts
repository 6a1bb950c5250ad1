/**
 * A periodic task's phase for one account: a point in [0, interval) from the account id, so
 * the accounts' reads spread over the interval instead of all falling due at once.
 */
export function phaseMs(accountId: string, intervalMs: number): number {
  let hash = 0;
  for (const char of accountId) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return hash % intervalMs;
}
