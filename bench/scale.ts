/**
 * `npm run bench:scale`: the service scaled out on one machine, so a reader sees where its cores
 * run out. Everything runs on one database: the embedded PostgreSQL of the first `switchboard
 * api` process (on a temporary DATA_DIR), which the other processes attach to by that DATA_DIR.
 *
 *   (1) API processes: 1, 2 and 4 (`BENCH_SCALE_APIS`) `switchboard api` processes, loaded
 *       together by autocannon from this process, BENCH_CONNECTIONS connections split evenly
 *       over them (as a load balancer would): (a) `GET /v1/profiles` with the first owner key, then
 *       (b) `POST /v1/profiles`. Each: requests/s, p50/p99 latency and the CPU of every process.
 *   (2) Worker processes: 1 and 2 (`BENCH_SCALE_WORKERS`) `switchboard worker` processes beside
 *       the first API process: BENCH_SCALE_EVENTS events, written with the service's own `emit`
 *       100 to a transaction as fast as it goes, each to 10 endpoints on the bench receiver (a
 *       process of its own that answers 200 at once). Deliveries/s from the first commit to the
 *       last arrival, and the CPU of every process.
 *
 * Publish targets/s with one and two worker processes, with the CPU of each process, is the
 * publishing bench's (`npm run bench:scale` runs it next, with BENCH_PUBLISH_TARGETS=500).
 *
 * On a machine whose cores are all busy with one process of each, more processes cannot add
 * throughput: the CPU columns show whether that is so, and which process spends the cores.
 * Errors (exit code 1): an answer other than the expected status, a request error or timeout,
 * a delivery that does not arrive within BENCH_SCALE_STALL_SECONDS of the last one.
 *
 * Settings (environment):
 *   BENCH_SCALE_APIS            API process counts, comma-separated (default 1,2,4)
 *   BENCH_SCALE_WORKERS         worker process counts, comma-separated (default 1,2)
 *   BENCH_SCALE_EVENTS          events of each worker run (default 5000; 10 deliveries each)
 *   BENCH_SCALE_STALL_SECONDS   how long to wait without a new arrival before failing (default 60)
 *   BENCH_DURATION_SECONDS      measured seconds of each API run (default 10)
 *   BENCH_WARMUP_SECONDS        unmeasured seconds before each (default 3)
 *   BENCH_CONNECTIONS           connections of each API run, over all processes (default 48)
 *   BENCH_SCALE_REDIS           1: the API processes count the rate limit in a Redis server of
 *                               the bench's own (Debian's redis-server, REDIS_URL) instead of
 *                               the database
 *   BENCH_SERVER_NODE_ARGS      extra node flags for every process of the service
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Db } from '../src/db/connection.ts';
import { installModules } from '../src/modules.ts';
import { startRedisServer } from '../test/helpers/redis-server.ts';
import { machineCpu, type NamedCpuSample, type NamedCpuUse, namedCpuUse, postgresCpu, processCpu } from './cpu.ts';
import { awaitArrivals, createEndpoints, epochMs, produce } from './fanout.ts';
import { benchSteps, runBench } from './harness.ts';
import { Receiver } from './receiver.ts';
import { outsideNote, percentile, positiveIntFromEnv, table } from './report.ts';
import {
  BenchError,
  embeddedPool,
  firstOwner,
  lastServerOutput,
  postmasterPid,
  type Server,
  startWorkerProcess,
  stopServer,
} from './server.ts';

interface Settings {
  apis: number[];
  workers: number[];
  events: number;
  stallMs: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  redis: boolean;
  nodeArgs: string[];
}

const ENDPOINTS = 10;
const EVENTS_PER_TRANSACTION = 100;

function counts(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const list = raw.split(',').map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) {
    throw new BenchError(`${name}=${JSON.stringify(raw)}: must be whole numbers from 1 to 8, comma-separated`);
  }
  return list;
}

function settings(): Settings {
  return {
    apis: counts('BENCH_SCALE_APIS', [1, 2, 4]),
    workers: counts('BENCH_SCALE_WORKERS', [1, 2]),
    events: positiveIntFromEnv('BENCH_SCALE_EVENTS', 5000),
    stallMs: positiveIntFromEnv('BENCH_SCALE_STALL_SECONDS', 60) * 1000,
    durationSeconds: positiveIntFromEnv('BENCH_DURATION_SECONDS', 10),
    warmupSeconds: positiveIntFromEnv('BENCH_WARMUP_SECONDS', 3),
    connections: positiveIntFromEnv('BENCH_CONNECTIONS', 48),
    redis: ['1', 'true'].includes(process.env.BENCH_SCALE_REDIS ?? ''),
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  };
}

const steps = benchSteps();
const { checkInterrupted, progress } = steps;
const running = new Set<autocannon.Instance>();

// ---------------------------------------------------------------------------------------
// CPU of every process

/** Named processes; `postgres` is the postmaster with its children. */
type Pids = { name: string; pid: number; postgres?: boolean }[];

async function cpuSample(pids: Pids): Promise<NamedCpuSample<string>> {
  const [machine, ...each] = await Promise.all([
    machineCpu(),
    ...pids.map((p) => (p.postgres ? postgresCpu(p.pid) : processCpu(p.pid))),
  ]);
  const self = process.cpuUsage();
  return {
    ...Object.fromEntries(pids.map((p, i) => [p.name, each[i]])),
    bench: (self.user + self.system) / 1000,
    machineBusy: machine?.busy,
    wallMs: performance.now(),
  };
}

/** Milliseconds of CPU each process of `names` used in a run, with the bench's and the rest of the machine's. */
interface CpuUse {
  names: string[];
  used: NamedCpuUse<string>;
}

function cpuBetween(pids: Pids, a: NamedCpuSample<string>, b: NamedCpuSample<string>): CpuUse {
  const names = pids.map((p) => p.name);
  return { names, used: namedCpuUse(names, a, b) };
}

/** "api 1 63%, api 2 58%, postgres 71%, ...": each process's share of one core. */
function cpuLine({ names, used }: CpuUse): string {
  const columns: [string, number | undefined][] = [
    ...names.map((name): [string, number | undefined] => [name, used[name]]),
    ['load generator (bench)', used.bench],
    ['other processes', used.others],
  ];
  return columns
    .map(([name, ms]) => `${name} ${ms === undefined ? '-' : `${((ms / used.wallMs) * 100).toFixed(0)}%`}`)
    .join(', ');
}

/** Milliseconds of CPU of the service's processes and PostgreSQL (not the bench, not others) per unit. */
function serviceCpuPer({ names, used }: CpuUse, units: number): string {
  const each = names.map((name) => used[name]);
  if (each.some((ms) => ms === undefined)) return '-';
  return (each.reduce<number>((sum, ms) => sum + (ms ?? 0), 0) / units).toFixed(3);
}

// ---------------------------------------------------------------------------------------
// (1) API processes

interface Load {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  status: number;
}

interface ApiRun {
  load: Load;
  processes: number;
  perSecond: number;
  p50: number;
  p99: number;
  cpu: CpuUse;
  responses: number;
}

/** One autocannon per process, together; fails on errors, timeouts and any other status. */
async function loadAll(servers: Server[], load: Load, key: string, seconds: number, connections: number) {
  checkInterrupted();
  const latencies: number[] = [];
  const each = Math.max(1, Math.floor(connections / servers.length));
  const instances = servers.map((server) => {
    const instance = autocannon({
      url: `${server.origin}${load.path}`,
      method: load.method,
      connections: each,
      duration: seconds,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(load.body === undefined ? {} : { body: load.body }),
    });
    running.add(instance);
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
    return instance;
  });
  const results = await Promise.all(instances);
  for (const instance of instances) running.delete(instance);
  checkInterrupted();
  let responses = 0;
  let duration = 0;
  for (const result of results) {
    const others = Object.entries(result.statusCodeStats).filter(([code]) => Number(code) !== load.status);
    const problems = [
      ...(others.length > 0
        ? [`answers other than ${load.status}: ${others.map(([c, { count }]) => `${count} × ${c}`).join(', ')}`]
        : []),
      ...(result.errors > 0 ? [`${result.errors} errors (${result.timeouts} timeouts)`] : []),
    ];
    if (problems.length > 0) throw new BenchError(`${load.label}: ${problems.join('; ')}${lastServerOutput()}`);
    responses += result.requests.total;
    duration = Math.max(duration, result.duration);
  }
  return { responses, seconds: duration, latencies: Float64Array.from(latencies).sort() };
}

async function apiRun(servers: Server[], pids: Pids, load: Load, key: string, s: Settings): Promise<ApiRun> {
  progress(`${load.label}, ${servers.length} API process(es): ${s.warmupSeconds} s warm-up, `);
  await loadAll(servers, load, key, s.warmupSeconds, s.connections);
  progress(`${s.durationSeconds} s measured ... `);
  const before = await cpuSample(pids);
  const result = await loadAll(servers, load, key, s.durationSeconds, s.connections);
  const after = await cpuSample(pids);
  progress(`${result.responses} responses\n`);
  return {
    load,
    processes: servers.length,
    perSecond: result.responses / result.seconds,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    cpu: cpuBetween(pids, before, after),
    responses: result.responses,
  };
}

// ---------------------------------------------------------------------------------------
// (2) worker processes

interface WorkerRun {
  processes: number;
  deliveries: number;
  seconds: number;
  perSecond: number;
  cpu: CpuUse;
}

async function workerRun(
  first: Server,
  dataDir: string,
  context: { receiver: Receiver; db: Db; ownerId: string; postmaster: number },
  processes: number,
  s: Settings,
): Promise<WorkerRun> {
  const { receiver, db, ownerId, postmaster } = context;
  progress(`${processes} worker process(es): starting ... `);
  const workers = [];
  try {
    for (let i = 0; i < processes; i++) {
      workers.push(await startWorkerProcess(dataDir, first.origin, i + 1, s.nodeArgs));
    }
    const pids: Pids = [
      { name: 'api', pid: first.pid },
      ...workers.map((w, i) => ({ name: `worker ${i + 1}`, pid: w.pid })),
      { name: 'postgres', pid: postmaster, postgres: true },
      { name: 'receiver', pid: receiver.pid },
    ];
    await receiver.reset(false);
    progress(`${s.events} events × ${ENDPOINTS} endpoints ... `);
    const before = await cpuSample(pids);
    const produced = await produce(db, ownerId, s.events, EVENTS_PER_TRANSACTION, undefined, steps);
    await awaitArrivals(receiver, s.events * ENDPOINTS, s.stallMs, steps);
    const after = await cpuSample(pids);
    const status = await receiver.status();
    const seconds = (status.lastDelivery - produced.firstCommit) / 1000;
    progress(`${status.distinct} delivered in ${seconds.toFixed(1)} s\n`);
    return {
      processes,
      deliveries: status.distinct,
      seconds,
      perSecond: status.distinct / seconds,
      cpu: cpuBetween(pids, before, after),
    };
  } finally {
    for (const worker of workers) await stopServer(worker.child);
  }
}

// ---------------------------------------------------------------------------------------
// Report

function report(apiRuns: ApiRun[], workerRuns: WorkerRun[], s: Settings): string {
  const cores = os.availableParallelism();
  const baseline = (runs: readonly { perSecond: number }[]) => runs[0]?.perSecond ?? Number.NaN;
  const apiTable = table(
    [
      ['(1) API processes', 'processes', 'requests/s', '× one', 'p50 ms', 'p99 ms', 'service CPU ms/request'],
      ...apiRuns.map((r) => {
        const one = baseline(apiRuns.filter((x) => x.load === r.load));
        return [
          r.load.label,
          String(r.processes),
          r.perSecond.toFixed(0),
          (r.perSecond / one).toFixed(2),
          r.p50.toFixed(1),
          r.p99.toFixed(1),
          serviceCpuPer(r.cpu, r.responses),
        ];
      }),
    ],
    [false, true, true, true, true, true, true],
  );
  const workerTable = table(
    [
      [
        '(2) worker processes',
        'processes',
        'deliveries',
        'seconds',
        'deliveries/s',
        '× one',
        'service CPU ms/delivery',
      ],
      ...workerRuns.map((r) => [
        'webhook burst',
        String(r.processes),
        String(r.deliveries),
        r.seconds.toFixed(1),
        r.perSecond.toFixed(0),
        (r.perSecond / baseline(workerRuns)).toFixed(2),
        serviceCpuPer(r.cpu, r.deliveries),
      ]),
    ],
    [false, true, true, true, true, true, true],
  );
  const cpuLines = [
    ...apiRuns.map((r) => `  ${r.load.label}, ${r.processes} API: ${cpuLine(r.cpu)}`),
    ...workerRuns.map((r) => `  webhook burst, ${r.processes} worker: ${cpuLine(r.cpu)}`),
  ];
  const busiest = Math.max(
    ...[...apiRuns, ...workerRuns].map((r) => (r.cpu.used.others ?? 0) / (r.cpu.used.wallMs * cores)),
  );
  return [
    '',
    `bench:scale, ${cores} cores; ${s.connections} connections over the API processes, ${s.durationSeconds} s each; rate limit counted in ${s.redis ? 'Redis (REDIS_URL)' : 'the database'}; ${s.events} events × ${ENDPOINTS} endpoints per worker run`,
    '',
    apiTable,
    '',
    workerTable,
    '',
    `CPU during each run, % of one core (the machine has ${cores * 100}%):`,
    ...cpuLines,
    ...outsideNote(busiest, 'the rates move with that'),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------

process.exitCode = await runBench({
  name: 'scale',
  settings,
  interrupt: () => {
    steps.interrupt();
    for (const instance of running) instance.stop();
  },
  measure: async ({ settings: s, dataDir, atEnd, startService }) => {
    const redis = s.redis ? await startRedisServer() : undefined;
    if (redis) atEnd(() => redis.stop());
    progress(`starting the first API process (DATA_DIR ${dataDir}) ...\n`);
    const env: Record<string, string> = {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...(redis ? { REDIS_URL: redis.url } : {}),
    };
    const first = await startService({ command: 'api', nodeArgs: s.nodeArgs, env });
    const servers = [first];
    while (servers.length < Math.max(...s.apis)) {
      servers.push(await startService({ command: 'api', nodeArgs: s.nodeArgs, env, ownerKey: first.ownerKey }));
    }
    const postmaster = await postmasterPid(dataDir);
    if (postmaster === undefined) throw new BenchError('no embedded PostgreSQL under DATA_DIR');
    const pool = await embeddedPool(dataDir, 'bench-scale', 4);
    // Added last, so it ends first: before the first API process stops its PostgreSQL.
    atEnd(() => pool.end().catch(() => {}));

    const loads: Load[] = [
      { label: '(a) GET /v1/profiles', method: 'GET', path: '/v1/profiles', status: 200 },
      {
        label: '(b) POST /v1/profiles',
        method: 'POST',
        path: '/v1/profiles',
        body: JSON.stringify({ name: 'Scale bench client' }),
        status: 201,
      },
    ];
    const apiRuns: ApiRun[] = [];
    for (const load of loads) {
      for (const n of s.apis) {
        const used = servers.slice(0, n);
        const pids: Pids = [
          ...used.map((server, i) => ({ name: `api ${i + 1}`, pid: server.pid })),
          { name: 'postgres', pid: postmaster, postgres: true },
          ...(redis ? [{ name: 'redis', pid: redis.pid }] : []),
        ];
        apiRuns.push(await apiRun(used, pids, load, first.ownerKey, s));
      }
    }

    const receiver = await Receiver.start();
    atEnd(() => receiver.stop());
    await createEndpoints(first, receiver, ENDPOINTS);
    // This process writes the events itself: their fan-out is the webhooks module's subscriber.
    installModules();
    const db = drizzle(pool) as Db;
    const { ownerId } = await firstOwner(pool);
    const workerRuns: WorkerRun[] = [];
    for (const n of s.workers) {
      workerRuns.push(await workerRun(first, dataDir, { receiver, db, ownerId, postmaster }, n, s));
    }
    progress(`finished at ${new Date(epochMs()).toISOString()}\n`);
    return report(apiRuns, workerRuns, s);
  },
});
