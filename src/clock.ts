/**
 * The one place the service reads the time, so tests can move it (an expiry, a retry
 * schedule) without waiting. Production never sets an offset.
 */
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

export function advanceClock(ms: number): void {
  offsetMs += ms;
}

export function resetClock(): void {
  offsetMs = 0;
}
