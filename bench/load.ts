import autocannon from 'autocannon';
import { type CpuUse, cpuSnapshot, cpuUse, sumCpuUse } from './cpu.ts';
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

/** What measuring needs of a server: where to send the load, and whose CPU to count. */
export type MeasuredServer = Pick<Server, 'pid' | 'dataDir' | 'origin'>;

export interface LoadSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface Measurement {
  target: Target;
  /** Seconds the measured run took (measured in turns: its shares' together). */
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

/** Latencies (ms) of a measured run, in one growing array. */
class Latencies {
  private values = new Float64Array(1 << 16);
  count = 0;
  readonly record = (ms: number) => {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count++] = ms;
  };
  sorted(): Float64Array {
    return this.values.subarray(0, this.count).sort();
  }
}

/** What the measured seconds of one target gathered, over one or more runs of the load. */
interface Gathered {
  seconds: number;
  responses: number;
  statusCodes: Record<string, number>;
  cpu: CpuUse;
  latencies: Latencies;
}

const noCpu = (): CpuUse => ({ server: 0, postgres: 0, bench: 0, others: 0, capacity: 0 });

/** Runs the load for `seconds` and adds what it measured to `into`. */
async function gather(server: MeasuredServer, target: Target, seconds: number, connections: number, into: Gathered) {
  const postmaster = await postmasterPid(server.dataDir);
  const before = await cpuSnapshot(server.pid, postmaster);
  const result = await load(server.origin, target, seconds, connections, into.latencies.record);
  const after = await cpuSnapshot(server.pid, postmaster);
  into.seconds += result.duration;
  into.responses += result.requests.total;
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
    into.statusCodes[code] = (into.statusCodes[code] ?? 0) + count;
  }
  into.cpu = sumCpuUse(into.cpu, cpuUse(before, after));
}

function measurement(target: Target, g: Gathered): Measurement {
  const sorted = g.latencies.sorted();
  return {
    target,
    seconds: g.seconds,
    responses: g.responses,
    requestsPerSecond: g.responses / g.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statusCodes: g.statusCodes,
    cpu: g.cpu,
  };
}

const gathered = (): Gathered => ({
  seconds: 0,
  responses: 0,
  statusCodes: {},
  cpu: noCpu(),
  latencies: new Latencies(),
});

/** A warm-up (checked, not counted), then the measured run. */
/** `beforeMeasured` runs between the warm-up and the measured seconds (e.g. to reset PostgreSQL's counters). */
export async function measure(
  server: MeasuredServer,
  target: Target,
  s: LoadSettings,
  beforeMeasured?: () => Promise<void>,
): Promise<Measurement> {
  process.stderr.write(`${target.label}: ${s.warmupSeconds} s warm-up, `);
  await load(server.origin, target, s.warmupSeconds, s.connections);
  await beforeMeasured?.();
  process.stderr.write(`${s.durationSeconds} s measured ... `);
  const g = gathered();
  await gather(server, target, s.durationSeconds, s.connections, g);
  process.stderr.write(`${g.responses} responses\n`);
  return measurement(target, g);
}

/**
 * Targets compared with each other, measured in turns: each warmed up, then `turns` rounds in
 * which each runs its share of the measured seconds, in turn (the order reversed every other
 * round, so neither is always first). The machine's speed drifts over seconds (other tenants of
 * its host): measured one after the other, a ratio of two targets moved by a third from run to
 * run of the same code; in turns, each target meets the same moments of the machine.
 */
export async function measureInTurns(
  server: MeasuredServer,
  targets: readonly Target[],
  s: LoadSettings,
  turns: number,
): Promise<Measurement[]> {
  // autocannon stops on its once-a-second tick: a share of a fraction of a second would run longer.
  const share = s.durationSeconds / turns;
  if (!Number.isInteger(share)) {
    throw new BenchError(`${s.durationSeconds} measured seconds do not divide into ${turns} turns of whole seconds`);
  }
  for (const target of targets) {
    process.stderr.write(`${target.label}: ${s.warmupSeconds} s warm-up\n`);
    await load(server.origin, target, s.warmupSeconds, s.connections);
  }
  process.stderr.write(`${turns} turns of ${share} s each, ${s.durationSeconds} s measured a target ... `);
  const runs = targets.map((target) => ({ target, g: gathered() }));
  for (let turn = 0; turn < turns; turn++) {
    for (const { target, g } of turn % 2 === 0 ? runs : [...runs].reverse()) {
      await gather(server, target, share, s.connections, g);
    }
  }
  process.stderr.write(`${runs.map(({ g }) => g.responses).join(' and ')} responses\n`);
  return runs.map(({ target, g }) => measurement(target, g));
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
