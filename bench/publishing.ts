/**
 * `npm run bench:publishing` (and the last part of `npm run bench`): scheduled publishing.
 *
 * Starts the service's API (`switchboard api`, PLATFORMS=sandbox: the sandbox platforms are
 * mounted at /sandbox of the API) on a temporary DATA_DIR with its embedded PostgreSQL, and
 * sets the sandbox's `container_processing_seconds` (every container stays IN_PROGRESS that
 * long after its creation) and raises its publishing quotas. Connects BENCH_PUBLISH_ACCOUNTS
 * sandbox users (half Instagram, half Threads: the permission page walked, the code exchanged
 * by the adapter, the account stored with the service's own saveConnectedAccount, as the
 * tests do), each with its periodic work held a day ahead in its connection's transaction (a
 * connected account otherwise has its year of insights history read, its insights refreshed and
 * its comments polled at once, by the same workers, which is not what is measured), and uploads
 * one JPEG (POST /v1/media). Then:
 *
 *   (1) one worker: a `switchboard worker` process on the same DATA_DIR (so the same
 *       PostgreSQL and secret key), with PUBLIC_URL at the API so the media URLs it signs
 *       are fetchable by the sandbox. BENCH_PUBLISH_TARGETS posts of one target each (spread
 *       evenly over the accounts) are created through POST /v1/posts with the first owner's
 *       key, all with the same `scheduled_at`, BENCH_PUBLISH_LEAD_SECONDS ahead: the worker is
 *       started first, runs the accounts' subscriptions to comment notices their connections
 *       queued (waited for), and is idle when they fall due.
 *   (2) two workers: the same with two fresh worker processes, new posts on the same accounts,
 *       a later `scheduled_at`.
 *   Before each, the run's worker processes publish a warm-up batch (BENCH_PUBLISH_WARMUP_TARGETS
 *   posts, published at once), not measured, which keeps a fresh process's first seconds (its
 *   code not yet compiled by V8's optimising compiler) out of what is measured: workers run for days.
 *   As many as are measured by default: with one per account (200), when the floor still ran
 *   after the service's runs only, the sandbox had answered 200 targets' calls before the
 *   one-worker run and 2,400 before the floor's, and the one-worker run was measured colder than
 *   the floor (its API with the sandbox, and its worker, dearer a target). The floor's calls,
 *   made from this process, are warmed by as many first, before its first run (now the first of
 *   the bench's measured runs).
 *   (3) the floor: the same adapter calls (quota, createContainer, containerStatus until
 *       finished with the service's read delays (2 s after the creation, then as the platform asks), then
 *       publishContainer) made straight from this process with the adapters pointed at the
 *       same sandbox, for the same number of targets on the same accounts, all started at
 *       once with at most WORKER_CONCURRENCY calls in flight (as many as one worker runs jobs).
 *       Run twice, before (1) and after (2): the machine's speed moves over the minutes
 *       between, so the aims are against both runs together (their targets over their seconds,
 *       the mean of their p99s), and a move of more than a tenth between them is shown;
 *   (4) the floor with writes (bench/publish-floor.ts): the same calls for as many targets, with
 *       the four writes that publish a target exactly once (its start, its container, the claim,
 *       the publication), each committed on its own in a table of the bench's, in the shape the
 *       service's design gives them: runs that each hold one of WORKER_CONCURRENCY slots for
 *       their calls and writes, as a worker's jobs do (two a target when its container is ready
 *       at the first read). A lower bound of that design on
 *       this machine: what the service is short of it is the service's own, what it is short of
 *       the floor is the design's.
 *   (5) the same with twice the slots and twice DB_POOL_SIZE connections, as two worker processes
 *       have: whether the design's least, from one process, gains from twice the slots here.
 *
 * For each target: lateness = published_at (the service's, from the database) − scheduled_at;
 * the run's targets/s = targets / (due time → last published). The floors' lateness is
 * from their start to each target's publish answer. Reported: p50/p99/max lateness, targets/s,
 * the ratio of two workers' rate to one's, each rate as a fraction of the floor's, where the
 * time goes (due → container created and container created → published, from the sandbox's
 * record of each container, the first of each beside p50/p99/max: the first container made says
 * how long the workers took to pick up their first job; polls per target), what the workers' job runs and the floor's calls
 * waited for, per target (HTTP calls and statements, how many and their time summed over the slots
 * in flight: bench/waits.ts, loaded into each worker with `--import`; a slot waiting on a round
 * trip uses no CPU, so this is where a slot's time goes), the CPU of each process and the machine's
 * a target (one worker's beside the floor's, with what 0.8 of the floor's rate allows at one worker's
 * CPU a second: a run that keeps the machine busy is bound by it, not by its slots), how long the API's, the
 * workers', PostgreSQL's and the bench's main threads waited for a core and how often they lost one, a target
 * (their run queue: on busy cores a single-threaded server's wait holds up every request it has), PostgreSQL's CPU by
 * whose connections spent it (the API with the sandbox, the workers, the bench: the service names
 * its connections for their process's roles), and PostgreSQL's
 * transactions, rows and write-ahead log per target (the sandbox's own included: the floor shows its share). Aims:
 * one worker's p99 lateness at most 1.2 times the floor's p99; one worker at least 0.8 of the floor's
 * rate; two workers at least as fast as one (on one machine a second process shares the same cores),
 * beside which (5) of (4) is printed, and whether the design's least misses that aim too in the run.
 * A missed aim is reported, not an error. Errors, which make the exit code 1: a target that
 * fails, takes more than one attempt, or is still unpublished while no target took a step (its
 * status, step or polls) for BENCH_PUBLISH_STALL_SECONDS; a target published twice, or a
 * publication the sandbox's activity does not show exactly
 * once (every target's post is looked for in GET {sandbox}/_control/activity/{platform}/
 * {username}, and each account's count of publications must match); posts still being
 * created when they fall due (raise BENCH_PUBLISH_LEAD_SECONDS).
 *
 * Settings (environment):
 *   BENCH_PUBLISH_TARGETS          targets per run (default 1000)
 *   BENCH_PUBLISH_ACCOUNTS         sandbox accounts (default 200)
 *   BENCH_PUBLISH_PROCESSING_SECONDS  how long each container stays IN_PROGRESS (default 2: finished by the
 *                                     service's first read, 2 s after its creation; a longer one waits for
 *                                     Instagram's and Threads' next read, a minute later)
 *   BENCH_PUBLISH_LEAD_SECONDS     how far ahead the posts are scheduled when their creation
 *                                  starts (default 30); the creation must end before that
 *   BENCH_PUBLISH_CREATE_CONCURRENCY  POST /v1/posts in flight while creating (default 8)
 *   BENCH_PUBLISH_STALL_SECONDS    how long to wait without any target taking a step (default 60)
 *   BENCH_PUBLISH_BESIDE_HISTORY   1: in each run, just before the posts fall due, the accounts
 *                                  are made new to the insights schedule, which queues each one's
 *                                  year of history and first refresh ahead of the posts, as when
 *                                  they were just connected (the report says how many were
 *                                  queued and how many still waited at the end)
 *   BENCH_PUBLISH_WARMUP_TARGETS   posts each run's workers, and the floor's calls, publish before the
 *                                  measured ones (default: as many as are measured, BENCH_PUBLISH_TARGETS;
 *                                  0: none, each measured from its start)
 *   BENCH_PUBLISH_PG_STATEMENTS    1: restart the API once with pg_stat_statements loaded and print
 *                                  the statements of each run and of each floor, per target
 *   BENCH_SERVER_NODE_ARGS         extra node flags for the API and the workers
 *   WORKER_CONCURRENCY, DB_POOL_SIZE, ...  passed to the service as they are (and the floor
 *                                  uses WORKER_CONCURRENCY calls in flight, the floor with
 *                                  writes WORKER_CONCURRENCY runs and DB_POOL_SIZE connections)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import sharp from 'sharp';
import { Agent } from 'undici';
import { appendTo } from '../src/append-to.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/connection.ts';
import { scheduleInsightRefreshes } from '../src/modules/insights/index.ts';
import { findMedia, mediaFetchUrl } from '../src/modules/media/index.ts';
import { installModules } from '../src/modules.ts';
import {
  createPlatforms,
  type Platform,
  type PlatformSet,
  type PublishRequest,
  platformInfo,
  pollWaitMs,
} from '../src/platforms/index.ts';
import { loadSecretKey } from '../src/secrets.ts';
import {
  machineCpuLine,
  machineMs,
  type NamedCpuUse,
  namedCpuRows,
  namedCpuUse,
  postgresCpuByConnection,
  runQueueBetween,
  type WorkersRunCpuSample,
  type WorkersRunPids,
  workersRunCpuSample,
} from './cpu.ts';
import { benchSteps, runBench } from './harness.ts';
import {
  type PgStats,
  pgStats,
  pgStatsBetween,
  restartWithStatements,
  type Statement,
  statements,
  statementsReport,
} from './pg-stats.ts';
import { createPublishFloorTable, dropPublishFloorTable, runPublishFloor, type TargetCalls } from './publish-floor.ts';
import {
  floorAgainstAim,
  met,
  nonNegativeIntFromEnv,
  outsideNote,
  percentile,
  positiveIntFromEnv,
  speedMoved,
  table,
} from './report.ts';
import {
  type Api,
  type BenchAccount,
  call,
  connectAccounts,
  eachLimited,
  holdPeriodicWork,
  interrupt as interruptSandbox,
  sandboxSetting,
  waitForSubscriptions,
} from './sandbox.ts';
import {
  BenchError,
  embeddedPool,
  firstOwner,
  lastServerOutput,
  postmasterPid,
  type Server,
  startWorkerProcess,
  stopServer,
  type WorkerProcess,
} from './server.ts';
import { recordedWaits, recordWaits, type Wait, type WaitTotals, waitsBetween } from './waits.ts';

/** One worker's p99 lateness as a multiple of the floor's p99 in the same run, at most. */
const AIM_P99_OF_FLOOR = 1.2;
/** Two worker processes' targets/s as a multiple of one's, at least: a second process must not slow publishing. */
const AIM_TWO_WORKERS_RATIO = 1;
/** One worker's targets/s as a share of the floor's (the same adapter calls from one process). */
const AIM_OF_FLOOR = 0.8;
/** Node's flag that makes a worker record its waits (bench/waits.ts). */
const WAITS_PRELOAD = `--import=${path.join(import.meta.dirname, 'waits-preload.ts')}`;
const PLATFORMS_USED: Platform[] = ['instagram', 'threads'];
/** The most the sandbox takes for its quotas (posts per account in 24 hours). */
const MAX_SANDBOX_QUOTA = 10_000;
/**
 * The service's container reads (src/modules/posts/publishing/steps.ts): the first 2 s after the
 * container's creation, then as the platform's processing rules say (Instagram and Threads: a
 * minute apart, as they ask; the default processing time is shorter than the first wait).
 */
const FIRST_READ_MS = 2_000;
/** The second floor's name in the report. */
const WITH_WRITES = 'the floor with writes';

interface Settings {
  targets: number;
  accounts: number;
  processingSeconds: number;
  leadMs: number;
  createConcurrency: number;
  stallMs: number;
  workerConcurrency: number;
  dbPoolSize: number;
  serverNodeArgs: string[];
  besideHistory: boolean;
  pgStatements: boolean;
  warmupTargets: number;
}

function settings(): Settings {
  const config = loadConfig(process.env);
  const accounts = positiveIntFromEnv('BENCH_PUBLISH_ACCOUNTS', 200);
  const targets = positiveIntFromEnv('BENCH_PUBLISH_TARGETS', 1000);
  const warmupTargets = nonNegativeIntFromEnv('BENCH_PUBLISH_WARMUP_TARGETS', targets);
  if (Math.ceil(targets / accounts) * 6 + Math.ceil(warmupTargets / accounts) * 3 > MAX_SANDBOX_QUOTA) {
    throw new BenchError(
      `BENCH_PUBLISH_TARGETS=${targets} and BENCH_PUBLISH_WARMUP_TARGETS=${warmupTargets} over ${accounts} accounts: more than the sandbox's quota of ${MAX_SANDBOX_QUOTA} posts per account in six runs and three warm-ups`,
    );
  }
  return {
    targets,
    accounts,
    processingSeconds: positiveIntFromEnv('BENCH_PUBLISH_PROCESSING_SECONDS', 2),
    leadMs: positiveIntFromEnv('BENCH_PUBLISH_LEAD_SECONDS', 30) * 1000,
    createConcurrency: positiveIntFromEnv('BENCH_PUBLISH_CREATE_CONCURRENCY', 8),
    stallMs: positiveIntFromEnv('BENCH_PUBLISH_STALL_SECONDS', 60) * 1000,
    workerConcurrency: config.workerConcurrency,
    dbPoolSize: config.dbPoolSize,
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    besideHistory: ['1', 'true'].includes(process.env.BENCH_PUBLISH_BESIDE_HISTORY ?? ''),
    pgStatements: ['1', 'true'].includes(process.env.BENCH_PUBLISH_PG_STATEMENTS ?? ''),
    warmupTargets,
  };
}

const { interrupt, checkInterrupted, sleep, progress } = benchSteps();

// ---------------------------------------------------------------------------------------
// Setup: the sandbox, accounts, a medium

interface Database {
  pool: pg.Pool;
  db: Db;
}

/** The embedded PostgreSQL the API started under DATA_DIR. */
async function connect(dataDir: string): Promise<Database> {
  const pool = await embeddedPool(dataDir, 'bench-publishing', 4);
  return { pool, db: drizzle(pool) };
}

/** A 1080 x 1080 JPEG of noise: about the size of a real photo, so serving it costs what a photo does. */
async function photo(): Promise<Buffer> {
  return await sharp({
    create: {
      width: 1080,
      height: 1080,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function uploadMedium(api: Api, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'bench.jpg');
  const response = await fetch(`${api.origin}/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}` },
    body: form,
  });
  const text = await response.text();
  if (response.status !== 201) throw new BenchError(`POST /v1/media answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

// ---------------------------------------------------------------------------------------
// CPU

type Pids = WorkersRunPids;
const cpuSample = workersRunCpuSample;

const CPU_NAMES = ['api', 'postgres', 'workers'] as const;
type CpuUse = NamedCpuUse<(typeof CPU_NAMES)[number]> & { queues: ReturnType<typeof runQueueBetween> };

function cpuBetween(a: WorkersRunCpuSample, b: WorkersRunCpuSample): CpuUse {
  return { ...namedCpuUse(CPU_NAMES, a, b), queues: runQueueBetween(a.queues, b.queues) };
}

/** A row of the run-queue table: each process's main threads' ms waiting for a core and preemptions, per target ('-': not read, or no such process). */
function queueRow(label: string, u: CpuUse, targets: number): string[] {
  return [
    label,
    ...(['api', 'workers', 'postgres', 'bench'] as const).map((name) => {
      const q = u.queues[name];
      return q === undefined ? '-' : `${(q.waitMs / targets).toFixed(2)} / ${(q.preempted / targets).toFixed(1)}`;
    }),
  ];
}

/**
 * Whether one worker's run was bound by the machine's CPU, and the CPU a target 0.8 of the floor's
 * rate (both its runs together, as the aims) allows at one worker's CPU a second. A second's CPU is
 * taken at the run's rate: the samples' window ends a poll after the last publication.
 */
function oneWorkerCpuLine(one: RunResult, floors: Floors, cores: number): string | undefined {
  const { after } = floors;
  return machineCpuLine(
    { label: 'one worker', machineMs: machineMs(CPU_NAMES, one.cpu), units: one.targets, perSecond: one.perSecond },
    [
      {
        label: "the floor (its run after the service's)",
        machineMs: machineMs(CPU_NAMES, after.cpu),
        units: after.targets,
        perSecond: after.perSecond,
      },
    ],
    { rate: AIM_OF_FLOOR * floorsRate(floors), what: `${AIM_OF_FLOOR} of the floor's rate` },
    { name: 'target', scale: 1, label: 'ms', digits: 1 },
    cores,
  );
}

/** PostgreSQL flushes an idle backend's statistics within 10 s (PGSTAT_IDLE_INTERVAL). */
const PG_STATS_SETTLE_MS = 11_000;

async function pgStatsAfter(database: Database, before: PgStats): Promise<PgStats> {
  await sleep(PG_STATS_SETTLE_MS);
  return pgStatsBetween(before, await pgStats(database.pool));
}

// ---------------------------------------------------------------------------------------
// The service's runs

interface TargetRow {
  id: string;
  post_id: string;
  account_id: string;
  status: string;
  step: string | null;
  platform_post_id: string | null;
  attempts: number;
  polls: number;
  error: unknown;
  scheduled_at: Date;
  published_at: Date | null;
  container_created_at: Date | null;
}

async function targetRows(database: Database, postIds: string[]): Promise<TargetRow[]> {
  const { rows } = await database.pool.query<TargetRow>(
    `select t.id, t.post_id, t.account_id, t.status, t.step, t.platform_post_id, t.attempts, t.polls, t.error,
            p.scheduled_at, t.published_at, c.created_at as container_created_at
     from post_targets t
     join posts p on p.id = t.post_id
     left join sandbox.containers c on c.id = split_part(t.container_id, '.', 1)
     where t.post_id = any($1::text[])`,
    [postIds],
  );
  return rows;
}

type TargetStep = Pick<TargetRow, 'id' | 'status' | 'step' | 'polls' | 'error'>;

/**
 * Where each target is, read once a second while a run goes on (the rate comes from the
 * targets' own times, not from these reads), from its own row only: the PostgreSQL it reads is
 * the one measured. Joined with the sandbox's containers every 250 ms, as targetRows is, the
 * reads took a quarter of the statements' time in the run; now about 4 ms a second.
 */
async function targetSteps(database: Database, postIds: string[]): Promise<TargetStep[]> {
  const { rows } = await database.pool.query<TargetStep>(
    'select id, status, step, polls, error from post_targets where post_id = any($1::text[])',
    [postIds],
  );
  return rows;
}

interface RunResult {
  label: string;
  workers: number;
  targets: number;
  /** The targets' due time, ms since the epoch. */
  dueAt: number;
  /** Due time → last published. */
  seconds: number;
  perSecond: number;
  /** Sorted, milliseconds. */
  lateness: Float64Array;
  /** Due → container created; container created → published (sorted, ms). */
  toContainer: Float64Array;
  containerToPublished: Float64Array;
  polls: number;
  createSeconds: number;
  rows: TargetRow[];
  cpu: CpuUse;
  /** PostgreSQL's CPU ms in the run by connection name (postgresCpuByConnection); undefined where it cannot be read. */
  pgCpu: Map<string, number> | undefined;
  pg: PgStats;
  /** With BENCH_PUBLISH_PG_STATEMENTS: pg_stat_statements from the due time to the last published. */
  statements?: Statement[];
  /** With BENCH_PUBLISH_BESIDE_HISTORY: the insights jobs queued before the due time, and those still queued at the end. */
  beside?: { queued: number; waitingAtEnd: number };
  /** The targets published by the same worker processes before the measured ones (warmUp). */
  warmupRows?: TargetRow[];
  /** What the workers waited for from the due time to the last published, summed (bench/waits.ts). */
  waits?: WaitTotals;
}

/** `count` posts of one target each, over the accounts in turn, due at `due` (undefined: published at once). */
async function createPosts(ctx: Context, label: string, count: number, due: Date | undefined): Promise<string[]> {
  const { api, accounts, mediaId, s } = ctx;
  const postIds: string[] = new Array(count);
  await eachLimited(
    Array.from({ length: count }, (_, i) => i),
    s.createConcurrency,
    async (i) => {
      const account = accounts[i % accounts.length] as BenchAccount;
      const res = await call(api, 'POST', `${api.origin}/v1/posts`, {
        account_ids: [account.id],
        text: `${label}: bench post ${i}`,
        media_ids: [mediaId],
        ...(due === undefined ? {} : { scheduled_at: due.toISOString() }),
      });
      if (res.status !== 201) throw new BenchError(`POST /v1/posts answered ${res.status}: ${res.text}`);
      postIds[i] = (JSON.parse(res.text) as { id: string }).id;
    },
  );
  return postIds;
}

/** Publishes `count` posts at once through the run's worker processes, and waits for every one. */
async function warmUp(ctx: Context, label: string, count: number, workerCount: number): Promise<TargetRow[]> {
  progress(
    `${label}: ${count} posts published at once through the ${workerCount === 1 ? 'worker' : 'workers'}, not measured ... `,
  );
  const postIds = await createPosts(ctx, label, count, undefined);
  return await awaitFinished(ctx.database, postIds, ctx.s.stallMs);
}

interface Context {
  api: Api;
  server: Server;
  database: Database;
  accounts: BenchAccount[];
  mediaId: string;
  s: Settings;
  dataDir: string;
  postmaster: number | undefined;
  atEnd: (step: () => Promise<void>) => void;
}

async function serviceRun(ctx: Context, label: string, workerCount: number): Promise<RunResult> {
  const { api, database, accounts, s } = ctx;
  progress(`${label}: starting ${workerCount} worker process${workerCount === 1 ? '' : 'es'} ... `);
  const workers: WorkerProcess[] = [];
  const waitsDir = await fs.mkdtemp(path.join(ctx.dataDir, 'waits-'));
  let result: RunResult | undefined;
  try {
    for (let i = 0; i < workerCount; i++) {
      const worker = await startWorkerProcess(ctx.dataDir, api.origin, i + 1, [...s.serverNodeArgs, WAITS_PRELOAD], {
        BENCH_WAITS_DIR: waitsDir,
      });
      workers.push(worker);
      const kill = () => {
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
      };
      process.on('exit', kill);
      ctx.atEnd(async () => {
        process.off('exit', kill);
        await stopServer(worker.child);
      });
    }
    // The connections queued each account's subscription to comment notices: done before the
    // posts fall due, so the workers are idle then.
    await waitForSubscriptions(database.pool, accounts.length, s.stallMs, { checkInterrupted, sleep, progress });
    // Workers run for days, their code long compiled by V8's optimising compiler; a fresh one
    // runs it interpreted at first. A batch published first, not measured, keeps a fresh
    // process's first seconds out of what is measured.
    const warmupRows =
      s.warmupTargets === 0 ? [] : await warmUp(ctx, `${label}, warming up`, s.warmupTargets, workerCount);
    const due = new Date(Date.now() + s.leadMs);
    // Whole seconds: what a scheduler would be given.
    due.setUTCMilliseconds(0);
    progress(`creating ${s.targets} posts due at ${due.toISOString()} ... `);
    const createStart = performance.now();
    const postIds = await createPosts(ctx, label, s.targets, due);
    const createSeconds = (performance.now() - createStart) / 1000;
    if (Date.now() > due.getTime() - 1000) {
      throw new BenchError(
        `creating the posts took ${createSeconds.toFixed(1)} s, past their due time: raise BENCH_PUBLISH_LEAD_SECONDS (${s.leadMs / 1000})`,
      );
    }
    progress(`created in ${createSeconds.toFixed(1)} s; `);
    const queued = s.besideHistory ? await queueHistory(database, accounts) : undefined;
    progress('waiting ... ');
    const pids: Pids = { api: ctx.server.pid, postmaster: ctx.postmaster, workers: workers.map((w) => w.pid) };
    await sleep(due.getTime() - Date.now());
    await resetStatements(ctx);
    const pgBefore = await pgStats(database.pool);
    const byConnection = await postgresCpuByConnection(database.pool, ctx.postmaster);
    const cpuBefore = await cpuSample(pids);
    const [rows, pgCpu] = await measuredWith(byConnection, awaitFinished(database, postIds, s.stallMs));
    const cpuAfter = await cpuSample(pids);
    const statementsOfRun = await measuredStatements(ctx);
    // Polls of awaitFinished count too: one transaction a second, reported beside them.
    const pg = await pgStatsAfter(database, pgBefore);
    result = summarise(label, workerCount, due, rows, createSeconds, cpuBetween(cpuBefore, cpuAfter), pgCpu, pg);
    if (statementsOfRun !== undefined) result.statements = statementsOfRun;
    result.warmupRows = warmupRows;
    if (queued !== undefined) result.beside = { queued, waitingAtEnd: await insightJobsWaiting(database) };
  } finally {
    for (const worker of workers) await stopServer(worker.child);
  }
  // Each worker wrote its waits as it exited.
  const waits: Wait[] = [];
  for (const worker of workers) {
    waits.push(...(JSON.parse(await fs.readFile(path.join(waitsDir, `${worker.pid}.json`), 'utf8')) as Wait[]));
  }
  result.waits = waitsBetween(waits, result.dueAt, result.dueAt + result.seconds * 1000);
  return result;
}

/**
 * The accounts as if just connected: their insight sync state forgotten, then the schedule's
 * own step (what the worker's every-minute task runs) queues each one's history reading (a
 * year, 30 days a step) and first refresh, ahead of the posts about to fall due.
 */
async function queueHistory(database: Database, accounts: BenchAccount[]): Promise<number> {
  const ids = accounts.map((a) => a.id);
  await database.pool.query('delete from insight_sync_state where account_id = any($1::text[])', [ids]);
  const queued = await scheduleInsightRefreshes({ db: database.db });
  progress(`${queued} insights jobs queued (history and first refresh of ${ids.length} accounts); `);
  return queued;
}

/** Insights jobs (history readings, refreshes) still queued, through graphile-worker's public `jobs` view. */
async function insightJobsWaiting(database: Database): Promise<number> {
  const { rows } = await database.pool.query<{ n: string }>(
    `select count(*) as n from graphile_worker.jobs where task_identifier in ('fill_insight_history', 'refresh_insights')`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Polls the database until every target has finished; fails on a failed target or a stall: no
 * target taking any step (its status, step or polls changing) for `stallMs`. Publishing comes
 * last: every target's container is made before the first poll is due, so a run can go on for a
 * while with none published yet.
 */
async function awaitFinished(database: Database, postIds: string[], stallMs: number): Promise<TargetRow[]> {
  let seen = '';
  let progressAt = performance.now();
  for (;;) {
    checkInterrupted();
    const rows = await targetSteps(database, postIds);
    const failed = rows.filter((r) => r.status === 'failed' || r.status === 'cancelled');
    if (failed.length > 0) {
      throw new BenchError(
        `${failed.length} targets did not publish, e.g. ${failed[0]?.id}: ${JSON.stringify(failed[0]?.error)}${lastServerOutput()}`,
      );
    }
    const published = rows.filter((r) => r.status === 'published').length;
    if (rows.length === postIds.length && published === rows.length) {
      progress(`${published} published\n`);
      return await targetRows(database, postIds);
    }
    const steps = rows
      .map((r) => `${r.id} ${r.status} ${r.step} ${r.polls}`)
      .sort()
      .join('\n');
    if (steps !== seen) {
      seen = steps;
      progressAt = performance.now();
    } else if (performance.now() - progressAt > stallMs) {
      const waiting = rows.find((r) => r.status !== 'published');
      throw new BenchError(
        `${rows.length - published} of ${postIds.length} targets still unpublished, and none took a step for ${stallMs / 1000} s (e.g. ${waiting?.id}, ${waiting?.status}/${waiting?.step})${lastServerOutput()}`,
      );
    }
    await sleep(1000);
  }
}

function summarise(
  label: string,
  workers: number,
  due: Date,
  rows: TargetRow[],
  createSeconds: number,
  cpu: CpuUse,
  pgCpu: Map<string, number> | undefined,
  pg: PgStats,
): RunResult {
  const lateness = new Float64Array(rows.length);
  const toContainer = new Float64Array(rows.length);
  const containerToPublished = new Float64Array(rows.length);
  let last = Number.NEGATIVE_INFINITY;
  let polls = 0;
  let c = 0;
  rows.forEach((r, i) => {
    const published = (r.published_at as Date).getTime();
    lateness[i] = published - r.scheduled_at.getTime();
    last = Math.max(last, published);
    polls += r.polls;
    if (r.attempts !== 1) throw new BenchError(`${label}: target ${r.id} took ${r.attempts} attempts`);
    if (r.container_created_at !== null) {
      toContainer[c] = r.container_created_at.getTime() - r.scheduled_at.getTime();
      containerToPublished[c] = published - r.container_created_at.getTime();
      c += 1;
    }
  });
  if (c !== rows.length) throw new BenchError(`${label}: ${rows.length - c} targets have no container in the sandbox`);
  const seconds = (last - due.getTime()) / 1000;
  return {
    label,
    workers,
    targets: rows.length,
    dueAt: due.getTime(),
    seconds,
    perSecond: rows.length / seconds,
    lateness: lateness.sort(),
    toContainer: toContainer.sort(),
    containerToPublished: containerToPublished.sort(),
    polls: polls / rows.length,
    createSeconds,
    rows,
    cpu,
    pgCpu,
    pg,
  };
}

// ---------------------------------------------------------------------------------------
// The floor

interface FloorResult {
  /** Its name in the report. */
  label: string;
  targets: number;
  seconds: number;
  perSecond: number;
  lateness: Float64Array;
  polls: number;
  /** Platform post ids per account. */
  published: Map<string, string[]>;
  cpu: CpuUse;
  pgCpu: Map<string, number> | undefined;
  pg: PgStats;
  /** With BENCH_PUBLISH_PG_STATEMENTS: the sandbox's statements, and the floor's writes when it makes them. */
  statements?: Statement[];
  /** What the bench's calls waited for, summed (bench/waits.ts). */
  waits: WaitTotals;
  /** Targets published first, not measured, to warm the bench's calls up. */
  warmupTargets: number;
}

/**
 * The floor without writes, measured before the service's runs and again after them. The
 * machine's speed moves over the minutes between (the floor alone moved from 123 to 162
 * targets/s from one run of the bench to the next, with no change), so the aims hold the service
 * against both together: their targets over their seconds, and the mean of their p99s. The
 * tables of CPU, waits and statements show the run after.
 */
interface Floors {
  before: FloorResult;
  after: FloorResult;
}

function floorsRate({ before, after }: Floors): number {
  return (before.targets + after.targets) / (before.seconds + after.seconds);
}

function floorsP99({ before, after }: Floors): number {
  return (percentile(before.lateness, 99) + percentile(after.lateness, 99)) / 2;
}

/** The measured work's answer, and PostgreSQL's CPU by connection during it; the sampler stopped however the work ends. */
async function measuredWith<T>(
  sampler: { stop(): Promise<Map<string, number> | undefined> },
  work: Promise<T>,
): Promise<[T, Map<string, number> | undefined]> {
  let answer: T;
  try {
    answer = await work;
  } catch (error) {
    await sampler.stop();
    throw error;
  }
  return [answer, await sampler.stop()];
}

/** With BENCH_PUBLISH_PG_STATEMENTS: pg_stat_statements forgets what came before a measured run. */
async function resetStatements(ctx: Context): Promise<void> {
  if (ctx.s.pgStatements) await ctx.database.pool.query('select pg_stat_statements_reset()');
}

async function measuredStatements(ctx: Context): Promise<Statement[] | undefined> {
  return ctx.s.pgStatements ? await statements(ctx.database.pool) : undefined;
}

/** A floor made with the writes (bench/publish-floor.ts), with as many slots and connections as `workers` worker processes have. */
interface WithWrites {
  workers: 1 | 2;
}

/** The name of the floor with writes for `workers` worker processes' slots, in the report. */
function withWritesLabel({ workers }: WithWrites): string {
  return workers === 1 ? WITH_WRITES : `${WITH_WRITES}, ${workers} workers' slots`;
}

/** Which run of the floor without writes: the one before the service's runs warms the bench's calls up. */
type FloorWhen = 'before' | 'after';

async function floor(
  ctx: Context,
  platforms: PlatformSet,
  secretKey: Buffer,
  withWrites?: WithWrites,
  when: FloorWhen = 'after',
): Promise<FloorResult> {
  const { api, database, accounts, mediaId, s } = ctx;
  const owner = await firstOwner(database.pool);
  const [medium] = await findMedia(database.db, owner.ownerId, [mediaId]);
  if (!medium) throw new BenchError(`medium ${mediaId} not found`);
  // The URL the workers hand the platform: signed under the API's address.
  const config = loadConfig({ ...process.env, DATA_DIR: ctx.dataDir, PUBLIC_URL: api.origin });
  const mediaUrl = await mediaFetchUrl({ db: database.db, secretKey, config }, medium);
  const label = withWrites ? withWritesLabel(withWrites) : `floor, ${when} the service's runs`;
  const slotCount = s.workerConcurrency * (withWrites?.workers ?? 1);
  // As many connections as the worker processes have.
  const connections = s.dbPoolSize * (withWrites?.workers ?? 0);
  const writes = withWrites ? await embeddedPool(ctx.dataDir, 'bench-publishing', connections) : undefined;
  try {
    if (writes) {
      await createPublishFloorTable(writes);
      // Every connection opened before the measured window, as a worker's are by its warm-up.
      const clients = await Promise.all(Array.from({ length: connections }, () => writes.connect()));
      for (const client of clients) client.release();
    }
    const callsOf = (i: number, text = `${label}: bench post ${i}`): TargetCalls => {
      const account = accounts[i % accounts.length] as BenchAccount;
      const adapter = platforms.adapter(account.platform);
      const { credentials } = account;
      const rules = platformInfo(account.platform).publishing.processing;
      return {
        quota: async () => {
          const quota = await adapter.publishing.publishingQuota(credentials);
          if (quota !== null && quota.used >= quota.limit)
            throw new BenchError(`${label}: ${account.username}'s quota is spent`);
        },
        createContainer: async () => {
          const request: PublishRequest = {
            text,
            media: [{ type: 'image', url: mediaUrl }],
            options: {},
          };
          return (await adapter.publishing.createContainer(credentials, request)).containerId;
        },
        containerWait: async (containerId, reads) => {
          const status = await adapter.publishing.containerStatus(credentials, containerId);
          if (status.state === 'finished') return null;
          if (status.state !== 'in_progress')
            throw new BenchError(`${label}: container ${containerId} is ${status.state}`);
          if (rules === null) throw new BenchError(`${label}: ${account.platform} answered a container in progress`);
          return pollWaitMs(rules, reads);
        },
        publish: async (containerId) => (await adapter.publishing.publishContainer(credentials, containerId)).id,
      };
    };
    const published = new Map<string, string[]>();
    const record = (postIds: readonly string[]) => {
      for (const [i, id] of postIds.entries()) {
        appendTo(published, (accounts[i % accounts.length] as BenchAccount).id, id);
      }
    };
    // The floor's calls are made from this process, which has made none before: a batch first,
    // not measured, as the workers publish theirs, so that the floor too is measured with its
    // code compiled (the later floors follow it, on the same code).
    const warmupTargets = !withWrites && when === 'before' ? s.warmupTargets : 0;
    if (warmupTargets > 0) {
      progress(`${label}, warming up: ${s.warmupTargets} targets, not measured ... `);
      const warmup = await runPublishFloor({
        targets: s.warmupTargets,
        concurrency: slotCount,
        firstReadMs: FIRST_READ_MS,
        callsOf: (i) => callsOf(i, `${label}, warming up: bench post ${i}`),
        sleep,
      });
      record(warmup.postIds);
      progress(`${s.warmupTargets} published\n`);
    }
    progress(
      withWrites
        ? `${label}: ${s.targets} targets, the adapter calls with a target's four writes, a slot a run, ${slotCount} runs in flight ... `
        : `${label}: ${s.targets} targets, the adapter calls straight from this process, ${slotCount} in flight ... `,
    );
    const pids: Pids = { api: ctx.server.pid, postmaster: ctx.postmaster, workers: [] };
    await resetStatements(ctx);
    const pgBefore = await pgStats(database.pool);
    const byConnection = await postgresCpuByConnection(database.pool, ctx.postmaster);
    const cpuBefore = await cpuSample(pids);
    recordWaits();
    const startedAt = Date.now();
    const [run, pgCpu] = await measuredWith(
      byConnection,
      runPublishFloor({
        targets: s.targets,
        concurrency: slotCount,
        // As the service does: the first read 2 s after the container's creation.
        firstReadMs: FIRST_READ_MS,
        callsOf,
        ...(writes ? { writes } : {}),
        sleep,
      }),
    );
    const cpuAfter = await cpuSample(pids);
    const statementsOfFloor = await measuredStatements(ctx);
    const seconds = (Math.max(...run.lateness) as number) / 1000;
    progress(`${s.targets} published in ${seconds.toFixed(1)} s\n`);
    const pg = await pgStatsAfter(database, pgBefore);
    record(run.postIds);
    return {
      label,
      targets: s.targets,
      seconds,
      perSecond: s.targets / seconds,
      lateness: run.lateness.sort(),
      polls: run.polls / s.targets,
      published,
      cpu: cpuBetween(cpuBefore, cpuAfter),
      pgCpu,
      pg,
      ...(statementsOfFloor === undefined ? {} : { statements: statementsOfFloor }),
      waits: waitsBetween(recordedWaits(), startedAt, startedAt + seconds * 1000),
      warmupTargets,
    };
  } finally {
    if (writes) {
      // A failed drop must neither hide the run's own error nor keep the pool open.
      await dropPublishFloorTable(writes)
        .catch(() => {})
        .finally(() => writes.end());
    }
  }
}

// ---------------------------------------------------------------------------------------
// Exactly once, by the sandbox's activity

interface ActivityCheck {
  publications: number;
  accounts: number;
}

async function checkActivity(ctx: Context, runs: RunResult[], floors: FloorResult[]): Promise<ActivityCheck> {
  const expected = new Map<string, string[]>();
  for (const run of runs) {
    for (const row of [...(run.warmupRows ?? []), ...run.rows]) {
      appendTo(expected, row.account_id, row.platform_post_id as string);
    }
  }
  for (const f of floors) for (const [accountId, ids] of f.published) appendTo(expected, accountId, ...ids);
  const problems: string[] = [];
  let publications = 0;
  await eachLimited(ctx.accounts, 8, async (account) => {
    const res = await call(
      ctx.api,
      'GET',
      `${ctx.api.sandboxUrl}/_control/activity/${account.platform}/${account.username}`,
    );
    if (res.status !== 200) throw new BenchError(`activity of ${account.username}: ${res.status} ${res.text}`);
    const entries = (JSON.parse(res.text) as { data: { action: string; target_id: string }[] }).data.filter(
      (e) => e.action === 'publish',
    );
    publications += entries.length;
    const seen = new Map<string, number>();
    for (const e of entries) seen.set(e.target_id, (seen.get(e.target_id) ?? 0) + 1);
    const ids = expected.get(account.id) ?? [];
    if (entries.length !== ids.length) {
      problems.push(`${account.username}: ${entries.length} publications in the sandbox, ${ids.length} expected`);
    }
    for (const id of ids) {
      const n = seen.get(id) ?? 0;
      if (n !== 1) problems.push(`${account.username}: post ${id} published ${n} times`);
    }
  });
  if (problems.length > 0) {
    throw new BenchError(
      `the sandbox's activity does not show each publication once: ${problems.slice(0, 5).join('; ')}`,
    );
  }
  return { publications, accounts: ctx.accounts.length };
}

// ---------------------------------------------------------------------------------------
// Report

/** `1 worker`, `2 workers`: a run's label in the report's tables. */
function workersLabel(workers: number): string {
  return `${workers} worker${workers === 1 ? '' : 's'}`;
}

/** Where the floor's two runs differ by more than a tenth, how much: the machine's speed moved. */
function floorsMove({ before, after }: Floors): string {
  const move = speedMoved(before.perSecond, after.perSecond);
  if (move === undefined) return '';
  return ` (the machine's speed moved: the run after at ${move.toFixed(2)} times the rate of the run before)`;
}

function report(
  runs: RunResult[],
  floors: Floors,
  written: readonly [FloorResult, FloorResult],
  activity: ActivityCheck,
  s: Settings,
  imageBytes: number,
): string {
  const seconds = (ms: number) => (Number.isFinite(ms) ? (ms / 1000).toFixed(2) : '-');
  const last = (a: Float64Array) => a[a.length - 1] ?? Number.NaN;
  const [one, two] = runs as [RunResult, RunResult];
  const [fw, fw2] = written;
  const f = floors.after;
  const floorRate = floorsRate(floors);
  const resultRow = (label: string, r: FloorResult | RunResult) => [
    label,
    String(r.targets),
    r.seconds.toFixed(2),
    r.perSecond.toFixed(1),
    (r.perSecond / floorRate).toFixed(3),
    seconds(percentile(r.lateness, 50)),
    seconds(percentile(r.lateness, 99)),
    seconds(last(r.lateness)),
    r.polls.toFixed(2),
  ];
  const results = table(
    [
      [
        'run (lateness: due → published)',
        'targets',
        'seconds',
        'targets/s',
        'of floor',
        'p50 s',
        'p99 s',
        'max s',
        'polls/target',
      ],
      ...runs.map((r) => resultRow(`service, ${r.workers} worker process${r.workers === 1 ? '' : 'es'}`, r)),
      resultRow(`${floors.before.label}: the adapter calls from one process`, floors.before),
      resultRow(`${f.label}: the same`, f),
      resultRow(`${fw.label}: the calls and a target's 4 writes, a slot a run`, fw),
      resultRow(`${fw2.label}: as many slots and connections as two workers`, fw2),
    ],
    [false, true, true, true, true, true, true, true, true],
  );
  const split = table(
    [
      ['where the time goes', 'first s', 'p50 s', 'p99 s', 'max s'],
      ...runs.flatMap((r) => [
        [
          `${workersLabel(r.workers)}: due → container created (pickup, quota, media URL, create)`,
          seconds(r.toContainer[0] ?? Number.NaN),
          seconds(percentile(r.toContainer, 50)),
          seconds(percentile(r.toContainer, 99)),
          seconds(last(r.toContainer)),
        ],
        [
          `${workersLabel(r.workers)}: container created → published (processing ${s.processingSeconds} s, polls, publish)`,
          seconds(r.containerToPublished[0] ?? Number.NaN),
          seconds(percentile(r.containerToPublished, 50)),
          seconds(percentile(r.containerToPublished, 99)),
          seconds(last(r.containerToPublished)),
        ],
      ]),
    ],
    [false, true, true, true, true],
  );
  // Summed over the run's calls in flight: a slot's time in each, a target's share.
  const waitRow = (label: string, w: WaitTotals | undefined, n: number) =>
    w === undefined
      ? [label, '-', '-', '-', '-']
      : [
          label,
          (w.http.count / n).toFixed(1),
          (w.http.ms / n).toFixed(1),
          (w.statement.count / n).toFixed(1),
          (w.statement.ms / n).toFixed(1),
        ];
  const waits = table(
    [
      ['waited for, summed over the slots, per target', 'HTTP calls', 'their ms', 'statements', 'their ms'],
      ...runs.map((r) => waitRow(workersLabel(r.workers), r.waits, r.targets)),
      waitRow(`${f.label} (bench: the adapter calls)`, f.waits, f.targets),
      ...written.map((w) => waitRow(`${w.label} (bench)`, w.waits, w.targets)),
    ],
    [false, true, true, true, true],
  );
  const ratio = two.perSecond / one.perSecond;
  const floorRatio = fw2.perSecond / fw.perSecond;
  const p99 = percentile(one.lateness, 99);
  const floorP99 = floorsP99(floors);
  const aims = table(
    [
      ['aim', 'measured', ''],
      [
        `one worker's p99 lateness at most ${AIM_P99_OF_FLOOR} times the floor's (${seconds(floorP99)} s, both runs' mean)`,
        `${seconds(p99)} s, ${(p99 / floorP99).toFixed(2)} times`,
        met(p99 <= AIM_P99_OF_FLOOR * floorP99),
      ],
      [
        `one worker at least ${AIM_OF_FLOOR} of the floor's targets/s (both runs together)`,
        (one.perSecond / floorRate).toFixed(3),
        met(one.perSecond / floorRate >= AIM_OF_FLOOR),
      ],
      [
        `two workers at least ${AIM_TWO_WORKERS_RATIO} times one worker's targets/s (not slower)`,
        ratio.toFixed(3),
        // The design's least with two workers' slots, measured in the same run, against the same aim.
        `${met(ratio >= AIM_TWO_WORKERS_RATIO)} (${fw2.label}, of ${fw.label}: ${floorAgainstAim(floorRatio, AIM_TWO_WORKERS_RATIO)})`,
      ],
    ],
    [false, true, false],
  );
  const cores = os.availableParallelism();
  /** A table's rows for every run: the service's, the floor's and the floors with writes', each labelled for what it measured. */
  const everyRun = <Row>(
    row: (label: string, run: Pick<FloorResult, 'cpu' | 'pg' | 'pgCpu' | 'targets'>) => Row,
    floorMeasured: string,
    writtenMeasured: string,
  ): Row[] => [
    ...runs.map((r) => row(workersLabel(r.workers), r)),
    row(`${f.label} (${floorMeasured})`, f),
    ...written.map((w) => row(`${w.label} (${writtenMeasured})`, w)),
  ];
  const cpuRows = (label: string, u: CpuUse, n: number) =>
    namedCpuRows(['api', 'workers', 'postgres'] as const, label, u, n, {
      label: 'ms of CPU per target',
      scale: 1,
      digits: 1,
    });
  const queues = table(
    [
      [
        "waiting for a core, per target: main threads' ms in the run queue / preemptions",
        'api+sandbox',
        'workers',
        'postgres',
        'bench',
      ],
      ...everyRun(
        (label, r) => queueRow(label, r.cpu, r.targets),
        'bench: the adapter calls',
        'bench: the calls and writes',
      ),
    ],
    [false, true, true, true, true],
  );
  const cpu = table(
    [
      [
        `CPU, % of one core (of ${cores * 100}%), due → last published`,
        'api+sandbox',
        'workers',
        'postgres',
        'bench',
        'others',
      ],
      ...everyRun(
        (label, r) => cpuRows(label, r.cpu, r.targets),
        'bench: the adapter calls',
        'bench: the calls and writes',
      ).flat(),
    ],
    [false, true, true, true, true, true],
  );
  // The service's connections are named for the process's roles (src/db/connection.ts); the
  // bench's own pool is `bench-publishing`. `other`: the server's own processes (autovacuum,
  // the WAL writer, ...) and the service's unpooled connections (its listeners, the liveness
  // lock, the embedded server's presence connections).
  const pgCpuRow = (label: string, byName: Map<string, number> | undefined, n: number) => {
    if (byName === undefined) return [label, '-', '-', '-', '-'];
    const api = byName.get('switchboard api') ?? 0;
    const workers = byName.get('switchboard worker') ?? 0;
    const bench = byName.get('bench-publishing') ?? 0;
    const total = [...byName.values()].reduce((a, b) => a + b, 0);
    return [label, ...[api, workers, bench, total - api - workers - bench].map((ms) => (ms / n).toFixed(1))];
  };
  const pgCpu = table(
    [
      ["PostgreSQL's CPU by connection, ms per target", 'api+sandbox', 'workers', 'bench', 'other'],
      ...everyRun((label, r) => pgCpuRow(label, r.pgCpu, r.targets), 'the sandbox alone', 'the sandbox and the writes'),
    ],
    [false, true, true, true, true],
  );
  const pgRow = (label: string, p: PgStats, n: number) => [
    label,
    (p.transactions / n).toFixed(1),
    (p.inserted / n).toFixed(1),
    (p.updated / n).toFixed(1),
    (p.hotUpdated / n).toFixed(1),
    (p.deleted / n).toFixed(1),
    (p.walBytes / n).toFixed(0),
    (p.walFullPages / n).toFixed(2),
    String(p.checkpoints),
  ];
  const database = table(
    [
      [
        'PostgreSQL per target (sandbox included)',
        'transactions',
        'inserted',
        'updated',
        'heap-only',
        'deleted',
        'WAL bytes',
        'full-page images',
        'checkpoints in the run',
      ],
      ...everyRun((label, r) => pgRow(label, r.pg, r.targets), 'the sandbox alone', 'the sandbox and the writes'),
    ],
    [false, true, true, true, true, true, true, true, true],
  );
  const busiest = Math.max(
    ...[...runs.map((r) => r.cpu), floors.before.cpu, f.cpu, ...written.map((w) => w.cpu)].map(
      (u) => (u.others ?? 0) / (u.wallMs * cores),
    ),
  );
  const note = outsideNote(busiest, 'rates and lateness move with that.');
  return [
    '',
    `Switchboard publishing bench: ${s.targets} targets due at the same second over ${s.accounts} sandbox accounts (${PLATFORMS_USED.join(' and ')}), one ${(imageBytes / 1024).toFixed(0)} KiB JPEG each, containers IN_PROGRESS for ${s.processingSeconds} s; WORKER_CONCURRENCY ${s.workerConcurrency}, DB_POOL_SIZE ${s.dbPoolSize} per process; node ${process.version}, ${cores} CPUs`,
    '',
    results,
    '',
    `ratio of targets/s, two workers / one: ${ratio.toFixed(3)}; ${fw2.label} / ${fw.label}: ${floorRatio.toFixed(3)} (what twice the slots and connections give the design's least)`,
    `one worker of ${fw.label}: ${(one.perSecond / fw.perSecond).toFixed(3)} of its targets/s, its p99 lateness ${(p99 / percentile(fw.lateness, 99)).toFixed(2)} times; ${fw.label} of the floor: ${(fw.perSecond / floorRate).toFixed(3)} of its targets/s, its p99 lateness ${(percentile(fw.lateness, 99) / floorP99).toFixed(2)} times (a lower bound of the service's design, bench/publish-floor.ts)`,
    ...runs.flatMap((r) =>
      r.beside
        ? [
            `${r.label}, beside the insights of the ${s.accounts} accounts as if just connected: ${r.beside.queued} history readings and refreshes queued before the due time, ${r.beside.waitingAtEnd} still queued when the last target was published`,
          ]
        : [],
    ),
    `the floor ran before the service's runs and again after them: ${floors.before.perSecond.toFixed(1)} and ${f.perSecond.toFixed(1)} targets/s, p99 ${seconds(percentile(floors.before.lateness, 99))} and ${seconds(percentile(f.lateness, 99))} s${floorsMove(floors)}; "of floor" and the aims are against both together, ${floorRate.toFixed(1)} targets/s`,
    `posts created through POST /v1/posts in ${runs.map((r) => `${r.createSeconds.toFixed(1)} s`).join(' and ')} (before they fell due, not measured above)`,
    '',
    aims,
    '',
    split,
    '',
    waits,
    '',
    cpu,
    ...[oneWorkerCpuLine(one, floors, cores)].filter((line) => line !== undefined),
    ...note,
    '',
    queues,
    '',
    pgCpu,
    '',
    database,
    '',
    `checks: every target published on its first attempt; the sandbox's activity shows ${activity.publications} publications over ${activity.accounts} accounts, each target's post exactly once (${runs.map((r) => `${r.targets} + ${r.warmupRows?.length ?? 0} warming up`).join(' + ')} by the service, ${[floors.before, f].map((r) => `${r.targets}${r.warmupTargets > 0 ? ` + ${r.warmupTargets} warming up` : ''}`).join(' + ')} by the floor, ${written.map((w) => `${w.targets} ${w.label}`).join(', ')})`,
    ...runs.flatMap((r) =>
      r.statements
        ? ['', statementsReport(r.statements, r.targets, 'target', `the ${r.workers === 1 ? 'one' : 'two'}-worker run`)]
        : [],
    ),
    ...(f.statements
      ? ['', statementsReport(f.statements, f.targets, 'target', `the ${f.label} (the sandbox alone)`)]
      : []),
    ...written.flatMap((w) =>
      w.statements
        ? ['', statementsReport(w.statements, w.targets, 'target', `${w.label} (the sandbox and the writes)`)]
        : [],
    ),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------

process.exitCode = await runBench({
  name: 'publishing',
  settings,
  interrupt: () => {
    interrupt();
    interruptSandbox();
  },
  measure: async ({ settings: s, dataDir, atEnd, startService }) => {
    progress(`starting the API (DATA_DIR ${dataDir}) ...\n`);
    const serverOptions = {
      command: 'api' as const,
      nodeArgs: s.serverNodeArgs,
      env: { PLATFORMS: 'sandbox', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    };
    let server = await startService(serverOptions);
    if (s.pgStatements) server = await restartWithStatements(server, dataDir, startService, serverOptions, progress);
    const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
    atEnd(() => agent.close());
    const api: Api = { origin: server.origin, key: server.ownerKey, sandboxUrl: `${server.origin}/sandbox`, agent };
    progress(`API pid ${server.pid} at ${server.origin}\n`);
    const database = await connect(dataDir);
    // Added after the server, so it ends first: before the server stops its PostgreSQL.
    atEnd(() => database.pool.end().catch(() => {}));
    if (s.pgStatements) await database.pool.query('create extension if not exists pg_stat_statements');
    installModules();
    const secretKey = await loadSecretKey(undefined, dataDir);
    const platforms = createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: api.sandboxUrl },
      { dispatcher: agent },
    );

    await sandboxSetting(api, 'container_processing_seconds', s.processingSeconds);
    await sandboxSetting(api, 'instagram_publish_quota', MAX_SANDBOX_QUOTA);
    await sandboxSetting(api, 'threads_publish_quota', MAX_SANDBOX_QUOTA);
    progress(`connecting ${s.accounts} sandbox accounts ... `);
    const owner = await firstOwner(database.pool);
    const accounts = await connectAccounts(api, database.db, platforms, secretKey, {
      count: s.accounts,
      platforms: PLATFORMS_USED,
      placement: () => owner,
      concurrency: 8,
      // Publishing alone is measured: no insights history, refresh or comment poll beside it.
      inTransaction: holdPeriodicWork,
    });
    const image = await photo();
    const mediaId = await uploadMedium(api, image);
    progress(`done; medium ${mediaId} (${image.length} bytes)\n`);

    const ctx: Context = {
      api,
      server,
      database,
      accounts,
      mediaId,
      s,
      dataDir,
      postmaster: await postmasterPid(dataDir),
      atEnd,
    };
    const before = await floor(ctx, platforms, secretKey, undefined, 'before');
    const one = await serviceRun(ctx, 'run 1', 1);
    const two = await serviceRun(ctx, 'run 2', 2);
    const after = await floor(ctx, platforms, secretKey, undefined, 'after');
    const fw = await floor(ctx, platforms, secretKey, { workers: 1 });
    const fw2 = await floor(ctx, platforms, secretKey, { workers: 2 });
    progress('checking the sandbox activity ... ');
    const activity = await checkActivity(ctx, [one, two], [before, after, fw, fw2]);
    progress('done\n');
    return report([one, two], { before, after }, [fw, fw2], activity, s, image.length);
  },
});
