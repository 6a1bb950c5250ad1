/**
 * Whether an error says the database cannot be reached (down, restarting, refusing more
 * connections, or the pool waited too long for a connection) rather than that a statement was
 * wrong. The first is the client's cue to retry later (a 503); the second is a bug (a 500).
 */

/** SQLSTATEs of a server that is not there for us: class 08 and the shutdown and capacity codes. */
const UNAVAILABLE_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** node-postgres's own messages for a connection lost, or none to be had in time. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error (`Failed query: ...`) as its cause.
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || NETWORK_CODES.has(code))) return true;
    if (DRIVER_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m))) return true;
  }
  return false;
}
