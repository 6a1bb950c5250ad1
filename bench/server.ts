import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTUP_TIMEOUT_MS = 180_000;
const SHUTDOWN_TIMEOUT_MS = 60_000;

/** A failure the bench explains in one message (no stack). */
export class BenchError extends Error {}

/** The service under test, `switchboard api` (or `serve`), in a child process of its own. */
export interface Server {
  child: ChildProcess;
  pid: number;
  dataDir: string;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** The first owner's key, printed once by the first start. */
  ownerKey: string;
}

/** The last lines the server printed, for error messages. */
const serverOutput: string[] = [];

function keep(text: string): void {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    serverOutput.push(line);
    if (serverOutput.length > 40) serverOutput.shift();
  }
}

/** The server's last lines, to append to an error message ('' when it printed nothing). */
export function lastServerOutput(): string {
  return serverOutput.length > 0 ? `\n--- last lines from the server ---\n${serverOutput.join('\n')}` : '';
}

function prefixLines(prefix: string, text: string): string {
  return text.replace(/^(?=.)/gm, prefix);
}

/**
 * Starts `switchboard api` (or `options.command`, e.g. `serve` for the API and the workers)
 * on an empty DATA_DIR (so the embedded PostgreSQL is its own and the first start creates an
 * owner), and waits for the banner with the URL and the key.
 */
export async function startServer(
  dataDir: string,
  options: {
    nodeArgs?: string[];
    env?: Record<string, string>;
    command?: 'api' | 'serve';
    /** A restart on a DATA_DIR used before: the key the first start printed (no key is printed again). */
    ownerKey?: string;
  } = {},
): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // High enough that the limiter never answers 429 during the run; it still runs.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...options.env,
  };
  // The bench always uses its own embedded database and prints its own URL.
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  delete env.SECRET_KEY;

  const args = [...(options.nodeArgs ?? []), path.join(ROOT, 'bin', 'switchboard.js'), options.command ?? 'api'];
  // A process group of its own: a Ctrl-C reaches the bench only, which then stops the server
  // with one SIGTERM (a second signal would make the server skip its clean shutdown).
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = once(child, 'exit');

  let stdout = '';
  let ready = false;
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    keep(chunk);
    process.stderr.write(prefixLines('[server] ', chunk));
  });
  child.stdout?.setEncoding('utf8');
  const banner = new Promise<{ api: string; key: string }>((resolve) => {
    child.stdout?.on('data', (chunk: string) => {
      keep(chunk);
      if (ready) {
        // Warnings and errors the server logs during the run.
        process.stderr.write(prefixLines('[server] ', chunk));
        return;
      }
      stdout += chunk;
      const api = /^\s*API:\s+(\S+)\s*$/m.exec(stdout)?.[1];
      // Followed by whitespace, so a key split across chunks is not taken half.
      const key = options.ownerKey ?? /\b(sb_owner_[A-Za-z0-9_-]+)\s/.exec(stdout)?.[1];
      if (api && key) {
        ready = true;
        resolve({ api, key });
      }
    });
  });

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new BenchError(`the server printed no API URL and owner key within ${STARTUP_TIMEOUT_MS / 1000} s`)),
      STARTUP_TIMEOUT_MS,
    );
  });
  const early = exited.then(([code, signal]: unknown[]) => {
    throw new BenchError(
      `the server exited before it was ready (code ${String(code)}, signal ${String(signal)})${lastServerOutput()}`,
    );
  });
  try {
    const { api, key } = await Promise.race([banner, timeout, early]);
    const url = new URL(api);
    // The banner says localhost; the server listens on 127.0.0.1 only (HOST above).
    url.hostname = '127.0.0.1';
    return { child, pid: child.pid ?? 0, dataDir, origin: url.origin, ownerKey: key };
  } catch (error) {
    await stopServer(child).catch(() => stopLeftoverPostgres(dataDir));
    throw error;
  } finally {
    clearTimeout(timer);
    early.catch(() => {});
  }
}

/** SIGTERM, then waits for the exit (the embedded PostgreSQL stops with the server). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), SHUTDOWN_TIMEOUT_MS);
  });
  const outcome = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    await exited;
    throw new BenchError(`the server did not stop within ${SHUTDOWN_TIMEOUT_MS / 1000} s of SIGTERM; killed it`);
  }
  const [code, signal] = outcome;
  if (code !== 0) {
    throw new BenchError(`the server stopped with code ${String(code)}, signal ${String(signal)}${lastServerOutput()}`);
  }
}

/** A `switchboard worker` process beside the server. */
export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
}

const WORKER_STARTUP_TIMEOUT_MS = 120_000;

/**
 * `switchboard worker` on the API's DATA_DIR: it attaches to the embedded PostgreSQL the API
 * started and reads the same secret key. PUBLIC_URL is the API's address, so the media URLs
 * it signs point there and its adapters call the sandbox mounted there. Stop it with stopServer.
 */
export async function startWorkerProcess(
  dataDir: string,
  origin: string,
  index: number,
  nodeArgs: string[],
  /** Settings of this worker beside the bench's own environment. */
  settings: Record<string, string> = {},
): Promise<WorkerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...settings,
    DATA_DIR: dataDir,
    PUBLIC_URL: origin,
    PLATFORMS: 'sandbox',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
  delete env.DATABASE_URL;
  delete env.SECRET_KEY;
  delete env.SANDBOX_URL;
  const args = [...nodeArgs, path.join(ROOT, 'bin', 'switchboard.js'), 'worker'];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const prefix = `[worker ${index}] `;
  const relay = (chunk: string) => process.stderr.write(prefixLines(prefix, chunk));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', relay);
  child.stdout?.setEncoding('utf8');
  let ready = false;
  let output = '';
  const started = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: string) => {
      if (ready) return relay(chunk);
      output += chunk;
      if (/is running\./.test(output)) {
        ready = true;
        resolve();
      }
    });
  });
  const exited = once(child, 'exit').then(([code, signal]: unknown[]) => {
    throw new BenchError(`worker ${index} exited before it was ready (code ${String(code)}, signal ${String(signal)})`);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new BenchError(`worker ${index} was not running within ${WORKER_STARTUP_TIMEOUT_MS / 1000} s`)),
      WORKER_STARTUP_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([started, exited, timeout]);
  } catch (error) {
    await stopServer(child).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
    exited.catch(() => {});
  }
  return { child, pid: child.pid ?? 0 };
}

/** The pid of the embedded PostgreSQL running under `dataDir`, if any. */
export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number(text?.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  // A stale file may name a pid that is now some other process.
  const command = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return command.includes('postgres') ? pid : undefined;
}

/**
 * After a server that could not stop cleanly: stops the embedded PostgreSQL it left under
 * DATA_DIR, so the temp dir is not removed under a live server.
 */
export async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const pid = await postmasterPid(dataDir);
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGINT'); // PostgreSQL's "fast" shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.error(`embedded PostgreSQL (pid ${pid}) did not stop; ${dataDir} is left in place`);
}

/**
 * A pool on the embedded PostgreSQL the server started under DATA_DIR, for a bench's own queries:
 * through the server's Unix socket where it has one, as the service's own connections are, so a
 * floor made of the same queries pays the same for each.
 */
export async function embeddedPool(dataDir: string, applicationName: string, max: number): Promise<pg.Pool> {
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  const pid = (await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  const pool = new pg.Pool({
    host: pid[4]?.trim() || '127.0.0.1',
    port: Number(pid[3]),
    user: 'switchboard',
    password,
    database: 'postgres',
    max,
    application_name: applicationName,
  });
  pool.on('error', () => {});
  return pool;
}

/** The first owner (the one the first start made) and its default profile; fails when there are other owners. */
export async function firstOwner(pool: pg.Pool): Promise<{ ownerId: string; profileId: string }> {
  const { rows } = await pool.query<{ owner_id: string; profile_id: string }>(
    'select o.id as owner_id, p.id as profile_id from owners o join profiles p on p.owner_id = o.id and p.is_default',
  );
  const row = rows[0];
  if (rows.length !== 1 || row === undefined)
    throw new BenchError(`expected the first owner only, found ${rows.length}`);
  return { ownerId: row.owner_id, profileId: row.profile_id };
}
