import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Logger, runMigrations as runWorkerMigrations } from 'graphile-worker';
import type pg from 'pg';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
// Any constant works; it only has to be the same in every process of the service.
const MIGRATION_LOCK = 7_413_902_214;
const quietWorkerLogger = new Logger(() => () => {});

/** The number of migrations this build ships, from drizzle-kit's journal. */
export const SHIPPED_MIGRATIONS: number = (
  JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as { entries: unknown[] }
).entries.length;

/**
 * Applies the schema's migrations and graphile-worker's. Several processes may start at
 * once on one database: an advisory lock makes the others wait for the first.
 */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      await runWorkerMigrations({ pgPool: pool, logger: quietWorkerLogger });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** True when every migration this build ships has been applied. */
export async function migrationsApplied(pool: pg.Pool): Promise<boolean> {
  const result = await pool.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
  return (result.rows[0]?.n ?? 0) >= SHIPPED_MIGRATIONS;
}
