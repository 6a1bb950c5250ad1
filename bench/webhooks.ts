/**
 * `npm run bench:webhooks` (and the second half of `npm run bench`): webhook fan-out.
 *
 * Starts, each in a process of its own:
 *   - a receiver (bench/receiver-process.ts): node:http on 127.0.0.1, 200 at once, records
 *     every arrival;
 *   - the service, `switchboard serve` (API and workers) on a temporary DATA_DIR with
 *     WEBHOOK_ALLOW_PRIVATE_URLS=true, as bench/run.ts does.
 * Creates BENCH_WEBHOOK_ENDPOINTS endpoints (POST /v1/webhooks, first owner key), each
 * subscribed to `post.published` at its own path of the receiver, and writes the deliveries
 * those endpoints would hold after 29 days (BENCH_WEBHOOK_HISTORY), then a checkpoint. Then,
 * in this process:
 *
 *   (a) baseline: as many signed POSTs as there will be deliveries (same envelope shape and
 *       size, same headers, a real Service-Signature computed per request) sent straight to
 *       the receiver with undici, keep-alive, as many requests in flight as the service can have
 *       (WORKER_CONCURRENCY jobs, each sending one event to every endpoint). Run twice: before
 *       the service's runs and again just after (b); the ratios are against both together, and
 *       a difference of more than a tenth between the two is shown (the machine's speed moved);
 *   (a2) the baseline with a delivery's writes (bench/webhook-floor.ts): as many deliveries, each
 *       written in PostgreSQL (its event's transaction, BENCH_WEBHOOK_BATCH events each) before it
 *       is sent as (a) sends it, and its answer written after (a group commit); the least that
 *       durable deliveries cost here, so the floor (b) is measured against beside (a);
 *   (a3) the same into the service's own tables (bench/webhook-floor.ts, serviceTables): each
 *       event as the events module records it, its deliveries and each answer as the webhooks
 *       module writes them, every index included; run last, after (c2), so its rows are not in
 *       the way of the others. What the service's writes cost without its job queue;
 *   (a3c) (a3) at (c)'s pace, after it: (c)'s events, one a transaction, at (c)'s rate with as many
 *       committing at once, each delivery sent once committed; its commit → POST sent and commit
 *       → answer read (a delivery's arrival lies between) are (c)'s floor, beside (c)'s aim;
 *   (b) throughput: BENCH_WEBHOOK_EVENTS events written with the service's own
 *       `emit(tx, event)` on the embedded PostgreSQL, BENCH_WEBHOOK_BATCH events per
 *       transaction, as fast as the database takes them: a burst, delivered by the workers.
 *       Deliveries/s = deliveries / (first commit → last first arrival). Its commit → first
 *       attempt times are mostly the wait in the queue the burst builds (the last event
 *       waits until the backlog before it is sent), so they are shown, not judged;
 *   (c) latency: BENCH_WEBHOOK_LATENCY_EVENTS events, one per transaction (as the service
 *       emits them), paced at BENCH_WEBHOOK_LATENCY_RATE events/s: by default the aimed
 *       2,000 deliveries/s. Each transaction starts at its time, with up to PACED_IN_FLIGHT
 *       committing at once (as the service's requests and jobs emit side by side), so a slow
 *       commit does not lower the rate offered. The p99 aim is judged here: the delay at the
 *       aimed rate;
 *   (c2) latency beside other work: (c) again, BENCH_WEBHOOK_BUSY_EVENTS events, while
 *       BENCH_WEBHOOK_BUSY_LOOPS processes each keep a core busy (bench/busy.ts), as another
 *       program on the machine would: the p99 aim must hold there too.
 *   For (c) and (c2), the second of commits whose worst delivery waited longest, its waits split
 *       into commit → attempt started (queue and worker) and attempt started → arrival (the
 *       POST), with the checkpoints, autovacuums and lock waits PostgreSQL logged around it
 *       (bench/slowest-second.ts): a missed p99 is a stretch in which every event waits.
 *
 * Each event's commit time is when its transaction's COMMIT returned; a delivery's arrival is
 * when the receiver had the request's headers. Commit → first attempt is reported over every
 * delivery (the aim) and over the first delivery of each event. Also reported: the
 * baseline's requests/s and the ratios (b)/(a), (a2)/(a), (b)/(a2), (a3)/(a) and (b)/(a3), the aims, the CPU each process used,
 * the machine's CPU a delivery of (b) and of (a3) beside what 0.6 of (a)'s rate allows at (b)'s CPU a
 * second (a run that keeps the machine busy is bound by it), and for (b) the PostgreSQL transactions
 * and rows per delivery. Checks that every delivery the
 * database holds for the measured events arrived and ended `succeeded` (duplicates are
 * allowed by at-least-once delivery and reported), and that every arrival's signature
 * verifies with its endpoint's secret (`verifyWebhook`, checked after each run). A missed
 * aim is reported, not an error; deliveries still missing after BENCH_WEBHOOK_STALL_SECONDS
 * without progress, a bad signature or a failed request are errors, and make the exit code 1.
 *
 * Settings (environment):
 *   BENCH_WEBHOOK_EVENTS          events of (b), the burst (default 20000)
 *   BENCH_WEBHOOK_ENDPOINTS       endpoints, 1 to 10 (default 10, the most an owner may have)
 *   BENCH_WEBHOOK_BATCH           events per transaction in (b) (default 100)
 *   BENCH_WEBHOOK_LATENCY_EVENTS  events of (c), the paced run (default: BENCH_WEBHOOK_EVENTS)
 *   BENCH_WEBHOOK_LATENCY_RATE    events per second in (c) and (c2) (default 2000 / endpoints)
 *   BENCH_WEBHOOK_BUSY_LOOPS      busy processes beside (c2) (default 1: half of a 2-core machine; 0: no (c2))
 *   BENCH_WEBHOOK_BUSY_EVENTS     events of (c2) (default: BENCH_WEBHOOK_EVENTS, at most 4000)
 *   BENCH_WEBHOOK_WARMUP_EVENTS   unmeasured fan-out before the measured ones (default 100)
 *   BENCH_WEBHOOK_HISTORY         deliveries already kept before the runs, spread over the last 29
 *                                 days with their events (bench/webhook-history.ts; default
 *                                 2000000, 0 for none): the history of an agency's endpoints
 *   BENCH_WEBHOOK_STALL_SECONDS   how long to wait without a new arrival before failing (default 90)
 *   BENCH_WEBHOOK_PG_STATEMENTS   1: restart the service once with pg_stat_statements loaded and print
 *                                 the statements of (b) and of (c) (calls per delivery, time)
 *   BENCH_WEBHOOK_RECEIVER_HOST   the host the endpoints' URLs name (default 127.0.0.1); the receiver listens
 *                                 on 127.0.0.1, so a name must resolve there: `localhost` makes the service
 *                                 check the name at every attempt, as for a receiver on the internet (the
 *                                 baseline's undici looks it up once a connection)
 *   BENCH_SERVER_NODE_ARGS        extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   WORKER_CONCURRENCY, DB_POOL_SIZE, ...  passed to the service as they are (and the
 *                                 baseline uses WORKER_CONCURRENCY x endpoints requests in flight)
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { Agent } from 'undici';
import { loadConfig } from '../src/config.ts';
import { owners } from '../src/modules/owners/tables.ts';
import { installModules } from '../src/modules.ts';
import { besideBusyLoops } from './busy.ts';
import {
  machineCpuLine,
  machineMs,
  type NamedCpuUse,
  namedCpuRows,
  namedCpuUse,
  type ReceiverRunCpuSample,
  type ReceiverRunPids,
  receiverRunCpuSample,
  sumNamedCpuUse,
} from './cpu.ts';
import { awaitArrivals, createEndpoints, type Endpoint, envelopeOf, type Produced, produce } from './fanout.ts';
import { benchSteps, runBench } from './harness.ts';
import {
  logStalls,
  type PgStats,
  pgStats,
  pgStatsBetween,
  restartWithStatements,
  type Statement,
  statements,
  statementsReport,
} from './pg-stats.ts';
import { type Arrival, type DumpSummary, parseDump, Receiver } from './receiver.ts';
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
import { BenchError, embeddedPool, lastServerOutput, postmasterPid } from './server.ts';
import { postSigned } from './signed-post.ts';
import { postgresLogBetween, type SlowestSecond, slowestSecond, type TimedDelivery } from './slowest-second.ts';
import {
  createFloorTables,
  dropFloorTables,
  FLOOR_SCHEMA,
  type FloorWrites,
  floorTables,
  runDurableFloor,
  serviceTables,
} from './webhook-floor.ts';
import { HISTORY_SPAN_DAYS, seedHistory } from './webhook-history.ts';

const AIM_DELIVERIES_PER_SECOND = 2000;
const AIM_P99_MS = 250;
const AIM_RATIO = 0.6;
/** PostgreSQL's CPU per delivery of (b), at most. */
const AIM_POSTGRES_US_PER_DELIVERY = 150;
/** The most endpoints an owner may have (422 webhook_limit_reached beyond). */
const MAX_ENDPOINTS = 10;
/**
 * Transactions a paced run ((c), (c2)) may have committing at once: one at a time, on a database
 * busy enough that a commit takes longer than the interval between events, the producer offered
 * less than the aimed rate (1,533 of 2,000 deliveries/s on 2026-12-02), and the aim was judged
 * below it. The service's API process alone emits from DB_POOL_SIZE (10) connections.
 */
const PACED_IN_FLIGHT = 8;
/** PostgreSQL flushes an idle backend's statistics within 10 s (PGSTAT_IDLE_INTERVAL). */
const PG_STATS_SETTLE_MS = 11_000;

interface Settings {
  events: number;
  endpoints: number;
  batch: number;
  latencyEvents: number;
  /** Events per second in (c). */
  latencyRate: number;
  /** Processes each keeping a core busy beside (c2), the paced run again. */
  busyLoops: number;
  /** Events of (c2). */
  busyEvents: number;
  warmupEvents: number;
  history: number;
  stallMs: number;
  workerConcurrency: number;
  dbPoolSize: number;
  serverNodeArgs: string[];
  pgStatements: boolean;
  receiverHost: string;
}

/** A host name or an IPv4 address, as a URL's host may hold it without brackets. */
const RECEIVER_HOST = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i;

function settings(): Settings {
  const endpoints = positiveIntFromEnv('BENCH_WEBHOOK_ENDPOINTS', MAX_ENDPOINTS);
  if (endpoints > MAX_ENDPOINTS) {
    throw new BenchError(`BENCH_WEBHOOK_ENDPOINTS=${endpoints}: an owner may have at most ${MAX_ENDPOINTS} endpoints`);
  }
  // The service's own reading of its settings (defaults included), so the report names what ran.
  const config = loadConfig(process.env);
  const events = positiveIntFromEnv('BENCH_WEBHOOK_EVENTS', 20_000);
  return {
    events,
    endpoints,
    batch: positiveIntFromEnv('BENCH_WEBHOOK_BATCH', 100),
    latencyEvents: positiveIntFromEnv('BENCH_WEBHOOK_LATENCY_EVENTS', events),
    latencyRate: positiveIntFromEnv('BENCH_WEBHOOK_LATENCY_RATE', Math.ceil(AIM_DELIVERIES_PER_SECOND / endpoints)),
    busyLoops: nonNegativeIntFromEnv('BENCH_WEBHOOK_BUSY_LOOPS', 1),
    busyEvents: positiveIntFromEnv('BENCH_WEBHOOK_BUSY_EVENTS', Math.min(events, 4000)),
    warmupEvents: positiveIntFromEnv('BENCH_WEBHOOK_WARMUP_EVENTS', 100),
    history: nonNegativeIntFromEnv('BENCH_WEBHOOK_HISTORY', 2_000_000),
    stallMs: positiveIntFromEnv('BENCH_WEBHOOK_STALL_SECONDS', 90) * 1000,
    workerConcurrency: config.workerConcurrency,
    dbPoolSize: config.dbPoolSize,
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    pgStatements: ['1', 'true'].includes(process.env.BENCH_WEBHOOK_PG_STATEMENTS ?? ''),
    receiverHost: receiverHost(process.env.BENCH_WEBHOOK_RECEIVER_HOST),
  };
}

function receiverHost(value: string | undefined): string {
  if (value === undefined || value === '') return '127.0.0.1';
  if (!RECEIVER_HOST.test(value)) {
    throw new BenchError(`BENCH_WEBHOOK_RECEIVER_HOST=${JSON.stringify(value)}: give a host name or an IPv4 address`);
  }
  return value;
}

/** "1 busy process", "2 busy processes". */
function busyProcesses(n: number): string {
  return `${n} busy ${n === 1 ? 'process' : 'processes'}`;
}

const steps = benchSteps();
const { interrupt, isInterrupted, checkInterrupted, sleep, progress } = steps;

// ---------------------------------------------------------------------------------------
// CPU and database statistics

type CpuSample = ReceiverRunCpuSample;
type Pids = ReceiverRunPids;

const CPU_NAMES = ['server', 'postgres', 'receiver'] as const;
type CpuUse = NamedCpuUse<(typeof CPU_NAMES)[number]>;

function cpuBetween(a: CpuSample, b: CpuSample): CpuUse {
  return namedCpuUse(CPU_NAMES, a, b);
}

// ---------------------------------------------------------------------------------------
// Setup

// ---------------------------------------------------------------------------------------
// (a) baseline

interface BaselineResult {
  requests: number;
  seconds: number;
  perSecond: number;
  cpu: CpuUse;
}

/**
 * (a) measured twice, before the service's runs and just after the burst (b), and the two
 * together: the machine's speed moves over the minute between them (a ratio of one code moved by
 * a third from run to run), so (b) is held against both, and a move is shown.
 */
interface Baselines extends BaselineResult {
  before: BaselineResult;
  after: BaselineResult;
}

function bothBaselines(before: BaselineResult, after: BaselineResult): Baselines {
  const requests = before.requests + after.requests;
  const seconds = before.seconds + after.seconds;
  return {
    requests,
    seconds,
    perSecond: requests / seconds,
    cpu: sumNamedCpuUse(CPU_NAMES, before.cpu, after.cpu),
    before,
    after,
  };
}

/** `count` signed POSTs, `concurrency` at a time, spread over the endpoints' paths. */
async function sendSigned(agent: Agent, receiver: Receiver, endpoints: Endpoint[], count: number, concurrency: number) {
  // The service serialises each envelope once, when the event is written: so are these.
  const bodies = Array.from({ length: count }, (_, i) => envelopeOf(randomUUID(), i));
  const urls = endpoints.map((_, i) => receiver.url('b', i));
  let next = 0;
  let failures = 0;
  let firstFailure = '';
  const loop = async () => {
    while (next < count && !isInterrupted()) {
      const i = next++;
      const endpoint = i % endpoints.length;
      try {
        const status = await postSigned(
          agent,
          urls[endpoint] ?? '',
          endpoints[endpoint]?.secret ?? '',
          bodies[i] ?? '',
          randomUUID(),
        );
        if (status !== 200) {
          failures += 1;
          firstFailure ||= `answered ${status}`;
        }
      } catch (error) {
        failures += 1;
        firstFailure ||= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  checkInterrupted();
  if (failures > 0) throw new BenchError(`baseline: ${failures} requests failed, the first: ${firstFailure}`);
}

async function baseline(
  receiver: Receiver,
  endpoints: Endpoint[],
  count: number,
  concurrency: number,
  pids: Pids,
  when: string,
): Promise<BaselineResult> {
  const agent = new Agent({ keepAliveTimeout: 60_000 });
  try {
    const warmup = Math.min(count, 2000);
    progress(`(a) baseline, ${when}: ${warmup} warm-up POSTs, `);
    await sendSigned(agent, receiver, endpoints, warmup, concurrency);
    await receiver.reset(true);
    progress(`${count} measured, ${concurrency} in flight ... `);
    const before = await receiverRunCpuSample(pids);
    const started = performance.now();
    await sendSigned(agent, receiver, endpoints, count, concurrency);
    const seconds = (performance.now() - started) / 1000;
    const after = await receiverRunCpuSample(pids);
    const received = (await receiver.status()).baseline;
    if (received !== count) throw new BenchError(`baseline: sent ${count} POSTs, the receiver counted ${received}`);
    progress(`${(count / seconds).toFixed(0)}/s\n`);
    return { requests: count, seconds, perSecond: count / seconds, cpu: cpuBetween(before, after) };
  } finally {
    await agent.close();
  }
}

// ---------------------------------------------------------------------------------------
// (a2) the baseline with a delivery's writes

interface FloorResult {
  deliveries: number;
  seconds: number;
  perSecond: number;
  cpu: CpuUse;
  /** Paced runs only: ms from each delivery's commit to its POST sent, and to its answer read, ascending. */
  waits: Float64Array;
  answered: Float64Array;
  /** Paced runs with BENCH_WEBHOOK_PG_STATEMENTS: its statements, to read beside (c)'s. */
  statements: Statement[] | undefined;
}

/**
 * The baseline's POSTs for as many deliveries, each written before it is sent and its answer
 * after (bench/webhook-floor.ts), in the service's PostgreSQL: (a2) in the floor's own tables,
 * what durable deliveries cost at the least here, against which (b) is measured as well as
 * against (a); (a3) in the service's tables, what its writes cost without its job queue.
 */
async function floorWithWrites(
  receiver: Receiver,
  endpoints: Endpoint[],
  pool: pg.Pool,
  s: Settings,
  pids: Pids,
  floor: { label: string; writes: FloorWrites; paced?: boolean },
): Promise<FloorResult> {
  // The floor's own tables are made for the run and dropped after it; the service's are there.
  const ownTables = floor.writes === floorTables;
  const agent = new Agent({ keepAliveTimeout: 60_000 });
  const urls = endpoints.map((_, i) => receiver.url('b', i));
  const options = {
    endpoints: endpoints.length,
    batch: s.batch,
    concurrency: s.workerConcurrency * endpoints.length,
    post: (endpoint: number, body: string, deliveryId: string) =>
      postSigned(agent, urls[endpoint] ?? '', endpoints[endpoint]?.secret ?? '', body, deliveryId),
    isInterrupted,
    writes: floor.writes,
  };
  try {
    if (ownTables) await createFloorTables(pool);
    const warmup = Math.min(s.events, 200);
    progress(`${floor.label}: ${warmup} warm-up events, `);
    await runDurableFloor(pool, { ...options, events: warmup });
    if (ownTables) await pool.query(`truncate ${FLOOR_SCHEMA}.events, ${FLOOR_SCHEMA}.deliveries`);
    await receiver.reset(true);
    // Paced: (c)'s events, one a transaction at (c)'s rate, as many committing at once as (c) lets.
    const measured = floor.paced
      ? { events: s.latencyEvents, batch: 1, pace: { rate: s.latencyRate, inFlight: PACED_IN_FLIGHT }, sleep }
      : { events: s.events };
    progress(
      `${measured.events} events × ${endpoints.length} endpoints measured${floor.paced ? `, 1 per transaction, ${s.latencyRate} events/s` : ''} ... `,
    );
    const withStatements = s.pgStatements && floor.paced === true;
    if (withStatements) await pool.query('select pg_stat_statements_reset()');
    const before = await receiverRunCpuSample(pids);
    const run = await runDurableFloor(pool, { ...options, ...measured });
    const after = await receiverRunCpuSample(pids);
    const statementsOfRun = withStatements ? await statements(pool) : undefined;
    checkInterrupted();
    const expected = measured.events * endpoints.length;
    const received = (await receiver.status()).baseline;
    if (run.deliveries !== expected || received !== expected || run.recorded !== expected) {
      throw new BenchError(
        `${floor.label}: ${run.deliveries} deliveries sent, ${received} received, ${run.recorded} answers recorded, not ${expected} each`,
      );
    }
    const seconds = (run.lastAnswer - run.firstCommit) / 1000;
    progress(`${(expected / seconds).toFixed(0)}/s\n`);
    return {
      deliveries: expected,
      seconds,
      perSecond: expected / seconds,
      cpu: cpuBetween(before, after),
      waits: run.waits,
      answered: run.answered,
      statements: statementsOfRun,
    };
  } finally {
    await agent.close();
    // Not in the way of an error already thrown (an interrupted run's pool may be closing).
    if (ownTables) await dropFloorTables(pool).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------
// (b) fan-out

interface DeliveryRow {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  /** Epoch ms of its first attempt's start, kept in its own row (later ones in webhook_attempts); null before one. */
  first_attempt_at: number | null;
}

/** The deliveries the database holds for these events, once none of them is pending (or after 60 s). */
async function deliveriesOf(pool: pg.Pool, eventIds: string[]): Promise<DeliveryRow[]> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const { rows } = await pool.query<DeliveryRow>(
      `select id, event_id, status, attempt_count,
         (extract(epoch from (attempts->0->>'attempted_at')::timestamptz) * 1000)::float8 as first_attempt_at
       from webhook_deliveries where event_id = any($1::uuid[])`,
      [eventIds],
    );
    if (!rows.some((r) => r.status === 'pending') || performance.now() > deadline) return rows;
    checkInterrupted();
    await sleep(250);
  }
}

interface FanOutResult {
  run: Run;
  events: number;
  deliveries: number;
  producedSeconds: number;
  /** First commit to the last first arrival. */
  seconds: number;
  perSecond: number;
  /** Commit → first attempt, every delivery; sorted. */
  latencies: Float64Array;
  /** Commit → first attempt, the earliest delivery of each event; sorted. */
  firstPerEvent: Float64Array;
  duplicates: number;
  unexpected: number;
  statuses: Map<string, number>;
  attempts: number;
  signatures: DumpSummary;
  cpu: CpuUse;
  pg: PgStats;
  /** pg_stat_statements of the run, when loaded. */
  statements: Statement[] | undefined;
  /** A paced run's worst second of commits, and what PostgreSQL logged around it. */
  slowest: { second: SlowestSecond; log: { at: number; line: string }[]; intoRunMs: number } | undefined;
}

interface Context {
  receiver: Receiver;
  pool: pg.Pool;
  ownerId: string;
  s: Settings;
  pids: Pids;
  dataDir: string;
}

interface Run {
  label: string;
  events: number;
  /** Events per transaction. */
  batch: number;
  /** Events per second, or undefined: as fast as possible. */
  rate: number | undefined;
  /** Waits for PostgreSQL's statistics to settle. */
  statistics: boolean;
  /** Reads pg_stat_statements of the run, if loaded. */
  statements: boolean;
}

async function fanOut(ctx: Context, run: Run): Promise<FanOutResult> {
  const { receiver, pool, ownerId, s, pids, dataDir } = ctx;
  const { label, events: count } = run;
  // This process writes the events itself: their fan-out is the webhooks module's subscriber.
  installModules();
  const db = drizzle(pool);
  const expected = count * s.endpoints;
  await receiver.reset(false);
  if (s.pgStatements && run.statements) await pool.query('select pg_stat_statements_reset()');
  const pgBefore = await pgStats(pool);
  const cpuBefore = await receiverRunCpuSample(pids);
  const pace = run.rate === undefined ? 'as fast as possible' : `${run.rate} events/s`;
  progress(`${label}: ${count} events × ${s.endpoints} endpoints, ${run.batch} per transaction, ${pace} ... `);
  const inFlight = run.rate === undefined ? 1 : PACED_IN_FLIGHT;
  const produced = await produce(db, ownerId, count, run.batch, run.rate, steps, inFlight);
  const producedSeconds = (produced.lastCommit - produced.started) / 1000;
  progress(`all committed ... `);
  await awaitArrivals(receiver, expected, s.stallMs, steps);
  const cpuAfter = await receiverRunCpuSample(pids);
  const settleFrom = performance.now();
  const statementsOfRun = s.pgStatements && run.statements ? await statements(pool) : undefined;

  const eventIds = [...produced.commits.keys()];
  const rows = await deliveriesOf(pool, eventIds);
  const file = path.join(dataDir, 'arrivals.tsv');
  const signatures = await receiver.dump(file);
  const arrivals = parseDump(await fs.readFile(file, 'utf8'));
  await fs.rm(file, { force: true });

  // First arrival of each delivery.
  const first = new Map<string, Arrival>();
  let duplicates = 0;
  for (const a of arrivals) {
    const seen = first.get(a.delivery);
    if (seen === undefined) first.set(a.delivery, a);
    else {
      duplicates += 1;
      if (a.at < seen.at) first.set(a.delivery, a);
    }
  }
  const statuses = new Map<string, number>();
  let attempts = 0;
  const missing: string[] = [];
  const latencies = new Float64Array(rows.length);
  const earliest = new Map<string, number>();
  let lastArrival = Number.NEGATIVE_INFINITY;
  let n = 0;
  for (const row of rows) {
    statuses.set(row.status, (statuses.get(row.status) ?? 0) + 1);
    attempts += row.attempt_count;
    const arrival = first.get(row.id);
    const commit = produced.commits.get(row.event_id);
    if (arrival === undefined || commit === undefined) {
      missing.push(row.id);
      continue;
    }
    if (arrival.event !== row.event_id) throw new BenchError(`delivery ${row.id} arrived with another event's body`);
    const ms = arrival.at - commit;
    latencies[n++] = ms;
    earliest.set(row.event_id, Math.min(earliest.get(row.event_id) ?? Number.POSITIVE_INFINITY, ms));
    lastArrival = Math.max(lastArrival, arrival.at);
  }
  const known = new Set(rows.map((r) => r.id));
  const unexpected = [...first.keys()].filter((id) => !known.has(id)).length;

  const problems: string[] = [];
  if (rows.length !== expected) {
    problems.push(`the database holds ${rows.length} deliveries for the ${count} events, not ${expected}`);
  }
  if (missing.length > 0) problems.push(`${missing.length} deliveries never arrived (e.g. ${missing[0]})`);
  // The receiver answers 200 at once: every delivery must end as succeeded, with its attempt recorded.
  const unfinished = rows.length - (statuses.get('succeeded') ?? 0);
  if (unfinished > 0) {
    problems.push(
      `${unfinished} deliveries did not end as succeeded within 60 s of the last arrival (${[...statuses].map(([st, n]) => `${n} ${st}`).join(', ')})`,
    );
  }
  if (signatures.badSignatures > 0) problems.push(`${signatures.badSignatures} arrivals failed signature verification`);
  if (signatures.badBodies > 0) problems.push(`${signatures.badBodies} arrivals had no envelope id`);
  if (signatures.malformed > 0) problems.push(`${signatures.malformed} requests without the delivery headers`);
  if (problems.length > 0) throw new BenchError(`${label}: ${problems.join('; ')}${lastServerOutput()}`);

  // Statistics of an idle backend reach pg_stat_database within PGSTAT_IDLE_INTERVAL.
  const settle = PG_STATS_SETTLE_MS - (performance.now() - settleFrom);
  if (run.statistics && settle > 0) await sleep(settle);
  const pgAfter = await pgStats(pool);

  const seconds = (lastArrival - produced.firstCommit) / 1000;
  const slowest = run.rate === undefined ? undefined : await slowestOf(dataDir, rows, produced, first);
  progress(`${rows.length} delivered in ${seconds.toFixed(1)} s\n`);
  return {
    run,
    events: count,
    deliveries: rows.length,
    producedSeconds,
    seconds,
    perSecond: rows.length / seconds,
    latencies: latencies.subarray(0, n).sort(),
    firstPerEvent: Float64Array.from(earliest.values()).sort(),
    duplicates,
    unexpected,
    statuses,
    attempts,
    signatures,
    cpu: cpuBetween(cpuBefore, cpuAfter),
    pg: pgStatsBetween(pgBefore, pgAfter),
    statements: statementsOfRun,
    slowest,
  };
}

/** Seconds either side of the slowest second in which PostgreSQL's log is read. */
const LOG_MARGIN_MS = 2000;

/** The paced run's slowest second of commits (slowest-second.ts), from each delivery's first attempt. */
async function slowestOf(
  dataDir: string,
  rows: DeliveryRow[],
  produced: Produced,
  first: Map<string, Arrival>,
): Promise<FanOutResult['slowest']> {
  const timed: TimedDelivery[] = [];
  for (const row of rows) {
    const commit = produced.commits.get(row.event_id);
    const arrival = first.get(row.id)?.at;
    if (commit !== undefined && row.first_attempt_at !== null && arrival !== undefined) {
      timed.push({ commit, attempted: row.first_attempt_at, arrival });
    }
  }
  const second = slowestSecond(timed);
  if (second === undefined) return undefined;
  const text = await fs.readFile(path.join(dataDir, 'postgres.log'), 'utf8').catch(() => '');
  const log = postgresLogBetween(
    text,
    second.from - LOG_MARGIN_MS,
    second.from + 1000 + second.worstMs + LOG_MARGIN_MS,
  );
  return { second, log, intoRunMs: second.from - produced.started };
}

// ---------------------------------------------------------------------------------------
// Report

/** Where (a)'s two runs differ by more than a tenth, how much: the machine's speed moved during (b). */
function baselineMove(b: Baselines): string {
  const move = speedMoved(b.before.perSecond, b.after.perSecond);
  if (move === undefined) return '';
  return `: the machine's speed moved during the run, (a) after (b) at ${move.toFixed(2)} times its rate before, so (b)'s ratio is uncertain by as much`;
}

function report(
  f: FanOutResult,
  c: FanOutResult,
  c2: FanOutResult | undefined,
  b: Baselines,
  w: FloorResult,
  w3: FloorResult,
  w3c: FloorResult,
  s: Settings,
): string {
  const ratio = f.perSecond / b.perSecond;
  const floorRatio = w.perSecond / b.perSecond;
  const serviceFloorRatio = w3.perSecond / b.perSecond;
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
  const fixed0 = (n: number) => n.toFixed(0);
  const last = (a: Float64Array) => a[a.length - 1] ?? Number.NaN;
  const offered = (r: FanOutResult) => r.events / r.producedSeconds;
  const delays = (a: Float64Array) => [ms(percentile(a, 50)), ms(percentile(a, 99)), ms(last(a))];
  const fanOutRows = (r: FanOutResult, title: string) => [
    [title, String(r.deliveries), r.seconds.toFixed(2), fixed0(r.perSecond), ...delays(r.latencies)],
    ['    the first delivery of each event', String(r.firstPerEvent.length), '', '', ...delays(r.firstPerEvent)],
    [
      `    events committed, ${r.run.batch} per transaction`,
      String(r.events),
      r.producedSeconds.toFixed(2),
      `${fixed0(offered(r))} events`,
      '',
      '',
      '',
    ],
  ];
  const results = table(
    [
      ['run (times: commit → first attempt)', 'requests', 'seconds', 'per second', 'p50 ms', 'p99 ms', 'max ms'],
      ...fanOutRows(f, '(b) throughput: a burst, every delivery'),
      ...fanOutRows(c, `(c) latency: ${c.run.rate} events/s, every delivery`),
      ...(c2 === undefined ? [] : fanOutRows(c2, `(c2) the same beside ${busyProcesses(s.busyLoops)}, every delivery`)),
      [
        '(a) baseline: signed POSTs with undici, both runs',
        String(b.requests),
        b.seconds.toFixed(2),
        fixed0(b.perSecond),
        '',
        '',
        '',
      ],
      ...(
        [
          ['    before the service', b.before],
          ['    just after (b)', b.after],
        ] as const
      ).map(([title, run]) => [title, String(run.requests), run.seconds.toFixed(2), fixed0(run.perSecond), '', '', '']),
      [
        "(a2) the baseline with a delivery's writes",
        String(w.deliveries),
        w.seconds.toFixed(2),
        fixed0(w.perSecond),
        '',
        '',
        '',
      ],
      [
        "(a3) the baseline with the service's writes",
        String(w3.deliveries),
        w3.seconds.toFixed(2),
        fixed0(w3.perSecond),
        '',
        '',
        '',
      ],
      [
        `(a3c) the same at (c)'s pace: commit → POST sent`,
        String(w3c.deliveries),
        w3c.seconds.toFixed(2),
        fixed0(w3c.perSecond),
        ...delays(w3c.waits),
      ],
      [
        '    commit → answer read (the arrival lies between)',
        String(w3c.answered.length),
        '',
        '',
        ...delays(w3c.answered),
      ],
    ],
    [false, true, true, true, true, true, true],
  );
  // A paced run judges the delay at the aimed rate only if the producer managed that rate.
  const pacedAim = (r: FanOutResult, name: string, beside: string, floor?: FloorResult) => {
    const p99 = percentile(r.latencies, 99);
    const short = offered(r) < 0.95 * (r.run.rate ?? 0);
    return [
      `${name} p99 commit → first attempt under ${AIM_P99_MS} ms at ${fixed0((r.run.rate ?? 0) * s.endpoints)} deliveries/s${beside}`,
      `${ms(p99)} ms`,
      `${met(p99 < AIM_P99_MS)}${short ? ` (the producer reached only ${fixed0(offered(r) * s.endpoints)} deliveries/s)` : ''}${floor === undefined ? '' : ` (its floor, (a3c): ${pacedFloorAgainstAim(floor)})`}`,
    ];
  };
  // The arrival lies between the POST's send and its answer: the floor met the aim if even its
  // answers came within it, and missed it if even its sends did not.
  const pacedFloorAgainstAim = (floor: FloorResult) => {
    const sent = percentile(floor.waits, 99);
    const answered = percentile(floor.answered, 99);
    const verdict = answered < AIM_P99_MS ? 'met' : sent >= AIM_P99_MS ? 'NOT MET' : 'not told';
    return `p99 ${ms(sent)} ms to the POST sent, ${ms(answered)} to its answer: ${verdict}`;
  };
  const pgPerDelivery = f.cpu.postgres === undefined ? undefined : (f.cpu.postgres * 1000) / f.deliveries;
  const aims = table(
    [
      ['aim', 'measured', ''],
      [
        `(b) deliveries/s at least ${AIM_DELIVERIES_PER_SECOND}`,
        fixed0(f.perSecond),
        met(f.perSecond >= AIM_DELIVERIES_PER_SECOND),
      ],
      pacedAim(c, '(c)', '', w3c),
      ...(c2 === undefined ? [] : [pacedAim(c2, '(c2)', `, ${busyProcesses(s.busyLoops)} beside`)]),
      [
        `(b)/(a) requests/s at least ${AIM_RATIO}`,
        ratio.toFixed(3),
        `${met(ratio >= AIM_RATIO)} (the floors with writes, (a2)/(a): ${floorAgainstAim(floorRatio, AIM_RATIO)}; (a3)/(a): ${floorAgainstAim(serviceFloorRatio, AIM_RATIO)})`,
      ],
      [
        `(b) PostgreSQL CPU per delivery at most ${AIM_POSTGRES_US_PER_DELIVERY} µs`,
        pgPerDelivery === undefined ? 'not measured' : `${fixed0(pgPerDelivery)} µs`,
        pgPerDelivery === undefined ? '' : met(pgPerDelivery <= AIM_POSTGRES_US_PER_DELIVERY),
      ],
    ],
    [false, true, false],
  );
  const cores = os.availableParallelism();
  const cpuRows = (label: string, u: CpuUse, n: number) =>
    namedCpuRows(CPU_NAMES, label, u, n, {
      label: 'µs of CPU per request',
      scale: 1000,
      digits: 0,
    });
  const cpu = table(
    [
      [`CPU, % of one core (of ${cores * 100}%)`, 'server', 'postgres', 'receiver', 'bench', 'other processes'],
      ...cpuRows('(b) throughput (bench: the producer)', f.cpu, f.deliveries),
      ...cpuRows('(c) latency (bench: the producer)', c.cpu, c.deliveries),
      ...(c2 === undefined ? [] : cpuRows('(c2) beside busy processes (others: them)', c2.cpu, c2.deliveries)),
      ...cpuRows('(a) baseline (bench: the sender)', b.cpu, b.requests),
      ...cpuRows('(a2) with writes (bench: producer and sender)', w.cpu, w.deliveries),
      ...cpuRows("(a3) with the service's writes (bench: the same)", w3.cpu, w3.deliveries),
      ...cpuRows("(a3c) the same at (c)'s pace (bench: the same)", w3c.cpu, w3c.deliveries),
    ],
    [false, true, true, true, true, true],
  );
  // The burst's aim against what the machine gave it: at (b)'s CPU a second, 0.6 of (a)'s rate
  // leaves each delivery at most this much of every process together, the receiver's and the
  // producer's included; (a3) shows what the service's writes cost without the job queue.
  const budget = machineCpuLine(
    { label: '(b)', machineMs: machineMs(CPU_NAMES, f.cpu), units: f.deliveries, perSecond: f.perSecond },
    [{ label: '(a3)', machineMs: machineMs(CPU_NAMES, w3.cpu), units: w3.deliveries, perSecond: w3.perSecond }],
    { rate: AIM_RATIO * b.perSecond, what: `${AIM_RATIO} of (a)'s rate` },
    { name: 'delivery', scale: 1000, label: 'µs', digits: 0 },
    cores,
  );
  const check = (r: FanOutResult, name: string) =>
    `${name}: ${r.deliveries} deliveries in the database (${r.events} events × ${s.endpoints} endpoints), every one arrived, ${[...r.statuses].map(([st, n]) => `${n} ${st}`).join(', ')}, ${r.attempts} attempts recorded; ${r.duplicates} duplicate arrivals (at-least-once), ${r.unexpected} unexpected; ${r.signatures.badSignatures} bad signatures`;
  const pgLine = ({ pg: p, deliveries: n }: FanOutResult, name: string) =>
    `PostgreSQL during ${name}, per delivery: ${(p.transactions / n).toFixed(2)} transactions, ${(p.inserted / n).toFixed(2)} rows inserted, ${(p.updated / n).toFixed(2)} updated (${(p.hotUpdated / n).toFixed(2)} of them heap-only), ${(p.deleted / n).toFixed(2)} deleted; ${(p.walBytes / n).toFixed(0)} bytes of WAL (${(p.walFullPages / n).toFixed(3)} full-page images), ${p.checkpoints} ${p.checkpoints === 1 ? 'checkpoint' : 'checkpoints'} in the run, ${p.multixactPages} pages of multixacts begun`;
  const slowestLines = (r: FanOutResult, name: string) => {
    if (r.slowest === undefined) return [`${name}'s slowest second: no delivery's first attempt found to time`];
    const { second: w, log, intoRunMs } = r.slowest;
    const clock = (at: number) => new Date(at).toISOString().slice(11, 23);
    const stage = (st: { meanMs: number; maxMs: number }) => `mean ${ms(st.meanMs)}, max ${ms(st.maxMs)} ms`;
    return [
      `${name}'s slowest second: the events committed from ${clock(w.from)} (${(intoRunMs / 1000).toFixed(0)} s into the run), ${w.deliveries} deliveries, the worst ${ms(w.worstMs)} ms; commit → attempt started ${stage(w.queue)}; attempt started → arrival ${stage(w.send)}`,
      log.length === 0
        ? `    PostgreSQL logged no checkpoint, autovacuum or lock wait within ${LOG_MARGIN_MS / 1000} s of it`
        : `    PostgreSQL's log within ${LOG_MARGIN_MS / 1000} s of it:\n${log.map((l) => `      ${clock(l.at)} ${l.line}`).join('\n')}`,
    ];
  };
  const checks = [
    check(f, '(b)'),
    check(c, '(c)'),
    ...(c2 === undefined ? [] : [check(c2, '(c2)')]),
    `signatures: every arrival verified with verifyWebhook and its endpoint's secret (${f.signatures.baseline} baseline POSTs too: ${f.signatures.baselineBadSignatures} bad)`,
    pgLine(f, '(b)'),
    pgLine(c, '(c)'),
    ...(c2 === undefined ? [] : [pgLine(c2, '(c2)')]),
  ];
  // As bench/run.ts does: say when something outside the bench competed for the cores ((c2)'s
  // busy processes are the bench's own).
  const busiest = Math.max(
    ...[f.cpu, c.cpu, b.before.cpu, b.after.cpu, w.cpu, w3.cpu, w3c.cpu].map(
      (u) => (u.others ?? 0) / (u.wallMs * cores),
    ),
  );
  const note = outsideNote(busiest, 'requests/s and the delays move with that, CPU per request much less.');
  return [
    '',
    `Switchboard webhook bench: ${s.endpoints} endpoints on a local receiver at ${s.receiverHost}, ${s.history} deliveries of the last ${HISTORY_SPAN_DAYS} days kept before the runs; (b) ${f.events} events as fast as possible, (c) ${c.events} events at ${c.run.rate}/s${c2 === undefined ? '' : `, (c2) ${c2.events} at ${c2.run.rate}/s beside ${busyProcesses(s.busyLoops)}`}; WORKER_CONCURRENCY ${s.workerConcurrency}, DB_POOL_SIZE ${s.dbPoolSize}; node ${process.version}, ${cores} CPUs`,
    '',
    results,
    '',
    `ratio (b)/(a) of requests/s: ${ratio.toFixed(3)}; (a2)/(a): ${floorRatio.toFixed(3)}; (b)/(a2): ${(f.perSecond / w.perSecond).toFixed(3)}; (a3)/(a): ${serviceFloorRatio.toFixed(3)}; (b)/(a3): ${(f.perSecond / w3.perSecond).toFixed(3)}`,
    "(a2) writes each delivery before its POST and its answer after, in tables with no index but their keys, and takes committed deliveries from memory: no queue, no retries' schedule, no events' record.",
    "(a3) does the same in the service's own tables (the events' record, the deliveries with their indexes, each answer as a first attempt), after (c2): only the job queue is left out.",
    "(a3c) is (a3) at (c)'s pace, one event a transaction with as many committing at once as (c) allows: the floor of (c)'s delay.",
    "(b)'s times are mostly the wait behind the burst's backlog; (c) shows the delay at a steady rate, (c2) the same while other work keeps the machine busy.",
    `(a) ran before the service's runs and again just after (b); every ratio is against both together${baselineMove(b)}.`,
    '',
    aims,
    '',
    cpu,
    ...(budget === undefined ? [] : [budget]),
    ...note,
    '',
    ...checks,
    '',
    ...slowestLines(c, '(c)'),
    ...(c2 === undefined ? [] : slowestLines(c2, '(c2)')),
    ...(f.statements ? ['', statementsReport(f.statements, f.deliveries, 'delivery', '(b)')] : []),
    ...(c.statements ? ['', statementsReport(c.statements, c.deliveries, 'delivery', '(c)')] : []),
    ...(w3c.statements ? ['', statementsReport(w3c.statements, w3c.deliveries, 'delivery', '(a3c)')] : []),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------

process.exitCode = await runBench({
  name: 'webhooks',
  settings,
  interrupt: () => {
    interrupt();
  },
  measure: async ({ settings: s, dataDir, atEnd, startService }) => {
    const receiver = await Receiver.start(s.receiverHost);
    atEnd(() => receiver.stop());
    progress(
      `receiver pid ${receiver.pid} on 127.0.0.1:${receiver.port}\nstarting the server (DATA_DIR ${dataDir}) ...\n`,
    );
    const serverOptions = {
      command: 'serve' as const,
      nodeArgs: s.serverNodeArgs,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    };
    let server = await startService(serverOptions);
    if (s.pgStatements) server = await restartWithStatements(server, dataDir, startService, serverOptions, progress);
    progress(`server pid ${server.pid} at ${server.origin}\n`);
    const endpoints = await createEndpoints(server, receiver, s.endpoints);
    await receiver.setSecrets(endpoints.map((e) => e.secret));
    const pool = await embeddedPool(dataDir, 'bench-webhooks', PACED_IN_FLIGHT + 1);
    await logStalls(pool);
    // Added last, so it ends first: before the server stops its PostgreSQL.
    atEnd(() => pool.end().catch(() => {}));
    if (s.pgStatements) await pool.query('create extension if not exists pg_stat_statements');
    const ownerRows = await drizzle(pool).select({ id: owners.id }).from(owners);
    const ownerId = ownerRows[0]?.id;
    if (ownerRows.length !== 1 || ownerId === undefined) {
      throw new BenchError(`expected the first owner only, found ${ownerRows.length} owners`);
    }
    const pids: Pids = { server: server.pid, postmaster: await postmasterPid(dataDir), receiver: receiver.pid };
    if (s.history > 0) {
      progress(`history: ${s.history} deliveries over ${HISTORY_SPAN_DAYS} days, with their events ... `);
      const started = performance.now();
      const seeded = await seedHistory(
        pool,
        ownerId,
        endpoints.map((e) => e.id),
        s.history,
      );
      progress(
        `${seeded.deliveries} deliveries of ${seeded.events} events written in ${((performance.now() - started) / 1000).toFixed(1)} s, then VACUUM ANALYZE and a checkpoint\n`,
      );
    }

    // As many requests in flight as the service can have: each job sends one event to every endpoint.
    const measureBaseline = (when: string) =>
      baseline(receiver, endpoints, s.events * s.endpoints, s.workerConcurrency * s.endpoints, pids, when);
    const baselineBefore = await measureBaseline('before the service');
    const floor = await floorWithWrites(receiver, endpoints, pool, s, pids, {
      label: '(a2) the baseline with its writes',
      writes: floorTables,
    });
    const ctx: Context = { receiver, pool, ownerId, s, pids, dataDir };
    const warmup: Run = {
      label: 'warm-up',
      events: s.warmupEvents,
      batch: 10,
      rate: undefined,
      statistics: false,
      statements: false,
    };
    await fanOut(ctx, warmup);
    const burst = await fanOut(ctx, {
      label: '(b) throughput',
      events: s.events,
      batch: s.batch,
      rate: undefined,
      statistics: true,
      statements: true,
    });
    const b = bothBaselines(baselineBefore, await measureBaseline('just after (b)'));
    const paced = await fanOut(ctx, {
      label: '(c) latency',
      events: s.latencyEvents,
      batch: 1,
      rate: s.latencyRate,
      // Its PostgreSQL line is printed too.
      statistics: true,
      statements: true,
    });
    const busy =
      s.busyLoops === 0
        ? undefined
        : await besideBusyLoops(s.busyLoops, () =>
            fanOut(ctx, {
              label: `(c2) latency beside ${busyProcesses(s.busyLoops)}`,
              events: s.busyEvents,
              batch: 1,
              rate: s.latencyRate,
              statistics: true,
              statements: false,
            }),
          );
    // Last, so that the rows it adds to the service's tables are not in the way of (b) and (c).
    const serviceFloor = await floorWithWrites(receiver, endpoints, pool, s, pids, {
      label: "(a3) the baseline with the service's writes",
      writes: serviceTables(
        ownerId,
        endpoints.map((e) => e.id),
      ),
    });
    // (c)'s floor: the same writes, one event a transaction at (c)'s rate, its delays beside (c)'s.
    const pacedFloor = await floorWithWrites(receiver, endpoints, pool, s, pids, {
      label: "(a3c) the service's writes at (c)'s pace",
      writes: serviceTables(
        ownerId,
        endpoints.map((e) => e.id),
      ),
      paced: true,
    });
    return report(burst, paced, busy, b, floor, serviceFloor, pacedFloor, s);
  },
});
