import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The `switchboard` CLI, as `npm start` and users run it. */
export const CLI = fileURLToPath(new URL('../../bin/switchboard.js', import.meta.url));

/**
 * Every setting src/config.ts reads: removed from the inherited environment so a child
 * sees only what its test sets (e.g. the DATABASE_URL the global setup may be given).
 */
const SETTINGS = [
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'DATABASE_URL',
  'DATA_DIR',
  'SECRET_KEY',
  'LOG_LEVEL',
  'RATE_LIMIT_PER_MINUTE',
  'BODY_LIMIT_BYTES',
  'DB_POOL_SIZE',
  'DB_IDLE_TIMEOUT_SECONDS',
  'WORKER_CONCURRENCY',
  'WORKER_BULK_CONCURRENCY',
  'SHUTDOWN_TIMEOUT_MS',
  'REQUEST_TIMEOUT_MS',
  'HEADERS_TIMEOUT_MS',
  'FIRST_OWNER_NAME',
  'FIRST_OWNER_EMAIL',
  'WEBHOOK_ALLOW_PRIVATE_URLS',
  'SMTP_URL',
  'MAIL_FROM',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PRESIGNED_URLS',
];

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // Without DATA_DIR the child would use ./data of the checkout: a developer's own data.
  if (!env.DATA_DIR) throw new Error('every spawned switchboard needs a DATA_DIR of its test');
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SETTINGS) delete base[name];
  return { ...base, LOG_LEVEL: 'warn', ...env };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<CliProcess>();

/** A spawned `node bin/switchboard.js ...`, with its output collected. */
export class CliProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  exit: Exit | undefined;
  readonly exited: Promise<Exit>;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly args: string[],
    env: Record<string, string>,
  ) {
    // process.execPath: the Node the tests run under, i.e. the project's pinned Node.
    this.child = spawn(process.execPath, [CLI, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(this);
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      this.notify();
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.notify();
    });
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': by then every byte of output has been read.
      this.child.on('close', (code, signal) => {
        this.exit = { code, signal };
        running.delete(this);
        this.notify();
        resolve(this.exit);
      });
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** What the process printed so far, for failure messages. */
  describe(): string {
    const status = this.exit ? ` (exited: code ${this.exit.code}, signal ${this.exit.signal})` : '';
    return `switchboard ${this.args.join(' ')}${status}\n--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  /** Resolves with the first match of `pattern` in the output; fails when the process exits first or on timeout. */
  waitFor(
    pattern: RegExp,
    { stream = 'stdout', timeoutMs = 30_000 }: { stream?: 'stdout' | 'stderr'; timeoutMs?: number } = {},
  ): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      const check = () => {
        const match = pattern.exec(this[stream]);
        if (match) {
          done();
          resolve(match);
        } else if (this.exit) {
          done();
          reject(new Error(`exited before printing ${pattern} on ${stream}\n${this.describe()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms\n${this.describe()}`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  /** Sends `signal` and waits for the exit; SIGKILL after `timeoutMs`, and then fails. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<Exit> {
    if (this.exit) return this.exit;
    this.child.kill(signal);
    return await this.exitWithin(timeoutMs, `of ${signal}`);
  }

  /** Waits for the exit; SIGKILL after `timeoutMs`, and then fails saying what it waited `after`. */
  async exitWithin(timeoutMs: number, after = ''): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exited;
      throw new Error(`did not exit within ${timeoutMs} ms ${after}\n${this.describe()}`);
    }
    return result;
  }
}

/** Starts a long-running command (`serve`, `api`, `worker`). */
export function startCli(args: string[], env: Record<string, string>): CliProcess {
  return new CliProcess(args, env);
}

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/** Runs a one-shot command to its end. */
export async function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<CliResult> {
  const cli = new CliProcess(args, env);
  const result = await cli.exitWithin(timeoutMs);
  return { ...result, stdout: cli.stdout, stderr: cli.stderr };
}

/** Ends every process a test left running: SIGTERM, then SIGKILL after 10 s. */
export async function stopAllCli(): Promise<void> {
  await Promise.all(
    [...running].map(async (cli) => {
      await cli.stop('SIGTERM', 10_000).catch(() => {});
    }),
  );
}

const dataDirs = new Set<string>();

/** A new, empty temporary DATA_DIR, removed by cleanupDataDirs(). */
export async function makeDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-cli-'));
  dataDirs.add(dir);
  return dir;
}

export function postmasterPidFile(dataDir: string): string {
  return path.join(dataDir, 'postgres', 'postmaster.pid');
}

/** The lines of the embedded PostgreSQL's postmaster.pid: its pid first, its port fourth, its socket directory fifth. */
export async function postmasterLines(dataDir: string): Promise<string[]> {
  return (await fs.readFile(postmasterPidFile(dataDir), 'utf8')).split('\n');
}

export async function fileExists(file: string): Promise<boolean> {
  return await fs.access(file).then(
    () => true,
    () => false,
  );
}

/**
 * True while `pid` runs. A zombie does not count: the postmaster is daemonised by pg_ctl,
 * and where PID 1 does not reap orphans (some containers) it stays a zombie after exiting.
 */
export async function processRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The state follows the command name in parentheses, which may itself hold spaces or parentheses.
  const state = stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** The pid of the embedded PostgreSQL under `dataDir` per its postmaster.pid; undefined without one. */
export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const lines = await postmasterLines(dataDir).catch(() => undefined);
  const pid = Number(lines?.[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Stops an embedded PostgreSQL left running under `dataDir` (e.g. after a SIGKILLed
 * serve). True when there was one.
 */
export async function stopStrayPostgres(dataDir: string): Promise<boolean> {
  const pid = await postmasterPid(dataDir);
  if (pid === undefined || !(await processRunning(pid))) return false;
  // Only a postmaster of this data directory, never a process that reused a stale pid.
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (cmdline !== undefined && !cmdline.includes(path.join(dataDir, 'postgres'))) return false;
  process.kill(pid, 'SIGQUIT'); // immediate shutdown: the data is thrown away anyway
  for (let i = 0; i < 200 && (await processRunning(pid)); i++) await new Promise((r) => setTimeout(r, 50));
  return true;
}

/** Stops any PostgreSQL left under the temporary DATA_DIRs and removes them. */
export async function cleanupDataDirs(): Promise<void> {
  for (const dir of [...dataDirs]) {
    await stopStrayPostgres(dir);
    await fs.rm(dir, { recursive: true, force: true });
    dataDirs.delete(dir);
  }
}

/** Polls `fn` until it returns true, every `intervalMs`, at most `timeoutMs`; returns the last answer. */
export async function pollUntil(fn: () => Promise<boolean>, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Runs `fn` with a client of the embedded PostgreSQL running under `dataDir` (as the service connects to it). */
export async function withEmbeddedClient<T>(dataDir: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  const port = Number((await postmasterLines(dataDir))[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'switchboard', password, database: 'postgres' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Every regular file under `dir`, recursively, symlinks included as what they point to. */
export async function allFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await allFiles(full)));
    else if (entry.isFile()) files.push(full);
    else if (entry.isSymbolicLink()) {
      const target = await fs.stat(full);
      if (target.isDirectory()) files.push(...(await allFiles(full)));
      else if (target.isFile()) files.push(full);
    }
  }
  return files;
}

export interface Banner {
  /** e.g. `http://localhost:41234`, from the `API:` line. */
  base: string;
  /** The first owner's key, on a first start only. */
  ownerKey: string | undefined;
}

/** Waits for a started `serve` or `api` process's banner: where its API is, and a first start's owner key. */
export async function waitForBanner(cli: CliProcess): Promise<Banner> {
  // The banner is one write (under PIPE_BUF, so one read): the Database line, then on a
  // first start the owner key and a Try line.
  await cli.waitFor(/^ {2}Database: .*\n/m, { timeoutMs: 60_000 });
  if (cli.stdout.includes('First start')) await cli.waitFor(/^Try: .*\n/m);
  const api = /^ {2}API: +(http:\/\/localhost:\d+)\/v1$/m.exec(cli.stdout);
  if (!api?.[1]) throw new Error(`no API URL in the banner\n${cli.describe()}`);
  const keys = new Set(cli.stdout.match(/sb_owner_[A-Za-z0-9_-]+/g) ?? []);
  if (keys.size > 1) throw new Error(`more than one owner key printed\n${cli.describe()}`);
  return { base: api[1], ownerKey: [...keys][0] };
}
