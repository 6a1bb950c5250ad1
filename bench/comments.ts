/**
 * `npm run bench:comments` (and the last part of `npm run bench`): the comments inbox: listing it
 * under load over a million comments, and signed comment notices to their comment.created deliveries.
 *
 * Starts a receiver (bench/receiver-process.ts) and the service, `switchboard serve` (API and
 * workers, PLATFORMS=sandbox) on a temporary DATA_DIR with its embedded PostgreSQL, as
 * bench/webhooks.ts does. Then writes straight into the tables (one `insert ... select
 * generate_series` each, then ANALYZE): 3 owners (the first owner's 4 profiles, made through the
 * API, and 2 more owners of 2 profiles each), BENCH_COMMENTS_ACCOUNTS accounts (60% the first
 * owner's, spread over its profiles; Instagram, Threads and Facebook), 50 `platform` posts per
 * account (post, published target) and BENCH_COMMENTS_ROWS comments spread evenly over the
 * accounts: `commented_at` over the last 180 days, more of them recent; 60% unreplied, 30%
 * replied, 10% dismissed; 2% hidden; 5% written by the account; 10% replies to another comment.
 * The first owner's Instagram accounts, which receive the notices of (2), are real sandbox users
 * instead, connected through the sandbox's permission pages as bench/insights.ts connects its
 * accounts (bench/sandbox.ts), BENCH_COMMENTS_CONNECT_CONCURRENCY at a time: each one's row is
 * the service's own (its token is one the sandbox takes), in the owner and profile the seed
 * gives that account, and its first posts are the user's posts in the sandbox; everything else
 * about them is seeded as for the others. Every account's next poll and insight refresh is set a
 * day ahead (for the connected ones in their connection's transaction, before the worker's
 * schedule can see them), so polling (the safety net) and insights stay out of the run. The
 * connection queues each account's subscription to the app's comment notices (Instagram `POST
 * /me/subscribed_apps`), as in production; the bench waits until every one is `subscribed`.
 *
 *   (1) GET /v1/comments, with autocannon at BENCH_CONNECTIONS connections (as bench/run.ts):
 *       (a) GET /healthz, the bare route of the same server, then every filter the inbox offers,
 *       one at a time: (b) none, owner key; (c) `account_id`, owner key, the account changing at
 *       every request (the first owner's accounts in turn); (d) `post_id`, owner key, a post
 *       after another; (e) `reply_status=unreplied`, a profile key; (f) `platform=threads`, the
 *       profile key; (g) `hidden=true`, owner key; (h) `from` + `to` (30 days ending a week ago),
 *       the profile key; then each on its tenth page (the cursor of the ninth page's answer, read
 *       through the API first; a filter with fewer than ten pages in the seed is named instead).
 *       Prints requests/s, p50/p99 and each ratio to (a); then the queries the route runs for
 *       each shape (listComments itself, run in this process on the same database with its
 *       queries recorded) under EXPLAIN (ANALYZE, BUFFERS): the plan's nodes, the indexes used,
 *       the time and the buffers, planned for its values and at its sixth run as a named
 *       statement. A Seq Scan on comments is an error. Then the floor: each shape's queries alone,
 *       sent from this process (bench/queries-alone.ts) at as many requests in flight. Aims: at
 *       least a quarter of (a)'s requests/s, p99 < 25 ms, for every shape.
 *   (2) signed platform webhooks: one webhook endpoint of the first owner (POST /v1/webhooks),
 *       subscribed to `comment.created`, at the receiver. First every comment the run will
 *       announce is added in the sandbox (POST {sandbox}/_control/comments, a new comment by a
 *       fan on one of the account's sandbox posts, the first owner's Instagram accounts in
 *       turn), with the sandbox's own Instagram notices switched off (DELETE
 *       {sandbox}/_control/webhooks/instagram: the service subscribed to them at start), so the
 *       notices are this process's to send, at its pace. This process POSTs Instagram comment
 *       notices for those comments (the sandbox's shape, `entry[].field`/`value`, `entry.id` the
 *       professional account id, signed in X-Hub-Signature-256 with the sandbox app secret the
 *       service's adapters use) to /platform-webhooks/instagram, paced at
 *       BENCH_COMMENTS_WEBHOOK_RATE notices/s for BENCH_COMMENTS_WEBHOOK_SECONDS after a few
 *       unmeasured seconds. Instagram's notices carry no time of the comment, so the service
 *       reads it from the platform (`GET /{comment-id}?fields=timestamp` with the account's
 *       token, or `GET /?ids=...` for up to 50 of one account's comments in a job, answered here
 *       by the sandbox mounted in the server) before it decides `comment.created`: the measured
 *       path holds at most one platform call per notice, which the sandbox's call log, emptied
 *       before each run, counts. The comments are on the accounts in turn, or on the first
 *       BENCH_COMMENTS_NOTICE_ACCOUNTS of them only. Latency: the POST's send time → the
 *       arrival of that comment's `comment.created` delivery at the receiver (matched by the
 *       event's `platform_comment_id`), split where the time goes: send → the notice's answer
 *       (its comments queued), answer → its event recorded (`events.created_at`: the notice's
 *       job waiting, reading the time, storing) and recorded → arrival (the delivery), each with
 *       its p50/p99/max. Aim: p99 < 1 s. Checks that every POST answered 200
 *       `{"received": 1}`, that every comment's event arrived exactly once (duplicate arrivals
 *       are at-least-once and reported) and that every signature verifies; more calls than
 *       notices is printed as a finding. Then the same reads alone: the measured comments' times
 *       read one comment a call straight from this process with the service's adapter, at the same
 *       rate, so the sandbox's share of the server's CPU (which a real platform would spend
 *       instead) shows beside the run's, with the reads' own p50/p99; reads the sandbox does not
 *       answer in time at that rate are counted and printed as a finding (the floor's limit).
 * The CPU of the server, PostgreSQL, the receiver and this process is shown for each run.
 *
 * Settings (environment):
 *   BENCH_COMMENTS_ROWS              stored comments (default 1000000)
 *   BENCH_COMMENTS_ACCOUNTS          accounts (default 1000)
 *   BENCH_DURATION_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS   as for bench/run.ts (10, 3, 50)
 *   BENCH_COMMENTS_WEBHOOK_RATE      notices per second (default 200)
 *   BENCH_COMMENTS_WEBHOOK_SECONDS   measured seconds of notices (default 25)
 *   BENCH_COMMENTS_STALL_SECONDS     how long to wait for missing deliveries or subscriptions (default 60)
 *   BENCH_COMMENTS_CONNECT_CONCURRENCY  sandbox accounts connected, and sandbox comments added, at a time (default 16)
 *   BENCH_COMMENTS_NOTICE_ACCOUNTS   the notices' comments are on the first this many Instagram accounts only
 *                                    (default every one): a burst on a few accounts, whose times are read 50 a call
 *   BENCH_SERVER_NODE_ARGS           extra node flags for the server
 *   BENCH_COMMENTS_PG_STATEMENTS     1: restart with pg_stat_statements loaded and print the
 *                                    statements of (2)'s measured run, per notice
 *   BENCH_COMMENTS_PARTS             the parts to run, comma-separated: inbox, notices (default both);
 *                                    without notices no sandbox account is connected
 *   BENCH_COMMENTS_SHAPES            the inbox's shapes to measure, by letter (e.g. b,c,g; default every one)
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { Agent, request } from 'undici';
import type { Db } from '../src/db/connection.ts';
import { decodeCursor } from '../src/http/pagination.ts';
import type { Scope } from '../src/http/scope.ts';
import { type CommentListQuery, listComments } from '../src/modules/comments/inbox.ts';
import {
  type AccountCredentials,
  commentsOf,
  createPlatforms,
  type PlatformSet,
  SANDBOX_CLIENT,
} from '../src/platforms/index.ts';
import { loadSecretKey } from '../src/secrets.ts';
import { startBytesServer } from './bytes-server.ts';
import { type NamedCpuUse, namedCpuRows, namedCpuUse, type ReceiverRunPids, receiverRunCpuSample } from './cpu.ts';
import { benchSteps, runBench } from './harness.ts';
import {
  busiestOutside,
  interrupt as interruptLoad,
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
import { parseDump, Receiver } from './receiver.ts';
import { met, outsideNote, percentile, positiveIntFromEnv, table } from './report.ts';
import {
  type Api,
  type BenchAccount,
  callTotals,
  connectAccounts,
  eachLimited,
  HOLD_PERIODIC_WORK,
  holdPeriodicWork,
  interrupt as interruptSandbox,
  sandboxControl,
  waitForSubscriptions,
} from './sandbox.ts';
import { BenchError, embeddedPool, lastServerOutput, postmasterPid, type Server } from './server.ts';

const AIM_LIST_P99_MS = 25;
/** A page of the inbox at least this share of `/healthz`'s requests a second in the same run. */
const AIM_LIST_RATIO = 0.25;
const AIM_WEBHOOK_P99_MS = 1000;
const POSTS_PER_ACCOUNT = 50;
const FIRST_OWNER_PROFILES = 4;

interface Settings {
  rows: number;
  accounts: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  webhookRate: number;
  webhookSeconds: number;
  stallMs: number;
  connectConcurrency: number;
  /** The notices name comments on the first this many Instagram accounts, in turn (a burst on a few accounts). */
  noticeAccounts: number;
  serverNodeArgs: string[];
  pgStatements: boolean;
  /** Which parts run: (1) the inbox, (2) the notices. */
  parts: { inbox: boolean; notices: boolean };
  /** The inbox's shapes measured, by their letters (b to h); empty: every one. */
  shapes: string[];
}

const PARTS = ['inbox', 'notices'] as const;

function partsFromEnv(): Settings['parts'] {
  const given = (process.env.BENCH_COMMENTS_PARTS ?? PARTS.join(','))
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = given.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (given.length === 0 || unknown.length > 0) {
    throw new BenchError(
      `BENCH_COMMENTS_PARTS: a comma-separated list of ${PARTS.join(', ')}; got ${JSON.stringify(process.env.BENCH_COMMENTS_PARTS)}`,
    );
  }
  return { inbox: given.includes('inbox'), notices: given.includes('notices') };
}

function settings(): Settings {
  return {
    rows: positiveIntFromEnv('BENCH_COMMENTS_ROWS', 1_000_000),
    accounts: positiveIntFromEnv('BENCH_COMMENTS_ACCOUNTS', 1000),
    durationSeconds: positiveIntFromEnv('BENCH_DURATION_SECONDS', 10),
    warmupSeconds: positiveIntFromEnv('BENCH_WARMUP_SECONDS', 3),
    connections: positiveIntFromEnv('BENCH_CONNECTIONS', 50),
    webhookRate: positiveIntFromEnv('BENCH_COMMENTS_WEBHOOK_RATE', 200),
    webhookSeconds: positiveIntFromEnv('BENCH_COMMENTS_WEBHOOK_SECONDS', 25),
    stallMs: positiveIntFromEnv('BENCH_COMMENTS_STALL_SECONDS', 60) * 1000,
    connectConcurrency: positiveIntFromEnv('BENCH_COMMENTS_CONNECT_CONCURRENCY', 16),
    noticeAccounts: positiveIntFromEnv('BENCH_COMMENTS_NOTICE_ACCOUNTS', 1_000_000),
    serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    pgStatements: ['1', 'true'].includes(process.env.BENCH_COMMENTS_PG_STATEMENTS ?? ''),
    parts: partsFromEnv(),
    shapes: (process.env.BENCH_COMMENTS_SHAPES ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
  };
}

const epochMs = () => performance.timeOrigin + performance.now();
const { interrupt, checkInterrupted, sleep, progress } = benchSteps();

// ---------------------------------------------------------------------------------------
// Database and API

async function api<T>(server: Server, method: string, url: string, body: unknown, expect: number): Promise<T> {
  const response = await fetch(`${server.origin}${url}`, {
    method,
    headers: { authorization: `Bearer ${server.ownerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expect) {
    throw new BenchError(`${method} ${url} answered ${response.status}: ${text}${lastServerOutput()}`);
  }
  return JSON.parse(text) as T;
}

/** A TypeID-shaped id (`<prefix>_` and 26 base32 characters) from a number, made in SQL. */
const sqlId = (prefix: string, n: string) => `'${prefix}_01k' || lpad(to_hex(${n}), 23, '0')`;

/** A connected sandbox user that receives (2)'s notices, with its posts in the sandbox. */
interface NoticeAccount {
  account: BenchAccount;
  /** Its professional account id: the sandbox's id of the user, `entry.id` of its notices. */
  platformUserId: string;
  posts: string[];
}

interface Seeded {
  ownerId: string;
  profileIds: string[];
  profileKey: string;
  /** The first owner's accounts. */
  ownerAccounts: { id: string; platform: string; platformUserId: string; profileId: string }[];
  /** The first owner's Instagram accounts: connected sandbox users. */
  noticeAccounts: NoticeAccount[];
  connectSeconds: number;
  /** Seeding, without connecting. */
  seconds: number;
}

/** What connecting sandbox accounts needs: the API and its sandbox, this process's database handle, adapters and key. */
interface Connector {
  api: Api;
  db: Db;
  platforms: PlatformSet;
  secretKey: Buffer;
}

/** Post p of seeded account a: the account's p-th sandbox post if it is a sandbox user's and has one, else '18' || n || p. */
const platformPostSql = (a: string, p: string) =>
  `coalesce(${a}.posts[${p} + 1], '18' || lpad(${a}.n::text, 6, '0') || lpad(${p}::text, 4, '0'))`;

async function seed(server: Server, pool: pg.Pool, s: Settings, connector: Connector): Promise<Seeded> {
  const started = performance.now();
  const ownerRows = await pool.query<{ id: string }>('select id from owners');
  const ownerId = ownerRows.rows[0]?.id;
  if (ownerRows.rows.length !== 1 || ownerId === undefined) throw new BenchError('expected the first owner only');
  const profileIds: string[] = [];
  for (let i = 0; i < FIRST_OWNER_PROFILES; i++) {
    profileIds.push((await api<{ id: string }>(server, 'POST', '/v1/profiles', { name: `Brand ${i}` }, 201)).id);
  }
  const profileKey = (
    await api<{ key: string }>(server, 'POST', `/v1/profiles/${profileIds[0]}/api-keys`, { name: 'bench' }, 201)
  ).key;

  const q = async (label: string, text: string, values: unknown[] = []) => {
    checkInterrupted();
    const t = performance.now();
    const result = await pool.query(text, values);
    progress(`  ${label}: ${result.rowCount ?? 0} rows, ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  };
  progress(`seeding ${s.accounts} accounts, ${s.accounts * POSTS_PER_ACCOUNT} posts, ${s.rows} comments ...\n`);
  // Two more owners with two profiles each: the first owner's queries must find its own rows among others'.
  await q(
    'owners',
    `insert into owners (id, name, email, created_at)
     select ${sqlId('own', 'n')}, 'Agency ' || n, 'agency' || n || '@bench.test', now() from generate_series(1, 2) n`,
  );
  await q(
    'profiles',
    `insert into profiles (id, owner_id, name, is_default, created_at, updated_at)
     select ${sqlId('prf', 'o * 10 + p')}, ${sqlId('own', 'o')}, 'Client ' || p, false, now(), now()
     from generate_series(1, 2) o, generate_series(1, 2) p`,
  );
  // Account n: the first owner's for n < 60%, in its profiles in turn; else one of the others'.
  // Platforms: of every 4, 2 Instagram, 1 Threads, 1 Facebook.
  await q(
    'accounts',
    `create table bench_accounts as
     select n, ${sqlId('acc', 'n')} as id,
       case when n < $2 then $1 else ${sqlId('own', '1 + n % 2')} end as owner_id,
       case when n < $2 then ($3::text[])[1 + n % ${FIRST_OWNER_PROFILES}]
            else ${sqlId('prf', '(1 + n % 2) * 10 + 1 + (n / 2) % 2')} end as profile_id,
       (array['instagram', 'instagram', 'threads', 'facebook'])[1 + (n / ${FIRST_OWNER_PROFILES}) % 4] as platform
     from generate_series(0, $4 - 1) n`,
    [ownerId, Math.floor(s.accounts * 0.6), profileIds, s.accounts],
  );
  // The first owner's Instagram accounts get (2)'s notices, whose comments' times the service
  // reads from the platform with the account's token: they are sandbox users, connected as the
  // connect flow connects them, in the owner and profile the seed gives them.
  await pool.query(
    'alter table bench_accounts add column real boolean not null default false, add column posts text[]',
  );
  // Without (2), none is connected: the inbox reads only what the seed writes.
  const { rows: noticeRows } = s.parts.notices
    ? await pool.query<{ n: number; profile_id: string }>(
        `select n, profile_id from bench_accounts where owner_id = $1 and platform = 'instagram' order by n`,
        [ownerId],
      )
    : { rows: [] };
  progress(
    `  connecting ${noticeRows.length} Instagram sandbox accounts through the permission pages, ${s.connectConcurrency} at a time ... `,
  );
  const connectStarted = performance.now();
  const connected = await connectAccounts(connector.api, connector.db, connector.platforms, connector.secretKey, {
    count: noticeRows.length,
    platforms: ['instagram'],
    placement: (i) => ({ ownerId, profileId: noticeRows[i]?.profile_id as string }),
    concurrency: s.connectConcurrency,
    // Polls and refreshes held from the start: a poll would bring the sandbox's posts in before the seed's.
    inTransaction: holdPeriodicWork,
  });
  const noticeAccounts: NoticeAccount[] = new Array(connected.length);
  await eachLimited(connected, s.connectConcurrency, async (account, i) => {
    const user = JSON.parse(
      await sandboxControl(connector.api, 'GET', `/users/instagram/${account.username}`, undefined, 200),
    ) as { id: string; posts: { id: string }[] };
    if (user.id !== account.credentials.platformUserId) {
      throw new BenchError(
        `${account.username} is stored under ${account.credentials.platformUserId}, not its professional account id ${user.id} (the notices' entry.id)`,
      );
    }
    if (user.posts.length === 0) throw new BenchError(`${account.username} has no posts in the sandbox`);
    noticeAccounts[i] = { account, platformUserId: user.id, posts: user.posts.map((p) => p.id) };
  });
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  progress(`done in ${connectSeconds.toFixed(1)} s\n`);
  await pool.query(
    `update bench_accounts b set id = v.id, real = true, posts = v.posts
     from jsonb_to_recordset($1::jsonb) as v(n int, id text, posts text[]) where b.n = v.n`,
    [JSON.stringify(noticeAccounts.map((a, i) => ({ n: noticeRows[i]?.n, id: a.account.id, posts: a.posts })))],
  );
  await q(
    'accounts',
    `insert into accounts (id, owner_id, profile_id, platform, platform_user_id, username, status, scopes,
       token_issued_at, connected_at, created_at, updated_at)
     select id, owner_id, profile_id, platform, '1784' || lpad(n::text, 11, '0'), 'bench_' || n, 'connected', '{}',
       now(), now() - interval '30 days', now() - interval '30 days', now()
     from bench_accounts where not real`,
  );
  // Polling is the safety net, not what is measured here: every account was "just polled" (and
  // its insights just refreshed); the connected ones were held so in their connection.
  await q(
    'comment_sync_state, insight_sync_state',
    `with held as (select id from bench_accounts where not real)${HOLD_PERIODIC_WORK}`,
  );
  // Post p of account n: platform post id '18' || n || p, or a sandbox user's own posts first.
  await q(
    'posts',
    `insert into posts (id, owner_id, profile_id, status, source, platform_key, text, scheduled_at, created_at, updated_at)
     select ${sqlId('post', `a.n * ${POSTS_PER_ACCOUNT} + p`)}, a.owner_id, a.profile_id, 'published', 'platform',
       a.id || ':' || ${platformPostSql('a', 'p')}, 'A post ' || p,
       now() - (p || ' days')::interval, now(), now()
     from bench_accounts a, generate_series(0, ${POSTS_PER_ACCOUNT - 1}) p`,
  );
  await q(
    'post_targets',
    `insert into post_targets (id, post_id, account_id, platform, status, platform_post_id, permalink, published_at,
       created_at, updated_at)
     select ${sqlId('pt', `a.n * ${POSTS_PER_ACCOUNT} + p`)}, ${sqlId('post', `a.n * ${POSTS_PER_ACCOUNT} + p`)}, a.id,
       a.platform, 'published', ${platformPostSql('a', 'p')},
       'https://www.instagram.com/p/bench' || a.n || '_' || p, now() - (p || ' days')::interval, now(), now()
     from bench_accounts a, generate_series(0, ${POSTS_PER_ACCOUNT - 1}) p`,
  );
  // Comment g: account g % accounts, so g - accounts is the same account's (the parent of a reply).
  await q(
    'comments',
    `insert into comments (id, owner_id, profile_id, account_id, post_id, platform, platform_comment_id, platform_post_id,
       platform_parent_id, author_id, author_username, text, commented_at, hidden, reply_status, by_account,
       created_at, updated_at)
     select ${sqlId('cmt', 'g')}, a.owner_id, a.profile_id, a.id, ${sqlId('post', `a.n * ${POSTS_PER_ACCOUNT} + c.p`)}, a.platform,
       '179' || lpad(g::text, 14, '0'), ${platformPostSql('a', 'c.p')},
       case when g % 10 = 0 and g > $1 then '179' || lpad((g - $1)::text, 14, '0') end,
       '9' || (g % 50000), 'fan_' || (g % 50000), 'Comment number ' || g || ', a few words about the post',
       c.at, random() < 0.02,
       case when c.r < 0.6 then 'unreplied' when c.r < 0.9 then 'replied' else 'dismissed' end,
       random() < 0.05, c.at, c.at
     from generate_series(1, $2) g
     cross join lateral (select now() - interval '180 days' * power(random(), 2) as at, random() as r,
       (g / $1) % ${POSTS_PER_ACCOUNT} as p) c
     join bench_accounts a on a.n = g % $1`,
    [s.accounts, s.rows],
  );
  await q('analyze', 'analyze');
  const accountRows = await pool.query<{ id: string; platform: string; platform_user_id: string; profile_id: string }>(
    `select a.id, a.platform, a.platform_user_id, a.profile_id from accounts a where a.owner_id = $1 order by a.id`,
    [ownerId],
  );
  await pool.query('drop table bench_accounts');
  return {
    ownerId,
    profileIds,
    profileKey,
    noticeAccounts,
    connectSeconds,
    ownerAccounts: accountRows.rows.map((r) => ({
      id: r.id,
      platform: r.platform,
      platformUserId: r.platform_user_id,
      profileId: r.profile_id,
    })),
    seconds: (performance.now() - started) / 1000 - connectSeconds,
  };
}

// ---------------------------------------------------------------------------------------
// (1) the plans of the route's queries

interface Plan {
  shape: string;
  /** One line per query listComments ran. */
  lines: string[];
  seqScanOnComments: boolean;
  /** The queries the route sends PostgreSQL per request. */
  routeQueries: RecordedQuery[];
}

/** Runs listComments as the route does, records its queries, and explains each. */
async function explainShape(
  pool: pg.Pool,
  origin: string,
  shape: string,
  scope: Scope,
  query: CommentListQuery,
): Promise<Plan> {
  const { db, queries } = recordingDb(pool);
  const platforms = createPlatforms({ platforms: 'sandbox', platformCredentials: {}, sandboxUrl: `${origin}/sandbox` });
  const rows = await listComments({ db, platforms: () => platforms }, scope, query);
  const explained = await explainQueries(pool, queries);
  return {
    shape,
    lines: [`rows answered: ${rows.length} (limit ${query.limit} + 1)`, ...explained.flatMap((e) => e.lines)],
    seqScanOnComments: explained.some((e) =>
      e.nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'comments'),
    ),
    routeQueries: routeQueries(queries),
  };
}

// ---------------------------------------------------------------------------------------
// CPU

type Pids = ReceiverRunPids;

const NAMES = ['server', 'postgres', 'receiver'] as const;
type CpuUse = NamedCpuUse<(typeof NAMES)[number]>;

const cpuSample = receiverRunCpuSample;

// ---------------------------------------------------------------------------------------
// (2) signed platform webhooks

interface WebhookRun {
  notices: number;
  /** Seconds from the first send to the last. */
  sendSeconds: number;
  /** Send → arrival, every measured comment; sorted. */
  latencies: Float64Array;
  /**
   * Where each comment's time went, each sorted: send → the notice answered (its comments
   * committed to the queue), answered → its comment.created recorded (the notice's job: its wait
   * for a slot, the read of the comment's time, the storing), recorded → arrival (the delivery).
   */
  phases: { answered: Float64Array; recorded: Float64Array; delivered: Float64Array };
  duplicates: number;
  badSignatures: number;
  cpu: CpuUse;
  /** Seconds from the first send to the last arrival. */
  seconds: number;
  /** Calls the sandbox's imitated APIs received during the run (its call log): in all, and Instagram's. */
  platformCalls: { total: number; instagram: number };
}

/** A comment added in the sandbox, as its notice names it, with the credentials of the account it is on. */
interface BenchComment {
  id: string;
  /** The account's professional account id (the notice's `entry.id`). */
  accountPlatformUserId: string;
  credentials: AccountCredentials;
  postId: string;
  authorId: string;
  authorUsername: string;
  text: string;
}

interface Sender {
  api: Api;
  agent: Agent;
  origin: string;
  /** The comments the notices announce, in the order they are sent. */
  comments: BenchComment[];
}

/**
 * Adds `count` comments in the sandbox, by fans, on the accounts' sandbox posts (the accounts
 * in turn, each one's posts in turn), `concurrency` at a time; answered in that order.
 */
async function addComments(
  api: Api,
  accounts: readonly NoticeAccount[],
  count: number,
  concurrency: number,
): Promise<BenchComment[]> {
  const made: BenchComment[] = new Array(count);
  await eachLimited(
    Array.from({ length: count }, (_, n) => n),
    concurrency,
    async (n) => {
      const { account, platformUserId, posts } = accounts[n % accounts.length] as NoticeAccount;
      const answer = JSON.parse(
        await sandboxControl(
          api,
          'POST',
          '/comments',
          {
            platform: 'instagram',
            username: account.username,
            post_id: posts[Math.floor(n / accounts.length) % posts.length],
            author_username: `bench_fan_${n % 100000}`,
            text: `Love this! comment ${n}`,
          },
          201,
        ),
      ) as { id: string; post_id: string; author_id: string; author_username: string; text: string };
      made[n] = {
        id: answer.id,
        accountPlatformUserId: platformUserId,
        credentials: account.credentials,
        postId: answer.post_id,
        authorId: answer.author_id,
        authorUsername: answer.author_username,
        text: answer.text,
      };
    },
  );
  return made;
}

/** Instagram's `comments` notice of a comment, as the sandbox sends it (entry with `field`/`value`), signed. */
function notice(comment: BenchComment) {
  const body = JSON.stringify({
    object: 'instagram',
    entry: [
      {
        id: comment.accountPlatformUserId,
        time: Math.floor(Date.now() / 1000),
        field: 'comments',
        value: {
          id: comment.id,
          from: { id: comment.authorId, username: comment.authorUsername },
          text: comment.text,
          media: { id: comment.postId, media_product_type: 'FEED' },
        },
      },
    ],
  });
  const signature = `sha256=${createHmac('sha256', SANDBOX_CLIENT.clientSecret).update(body, 'utf8').digest('hex')}`;
  return { body, signature };
}

/** Starts `send(i)` for i in [0, count) at `rate` per second, without waiting for one to end before the next is due; resolves when all have ended. */
async function paced(count: number, rate: number, send: (i: number) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    checkInterrupted();
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const p = send(i).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
}

/** POSTs the notices of comments [first, first + count) at `rate` per second; answers each comment id's send time and the time its answer came (epoch ms). */
async function sendNotices(
  sender: Sender,
  first: number,
  count: number,
  rate: number,
): Promise<{ sent: Map<string, number>; answered: Map<string, number> }> {
  const sent = new Map<string, number>();
  const answered = new Map<string, number>();
  const failures: string[] = [];
  await paced(count, rate, async (i) => {
    const comment = sender.comments[first + i] as BenchComment;
    const { body, signature } = notice(comment);
    sent.set(comment.id, epochMs());
    try {
      const response = await request(`${sender.origin}/platform-webhooks/instagram`, {
        dispatcher: sender.agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      });
      const text = await response.body.text();
      answered.set(comment.id, epochMs());
      if (response.statusCode !== 200 || text !== '{"received":1}') failures.push(`${response.statusCode} ${text}`);
    } catch (error) {
      failures.push(String(error));
    }
  });
  if (failures.length > 0) {
    throw new BenchError(
      `${failures.length} notices were not answered 200 {"received":1}: ${failures[0]}${lastServerOutput()}`,
    );
  }
  return { sent, answered };
}

/** The comment.created events' platform comment ids and the times they were recorded (epoch ms), by event id. */
async function eventComments(pool: pg.Pool, eventIds: string[]): Promise<Map<string, { pcid: string; at: number }>> {
  const { rows } = await pool.query<{ id: string; pcid: string; at: number }>(
    `select id::text, data->>'platform_comment_id' as pcid, extract(epoch from created_at)::float8 * 1000 as at
     from events where id = any($1::uuid[]) and type = 'comment.created'`,
    [eventIds],
  );
  return new Map(rows.map((r) => [r.id, { pcid: r.pcid, at: r.at }]));
}

async function platformCalls(api: Api): Promise<{ total: number; instagram: number }> {
  const totals = await callTotals(api);
  return { total: totals.total, instagram: totals.by_platform.instagram ?? 0 };
}

async function webhookRun(
  sender: Sender,
  receiver: Receiver,
  pool: pg.Pool,
  pids: Pids,
  s: Settings,
  dataDir: string,
  first: number,
  count: number,
  label: string,
): Promise<WebhookRun> {
  await receiver.reset(false);
  await sandboxControl(sender.api, 'DELETE', '/calls', undefined, 204);
  progress(`${label}: ${count} notices at ${s.webhookRate}/s ... `);
  const cpuBefore = await cpuSample(pids);
  const t0 = epochMs();
  const { sent, answered } = await sendNotices(sender, first, count, s.webhookRate);
  const sendSeconds = (Math.max(...sent.values()) - t0) / 1000;
  progress('sent, waiting for the deliveries ... ');
  // Every comment's event must arrive; wait while arrivals still come.
  let last = -1;
  let lastChange = performance.now();
  for (;;) {
    checkInterrupted();
    const status = await receiver.status();
    if (status.distinct >= count) break;
    if (status.distinct !== last) {
      last = status.distinct;
      lastChange = performance.now();
    } else if (performance.now() - lastChange > s.stallMs) {
      throw new BenchError(
        `${label}: ${count - status.distinct} of ${count} comment.created deliveries had not arrived, none for ${s.stallMs / 1000} s${lastServerOutput()}`,
      );
    }
    await sleep(50);
  }
  const cpuAfter = await cpuSample(pids);
  const calls = await platformCalls(sender.api);
  const file = path.join(dataDir, 'arrivals.tsv');
  const summary = await receiver.dump(file);
  const arrivals = parseDump(await fs.readFile(file, 'utf8'));
  await fs.rm(file, { force: true });
  const byEvent = await eventComments(pool, [...new Set(arrivals.map((a) => a.event))]);
  const firstArrival = new Map<string, number>();
  const recordedAt = new Map<string, number>();
  let duplicates = 0;
  for (const a of arrivals) {
    const event = byEvent.get(a.event);
    if (event === undefined) throw new BenchError(`${label}: an arrival of event ${a.event}, not a comment.created`);
    const pcid = event.pcid;
    recordedAt.set(pcid, event.at);
    const seen = firstArrival.get(pcid);
    if (seen !== undefined) duplicates += 1;
    firstArrival.set(pcid, Math.min(seen ?? Number.POSITIVE_INFINITY, a.at));
  }
  const latencies = new Float64Array(sent.size);
  const phases = {
    answered: new Float64Array(sent.size),
    recorded: new Float64Array(sent.size),
    delivered: new Float64Array(sent.size),
  };
  let n = 0;
  let lastAt = 0;
  const missing: string[] = [];
  for (const [pcid, at] of sent) {
    const arrived = firstArrival.get(pcid);
    if (arrived === undefined) {
      missing.push(pcid);
      continue;
    }
    const answer = answered.get(pcid) ?? Number.NaN;
    const recorded = recordedAt.get(pcid) ?? Number.NaN;
    phases.answered[n] = answer - at;
    phases.recorded[n] = recorded - answer;
    phases.delivered[n] = arrived - recorded;
    latencies[n++] = arrived - at;
    lastAt = Math.max(lastAt, arrived);
  }
  if (missing.length > 0 || firstArrival.size !== sent.size) {
    throw new BenchError(
      `${label}: ${missing.length} comments had no comment.created delivery (e.g. ${missing[0]}); ${firstArrival.size} distinct arrived for ${sent.size} sent`,
    );
  }
  if (summary.badSignatures > 0)
    throw new BenchError(`${label}: ${summary.badSignatures} deliveries failed verification`);
  progress(`${n} arrived\n`);
  return {
    notices: count,
    sendSeconds,
    latencies: latencies.subarray(0, n).sort(),
    phases: {
      answered: phases.answered.subarray(0, n).sort(),
      recorded: phases.recorded.subarray(0, n).sort(),
      delivered: phases.delivered.subarray(0, n).sort(),
    },
    duplicates,
    badSignatures: summary.badSignatures,
    cpu: namedCpuUse(NAMES, cpuBefore, cpuAfter),
    seconds: (lastAt - t0) / 1000,
    platformCalls: calls,
  };
}

interface ReadsRun {
  reads: number;
  cpu: CpuUse;
  /** Milliseconds per read, sorted (failed ones included, at the time they failed). */
  latencies: Float64Array;
  /** Reads that failed (the sandbox not answering in time, at a rate beyond it), and the first error. */
  failed: number;
  firstFailure: string | undefined;
}

/**
 * The platform reads of (2) alone: the times of comments [first, first + count) read with the
 * service's adapter from this process, at the notices' rate, as the service reads them for a
 * notice. The server's CPU here is the sandbox's answering, which a real platform does instead.
 */
async function readsAlone(
  sender: Sender,
  platforms: PlatformSet,
  pids: Pids,
  s: Settings,
  first: number,
  count: number,
): Promise<ReadsRun> {
  progress(`the same reads alone: ${count} at ${s.webhookRate}/s ... `);
  const adapter = platforms.adapter('instagram');
  const failures: string[] = [];
  const latencies = new Float64Array(count);
  const cpuBefore = await cpuSample(pids);
  await paced(count, s.webhookRate, async (i) => {
    const comment = sender.comments[first + i] as BenchComment;
    const started = performance.now();
    try {
      const times = await commentsOf(adapter).commentTimes(comment.credentials, [comment.id]);
      // A comment the sandbox does not have is the bench's own mistake, not a floor's limit.
      if (!times.has(comment.id)) throw new BenchError(`the sandbox has no comment ${comment.id}`);
    } catch (error) {
      if (error instanceof BenchError) throw error;
      failures.push(String(error));
    }
    latencies[i] = performance.now() - started;
  });
  const cpuAfter = await cpuSample(pids);
  progress(failures.length > 0 ? `${failures.length} failed\n` : 'done\n');
  return {
    reads: count,
    cpu: namedCpuUse(NAMES, cpuBefore, cpuAfter),
    latencies: latencies.sort(),
    failed: failures.length,
    firstFailure: failures[0],
  };
}

// ---------------------------------------------------------------------------------------
// (1) the inbox under load

/** A request of the inbox: its filter and page, as autocannon sends it and as listComments runs it. */
interface Shape {
  /** A short name for the tables: `(c)`, `(c) p10`. */
  code: string;
  target: Target;
  scope: Scope;
  query: CommentListQuery;
}

interface InboxRun {
  bare: Measurement;
  /** node:http answering the first shape's answer, byte for byte: what sending a page costs alone. */
  sending: Measurement;
  shapes: Shape[];
  measured: Measurement[];
  plans: Plan[];
  floors: QueriesAlone[];
  /** Filters without a tenth page in the seed, said in the report. */
  noTenthPage: string[];
}

const PAGE = 50;
const TENTH = 10;
/** The accounts whose tenth pages the account filter's tenth-page shape takes in turn. */
const TENTH_PAGE_ACCOUNTS = 50;

const withParam = (path: string, name: string, value: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;

/** The cursor of the tenth page of `path`, after reading the nine before it through the API; null when it has fewer. */
async function tenthPageCursor(server: Server, path: string, headers: Record<string, string>): Promise<string | null> {
  let cursor: string | null = null;
  for (let page = 1; page < TENTH; page++) {
    checkInterrupted();
    const url: string = cursor === null ? path : withParam(path, 'cursor', cursor);
    const response = await fetch(`${server.origin}${url}`, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new BenchError(`GET ${url} answered ${response.status}: ${text}`);
    cursor = (JSON.parse(text) as { next_cursor: string | null }).next_cursor;
    if (cursor === null) return null;
  }
  return cursor;
}

/**
 * Every filter the inbox offers, one at a time (none; account; post; reply status; platform;
 * hidden; a range of dates), on its first page, and each that has one on its tenth page (the
 * cursor of the page before it, read through the API), with the owner key or a profile key.
 */
async function inboxShapes(
  server: Server,
  pool: pg.Pool,
  seeded: Seeded,
  only: readonly string[],
): Promise<{ shapes: Shape[]; noTenthPage: string[] }> {
  const owner = { authorization: `Bearer ${server.ownerKey}` };
  const profile = { authorization: `Bearer ${seeded.profileKey}` };
  const ownerScope: Scope = {
    ownerId: seeded.ownerId,
    profileId: null,
    visibleProfileIds: null,
    caller: { type: 'api_key', id: '', name: null, kind: 'owner' },
  };
  const profileScope: Scope = {
    ownerId: seeded.ownerId,
    profileId: seeded.profileIds[0] ?? '',
    visibleProfileIds: [seeded.profileIds[0] ?? ''],
    caller: { type: 'api_key', id: '', name: null, kind: 'profile' },
  };
  const day = 86400_000;
  const from = new Date(Date.now() - 37 * day).toISOString();
  const to = new Date(Date.now() - 7 * day).toISOString();
  const accounts = seeded.ownerAccounts.map((a) => a.id);
  const { rows: postRows } = await pool.query<{ id: string }>(
    'select id from posts where owner_id = $1 order by id limit $2',
    [seeded.ownerId, accounts.length],
  );
  const posts = postRows.map((r) => r.id);
  const first: (Pick<Shape, 'code' | 'scope' | 'query'> & {
    label: string;
    paths: string[];
    headers: Record<string, string>;
  })[] = [
    {
      code: '(b)',
      label: 'owner key, no filter',
      paths: ['/v1/comments'],
      headers: owner,
      scope: ownerScope,
      query: { limit: PAGE },
    },
    {
      code: '(c)',
      label: 'owner key, account_id (an account after another)',
      paths: accounts.map((id) => `/v1/comments?account_id=${id}`),
      headers: owner,
      scope: ownerScope,
      query: { accountId: accounts[0], limit: PAGE },
    },
    {
      code: '(d)',
      label: 'owner key, post_id (a post after another)',
      paths: posts.map((id) => `/v1/comments?post_id=${id}`),
      headers: owner,
      scope: ownerScope,
      query: { postId: posts[0], limit: PAGE },
    },
    {
      code: '(e)',
      label: 'profile key, reply_status=unreplied',
      paths: ['/v1/comments?reply_status=unreplied'],
      headers: profile,
      scope: profileScope,
      query: { replyStatus: 'unreplied', limit: PAGE },
    },
    {
      code: '(f)',
      label: 'profile key, platform=threads',
      paths: ['/v1/comments?platform=threads'],
      headers: profile,
      scope: profileScope,
      query: { platform: 'threads', limit: PAGE },
    },
    {
      code: '(g)',
      label: 'owner key, hidden=true',
      paths: ['/v1/comments?hidden=true'],
      headers: owner,
      scope: ownerScope,
      query: { hidden: true, limit: PAGE },
    },
    {
      code: '(h)',
      label: 'profile key, from + to (30 days, ending a week ago)',
      paths: [`/v1/comments?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`],
      headers: profile,
      scope: profileScope,
      query: { from: new Date(from), to: new Date(to), limit: PAGE },
    },
  ];
  const shapes: Shape[] = [];
  const tenth: Shape[] = [];
  const noTenthPage: string[] = [];
  for (const f of first) {
    if (only.length > 0 && !only.includes(f.code.slice(1, 2))) continue;
    shapes.push({
      code: f.code,
      target: { label: `${f.code} ${f.label}`, path: f.paths[0] ?? '', paths: f.paths, headers: f.headers },
      scope: f.scope,
      query: f.query,
    });
    const candidates = f.paths.slice(0, TENTH_PAGE_ACCOUNTS);
    progress(
      `${f.code}: reading ${TENTH - 1} pages of ${candidates.length} request(s) for the tenth page's cursor ... `,
    );
    const tenthPaths: string[] = [];
    /** The first request with a tenth page: the one listComments runs for the plans. */
    let firstWithTenth: { index: number; cursor: string } | null = null;
    for (const [index, path] of candidates.entries()) {
      const cursor = await tenthPageCursor(server, path, f.headers);
      if (cursor === null) continue;
      firstWithTenth ??= { index, cursor };
      tenthPaths.push(withParam(path, 'cursor', cursor));
    }
    progress(`${tenthPaths.length} with a tenth page\n`);
    if (firstWithTenth === null) {
      noTenthPage.push(`${f.code} ${f.label}`);
      continue;
    }
    tenth.push({
      code: `${f.code} p10`,
      target: {
        label: `${f.code} ${f.label}, tenth page`,
        path: tenthPaths[0] ?? '',
        paths: tenthPaths,
        headers: f.headers,
      },
      scope: f.scope,
      query: {
        ...f.query,
        ...(f.query.accountId === undefined ? {} : { accountId: accounts[firstWithTenth.index] }),
        ...(f.query.postId === undefined ? {} : { postId: posts[firstWithTenth.index] }),
        after: decodeCursor(firstWithTenth.cursor, 'timestamp|comment'),
      },
    });
  }
  return { shapes: [...shapes, ...tenth], noTenthPage };
}

async function inboxRun(server: Server, pool: pg.Pool, seeded: Seeded, s: Settings): Promise<InboxRun> {
  const { shapes, noTenthPage } = await inboxShapes(server, pool, seeded, s.shapes);
  const bareTarget: Target = { label: '(a) GET /healthz', path: '/healthz', headers: {} };
  const plans: Plan[] = [];
  for (const shape of shapes)
    plans.push(await explainShape(pool, server.origin, shape.target.label, shape.scope, shape.query));
  await preflight(server.origin, bareTarget);
  for (const shape of shapes) await preflight(server.origin, shape.target);
  const bare = await measure(server, bareTarget, s);
  const first = shapes[0];
  const answer =
    first === undefined
      ? undefined
      : await fetch(`${server.origin}${first.target.path}`, { headers: first.target.headers });
  const text = (await answer?.text()) ?? '';
  if (answer?.status !== 200) throw new BenchError(`the answer to copy: ${answer?.status} ${text.slice(0, 200)}`);
  const bytesServer = await startBytesServer(text);
  let sending: Measurement;
  try {
    sending = await measure(
      { ...server, pid: bytesServer.pid, origin: bytesServer.origin },
      { label: `(a2) node:http answering ${first?.code}'s ${Buffer.byteLength(text)} bytes`, path: '/', headers: {} },
      s,
    );
  } finally {
    await bytesServer.stop();
  }
  const measured: Measurement[] = [];
  for (const shape of shapes) measured.push(await measure(server, shape.target, s));
  const floors: QueriesAlone[] = [];
  const floorPool = await embeddedPool(server.dataDir, 'bench-queries-alone', SERVICE_POOL_SIZE);
  try {
    for (const [i, plan] of plans.entries()) {
      progress(`${plan.shape}, its queries alone: ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s measured ... `);
      const pids = { server: server.pid, postmaster: await postmasterPid(server.dataDir) };
      const floor = await queriesAlone(
        floorPool,
        plan.routeQueries,
        pids,
        { ...s, inFlight: s.connections },
        `floor_${i}`,
      );
      progress(`${floor.requests} requests\n`);
      floors.push(floor);
    }
  } finally {
    await floorPool.end();
  }
  return { bare, sending, shapes, measured, plans, floors, noTenthPage };
}

// ---------------------------------------------------------------------------------------
// Report

interface Part {
  lines: string[];
  aims: string[][];
  /** The busiest share of the machine other processes took during the part. */
  busiest: number;
}

const ms = (n: number) => n.toFixed(2);

function inboxReport(s: Settings, inbox: InboxRun): Part {
  const { bare, sending, shapes, measured, plans, floors } = inbox;
  const cores = os.availableParallelism();
  const perRequest = (m: Measurement, cpuMs: number | undefined) =>
    cpuMs === undefined ? '-' : ((cpuMs * 1000) / m.responses).toFixed(0);
  const all = [bare, sending, ...measured];
  const results = table(
    [
      ['route', 'requests/s', 'ratio to (a)', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'postgres CPU µs/req'],
      ...all.map((m) => [
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
  const floorTable = table(
    [FLOOR_HEADER, ...floors.map((f, i) => floorRow(shapes[i]?.code ?? '', f, measured[i]?.requestsPerSecond))],
    [false, true, true, true, true, true],
  );
  const aims = measured.flatMap((m, i) => {
    const code = shapes[i]?.code ?? '';
    const ratio = m.requestsPerSecond / bare.requestsPerSecond;
    const floor = floors[i];
    const floorsMissing = [
      ...(floor !== undefined && floor.requestsPerSecond < AIM_LIST_RATIO * bare.requestsPerSecond
        ? [`its queries alone: ${(floor.requestsPerSecond / bare.requestsPerSecond).toFixed(3)} of (a)`]
        : []),
      ...(sending.requestsPerSecond < AIM_LIST_RATIO * bare.requestsPerSecond
        ? [`sending a page's bytes alone: ${(sending.requestsPerSecond / bare.requestsPerSecond).toFixed(3)} of (a)`]
        : []),
    ];
    const bound = floorsMissing.length === 0 ? '' : ` (${floorsMissing.join('; ')})`;
    return [
      [
        `${code} at least ${AIM_LIST_RATIO} of (a)'s requests/s at ${s.connections} connections`,
        ratio.toFixed(3),
        `${met(ratio >= AIM_LIST_RATIO)}${bound}`,
      ],
      [
        `${code} p99 under ${AIM_LIST_P99_MS} ms at ${s.connections} connections`,
        `${ms(m.p99)} ms`,
        met(m.p99 < AIM_LIST_P99_MS),
      ],
    ];
  });
  return {
    lines: [
      `(1) GET /v1/comments, ${s.connections} connections, ${s.durationSeconds} s per route after a ${s.warmupSeconds} s warm-up`,
      '',
      results,
      '',
      loadCpuTable(all, cores),
      '',
      `The floor: each shape's queries (those the route sends PostgreSQL, named statements) sent from this process alone, ${s.connections} requests in flight over ${SERVICE_POOL_SIZE} connections as the service's pool, the first request of the shape repeated:`,
      floorTable,
      ...(inbox.noTenthPage.length === 0
        ? []
        : [
            '',
            `no tenth page in the seed (fewer than ${TENTH * PAGE} comments a request): ${inbox.noTenthPage.join('; ')}`,
          ]),
      '',
      `worst p99 of the comment queries: ${ms(Math.max(...measured.map((m) => m.p99)))} ms`,
      '',
      'EXPLAIN (ANALYZE, BUFFERS) of the queries the route runs (listComments), per shape:',
      ...plans.flatMap((p) => [
        `${p.shape}${p.seqScanOnComments ? '   SEQ SCAN ON comments' : '   (no Seq Scan on comments)'}`,
        ...p.lines.map((l) => `  ${l}`),
      ]),
    ],
    aims,
    busiest: busiestOutside(all),
  };
}

function noticesReport(
  s: Settings,
  seeded: Seeded,
  w: WebhookRun,
  reads: ReadsRun,
  subscribeSeconds: number,
  noticeStatements: Statement[] | undefined,
): Part {
  const cores = os.availableParallelism();
  const p50 = percentile(w.latencies, 50);
  const p99 = percentile(w.latencies, 99);
  const max = w.latencies[w.latencies.length - 1] ?? Number.NaN;
  const achieved = w.notices / w.sendSeconds;
  const webhook = table(
    [
      ['platform webhooks → comment.created', 'comments', 'notices/s sent', 'p50 ms', 'p99 ms', 'max ms'],
      [
        `signed Instagram notices, aimed at ${s.webhookRate}/s`,
        String(w.notices),
        achieved.toFixed(1),
        p50.toFixed(1),
        p99.toFixed(1),
        max.toFixed(1),
      ],
    ],
    [false, true, true, true, true, true],
  );
  const phase = (label: string, sorted: Float64Array) => [
    label,
    percentile(sorted, 50).toFixed(1),
    percentile(sorted, 99).toFixed(1),
    (sorted[sorted.length - 1] ?? Number.NaN).toFixed(1),
  ];
  const phases = table(
    [
      ['where the time goes', 'p50 ms', 'p99 ms', 'max ms'],
      phase('send → the notice answered (its comments queued)', w.phases.answered),
      phase('answered → comment.created recorded (the job: its wait, the read, the storing)', w.phases.recorded),
      phase('recorded → arrival at the receiver (the delivery)', w.phases.delivered),
    ],
    [false, true, true, true],
  );
  const webhookCpu = table(
    [
      [`CPU, % of one core (of ${cores * 100}%)`, 'server', 'postgres', 'receiver', 'bench', 'other processes'],
      ...namedCpuRows(NAMES, 'webhooks run (bench: the sender)', w.cpu, w.notices, {
        label: 'ms of CPU per comment',
        scale: 1,
        digits: 2,
      }),
      ...namedCpuRows(NAMES, 'the same reads alone (server: the sandbox; bench: the reader)', reads.cpu, reads.reads, {
        label: 'ms of CPU per read',
        scale: 1,
        digits: 2,
      }),
    ],
    [false, true, true, true, true, true],
  );
  const calls = w.platformCalls;
  const callsLine = `platform calls during the measured run (the sandbox's call log): ${calls.total}, of them ${calls.instagram} Instagram, ${(calls.total / w.notices).toFixed(2)} per notice (expected: at most 1, the reads of the comments' times, up to 50 of one account's comments a call)`;
  return {
    lines: [
      `(2) signed platform webhooks: ${seeded.ownerAccounts.filter((a) => a.platform === 'instagram').length} Instagram accounts, one endpoint subscribed to comment.created`,
      `    the Instagram accounts are sandbox users connected through the permission pages (${seeded.noticeAccounts.length} in ${seeded.connectSeconds.toFixed(1)} s), every one subscribed to the app's comment notices ${subscribeSeconds.toFixed(1)} s after the seed ended`,
      `    the notices name comments on ${Math.min(s.noticeAccounts, seeded.noticeAccounts.length)} of them, in turn`,
      "    every notice's comment exists in the sandbox; the notice gives no time of the comment, so the service reads it (GET /{comment-id}?fields=timestamp, or GET /?ids=...",
      '    for several comments of one account in a job, up to 50 a call) before it decides comment.created, answered by the sandbox mounted in the server, whose CPU includes that answering',
      '',
      webhook,
      '',
      phases,
      '',
      webhookCpu,
      ...(noticeStatements ? ['', statementsReport(noticeStatements, w.notices, 'notice', '(2) measured')] : []),
      '',
      callsLine,
      ...(calls.total <= w.notices && calls.instagram === calls.total
        ? []
        : [`FINDING: ${calls.total} platform calls for ${w.notices} notices, more than one each`]),
      `the same reads alone, from this process at ${s.webhookRate}/s: p50 ${percentile(reads.latencies, 50).toFixed(1)} ms, p99 ${percentile(reads.latencies, 99).toFixed(1)} ms, ${reads.failed} of ${reads.reads} failed${reads.firstFailure ? ` (first: ${reads.firstFailure})` : ''}`,
      ...(reads.failed > 0
        ? [
            `FINDING: the sandbox alone did not answer ${s.webhookRate} reads/s on this machine: that rate is beyond the floor under (2), whatever the service does`,
          ]
        : []),
      `every notice answered 200 {"received":1}; every comment's comment.created arrived (${w.duplicates} duplicate arrivals, at-least-once), ${w.badSignatures} bad signatures; first send → last arrival ${w.seconds.toFixed(1)} s, ${(w.notices / w.seconds).toFixed(1)} comments/s delivered`,
    ],
    aims: [
      [
        `webhook send → comment.created arrival p99 under ${AIM_WEBHOOK_P99_MS} ms at ${s.webhookRate}/s`,
        `${p99.toFixed(1)} ms`,
        `${met(p99 < AIM_WEBHOOK_P99_MS)}${achieved < 0.95 * s.webhookRate ? ` (the sender reached only ${achieved.toFixed(0)}/s)` : ''}${reads.failed > 0 ? ` (the same reads alone: ${reads.failed} of ${reads.reads} failed)` : ` (the same reads alone: p99 ${percentile(reads.latencies, 99).toFixed(1)} ms)`}`,
      ],
    ],
    busiest: (w.cpu.others ?? 0) / (w.cpu.wallMs * cores),
  };
}

function report(s: Settings, seeded: Seeded, counts: { comments: number; inbox: number }, parts: Part[]): string {
  const aims = table([['aim', 'measured', ''], ...parts.flatMap((p) => p.aims)], [false, true, false]);
  return [
    '',
    `Switchboard comments bench: ${counts.comments} comments (${counts.inbox} in inboxes, the rest the accounts' own) on ${s.accounts} accounts of 3 owners, ${s.accounts * POSTS_PER_ACCOUNT} posts, seeded in ${seeded.seconds.toFixed(0)} s; node ${process.version}, ${os.availableParallelism()} CPUs`,
    '',
    ...parts.flatMap((p) => [...p.lines, '']),
    aims,
    ...outsideNote(Math.max(...parts.map((p) => p.busiest)), 'requests/s and latencies move with that.'),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------
process.exitCode = await runBench({
  name: 'comments',
  settings,
  interrupt: () => {
    interrupt();
    interruptLoad();
    interruptSandbox();
  },
  measure: async ({ settings: s, dataDir, atEnd, startService }) => {
    const receiver = await Receiver.start();
    atEnd(() => receiver.stop());
    progress(`receiver pid ${receiver.pid}\nstarting the server (DATA_DIR ${dataDir}) ...\n`);
    const serverOptions = {
      command: 'serve' as const,
      nodeArgs: s.serverNodeArgs,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', PLATFORMS: 'sandbox' },
    };
    let server = await startService(serverOptions);
    if (s.pgStatements) server = await restartWithStatements(server, dataDir, startService, serverOptions, progress);
    progress(`server pid ${server.pid} at ${server.origin}\n`);
    const agent = new Agent({ connections: 64, keepAliveTimeout: 60_000 });
    atEnd(() => agent.close());
    const pool = await embeddedPool(dataDir, 'bench-comments', 4);
    atEnd(() => pool.end().catch(() => {}));
    if (s.pgStatements) await pool.query('create extension if not exists pg_stat_statements');
    const sandboxApi: Api = {
      origin: server.origin,
      key: server.ownerKey,
      sandboxUrl: `${server.origin}/sandbox`,
      agent,
    };
    const platforms = createPlatforms(
      { platforms: 'sandbox', platformCredentials: {}, sandboxUrl: sandboxApi.sandboxUrl },
      { dispatcher: agent },
    );
    const seeded = await seed(server, pool, s, {
      api: sandboxApi,
      db: drizzle(pool) as unknown as Db,
      platforms,
      secretKey: await loadSecretKey(undefined, dataDir),
    });
    const subscribeSeconds = await waitForSubscriptions(pool, seeded.noticeAccounts.length, s.stallMs, {
      checkInterrupted,
      sleep,
      progress,
    });
    const { rows: countRows } = await pool.query<{ all: string; inbox: string }>(
      'select count(*) as all, count(*) filter (where not by_account) as inbox from comments',
    );
    const counts = { comments: Number(countRows[0]?.all ?? 0), inbox: Number(countRows[0]?.inbox ?? 0) };

    const parts: Part[] = [];
    let seqScans: Plan[] = [];
    if (s.parts.inbox) {
      const inbox = await inboxRun(server, pool, seeded, s);
      seqScans = inbox.plans.filter((p) => p.seqScanOnComments);
      parts.push(inboxReport(s, inbox));
    }
    if (s.parts.notices) {
      const endpoint = await api<{ secret: string }>(
        server,
        'POST',
        '/v1/webhooks',
        { url: receiver.url('d', 0), events: ['comment.created'] },
        201,
      );
      await receiver.setSecrets([endpoint.secret]);
      const warm = Math.min(s.webhookRate * 3, 600);
      const measured = s.webhookRate * s.webhookSeconds;
      // The service subscribed itself to the sandbox's notices at start: switched off for
      // Instagram, the comments added now are told of by this process's notices only, at its pace.
      await sandboxControl(sandboxApi, 'DELETE', '/webhooks/instagram', undefined, 204);
      progress(`adding ${warm + measured} comments in the sandbox, ${s.connectConcurrency} at a time ... `);
      const addStarted = performance.now();
      const comments = await addComments(
        sandboxApi,
        seeded.noticeAccounts.slice(0, s.noticeAccounts),
        warm + measured,
        s.connectConcurrency,
      );
      progress(`done in ${((performance.now() - addStarted) / 1000).toFixed(1)} s\n`);
      const sender: Sender = { api: sandboxApi, agent, origin: server.origin, comments };
      const pids: Pids = { server: server.pid, postmaster: await postmasterPid(dataDir), receiver: receiver.pid };
      await webhookRun(sender, receiver, pool, pids, s, dataDir, 0, warm, 'webhooks warm-up');
      if (s.pgStatements) await pool.query('select pg_stat_statements_reset()');
      const w = await webhookRun(sender, receiver, pool, pids, s, dataDir, warm, measured, 'webhooks measured');
      const noticeStatements = s.pgStatements ? await statements(pool) : undefined;
      const reads = await readsAlone(sender, platforms, pids, s, warm, measured);
      parts.push(noticesReport(s, seeded, w, reads, subscribeSeconds, noticeStatements));
    }
    const output = report(s, seeded, counts, parts);
    if (seqScans.length > 0) {
      process.stdout.write(output);
      throw new BenchError(`a Seq Scan on comments in the plan of ${seqScans.map((p) => p.shape).join(', ')}`);
    }
    return output;
  },
});
