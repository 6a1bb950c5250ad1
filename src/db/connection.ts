import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

/** The database, with its pool (`$client`) for the few reads that name their prepared statements. */
export type Db = NodePgDatabase & { $client: pg.Pool };
/** A transaction handle: what `db.transaction` passes to its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: what a service function that only reads or writes in the caller's transaction takes. */
export type Queryable = Db | Tx;

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

export function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'switchboard',
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
  });
  // A client losing its connection (idle or checked out) must not crash the process: the
  // query in flight fails with its own error, and the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** Opens the configured database: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(config: Config, log: (message: string) => void): Promise<Database> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, log);
  const url = config.databaseUrl ?? (embedded?.localUrl as string);
  const pool = createPool(url, config.dbPoolSize);
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
