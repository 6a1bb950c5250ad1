/**
 * `npm run bench:insights` (and the last part of `npm run bench`): account insights: reading a
 * year of every metric under load, and one refresh of every account.
 *
 * Starts the service's API (`switchboard api`, PLATFORMS=sandbox: the sandbox platforms are
 * mounted at /sandbox of the API) on a temporary DATA_DIR with its embedded PostgreSQL.
 * Connects BENCH_INSIGHTS_ACCOUNTS sandbox users (half Instagram, half Threads, spread over
 * the first owner's default profile and 3 more made through the API), as bench/publishing.ts
 * does (bench/sandbox.ts: the permission page walked with every permission granted, the insights
 * one included, the code exchanged by the service's adapter, the account stored with the
 * service's saveConnectedAccount), so each account is a real connected account whose token
 * the sandbox accepts. Then writes straight into the tables (one `insert ... select` each,
 * then ANALYZE): for every account a year of daily figures of every metric of its platform
 * (365 days ending today, UTC; one series row per account and metric; about 3% of the days
 * null, "no data"; magnitudes of a small-to-mid account, 1 to 10 times a base per metric),
 * its insight sync state (refreshed an hour ago, next refresh a day ahead, history read), and
 * its comment sync state a day ahead: no periodic refresh, history reading or comment poll
 * runs during the bench.
 *
 *   (1) the query. Checks a sample of answers first (an Instagram account, a Threads account
 *       and the last one: 200, every metric of the platform, 365 days each, every value and
 *       null as seeded (computed here from the seed's formula, not read back), the totals);
 *       the route's queries under EXPLAIN (ANALYZE, BUFFERS) (the service's
 *       accountInsightsAnswer run in this process with its queries recorded, twice: a first
 *       read, and a later one that takes the answer kept; the answer must be the route's, byte
 *       for byte). Then autocannon at BENCH_CONNECTIONS connections, as bench/run.ts: (a) GET
 *       /healthz, the bare route of the same server; (b) GET
 *       /v1/accounts/{id}/insights?from=<today-364>&to=<today> with the owner key, every
 *       metric, the account changing at every request (the accounts in turn; the warm-up asks
 *       each account at least once, so the measured requests take kept answers while the
 *       1,000 answers, about 100 MB, fit INSIGHTS_ANSWER_CACHE_MB); (c) the same
 *       with each answer's ETag in If-None-Match, answered 304. Then two floors under (b): its
 *       queries alone, sent from this process (bench/queries-alone.ts), and (d) a bare
 *       node:http server answering the first account's answer, byte for byte, at the same
 *       load (bench/bytes-server.ts): what sending the answer alone costs. Prints
 *       requests/s, p50/p99, the ratio to (a), the answer's size, and the CPU of each
 *       process. Aims: p99 of (b) and (c) under 15 ms, (b) at 3,000 requests/s.
 *   (2) one full refresh of those accounts against the sandbox, the way production runs it: a
 *       `switchboard worker` process (refreshes are bulk jobs: WORKER_BULK_CONCURRENCY of them
 *       at a time when that is set, else as many as WORKER_CONCURRENCY, the figure this bench
 *       has always measured: the refresh's capacity, not the default's share) is started on the
 *       same DATA_DIR, the sandbox's call log is emptied (DELETE {sandbox}/_control/calls),
 *       every account is made due (next_refresh_at = now) and the schedule's own statement
 *       (scheduleInsightRefreshes, which the worker runs every minute) queues one
 *       `refresh_insights` job per account; the run ends when every account's refreshed_at
 *       has passed the start and no refresh job is left. Prints the wall time (start → the
 *       last refreshed_at), accounts/s, the CPU of each process, and the platform calls from
 *       the sandbox's call log: the total and per platform (GET /_control/calls), and per
 *       account (GET /_control/calls/{platform}/{username}) beside the calls expected of a
 *       refresh of an account without posts (Instagram 4: one per day of the 3 days read
 *       again, plus today's followers count; Threads 3: one per day). A difference is
 *       printed as a finding, not an error. A refresh that fails (last_error) is an error.
 *
 * Errors, which make the exit code 1: any answer other than 200 under load, a sample answer
 * that differs from the seed, a refresh that fails or stalls. A missed aim is reported.
 *
 * Settings (environment):
 *   BENCH_INSIGHTS_ACCOUNTS          accounts (default 1000)
 *   BENCH_INSIGHTS_CONNECT_CONCURRENCY  accounts connected at a time while setting up (default 16)
 *   BENCH_INSIGHTS_STALL_SECONDS     how long the refresh may go without an account finishing (default 60)
 *   BENCH_DURATION_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS   as for bench/run.ts (10, 3, 50)
 *   BENCH_SERVER_NODE_ARGS           extra node flags for the API and the worker, e.g.
 *                                    "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   BENCH_INSIGHTS_PG_STATEMENTS     1: restart with pg_stat_statements loaded and print the
 *                                    statements of (b)'s measured seconds, per request
 *   WORKER_CONCURRENCY, DB_POOL_SIZE, ...  passed to the service as they are
 */
import os from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { Agent } from 'undici';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/connection.ts';
import type { Scope } from '../src/http/scope.ts';
import { answerCache } from '../src/modules/insights/answers.ts';
import { scheduleInsightRefreshes } from '../src/modules/insights/index.ts';
import { accountInsightsAnswer } from '../src/modules/insights/service.ts';
import { createPlatforms, missingScopes, type Platform, platformInfo } from '../src/platforms/index.ts';
import { loadSecretKey } from '../src/secrets.ts';
import { startBytesServer } from './bytes-server.ts';
import { type NamedCpuUse, namedCpuRows, namedCpuUse, type WorkersRunPids, workersRunCpuSample } from './cpu.ts';
import { benchSteps, runBench } from './harness.ts';
import {
  busiestOutside,
  interrupt as interruptLoad,
  type LoadSettings,
  loadCpuTable,
  type Measurement,
  measure,
  preflight,
  type Target,
} from './load.ts';
import { restartWithStatements, type Statement, statements, statementsReport } from './pg-stats.ts';
import { explainQueries, type RecordedQuery, recordingDb } from './plans.ts';
import {
  FLOOR_HEADER,
  floorRow,
  type QueriesAlone,
  queriesAlone,
  routeQueries,
  SERVICE_POOL_SIZE,
} from './queries-alone.ts';
import { met, outsideNote, positiveIntFromEnv, table } from './report.ts';
import {
  type Api,
  type BenchAccount,
  call,
  callTotals,
  connectAccounts,
  eachLimited,
  interrupt as interruptSandbox,
  sandboxControl,
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
} from './server.ts';

const AIM_P99_MS = 15;
const AIM_REQUESTS_PER_SECOND = 3_000;
const PLATFORMS_USED: Platform[] = ['instagram', 'threads'];
/** Profiles the accounts are spread over: the first owner's default one and these more. */
const MORE_PROFILES = 3;
const DAYS = 365;
const DAY_MS = 86_400_000;
/**
 * Calls one refresh of an account without posts should make (src/modules/insights/refresh.ts
 * reads the last 3 days; the adapters ask a day per call, and Instagram reads today's followers
 * count from the user's fields).
 */
const EXPECTED_CALLS: Record<string, number> = { instagram: 4, threads: 3 };

/**
 * A day's figure of a small-to-mid account, per metric (accounts are 1 to 10 times it);
 * followers_count is a count: this many times 1 to 40, growing every day.
 */
const BASE: Record<string, number> = {
  followers_count: 400,
  views: 4000,
  reach: 2500,
  accounts_engaged: 150,
  total_interactions: 300,
  likes: 250,
  comments: 20,
  saves: 15,
  shares: 12,
  replies: 25,
  reposts: 10,
  quotes: 4,
  clicks: 60,
};

interface Settings extends LoadSettings {
  accounts: number;
  connectConcurrency: number;
  stallMs: number;
  /** The refresh jobs (bulk work) the worker runs at once: WORKER_BULK_CONCURRENCY, else as many as WORKER_CONCURRENCY. */
  refreshConcurrency: number;
  dbPoolSize: number;
  serverNodeArgs: string[];
  pgStatements: boolean;
}

function settings(): Settings {
  const config = loadConfig(process.env);
  return {
    accounts: positiveIntFromEnv('BENCH_INSIGHTS_ACCOUNTS', 1000),
    connectConcurrency: positiveIntFromEnv('BENCH_INSIGHTS_CONNECT_CONCURRENCY', 16),
    stallMs: positiveIntFromEnv('BENCH_INSIGHTS_STALL_SECONDS', 60) * 1000,
    durationSeconds: positiveIntFromEnv('BENCH_DURATION_SECONDS', 10),
    warmupSeconds: positiveIntFromEnv('BENCH_WARMUP_SECONDS', 3),
    connections: positiveIntFromEnv('BENCH_CONNECTIONS', 50),
    refreshConcurrency: process.env.WORKER_BULK_CONCURRENCY ? config.workerBulkConcurrency : config.workerConcurrency,
    dbPoolSize: config.dbPoolSize,
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    pgStatements: ['1', 'true'].includes(process.env.BENCH_INSIGHTS_PG_STATEMENTS ?? ''),
  };
}

const { interrupt, checkInterrupted, sleep, progress } = benchSteps();
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------
// The seed: one formula, written as SQL for the tables and as TypeScript for the checks

/** Each platform's account metrics, in the service's order. */
function metricsOf(platform: Platform): readonly string[] {
  return platformInfo(platform).insights?.account ?? [];
}

/**
 * The seeded figure of account n (its index), metric number i of its platform, on day d of
 * the year (0: the first day): null for about 3% of the days, else BASE times the account's
 * size with a day-to-day spread of 50 to 149%. Integer arithmetic only, so SQL's bigint and
 * JavaScript's numbers agree.
 */
function seeded(n: number, i: number, metric: string, d: number): number | null {
  const h = (n * 7919 + i * 104729 + d * 1009) % 10007;
  if (h % 100 < 3) return null;
  const base = BASE[metric] ?? 0;
  if (metric === 'followers_count') return base * (1 + (n % 40)) + d * (1 + (n % 20));
  return Math.floor((base * (1 + (n % 10)) * (50 + (h % 100))) / 100);
}

/** The same formula in SQL, over columns n, i, metric, base and d. */
const SEEDED_SQL = `case when (n * 7919 + i * 104729 + d * 1009) % 10007 % 100 < 3 then null
  when metric = 'followers_count' then base * (1 + n % 40) + d * (1 + n % 20)
  else base * (1 + n % 10) * (50 + (n * 7919 + i * 104729 + d * 1009) % 10007 % 100) / 100 end`;

interface Seeded {
  /** The first day of the year seeded (a day number: days since 1970-01-01). */
  firstDay: number;
  today: number;
  series: number;
  values: number;
  nulls: number;
  tableBytes: number;
  seconds: number;
}

async function seed(pool: pg.Pool, accounts: readonly BenchAccount[]): Promise<Seeded> {
  const started = performance.now();
  const today = Math.floor(Date.now() / DAY_MS);
  const firstDay = today - DAYS + 1;
  const missing = PLATFORMS_USED.flatMap((p) => metricsOf(p).filter((m) => BASE[m] === undefined));
  if (missing.length > 0) throw new BenchError(`no magnitude for the metrics ${missing.join(', ')}: add them to BASE`);
  const metricRows = PLATFORMS_USED.flatMap((platform) =>
    metricsOf(platform).map((metric, i) => ({ platform, metric, i, base: BASE[metric] ?? 0 })),
  );
  const q = async (label: string, text: string, values: unknown[] = []) => {
    checkInterrupted();
    const t = performance.now();
    const result = await pool.query(text, values);
    progress(`  ${label}: ${result.rowCount ?? 0} rows, ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  };
  progress(`seeding ${DAYS} days of every metric of ${accounts.length} accounts ...\n`);
  await q(
    'bench_accounts',
    `create table bench_accounts as
     select id, n::int, platform from unnest($1::text[], $2::int[], $3::text[]) as a(id, n, platform)`,
    [accounts.map((a) => a.id), accounts.map((_, n) => n), accounts.map((a) => a.platform)],
  );
  await q(
    'account_insight_series',
    `insert into account_insight_series (account_id, metric, first_day, values)
     select a.id, m.metric, $5::date,
       array(select ${SEEDED_SQL} from generate_series(0, ${DAYS - 1}) d order by d)
     from (select a.id, a.n::bigint as n, a.platform from bench_accounts a) a
     join (select * from unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) as m(platform, metric, i, base)) m
       on m.platform = a.platform`,
    [
      metricRows.map((m) => m.platform),
      metricRows.map((m) => m.metric),
      metricRows.map((m) => m.i),
      metricRows.map((m) => m.base),
      dayText(firstDay),
    ],
  );
  // Refreshed an hour ago, the next refresh a day ahead, the history read: the schedule leaves them be.
  await q(
    'insight_sync_state',
    `insert into insight_sync_state (account_id, next_refresh_at, refreshed_at, history_from, history_cursor,
       read_to, history_next_at, last_error)
     select id, now() + interval '1 day', date_trunc('second', now()) - interval '1 hour', $1::date, null,
       $2::date, now() + interval '1 day', null
     from bench_accounts`,
    // Read up to today: the refresh finds no days missed (no gap to read).
    [dayText(firstDay), dayText(today)],
  );
  // Comments are not measured here: no poll of these accounts (a poll would also add calls and posts).
  await q(
    'comment_sync_state',
    `insert into comment_sync_state (account_id, next_poll_at, last_polled_at)
     select id, now() + interval '1 day', now() from bench_accounts`,
  );
  await q('analyze', 'analyze');
  await pool.query('drop table bench_accounts');
  const { rows } = await pool.query<{ series: string; values: string; nulls: string; bytes: string }>(
    `select count(*) as series, coalesce(sum(cardinality(values)), 0) as values,
       coalesce(sum(cardinality(values) - cardinality(array_remove(values, null))), 0) as nulls,
       pg_total_relation_size('account_insight_series') as bytes
     from account_insight_series`,
  );
  const row = rows[0];
  return {
    firstDay,
    today,
    series: Number(row?.series ?? 0),
    values: Number(row?.values ?? 0),
    nulls: Number(row?.nulls ?? 0),
    tableBytes: Number(row?.bytes ?? 0),
    seconds: (performance.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------------------------------
// (1) the answers checked, the query explained

interface InsightsAnswer {
  account_id: string;
  platform: string;
  from: string;
  to: string;
  metrics: Record<string, { total: number | null; values: { date: string; value: number | null }[] }>;
  missing_permission: string | null;
  synced_at: string | null;
}

/** Each path's ETag, as a client that kept the answers has them. */
async function answerTags(api: Api, paths: readonly string[]): Promise<string[]> {
  const tags: string[] = [];
  for (const path of paths) {
    const res = await call(api, 'GET', `${api.origin}${path}`);
    const tag = res.headers.etag;
    if (res.status !== 200 || typeof tag !== 'string') {
      throw new BenchError(
        `GET ${path} answered ${res.status}${typeof tag === 'string' ? '' : ' without an ETag'}: ${res.text.slice(0, 200)}`,
      );
    }
    tags.push(tag);
  }
  return tags;
}

const insightsPath = (accountId: string, s: Seeded) =>
  `/v1/accounts/${accountId}/insights?from=${dayText(s.firstDay)}&to=${dayText(s.today)}`;

/** Every way the answer differs from the seed of account n (at most a few listed); [] when none. */
function differences(answer: InsightsAnswer, account: BenchAccount, n: number, s: Seeded): string[] {
  const problems: string[] = [];
  const expect = (what: string, got: unknown, wanted: unknown) => {
    if (got !== wanted) problems.push(`${what}: ${JSON.stringify(got)}, seeded ${JSON.stringify(wanted)}`);
  };
  expect('account_id', answer.account_id, account.id);
  expect('platform', answer.platform, account.platform);
  expect('from', answer.from, dayText(s.firstDay));
  expect('to', answer.to, dayText(s.today));
  expect('missing_permission', answer.missing_permission, null);
  if (answer.synced_at === null) problems.push('synced_at is null; the seed set it');
  const metrics = metricsOf(account.platform);
  expect('metrics', Object.keys(answer.metrics).join(','), metrics.join(','));
  metrics.forEach((metric, i) => {
    const series = answer.metrics[metric];
    if (series === undefined) return;
    expect(`${metric}: days`, series.values.length, DAYS);
    let total: number | null = null;
    for (let d = 0; d < DAYS; d++) {
      const value = seeded(n, i, metric, d);
      if (value !== null) total = metric === 'followers_count' ? value : (total ?? 0) + value;
      const got = series.values[d];
      expect(`${metric} day ${d}: date`, got?.date, dayText(s.firstDay + d));
      expect(`${metric} ${dayText(s.firstDay + d)}`, got?.value, value);
    }
    expect(`${metric}: total`, series.total, total);
  });
  return problems;
}

interface Sample {
  /** Answer sizes in bytes, per platform. */
  bytes: Map<string, number>;
  /** Days checked, and of them null as seeded. */
  days: number;
  nulls: number;
}

/** GET the route for a few accounts; each answer must be the seed's, value for value. */
async function checkAnswers(api: Api, accounts: readonly BenchAccount[], s: Seeded): Promise<Sample> {
  const picks = new Set<number>([
    accounts.findIndex((a) => a.platform === 'instagram'),
    accounts.findIndex((a) => a.platform === 'threads'),
    accounts.length - 1,
  ]);
  const sample: Sample = { bytes: new Map(), days: 0, nulls: 0 };
  for (const n of picks) {
    const account = accounts[n];
    if (account === undefined) continue;
    const res = await call(api, 'GET', `${api.origin}${insightsPath(account.id, s)}`);
    if (res.status !== 200)
      throw new BenchError(`GET ${insightsPath(account.id, s)} answered ${res.status}: ${res.text}`);
    const answer = JSON.parse(res.text) as InsightsAnswer;
    const problems = differences(answer, account, n, s);
    if (problems.length > 0) {
      throw new BenchError(
        `the answer for account ${account.id} (${account.platform}) is not the seed: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
      );
    }
    if (!sample.bytes.has(account.platform)) sample.bytes.set(account.platform, Buffer.byteLength(res.text));
    for (const series of Object.values(answer.metrics)) {
      sample.days += series.values.length;
      sample.nulls += series.values.filter((v) => v.value === null).length;
    }
  }
  return sample;
}

/**
 * The route's answer as the service makes it (accountInsightsAnswer), twice: a first read, which
 * reads and renders the figures and keeps the answer, then a later one, which takes the kept
 * answer. Each one's queries are recorded and explained; the answer must be the route's, and the
 * later read must give the kept one.
 */
async function explainRoute(pool: pg.Pool, api: Api, ownerId: string, account: BenchAccount, s: Seeded) {
  const { db, queries } = recordingDb(pool);
  const platforms = createPlatforms({ platforms: 'sandbox', platformCredentials: {}, sandboxUrl: api.sandboxUrl });
  const deps = { db, platforms: () => platforms };
  // Nothing changes the figures meanwhile: as a process that hears changes, the later read takes the kept answer.
  const answers = answerCache(16, { hearing: () => true, subscribe: () => {} });
  const scope: Scope = {
    ownerId,
    profileId: null,
    visibleProfileIds: null,
    caller: { type: 'api_key', id: '', name: null, kind: 'owner' },
  };
  const query = { from: dayText(s.firstDay), to: dayText(s.today) };
  const first = await accountInsightsAnswer(deps, answers, scope, account.id, query);
  const firstQueries = queries.splice(0);
  const later = await accountInsightsAnswer(deps, answers, scope, account.id, query);
  const laterQueries = queries.splice(0);
  const res = await call(api, 'GET', `${api.origin}${insightsPath(account.id, s)}`);
  if (res.text !== first.body.toString()) throw new BenchError("the answer made in this process is not the route's");
  if (later.body !== first.body) throw new BenchError('a later read did not take the kept answer');
  const [firstExplained, laterExplained] = [
    await explainQueries(pool, firstQueries),
    await explainQueries(pool, laterQueries),
  ];
  return {
    lines: [
      `a first read (the answer not kept yet): ${firstExplained.length} queries`,
      ...firstExplained.flatMap((e) => e.lines.map((l) => `  ${l}`)),
      `a later read (the answer kept): ${laterExplained.length} queries`,
      ...laterExplained.flatMap((e) => e.lines.map((l) => `  ${l}`)),
    ],
    routeQueries: routeQueries(laterQueries),
  };
}

// ---------------------------------------------------------------------------------------
// (2) one full refresh by a worker process

const NAMES = ['api', 'workers', 'postgres'] as const;
type CpuUse = NamedCpuUse<(typeof NAMES)[number]>;

interface CallCounts {
  platform: string;
  accounts: number;
  /** Accounts by the number of calls made with their tokens. */
  byCount: Map<number, number>;
  calls: number;
  /** One account's calls, as the sandbox logged them (method, path, query). */
  example: string[];
}

interface RefreshRun {
  queued: number;
  /** Start (the accounts made due) → the last refreshed_at. */
  seconds: number;
  total: number;
  byPlatform: Record<string, number>;
  counts: CallCounts[];
  cpu: CpuUse;
}

interface StateCounts {
  refreshed: number;
  failed: number;
  error: string | null;
  jobs: number;
  last: Date | null;
}

async function stateCounts(pool: pg.Pool, since: Date): Promise<StateCounts> {
  const { rows } = await pool.query<{
    refreshed: string;
    failed: string;
    error: string | null;
    last: Date | null;
    jobs: string;
  }>(
    `select count(*) filter (where refreshed_at >= $1) as refreshed,
       count(*) filter (where last_error is not null) as failed,
       min(last_error) as error, max(refreshed_at) as last,
       (select count(*) from graphile_worker.jobs where task_identifier = 'refresh_insights') as jobs
     from insight_sync_state`,
    [since],
  );
  const row = rows[0];
  return {
    refreshed: Number(row?.refreshed ?? 0),
    failed: Number(row?.failed ?? 0),
    error: row?.error ?? null,
    jobs: Number(row?.jobs ?? 0),
    last: row?.last ?? null,
  };
}

async function refreshRun(
  api: Api,
  pool: pg.Pool,
  db: Db,
  accounts: readonly BenchAccount[],
  pids: WorkersRunPids,
  s: Settings,
): Promise<RefreshRun> {
  await sandboxControl(api, 'DELETE', '/calls', undefined, 204);
  progress(`refresh: ${accounts.length} accounts, ${s.refreshConcurrency} jobs at a time in one worker ... `);
  const cpuBefore = await workersRunCpuSample(pids);
  // On the database's clock, which refreshed_at is written with (the service's, the same machine's).
  const start = new Date();
  await pool.query('update insight_sync_state set next_refresh_at = now()');
  const queued = await scheduleInsightRefreshes({ db });
  let done = -1;
  let progressAt = performance.now();
  let state: StateCounts;
  for (;;) {
    checkInterrupted();
    state = await stateCounts(pool, start);
    if (state.failed > 0) {
      throw new BenchError(`${state.failed} refreshes failed, e.g. ${state.error}${lastServerOutput()}`);
    }
    if (state.refreshed === accounts.length && state.jobs === 0) break;
    if (state.refreshed > done) {
      done = state.refreshed;
      progressAt = performance.now();
    } else if (performance.now() - progressAt > s.stallMs) {
      throw new BenchError(
        `${accounts.length - state.refreshed} of ${accounts.length} accounts still not refreshed after ${s.stallMs / 1000} s without progress (${state.jobs} refresh jobs left)${lastServerOutput()}`,
      );
    }
    await sleep(100);
  }
  const cpuAfter = await workersRunCpuSample(pids);
  progress(`${state.refreshed} refreshed\n`);
  const seconds = ((state.last?.getTime() ?? Date.now()) - start.getTime()) / 1000;

  const totals = await callTotals(api);
  const perAccount = new Array<{ count: number; data: { method: string; path: string; query: unknown }[] }>(
    accounts.length,
  );
  await eachLimited(accounts, 8, async (account, i) => {
    perAccount[i] = JSON.parse(
      await sandboxControl(api, 'GET', `/calls/${account.platform}/${account.username}`, undefined, 200),
    ) as { count: number; data: { method: string; path: string; query: unknown }[] };
  });
  const counts = PLATFORMS_USED.map((platform): CallCounts => {
    const byCount = new Map<number, number>();
    let calls = 0;
    let example: string[] = [];
    accounts.forEach((account, i) => {
      if (account.platform !== platform) return;
      const log = perAccount[i];
      const count = log?.count ?? 0;
      byCount.set(count, (byCount.get(count) ?? 0) + 1);
      calls += count;
      if (example.length === 0 && log !== undefined) {
        example = log.data.map(
          (c) => `${c.method} ${c.path} ${new URLSearchParams(c.query as Record<string, string>)}`,
        );
      }
    });
    return {
      platform,
      accounts: accounts.filter((a) => a.platform === platform).length,
      byCount,
      calls,
      example,
    };
  });
  return {
    queued,
    seconds,
    total: totals.total,
    byPlatform: totals.by_platform,
    counts,
    cpu: namedCpuUse(NAMES, cpuBefore, cpuAfter),
  };
}

// ---------------------------------------------------------------------------------------
// Report

interface Setup {
  accounts: number;
  connectSeconds: number;
  seeded: Seeded;
  sample: Sample;
  explain: { lines: string[]; routeQueries: RecordedQuery[] };
}

function report(
  s: Settings,
  setup: Setup,
  bare: Measurement,
  query: Measurement,
  conditional: Measurement,
  floor: QueriesAlone | undefined,
  sending: Measurement,
  r: RefreshRun,
  queryStatements: Statement[] | undefined,
): string {
  const ms = (n: number) => n.toFixed(2);
  const cores = os.availableParallelism();
  const perRequest = (m: Measurement, cpuMs: number | undefined) =>
    cpuMs === undefined ? '-' : ((cpuMs * 1000) / m.responses).toFixed(0);
  const { seeded: sd, sample } = setup;
  const results = table(
    [
      ['route', 'requests/s', 'ratio to (a)', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'postgres CPU µs/req'],
      ...[bare, query, conditional, sending].map((m) => [
        m.target.label,
        m.requestsPerSecond.toFixed(0),
        (m.requestsPerSecond / bare.requestsPerSecond).toFixed(3),
        ms(m.p50),
        ms(m.p99),
        perRequest(m, m.cpu.server),
        perRequest(m, m.cpu.postgres),
      ]),
    ],
    [false, true, true, true, true, true, true],
  );
  const sizes = [...sample.bytes].map(([platform, bytes]) => `${platform} ${bytes.toLocaleString('en')} bytes`);
  const callRows = r.counts.map((c) => {
    const spread = [...c.byCount]
      .sort(([a], [b]) => a - b)
      .map(([count, n]) => `${n} × ${count}`)
      .join(', ');
    const expected = EXPECTED_CALLS[c.platform] ?? Number.NaN;
    return [
      c.platform,
      String(c.accounts),
      String(r.byPlatform[c.platform] ?? 0),
      String(c.calls),
      c.accounts === 0 ? '-' : (c.calls / c.accounts).toFixed(2),
      String(expected),
      spread,
    ];
  });
  const findings = r.counts.flatMap((c) => {
    const expected = EXPECTED_CALLS[c.platform];
    const others = [...c.byCount].filter(([count]) => count !== expected);
    return others.length === 0
      ? []
      : [
          `FINDING: ${others.reduce((n, [, k]) => n + k, 0)} of ${c.accounts} ${c.platform} accounts made other than the ${expected} calls expected (${others.map(([count, n]) => `${n} × ${count}`).join(', ')})`,
        ];
  });
  const logged = r.counts.reduce((n, c) => n + c.calls, 0);
  if (logged !== r.total) {
    findings.push(
      `FINDING: the call log's total (${r.total}) is not the sum over the accounts (${logged}): calls with other users' tokens`,
    );
  }
  const refreshCpu = table(
    [
      [`CPU, % of one core (of ${cores * 100}%), the refresh`, 'api+sandbox', 'worker', 'postgres', 'bench', 'others'],
      ...namedCpuRows(NAMES, `${setup.accounts} accounts`, r.cpu, setup.accounts, {
        label: 'ms of CPU per account',
        scale: 1,
        digits: 2,
      }),
    ],
    [false, true, true, true, true, true],
  );
  // What is itself below the aim, measured in the same run.
  const bounds = [
    ...(floor !== undefined && floor.requestsPerSecond < AIM_REQUESTS_PER_SECOND
      ? [`its queries alone: ${floor.requestsPerSecond.toFixed(0)}/s`]
      : []),
    ...(sending.requestsPerSecond < AIM_REQUESTS_PER_SECOND
      ? [`node:http sending its bytes: ${sending.requestsPerSecond.toFixed(0)}/s`]
      : []),
  ];
  // The bare routes' own p99 at the same load, where it is itself not under the aim.
  const p99Bounds = [bare, sending]
    .filter((m) => m.p99 >= AIM_P99_MS)
    .map((m) => `${m.target.label.slice(0, 3)} itself: ${ms(m.p99)} ms`);
  const p99Note = p99Bounds.length > 0 ? ` (${p99Bounds.join('; ')})` : '';
  const aims = table(
    [
      ['aim', 'measured', ''],
      [
        `(b) p99 under ${AIM_P99_MS} ms at ${s.connections} connections`,
        `${ms(query.p99)} ms`,
        `${met(query.p99 < AIM_P99_MS)}${query.p99 < AIM_P99_MS ? '' : p99Note}`,
      ],
      [
        `(c) p99 under ${AIM_P99_MS} ms at ${s.connections} connections`,
        `${ms(conditional.p99)} ms`,
        `${met(conditional.p99 < AIM_P99_MS)}${conditional.p99 < AIM_P99_MS ? '' : p99Note}`,
      ],
      [
        `(b) requests/s at least ${AIM_REQUESTS_PER_SECOND.toLocaleString('en')}`,
        query.requestsPerSecond.toFixed(0),
        `${met(query.requestsPerSecond >= AIM_REQUESTS_PER_SECOND)}${bounds.length > 0 ? ` (${bounds.join('; ')})` : ''}`,
      ],
    ],
    [false, true, false],
  );
  const busiest = Math.max(
    busiestOutside([bare, query, conditional, sending]),
    (r.cpu.others ?? 0) / (r.cpu.wallMs * cores),
  );
  return [
    '',
    `Switchboard insights bench: ${setup.accounts} sandbox accounts (${PLATFORMS_USED.join(' and ')}, connected through the permission pages in ${setup.connectSeconds.toFixed(1)} s), each with ${DAYS} days (${dayText(sd.firstDay)} to ${dayText(sd.today)}) of every metric: ${sd.series.toLocaleString('en')} series, ${sd.values.toLocaleString('en')} daily values (${((sd.nulls / sd.values) * 100).toFixed(1)}% null), account_insight_series ${(sd.tableBytes / 1048576).toFixed(1)} MiB, seeded in ${sd.seconds.toFixed(1)} s; node ${process.version}, ${cores} CPUs`,
    '',
    `(1) a year of every metric of one account: GET /v1/accounts/{id}/insights?from=${dayText(sd.firstDay)}&to=${dayText(sd.today)}, the owner key, the accounts in turn; ${s.connections} connections, ${s.durationSeconds} s per route after a ${s.warmupSeconds} s warm-up`,
    '',
    results,
    '',
    loadCpuTable([bare, query, conditional, sending], cores),
    '',
    ...(floor === undefined
      ? [
          "The floor of the route's queries: none; a kept answer sends PostgreSQL no statement of its own (the rate limit's count aside), so (d) is the floor.",
        ]
      : [
          `The floor: the route's queries (those it sends PostgreSQL, named statements) sent from this process alone, ${s.connections} requests in flight over ${SERVICE_POOL_SIZE} connections as the service's pool, the first Instagram account's request repeated:`,
          table([FLOOR_HEADER, floorRow('(b)', floor, query.requestsPerSecond)], [false, true, true, true, true, true]),
        ]),
    '',
    `answer size: ${sizes.join(', ')}; checked before the load: ${sample.days.toLocaleString('en')} days of ${sample.bytes.size === 1 ? 'one platform' : 'both platforms'} against the seed (${sample.nulls} null as seeded), totals too`,
    '',
    "EXPLAIN (ANALYZE, BUFFERS) of the route's queries (accountInsightsAnswer, the first Instagram account; same answer as the route's):",
    ...setup.explain.lines.map((l) => `  ${l}`),
    ...(queryStatements ? ['', statementsReport(queryStatements, query.responses, 'request', '(b)')] : []),
    '',
    `(2) one full refresh of the same ${setup.accounts} accounts against the sandbox: ${r.queued} refresh_insights jobs queued by the schedule's statement, one worker process (WORKER_BULK_CONCURRENCY ${s.refreshConcurrency}, DB_POOL_SIZE ${s.dbPoolSize})`,
    '',
    table(
      [
        ['refresh', 'accounts', 'seconds', 'accounts/s', 'platform calls', 'calls/account'],
        [
          'start → last refreshed_at',
          String(setup.accounts),
          r.seconds.toFixed(2),
          (setup.accounts / r.seconds).toFixed(1),
          String(r.total),
          (r.total / setup.accounts).toFixed(2),
        ],
      ],
      [false, true, true, true, true, true],
    ),
    '',
    table(
      [
        [
          'platform calls (sandbox call log)',
          'accounts',
          'GET /calls by_platform',
          'sum per account',
          'per account',
          'expected',
          'accounts × calls',
        ],
        ...callRows,
      ],
      [false, true, true, true, true, true, false],
    ),
    ...r.counts
      .filter((c) => c.example.length > 0)
      .flatMap((c) => [`  one ${c.platform} account's calls:`, ...c.example.map((e) => `    ${e}`)]),
    ...(findings.length > 0 ? ['', ...findings] : ['', 'calls per account as expected']),
    '',
    refreshCpu,
    '',
    aims,
    ...outsideNote(busiest, 'requests/s, latencies and the refresh time move with that, CPU per request much less.'),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------

process.exitCode = await runBench({
  name: 'insights',
  settings,
  interrupt: () => {
    interrupt();
    interruptLoad();
    interruptSandbox();
  },
  measure: async ({ settings: s, dataDir, atEnd, startService }) => {
    progress(`starting the API (DATA_DIR ${dataDir}) ...\n`);
    const serverOptions = { command: 'api' as const, nodeArgs: s.serverNodeArgs, env: { PLATFORMS: 'sandbox' } };
    let server: Server = await startService(serverOptions);
    if (s.pgStatements) server = await restartWithStatements(server, dataDir, startService, serverOptions, progress);
    progress(`API pid ${server.pid} at ${server.origin}\n`);
    const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
    atEnd(() => agent.close());
    const api: Api = { origin: server.origin, key: server.ownerKey, sandboxUrl: `${server.origin}/sandbox`, agent };
    const pool = await embeddedPool(dataDir, 'bench-insights', 4);
    // Added after the server, so it ends first: before the server stops its PostgreSQL.
    atEnd(() => pool.end().catch(() => {}));
    if (s.pgStatements) await pool.query('create extension if not exists pg_stat_statements');
    const db = drizzle(pool) as unknown as Db;
    const secretKey = await loadSecretKey(undefined, dataDir);
    const platforms = createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: api.sandboxUrl },
      { dispatcher: agent },
    );

    const owner = await firstOwner(pool);
    const profileIds = [owner.profileId];
    for (let i = 0; i < MORE_PROFILES; i++) {
      const res = await call(api, 'POST', `${api.origin}/v1/profiles`, { name: `Brand ${i}` });
      if (res.status !== 201) throw new BenchError(`POST /v1/profiles answered ${res.status}: ${res.text}`);
      profileIds.push((JSON.parse(res.text) as { id: string }).id);
    }
    progress(`connecting ${s.accounts} sandbox accounts, ${s.connectConcurrency} at a time ... `);
    const connectStart = performance.now();
    const accounts = await connectAccounts(api, db, platforms, secretKey, {
      count: s.accounts,
      platforms: PLATFORMS_USED,
      placement: (i) => ({ ownerId: owner.ownerId, profileId: profileIds[i % profileIds.length] as string }),
      concurrency: s.connectConcurrency,
    });
    const connectSeconds = (performance.now() - connectStart) / 1000;
    progress(`done in ${connectSeconds.toFixed(1)} s\n`);
    const lacking = accounts.filter(
      (a) => (missingScopes(platforms.adapter(a.platform), 'read_insights', a.scopes) ?? []).length > 0,
    );
    if (lacking.length > 0) {
      throw new BenchError(`${lacking.length} accounts lack the insights permission, e.g. ${lacking[0]?.scopes}`);
    }
    const seeded = await seed(pool, accounts);

    // (1)
    progress('checking answers against the seed, explaining the query ... ');
    const sample = await checkAnswers(api, accounts, seeded);
    const firstInstagram = accounts.find((a) => a.platform === 'instagram') ?? (accounts[0] as BenchAccount);
    const explain = await explainRoute(pool, api, owner.ownerId, firstInstagram, seeded);
    progress('done\n');
    const bareTarget: Target = { label: '(a) GET /healthz', path: '/healthz', headers: {} };
    const paths = accounts.map((a) => insightsPath(a.id, seeded));
    const queryTarget: Target = {
      label: '(b) GET /v1/accounts/{id}/insights, 365 days, every metric',
      path: paths[0] ?? '',
      paths,
      headers: { authorization: `Bearer ${server.ownerKey}` },
    };
    await preflight(server.origin, bareTarget);
    await preflight(server.origin, queryTarget);
    const bare = await measure(server, bareTarget, s);
    const query = await measure(server, queryTarget, s, async () => {
      if (s.pgStatements) await pool.query('select pg_stat_statements_reset()');
    });
    const queryStatements = s.pgStatements ? await statements(pool) : undefined;
    // (c) the same requests from a client that kept each answer's ETag.
    const tags = await answerTags(api, paths);
    const conditional = await measure(
      server,
      {
        label: '(c) the same with If-None-Match, answered 304',
        path: queryTarget.path,
        paths,
        headers: queryTarget.headers,
        pathHeaders: tags.map((tag) => ({ 'if-none-match': tag })),
        status: 304,
      },
      s,
    );
    // A kept answer may send PostgreSQL nothing (the rate limit's count aside): then (d) is the only floor.
    let floor: QueriesAlone | undefined;
    if (explain.routeQueries.length > 0) {
      progress(`(b), its queries alone: ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s measured ... `);
      const floorPool = await embeddedPool(dataDir, 'bench-queries-alone', SERVICE_POOL_SIZE);
      floor = await queriesAlone(
        floorPool,
        explain.routeQueries,
        { server: server.pid, postmaster: await postmasterPid(dataDir) },
        { ...s, inFlight: s.connections },
        'floor',
      ).finally(() => floorPool.end());
      progress(`${floor.requests} requests\n`);
    }
    // (d) the floor of the bytes: a bare node:http server answering the first account's answer.
    const answer = await call(api, 'GET', `${api.origin}${paths[0] ?? ''}`);
    if (answer.status !== 200)
      throw new BenchError(`the answer to copy: ${answer.status} ${answer.text.slice(0, 200)}`);
    const bytesServer = await startBytesServer(answer.text);
    atEnd(() => bytesServer.stop());
    const sending = await measure(
      { ...server, pid: bytesServer.pid, origin: bytesServer.origin },
      { label: `(d) node:http answering the same ${Buffer.byteLength(answer.text)} bytes`, path: '/', headers: {} },
      s,
    );
    await bytesServer.stop();

    // (2)
    progress('starting a worker process ... ');
    const worker = await startWorkerProcess(dataDir, server.origin, 1, s.serverNodeArgs, {
      WORKER_BULK_CONCURRENCY: String(s.refreshConcurrency),
    });
    const kill = () => {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
    };
    process.on('exit', kill);
    atEnd(async () => {
      process.off('exit', kill);
      await stopServer(worker.child);
    });
    progress(`pid ${worker.pid}\n`);
    const pids: WorkersRunPids = { api: server.pid, postmaster: await postmasterPid(dataDir), workers: [worker.pid] };
    // The worker first runs the subscriptions to comment notices the connections queued: done
    // before the refresh, so its call log counts the refresh's calls alone.
    await waitForSubscriptions(pool, accounts.length, s.stallMs, { checkInterrupted, sleep, progress });
    const refresh = await refreshRun(api, pool, db, accounts, pids, s);
    return report(
      s,
      { accounts: accounts.length, connectSeconds, seeded, sample, explain },
      bare,
      query,
      conditional,
      floor,
      sending,
      refresh,
      queryStatements,
    );
  },
});
