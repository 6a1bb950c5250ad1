import autocannon from 'autocannon';
import { type CpuUse, cpuSnapshot, cpuUse } from './cpu.ts';
import { percentile, table } from './report.ts';
import { BenchError, lastServerOutput, postmasterPid, type Server } from './server.ts';

export interface Target {
  label: string;
  path: string;
  headers: Record<string, string>;
  /** When given, requests take these paths in turn (e.g. one account after another); `path` is the first. */
  paths?: readonly string[];
  /** With `paths`: headers of each path's request beside `headers` (e.g. its If-None-Match). */
  pathHeaders?: readonly Record<string, string>[];
  /** The status every answer must have (default 200). */
  status?: number;
}

export interface LoadSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface Measurement {
  target: Target;
  /** Seconds the measured run took. */
  seconds: number;
  responses: number;
  requestsPerSecond: number;
  /** Milliseconds, from every response's own time (autocannon's percentiles are whole ms). */
  p50: number;
  p99: number;
  statusCodes: Record<string, number>;
  cpu: CpuUse;
}

let current: autocannon.Instance | undefined;
let interrupted = false;

/** Stops the load in progress; the run then fails with "interrupted" and cleans up. */
export function interrupt(): void {
  interrupted = true;
  current?.stop();
}

/** One request definition whose path (and its own headers) moves on to the next of `paths` at every request. */
function rotating(paths: readonly string[], pathHeaders: Target['pathHeaders']): autocannon.Request {
  let next = 0;
  return {
    setupRequest: (request) => {
      const at = next++ % paths.length;
      const path = paths[at] ?? '/';
      const own = pathHeaders?.[at];
      return own ? { ...request, path, headers: { ...request.headers, ...own } } : { ...request, path };
    },
  };
}

/** Runs autocannon once; fails on errors, timeouts and any status but the target's (200). */
async function load(
  origin: string,
  target: Target,
  seconds: number,
  connections: number,
  onLatency?: (ms: number) => void,
): Promise<autocannon.Result> {
  if (interrupted) throw new BenchError('interrupted');
  const instance = autocannon({
    url: `${origin}${target.path}`,
    connections,
    duration: seconds,
    headers: target.headers,
    ...(target.paths !== undefined && target.paths.length > 0
      ? { requests: [rotating(target.paths, target.pathHeaders)] }
      : {}),
  });
  current = instance;
  if (onLatency) instance.on('response', (_client, _status, _bytes, ms) => onLatency(ms));
  const result = await instance;
  current = undefined;
  if (interrupted) throw new BenchError('interrupted');

  const problems: string[] = [];
  const status = String(target.status ?? 200);
  const others = Object.entries(result.statusCodeStats).filter(([code]) => code !== status);
  if (others.length > 0) {
    problems.push(
      `responses other than ${status}: ${others.map(([code, { count }]) => `${count} × ${code}`).join(', ')}`,
    );
  }
  if (result.errors > 0) problems.push(`${result.errors} errors (${result.timeouts} of them timeouts)`);
  if ((result.statusCodeStats[status]?.count ?? 0) === 0) problems.push(`not one ${status} response`);
  if (problems.length > 0) throw new BenchError(`${target.label}: ${problems.join('; ')}${lastServerOutput()}`);
  return result;
}

/** A warm-up (checked, not counted), then the measured run. */
/** `beforeMeasured` runs between the warm-up and the measured seconds (e.g. to reset PostgreSQL's counters). */
export async function measure(
  server: Server,
  target: Target,
  s: LoadSettings,
  beforeMeasured?: () => Promise<void>,
): Promise<Measurement> {
  process.stderr.write(`${target.label}: ${s.warmupSeconds} s warm-up, `);
  await load(server.origin, target, s.warmupSeconds, s.connections);
  await beforeMeasured?.();
  process.stderr.write(`${s.durationSeconds} s measured ... `);

  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const record = (ms: number) => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  };
  const postmaster = await postmasterPid(server.dataDir);
  const before = await cpuSnapshot(server.pid, postmaster);
  const result = await load(server.origin, target, s.durationSeconds, s.connections, record);
  const after = await cpuSnapshot(server.pid, postmaster);

  const sorted = latencies.subarray(0, count).sort();
  const responses = result.requests.total;
  process.stderr.write(`${responses} responses\n`);
  return {
    target,
    seconds: result.duration,
    responses,
    requestsPerSecond: responses / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count: n }]) => [code, n])),
    cpu: cpuUse(before, after),
  };
}

/** One request before the load, so a wrong key or route fails with the server's own answer. */
export async function preflight(origin: string, target: Target): Promise<void> {
  const response = await fetch(`${origin}${target.path}`, { headers: target.headers });
  const body = await response.text();
  if (response.status !== 200) {
    throw new BenchError(`${target.label}: answered ${response.status} before the load: ${body}${lastServerOutput()}`);
  }
}

/** Each measured run's CPU, in percent of one core: shows which process the machine spent itself on. */
export function loadCpuTable(runs: readonly Measurement[], cores: number): string {
  const pct = (m: Measurement, cpuMs: number | undefined) =>
    cpuMs === undefined ? '-' : `${((cpuMs / (m.seconds * 1000)) * 100).toFixed(0)}%`;
  return table(
    [
      [`CPU, % of one core (of ${cores * 100}%)`, 'server', 'postgres', 'load generator', 'other processes'],
      ...runs.map((m) => [
        m.target.label,
        pct(m, m.cpu.server),
        pct(m, m.cpu.postgres),
        pct(m, m.cpu.bench),
        pct(m, m.cpu.others),
      ]),
    ],
    [false, true, true, true, true],
  );
}

/** The largest share of the machine that processes outside the bench used during these runs. */
export function busiestOutside(runs: readonly Measurement[]): number {
  return Math.max(...runs.map((m) => (m.cpu.others ?? 0) / (m.cpu.capacity ?? Number.POSITIVE_INFINITY)));
}
