/**
 * The sandbox platforms as the benches use them: calls to the service's API and to the
 * sandbox's control API through one undici Agent, and sandbox users connected to the service
 * as the connect flow connects them (the permission page walked as a browser form would, the
 * code exchanged by the service's adapter, the account stored with the service's own
 * saveConnectedAccount, as the tests do).
 */
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Agent } from 'undici';
import { request } from 'undici';
import type { Db, Tx } from '../src/db/connection.ts';
import { eachLimited as runLimited } from '../src/each-limited.ts';
import { saveConnectedAccount } from '../src/modules/accounts/connections.ts';
import type { AccountCredentials, Platform, PlatformSet } from '../src/platforms/index.ts';
import { permissionForm } from '../src/sandbox/permission-form.ts';
import { BenchError, lastServerOutput } from './server.ts';

/** Where the service and its sandbox answer, the first owner's key, and the Agent every call goes through. */
export interface Api {
  origin: string;
  key: string;
  /** `{origin}/sandbox` when the API mounts the sandbox (PLATFORMS=sandbox). */
  sandboxUrl: string;
  agent: Agent;
}

let interrupted = false;

/** Stops work started by eachLimited (and so connectAccounts): the next item fails with "interrupted". */
export function interrupt(): void {
  interrupted = true;
}

/** Runs `work` over `items` with at most `limit` at a time; the first failure (or an interruption) rejects. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  await runLimited(items, limit, async (item, i) => {
    if (interrupted) throw new BenchError('interrupted');
    await work(item, i);
  });
}

/** One request; the owner key goes with calls to the API's /v1/ routes. */
export async function call(
  api: Api,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  const response = await request(url, {
    method: method as 'GET',
    dispatcher: api.agent,
    headers: {
      ...(url.startsWith(`${api.origin}/v1/`) ? { authorization: `Bearer ${api.key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, headers: response.headers };
}

/** A call to the sandbox's control API (`path` after `/_control`) that must answer `expect`; its body. */
export async function sandboxControl(
  api: Api,
  method: string,
  path: string,
  body: unknown,
  expect: number,
): Promise<string> {
  const res = await call(api, method, `${api.sandboxUrl}/_control${path}`, body);
  if (res.status !== expect) {
    throw new BenchError(`sandbox ${method} /_control${path} answered ${res.status}: ${res.text}`);
  }
  return res.text;
}

export async function sandboxSetting(api: Api, name: string, value: unknown): Promise<void> {
  await sandboxControl(api, 'PUT', `/settings/${name}`, { value }, 200);
}

/** Walks the sandbox's permission page as a browser form would (every permission ticked, Allow): the code. */
async function authorize(api: Api, dialogUrl: string, username: string): Promise<string> {
  const page = await call(api, 'GET', dialogUrl);
  if (page.status !== 200) throw new BenchError(`permission page answered ${page.status}: ${page.text}`);
  // Every permission ticked; no Facebook pages (the bench's accounts are Instagram and Threads).
  const form = permissionForm(page.text, dialogUrl, { username, pages: [] });
  if (form === null) throw new BenchError('no form on the permission page');
  const res = await request(form.action, {
    method: 'POST',
    dispatcher: api.agent,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.body.toString(),
  });
  await res.body.text();
  const location = res.headers.location;
  const code = typeof location === 'string' ? new URL(location).searchParams.get('code') : null;
  if (res.statusCode !== 303 || code === null) {
    throw new BenchError(`the permission page answered ${res.statusCode} without a code (${String(location)})`);
  }
  return code;
}

/** A sandbox user connected to the service: the service's account id, and what acts as it on the platform. */
export interface BenchAccount {
  id: string;
  platform: Platform;
  /** The sandbox user (GET {sandbox}/_control/activity|calls/{platform}/{username}). */
  username: string;
  credentials: AccountCredentials;
  /** The scopes granted, as the service stored them. */
  scopes: string[];
}

const REDIRECT_URI = 'https://bench.example.test/callback';

/**
 * `count` new sandbox users, account i of `platforms[i % platforms.length]` named
 * `bench_<platform>_<i>`, each connected with every permission granted and stored for the
 * owner and profile `placement(i)` names; `concurrency` connections in flight. Answered in
 * the order of i.
 */
export async function connectAccounts(
  api: Api,
  db: Db,
  platformSet: PlatformSet,
  secretKey: Buffer,
  options: {
    count: number;
    platforms: readonly Platform[];
    placement: (i: number) => { ownerId: string; profileId: string };
    concurrency: number;
    /**
     * Run in the connection's own transaction, with the account's id: what must hold from the
     * moment the account exists (a worker's schedule may look at it as soon as it commits).
     */
    inTransaction?: (tx: Tx, accountId: string) => Promise<void>;
  },
): Promise<BenchAccount[]> {
  const made: BenchAccount[] = new Array(options.count);
  await eachLimited(
    Array.from({ length: options.count }, (_, i) => i),
    options.concurrency,
    async (i) => {
      const platform = options.platforms[i % options.platforms.length] as Platform;
      const username = `bench_${platform}_${i}`;
      const adapter = platformSet.adapter(platform);
      const code = await authorize(api, adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: `s${i}` }), username);
      const tokens = await adapter.exchangeCode(code, REDIRECT_URI);
      const credentials = { platformUserId: tokens.platformUserId, accessToken: tokens.accessToken };
      const profile = await adapter.profile(credentials);
      const { account } = await db.transaction(async (tx) => {
        const saved = await saveConnectedAccount(tx, secretKey, { ...options.placement(i), platform, tokens, profile });
        await options.inTransaction?.(tx, saved.account.id);
        return saved;
      });
      made[i] = { id: account.id, platform, username, credentials, scopes: account.scopes };
    },
  );
  return made;
}

/**
 * After `with held as (<account ids>)`: each account's comment poll and insight refresh a day
 * ahead, as if both were just done (its insight history read), so the worker's schedule queues
 * neither during the bench. A connected account otherwise brings work of its own at once: its
 * insights history (a year, read 30 days a step), its first refresh and its comment polls.
 */
export const HOLD_PERIODIC_WORK = `,
  polls as (
    insert into comment_sync_state (account_id, next_poll_at, last_polled_at)
    select id, now() + interval '1 day', now() from held
  )
  insert into insight_sync_state (account_id, next_refresh_at, refreshed_at, history_from, history_cursor, read_to,
    history_next_at)
  select id, now() + interval '1 day', now(), current_date, null, current_date, now() + interval '1 day' from held`;

/**
 * For connectAccounts' `inTransaction`: the account's periodic work held from its connection on,
 * so the schedule finds it already held when it first sees it.
 */
export async function holdPeriodicWork(tx: Tx, accountId: string): Promise<void> {
  await tx.execute(sql`with held as (select ${accountId}::text as id)${sql.raw(HOLD_PERIODIC_WORK)}`);
}

/** The sandbox's call log in all: every call counted since it was last emptied, and each platform's. */
export async function callTotals(api: Api): Promise<{ total: number; by_platform: Record<string, number> }> {
  return JSON.parse(await sandboxControl(api, 'GET', '/calls', undefined, 200)) as {
    total: number;
    by_platform: Record<string, number>;
  };
}

/** What a bench's long waits use (benchSteps()). */
export interface WaitSteps {
  checkInterrupted(): void;
  sleep(ms: number): Promise<unknown>;
  progress(text: string): void;
}

/**
 * Waits until the platform sends every connected account's comment notices (the jobs their
 * connections queued ran: `count` accounts subscribed), failing on a refusal or after `stallMs`
 * without progress. Answers the seconds it took.
 */
export async function waitForSubscriptions(
  pool: pg.Pool,
  count: number,
  stallMs: number,
  steps: WaitSteps,
): Promise<number> {
  const started = performance.now();
  steps.progress(`waiting for ${count} subscriptions to the app's comment notices ... `);
  let last = -1;
  let lastChange = performance.now();
  for (;;) {
    steps.checkInterrupted();
    const { rows } = await pool.query<{ subscribed: string; failed: string; error: string | null }>(
      `select count(*) filter (where comment_notices = 'subscribed') as subscribed,
         count(*) filter (where comment_notices = 'failed') as failed, min(comment_notices_error) as error
       from accounts where comment_notices is not null`,
    );
    const subscribed = Number(rows[0]?.subscribed ?? 0);
    if (Number(rows[0]?.failed ?? 0) > 0) {
      throw new BenchError(`${rows[0]?.failed} subscriptions failed, e.g. ${rows[0]?.error}${lastServerOutput()}`);
    }
    if (subscribed >= count) break;
    if (subscribed !== last) {
      last = subscribed;
      lastChange = performance.now();
    } else if (performance.now() - lastChange > stallMs) {
      throw new BenchError(
        `${count - subscribed} of ${count} accounts not subscribed to comment notices, none for ${stallMs / 1000} s${lastServerOutput()}`,
      );
    }
    await steps.sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  steps.progress(`done in ${seconds.toFixed(1)} s\n`);
  return seconds;
}
