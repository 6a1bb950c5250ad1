import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type Config, DEFAULT_DB_IDLE_TIMEOUT_SECONDS } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { leanPg } from './pg-lean.ts';

/** The database, with its pool (`$client`) for the few reads that name their prepared statements. */
export type Db = NodePgDatabase & { $client: pg.Pool };
/** A transaction handle: what `db.transaction` passes to its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: what a service function that only reads or writes in the caller's transaction takes. */
export type Queryable = Db | Tx;

/** Whether a handle is a transaction's: what is written through it commits with the caller's transaction, not now. */
export function isTransaction(db: Queryable): db is Tx {
  return db instanceof PgTransaction;
}

export interface Database {
  url: string;
  pool: pg.Pool;
  db: Db;
  /** True when this process runs or shares the embedded PostgreSQL under DATA_DIR. */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * How long a query waits for a connection (a free one of the pool, or a new one) before it fails
 * as the database being unavailable: a request then gets its 503 instead of hanging while the
 * server is down or every connection is held.
 */
const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * What the service's connections are called in the database (`application_name`, shown by
 * pg_stat_activity and in the server's logs): `switchboard` and the roles of the process, so an
 * operator, or a bench, tells the API's connections from the workers' (`switchboard api`,
 * `switchboard worker`, `switchboard api worker` for a process with both; `switchboard` alone
 * for the others: a one-shot command, the sandbox on its own).
 */
function connectionName(roles: readonly string[] = []): string {
  return ['switchboard', ...roles].join(' ');
}

export function createPool(
  url: string,
  max: number,
  name: string = connectionName(),
  idleTimeoutSeconds = DEFAULT_DB_IDLE_TIMEOUT_SECONDS,
): pg.Pool {
  leanPg();
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: name,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    idleTimeoutMillis: idleTimeoutSeconds * 1000,
  });
  // A client losing its connection (idle or checked out) must not crash the process: the
  // query in flight fails with its own error, and the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/**
 * Opens the configured database: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR. Its
 * connections are named for `roles` (connectionName).
 */
export async function openDatabase(
  config: Config,
  log: (message: string) => void,
  roles: readonly string[] = [],
): Promise<Database> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, log);
  const url = config.databaseUrl ?? (embedded?.localUrl as string);
  const pool = createPool(url, config.dbPoolSize, connectionName(roles), config.dbIdleTimeoutSeconds);
  return {
    url,
    pool,
    db: drizzle(pool),
    embedded: embedded !== undefined,
    close: async () => {
      await pool.end().catch(() => {});
      await embedded?.release();
    },
  };
}
