/**
 * The floor under a read route: the statements it sends PostgreSQL, sent straight from this
 * process with nothing else around them (no HTTP, no framework, no mapping of rows), as named
 * statements in PostgreSQL's text rows as the driver gives them, over as many connections as
 * the service's pool, from as many requests in flight as the load. Each request runs the
 * statements one after another, as the route does. What the route costs beyond this is the
 * service's own work; what this costs is PostgreSQL's and a bare client's.
 */
import type pg from 'pg';
import { type CpuUse, cpuSnapshot, cpuUse } from './cpu.ts';
import type { RecordedQuery } from './plans.ts';
import { percentile } from './report.ts';
import { BenchError } from './server.ts';

/** The service's database pool (DB_POOL_SIZE's default): the floor sends its queries over as many connections. */
export const SERVICE_POOL_SIZE = 10;

/**
 * The queries a route sends PostgreSQL per request, of those a service function ran on a
 * recording Db: all but the read of profiles being deleted, which the service answers from its
 * read cache.
 */
export function routeQueries(recorded: readonly RecordedQuery[]): RecordedQuery[] {
  return recorded.filter((q) => !/\bfrom "profiles"/.test(q.sql));
}

/** A line of a report's table: the floor's figures per request, and the route's rate as a share of the floor's. */
export function floorRow(label: string, floor: QueriesAlone, routeRequestsPerSecond: number | undefined): string[] {
  return [
    label,
    floor.requestsPerSecond.toFixed(0),
    floor.p99.toFixed(2),
    floor.cpu.postgres === undefined ? '-' : ((floor.cpu.postgres * 1000) / floor.requests).toFixed(0),
    ((floor.cpu.bench * 1000) / floor.requests).toFixed(0),
    routeRequestsPerSecond === undefined ? '-' : (routeRequestsPerSecond / floor.requestsPerSecond).toFixed(2),
  ];
}

export const FLOOR_HEADER = [
  'the same queries alone',
  'requests/s',
  'p99 ms',
  'postgres CPU µs/req',
  'client CPU µs/req',
  'route ÷ floor',
];

export interface QueriesAlone {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpu: CpuUse;
}

export interface QueriesAloneSettings {
  warmupSeconds: number;
  durationSeconds: number;
  /** Requests in flight at once (the load's connections). */
  inFlight: number;
}

/**
 * Runs `queries` (in order, per request) for a warm-up, then for the measured seconds, and
 * measures requests/s, latency and CPU. `serverPid` is measured too, to show it stayed idle.
 */
export async function queriesAlone(
  pool: pg.Pool,
  queries: readonly RecordedQuery[],
  pids: { server: number; postmaster: number | undefined },
  s: QueriesAloneSettings,
  name: string,
): Promise<QueriesAlone> {
  const statements = queries.map((q, i) => ({
    name: `${name}_${i}`,
    text: q.sql,
    // The values as the driver sends them (dates as ISO text).
    values: q.params.map((v) => (v instanceof Date ? v.toISOString() : v)),
    rowMode: 'array' as const,
  }));
  const run = async (seconds: number, onLatency?: (ms: number) => void): Promise<number> => {
    const until = performance.now() + seconds * 1000;
    let requests = 0;
    await Promise.all(
      Array.from({ length: s.inFlight }, async () => {
        while (performance.now() < until) {
          const started = performance.now();
          for (const statement of statements) {
            const result = await pool.query(statement);
            if (result.rows.length === 0 && statement === statements[0]) {
              throw new BenchError(`${name}: the route's first query answered no rows`);
            }
          }
          onLatency?.(performance.now() - started);
          requests += 1;
        }
      }),
    );
    return requests;
  };
  await run(s.warmupSeconds);
  const latencies: number[] = [];
  const before = await cpuSnapshot(pids.server, pids.postmaster);
  const started = performance.now();
  const requests = await run(s.durationSeconds, (ms) => latencies.push(ms));
  const seconds = (performance.now() - started) / 1000;
  const after = await cpuSnapshot(pids.server, pids.postmaster);
  latencies.sort((a, b) => a - b);
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu: cpuUse(before, after),
  };
}
