/**
 * What a process waits for, timed from inside it: every statement sent to PostgreSQL (from the
 * call to its answer, a wait for a pooled connection included) and every HTTP request undici
 * makes (the platform calls; from its creation to its last byte). A bench reads them for its
 * measured window to tell where a worker slot's time goes, which CPU figures cannot show: a
 * slot waiting on a round trip uses no CPU.
 *
 * In the bench's own process: `recordWaits()`. In a process the bench starts: the node flag
 * `--import <this directory>/waits-preload.ts` with BENCH_WAITS_DIR set, which writes the
 * process's waits to `<dir>/<pid>.json` when it exits.
 *
 * pg has no diagnostics channel, so its Pool and Client `query` are wrapped; undici reports its
 * requests on `undici:request:*` channels. Each wait costs a timestamp and an array entry.
 */
import diagnostics from 'node:diagnostics_channel';
import pg from 'pg';

type WaitKind = 'statement' | 'http';

/** One wait: when it began (ms since the epoch), how long it took (ms), and what it was. */
export type Wait = readonly [startedAt: number, ms: number, kind: WaitKind];

const waits: Wait[] = [];
let installed = false;

/** A wait from now on: it begins at the wall clock's time (the bench's windows are on that clock), and is timed on the monotonic one. */
function begun(kind: WaitKind): () => void {
  const startedAt = Date.now();
  const start = performance.now();
  return () => waits.push([startedAt, performance.now() - start, kind]);
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Wraps a `query` method: a call is timed until its answer, as a promise or as the callback it
 * was given; with `promisesOnly`, only a call answered by a promise (Pool.query hands
 * Client.query a callback: a pooled statement is timed once, by the pool, with the wait for its
 * connection; a client's own, in a transaction, by the client).
 */
function timed(query: Query, promisesOnly: boolean): Query {
  return function (this: unknown, ...args: unknown[]) {
    const callback = args.findIndex((arg) => typeof arg === 'function');
    if (callback >= 0 && promisesOnly) return query.apply(this, args);
    const done = begun('statement');
    if (callback >= 0) {
      const given = args[callback] as Query;
      args[callback] = function (this: unknown, ...answer: unknown[]) {
        done();
        return given.apply(this, answer);
      };
      return query.apply(this, args);
    }
    const answer = query.apply(this, args);
    if (answer instanceof Promise) answer.then(done, done);
    return answer;
  };
}

/** Starts recording this process's waits (once; later calls do nothing). */
export function recordWaits(): void {
  if (installed) return;
  installed = true;
  const pool = pg.Pool.prototype as unknown as { query: Query };
  const client = pg.Client.prototype as unknown as { query: Query };
  pool.query = timed(pool.query, false);
  client.query = timed(client.query, true);
  const started = new WeakMap<object, () => void>();
  diagnostics.subscribe('undici:request:create', (message) => {
    started.set((message as { request: object }).request, begun('http'));
  });
  const ended = (message: unknown) => {
    const { request } = message as { request: object };
    const done = started.get(request);
    if (done === undefined) return;
    started.delete(request);
    done();
  };
  diagnostics.subscribe('undici:request:trailers', ended);
  diagnostics.subscribe('undici:request:error', ended);
}

/** The waits recorded so far in this process. */
export function recordedWaits(): readonly Wait[] {
  return waits;
}

/** Waits by kind: how many, and their summed ms. */
export interface WaitTotals {
  statement: { count: number; ms: number };
  http: { count: number; ms: number };
}

/** The totals of the waits begun in [from, to] (ms since the epoch). */
export function waitsBetween(all: Iterable<Wait>, from: number, to: number): WaitTotals {
  const totals: WaitTotals = { statement: { count: 0, ms: 0 }, http: { count: 0, ms: 0 } };
  for (const [startedAt, ms, kind] of all) {
    if (startedAt < from || startedAt > to) continue;
    totals[kind].count += 1;
    totals[kind].ms += ms;
  }
  return totals;
}
