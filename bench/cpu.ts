import fs from 'node:fs/promises';
import type pg from 'pg';

/**
 * CPU time spent during a measured run, read from /proc (Linux; elsewhere every figure is
 * undefined and the report leaves it out). CPU per request is steadier than requests/s
 * on a small or busy machine, and "others" shows when something outside the bench was
 * competing for the cores.
 */

const TICK_MS = 10; // USER_HZ is 100 on every Linux the bench is meant for

export interface CpuSnapshot {
  /** Milliseconds of CPU since the process started, or since boot for `machine*`. */
  server: number | undefined;
  postgres: number | undefined;
  bench: number;
  machineBusy: number | undefined;
  machineTotal: number | undefined;
}

export interface CpuUse {
  /** Milliseconds of CPU in the run. */
  server: number | undefined;
  postgres: number | undefined;
  bench: number;
  /** Busy CPU of processes other than these three. */
  others: number | undefined;
  /** Wall-clock milliseconds times cores: what the machine could have given. */
  capacity: number | undefined;
}

/** Fields of /proc/<pid>/stat after the command name: [0] is field 3 (state). */
async function statFields(pid: number | string): Promise<string[] | undefined> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

const ticks = (fields: string[], ...indexes: number[]) =>
  indexes.reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) * TICK_MS;

/** utime + stime of one process. */
export async function processCpu(pid: number): Promise<number | undefined> {
  const fields = await statFields(pid);
  return fields ? ticks(fields, 11, 12) : undefined;
}

/** A process's stat fields (statFields) and those of each of its live children, by id. */
interface ProcessTree {
  pid: string;
  fields: string[];
  children: { pid: string; fields: string[] }[];
}

/** One scan of /proc for a process and its live children; undefined when the process is gone. */
async function processTree(parent: number): Promise<ProcessTree | undefined> {
  const fields = await statFields(parent);
  if (!fields) return undefined;
  const pids = (await fs.readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name));
  const children: ProcessTree['children'] = [];
  for (const pid of pids) {
    const child = await statFields(pid);
    if (child && Number(child[1]) === parent) children.push({ pid, fields: child });
  }
  return { pid: String(parent), fields, children };
}

/** The postmaster's CPU with its reaped children's, and its live children's. */
function treeCpu(tree: ProcessTree): number {
  return tree.children.reduce((sum, child) => sum + ticks(child.fields, 11, 12), ticks(tree.fields, 11, 12, 13, 14));
}

/** The postmaster, its live children, and the children it has already reaped. */
export async function postgresCpu(postmaster: number): Promise<number | undefined> {
  const tree = await processTree(postmaster);
  return tree && treeCpu(tree);
}

/**
 * A process's main thread's time so far runnable but not running (in the run queue, waiting for
 * a core) and how often it lost its core without asking (a preemption). On a machine whose cores
 * are all busy, a server whose JavaScript runs on one thread holds up every request it has in
 * hand while that thread waits; CPU time alone does not show that.
 */
export interface RunQueue {
  waitMs: number;
  preempted: number;
}

/**
 * The run queue in a task's /proc/<pid>/schedstat (its time on a core, its time waiting for one,
 * both ns, and its timeslices) and /proc/<pid>/status (`nonvoluntary_ctxt_switches`): both the
 * thread-group leader's own, so a Node.js process's main thread. Undefined where either is not
 * as the kernel writes it.
 */
export function parseRunQueue(schedstat: string, status: string): RunQueue | undefined {
  const fields = schedstat.trim().split(' ');
  const waitNs = fields.length === 3 ? Number(fields[1]) : Number.NaN;
  const preempted = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1]);
  return Number.isFinite(waitNs) && Number.isFinite(preempted) ? { waitMs: waitNs / 1e6, preempted } : undefined;
}

async function runQueue(pid: number | string): Promise<RunQueue | undefined> {
  const [schedstat, status] = await Promise.all([
    fs.readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => undefined),
    fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined),
  ]);
  return schedstat === undefined || status === undefined ? undefined : parseRunQueue(schedstat, status);
}

const isRead = (q: RunQueue | undefined): q is RunQueue => q !== undefined;

/** The run queue of several processes together; undefined where there are none or any cannot be read. */
async function runQueueOf(pids: readonly (number | string)[]): Promise<RunQueue | undefined> {
  const each = await Promise.all(pids.map((pid) => runQueue(pid)));
  const read = each.filter(isRead);
  if (read.length === 0 || read.length < each.length) return undefined;
  return read.reduce((sum, q) => ({ waitMs: sum.waitMs + q.waitMs, preempted: sum.preempted + q.preempted }));
}

/**
 * PostgreSQL's processes' run queue, the postmaster's and its live children's, by process id and
 * start time (field 22 of its stat: an id used again is another process). runQueueBetween counts
 * those alive at both samples: the service's pools keep their backends for a run, and a backend
 * the bench's own pool opens or closes in it is left out.
 */
async function treeRunQueue(tree: ProcessTree): Promise<Map<string, RunQueue>> {
  const processes = [{ pid: tree.pid, fields: tree.fields }, ...tree.children];
  const each = await Promise.all(
    processes.map(
      async ({ pid, fields }): Promise<readonly [string, RunQueue | undefined]> => [
        `${pid}@${fields[19] ?? ''}`,
        await runQueue(pid),
      ],
    ),
  );
  return new Map(each.filter((entry): entry is readonly [string, RunQueue] => entry[1] !== undefined));
}

export async function machineCpu(): Promise<{ busy: number; total: number } | undefined> {
  const text = await fs.readFile('/proc/stat', 'utf8').catch(() => undefined);
  const line = text?.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
}

export async function cpuSnapshot(serverPid: number, postmaster: number | undefined): Promise<CpuSnapshot> {
  const [server, postgres, machine] = await Promise.all([
    processCpu(serverPid),
    postmaster === undefined ? undefined : postgresCpu(postmaster),
    machineCpu(),
  ]);
  const self = process.cpuUsage();
  return {
    server,
    postgres,
    bench: (self.user + self.system) / 1000,
    machineBusy: machine?.busy,
    machineTotal: machine?.total,
  };
}

/** Two readings added, unknown where either is. */
const addKnown = (x: number | undefined, y: number | undefined) =>
  x === undefined || y === undefined ? undefined : x + y;

/** Two runs' CPU together, as if they were one run. */
export function sumCpuUse(a: CpuUse, b: CpuUse): CpuUse {
  return {
    server: addKnown(a.server, b.server),
    postgres: addKnown(a.postgres, b.postgres),
    bench: a.bench + b.bench,
    others: addKnown(a.others, b.others),
    capacity: addKnown(a.capacity, b.capacity),
  };
}

export function cpuUse(before: CpuSnapshot, after: CpuSnapshot): CpuUse {
  const diff = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? undefined : b - a;
  const server = diff(before.server, after.server);
  const postgres = diff(before.postgres, after.postgres);
  const bench = after.bench - before.bench;
  const busy = diff(before.machineBusy, after.machineBusy);
  const others =
    busy === undefined || server === undefined || postgres === undefined
      ? undefined
      : Math.max(0, busy - server - postgres - bench);
  return { server, postgres, bench, others, capacity: diff(before.machineTotal, after.machineTotal) };
}

/** CPU samples (ms) of some named processes, of the bench process and of the machine's busy time. */
export type NamedCpuSample<Name extends string> = Record<Name, number | undefined> & {
  bench: number;
  machineBusy: number | undefined;
  wallMs: number;
};

/** Milliseconds of CPU each named process used between two samples; `others`: the rest of the machine. */
export type NamedCpuUse<Name extends string> = Record<Name, number | undefined> & {
  bench: number;
  others: number | undefined;
  wallMs: number;
};

export function namedCpuUse<Name extends string>(
  names: readonly Name[],
  a: NamedCpuSample<Name>,
  b: NamedCpuSample<Name>,
): NamedCpuUse<Name> {
  const diff = (x: number | undefined, y: number | undefined) =>
    x === undefined || y === undefined ? undefined : y - x;
  const used = Object.fromEntries(names.map((name) => [name, diff(a[name], b[name])])) as Record<
    Name,
    number | undefined
  >;
  const bench = b.bench - a.bench;
  const busy = diff(a.machineBusy, b.machineBusy);
  const known = names.map((name) => used[name]);
  const others =
    busy === undefined || known.some((v) => v === undefined)
      ? undefined
      : Math.max(0, busy - known.reduce<number>((sum, v) => sum + (v ?? 0), 0) - bench);
  return { ...used, bench, others, wallMs: b.wallMs - a.wallMs };
}

/** Two runs' CPU together, as if they were one run (each process's, the rest's and the wall time summed). */
export function sumNamedCpuUse<Name extends string>(
  names: readonly Name[],
  a: NamedCpuUse<Name>,
  b: NamedCpuUse<Name>,
): NamedCpuUse<Name> {
  const used = Object.fromEntries(names.map((name) => [name, addKnown(a[name], b[name])])) as Record<
    Name,
    number | undefined
  >;
  return { ...used, bench: a.bench + b.bench, others: addKnown(a.others, b.others), wallMs: a.wallMs + b.wallMs };
}

/**
 * The machine's CPU a run used, ms: its named processes', the bench's and the others'; undefined
 * where the machine's was not read.
 */
export function machineMs<Name extends string>(names: readonly Name[], use: NamedCpuUse<Name>): number | undefined {
  if (use.others === undefined) return undefined;
  return names.reduce((sum, name) => sum + (use[name] ?? 0), use.bench + use.others);
}

/** A run measured against an aim's rate: its machine's CPU, its units of work and their rate a second. */
export interface BudgetRun {
  label: string;
  machineMs: number | undefined;
  units: number;
  perSecond: number;
}

/**
 * Whether a run was bound by the machine's CPU, and what its aim leaves it. A run's rate is the
 * CPU it used a second over its CPU a unit of work, so at the CPU a second `run` used, the aim's
 * rate allows at most the CPU a unit printed last. `beside`: other runs' CPU a unit, for
 * comparison. Undefined where a run's machine CPU was not read.
 */
export function machineCpuLine(
  run: BudgetRun,
  beside: readonly BudgetRun[],
  aim: { rate: number; what: string },
  unit: { name: string; scale: number; label: string; digits: number },
  cores: number,
): string | undefined {
  const runs = [run, ...beside];
  if (runs.some((r) => r.machineMs === undefined)) return undefined;
  const perUnit = (r: BudgetRun) => ((r.machineMs ?? 0) * unit.scale) / r.units;
  const busy = (r: BudgetRun) =>
    `${((perUnit(r) * r.perSecond) / unit.scale / 10).toFixed(0)}% of ${cores * 100}% busy`;
  const figure = (value: number) => `${value.toFixed(unit.digits)} ${unit.label}`;
  const allowed = (perUnit(run) * run.perSecond) / aim.rate;
  return `the machine's CPU, all processes: ${runs.map((r) => `${r.label} ${figure(perUnit(r))} a ${unit.name}, ${busy(r)}`).join('; ')}; as busy as ${run.label} was, ${aim.what} allows ${figure(allowed)} a ${unit.name}`;
}

/**
 * Two report rows for one run: each named process's (then the bench's and the rest of the
 * machine's) share of one core, and its CPU per unit of work, in `per.label` units
 * (`per.scale` times milliseconds, `per.digits` decimals).
 */
export function namedCpuRows<Name extends string>(
  names: readonly Name[],
  label: string,
  use: NamedCpuUse<Name>,
  count: number,
  per: { label: string; scale: number; digits: number },
): string[][] {
  const columns = [...names.map((name) => use[name]), use.bench, use.others];
  return [
    [label, ...columns.map((ms) => (ms === undefined ? '-' : `${((ms / use.wallMs) * 100).toFixed(0)}%`))],
    [
      `    ${per.label}`,
      ...columns.map((ms) => (ms === undefined ? '-' : ((ms * per.scale) / count).toFixed(per.digits))),
    ],
  ];
}

/** The processes of a run with a webhook receiver: the server, PostgreSQL, the receiver. */
export interface ReceiverRunPids {
  server: number;
  postmaster: number | undefined;
  receiver: number;
}

/** CPU ms used so far by each process of such a run, by the bench itself, and by the machine. */
export interface ReceiverRunCpuSample {
  server: number | undefined;
  postgres: number | undefined;
  receiver: number | undefined;
  bench: number;
  machineBusy: number | undefined;
  machineTotal: number | undefined;
  wallMs: number;
}

export async function receiverRunCpuSample(pids: ReceiverRunPids): Promise<ReceiverRunCpuSample> {
  const [server, postgres, receiver, machine] = await Promise.all([
    processCpu(pids.server),
    pids.postmaster === undefined ? undefined : postgresCpu(pids.postmaster),
    processCpu(pids.receiver),
    machineCpu(),
  ]);
  const self = process.cpuUsage();
  return {
    server,
    postgres,
    receiver,
    bench: (self.user + self.system) / 1000,
    machineBusy: machine?.busy,
    machineTotal: machine?.total,
    wallMs: performance.now(),
  };
}

/** The processes of a run with worker processes: the API (with the sandbox it mounts), PostgreSQL, the workers. */
export interface WorkersRunPids {
  api: number;
  postmaster: number | undefined;
  workers: number[];
}

/** CPU ms used so far by each process of such a run (the workers summed), by the bench itself, and by the machine. */
export interface WorkersRunCpuSample {
  api: number | undefined;
  postgres: number | undefined;
  workers: number | undefined;
  bench: number;
  machineBusy: number | undefined;
  wallMs: number;
  /** The run queue so far of the API's, the workers' and the bench's main threads, and of PostgreSQL's processes (by id and start time). */
  queues: {
    api: RunQueue | undefined;
    workers: RunQueue | undefined;
    bench: RunQueue | undefined;
    postgres: Map<string, RunQueue> | undefined;
  };
}

export async function workersRunCpuSample(pids: WorkersRunPids): Promise<WorkersRunCpuSample> {
  // PostgreSQL's processes are found once for both their CPU and their run queue.
  const postgresRead = async (postmaster: number) => {
    const tree = await processTree(postmaster);
    return tree && { cpu: treeCpu(tree), queue: await treeRunQueue(tree) };
  };
  const [api, machine, apiQueue, workersQueue, benchQueue, postgresNow, ...workers] = await Promise.all([
    processCpu(pids.api),
    machineCpu(),
    runQueue(pids.api),
    runQueueOf(pids.workers),
    runQueue(process.pid),
    pids.postmaster === undefined ? undefined : postgresRead(pids.postmaster),
    ...pids.workers.map((pid) => processCpu(pid)),
  ]);
  const postgres = postgresNow?.cpu;
  const postgresQueue = postgresNow?.queue;
  const self = process.cpuUsage();
  return {
    api,
    postgres,
    workers: workers.some((w) => w === undefined) ? undefined : workers.reduce<number>((a, b) => a + (b ?? 0), 0),
    bench: (self.user + self.system) / 1000,
    machineBusy: machine?.busy,
    wallMs: performance.now(),
    queues: { api: apiQueue, workers: workersQueue, bench: benchQueue, postgres: postgresQueue },
  };
}

/** What each named process's run queue grew by between two samples; PostgreSQL's over the processes alive at both. */
export function runQueueBetween(
  a: WorkersRunCpuSample['queues'],
  b: WorkersRunCpuSample['queues'],
): Record<'api' | 'workers' | 'bench' | 'postgres', RunQueue | undefined> {
  const diff = (x: RunQueue | undefined, y: RunQueue | undefined) =>
    x === undefined || y === undefined
      ? undefined
      : { waitMs: y.waitMs - x.waitMs, preempted: y.preempted - x.preempted };
  let postgres: RunQueue | undefined;
  if (a.postgres !== undefined && b.postgres !== undefined) {
    postgres = { waitMs: 0, preempted: 0 };
    for (const [key, after] of b.postgres) {
      const grown = diff(a.postgres.get(key), after);
      if (grown) postgres = { waitMs: postgres.waitMs + grown.waitMs, preempted: postgres.preempted + grown.preempted };
    }
  }
  return { api: diff(a.api, b.api), workers: diff(a.workers, b.workers), bench: diff(a.bench, b.bench), postgres };
}

/**
 * How often postgresCpuByConnection reads the backends' CPU: often enough that a backend exiting
 * in a run loses little of its CPU (what it spent since the last read), seldom enough that the
 * bench's own reads cost next to nothing.
 */
const BY_CONNECTION_INTERVAL_MS = 1000;

/**
 * PostgreSQL's CPU in a run by whose connection spent it: each backend's (utime + stime) under
 * its connection's application_name (the service names its pools for the process's roles:
 * `switchboard api`, `switchboard worker`), the server's other processes under their type
 * (autovacuum worker, walwriter, ...), the postmaster as `postmaster`. So the service's
 * statements are told apart from the sandbox's, which share the same server.
 *
 * Read when it starts (it answers once that first read is made), then every second until
 * `stop`, for the processes pg_stat_activity lists (every backend and background process): a
 * backend that exits between two reads loses what it spent since the last one, and the
 * sampler's own statement is counted under `pool`'s name. A process is told by its id and its
 * start time, so an id used again is another process. Undefined where /proc or the server
 * cannot be read at the end.
 */
export async function postgresCpuByConnection(
  pool: pg.Pool,
  postmaster: number | undefined,
): Promise<{ stop(): Promise<Map<string, number> | undefined> }> {
  if (postmaster === undefined) return { stop: async () => undefined };
  const names = new Map<number, string>([[postmaster, 'postmaster']]);
  /** By process id and start time: CPU when first seen (0 for one started after the first read), and at the latest read. */
  const seen = new Map<string, { name: string; first: number; last: number }>();
  let first = true;
  const read = async (): Promise<boolean> => {
    let listed = true;
    try {
      const { rows } = await pool.query<{ pid: number; name: string }>(
        `select pid, case when application_name <> '' then application_name else backend_type end as name
           from pg_stat_activity`,
      );
      for (const { pid, name } of rows) names.set(pid, name);
    } catch {
      listed = false;
    }
    for (const [pid, name] of names) {
      const fields = await statFields(pid);
      // Gone, or its id now another process's: only the postmaster's children are PostgreSQL's.
      if (fields === undefined || (pid !== postmaster && Number(fields[1]) !== postmaster)) {
        names.delete(pid);
        continue;
      }
      const key = `${pid}/${fields[19]}`;
      const cpu = ticks(fields, 11, 12);
      const known = seen.get(key);
      if (known) {
        known.last = cpu;
        known.name = name;
      } else seen.set(key, { name, first: first ? cpu : 0, last: cpu });
    }
    first = false;
    return listed;
  };
  await read();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<unknown> = Promise.resolve();
  const next = () => {
    if (stopped) return;
    // Never what keeps the bench's process alive, should a failed run leave it running.
    timer = setTimeout(() => {
      reading = read().then(next);
    }, BY_CONNECTION_INTERVAL_MS).unref();
  };
  next();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await reading;
      if (!(await read())) return undefined;
      const byName = new Map<string, number>();
      for (const { name, first: at, last } of seen.values()) byName.set(name, (byName.get(name) ?? 0) + last - at);
      return byName;
    },
  };
}
