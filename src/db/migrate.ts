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
 * graphile-worker's add_jobs (every job the service queues goes through it) is PL/pgSQL, whose
 * statements PostgreSQL plans again at each call while their custom plans look no dearer than
 * a generic one: about 450 µs of planning in a call of 1.5 ms of the database's CPU. Its
 * statements read only the specs it is given through indexes, so one generic plan serves every
 * call, and a call costs about a quarter less.
 *
 * That generic plan is made from the statistics of the moment, and the job table's change by
 * the minute: planned while the queue was small (or never analysed), the statement that clears
 * the keys of running jobs joins the specs by scanning every row of the queue, dead ones
 * included, even when no spec has a key (412 µs a call in a burst of webhooks, against 10 µs
 * through the key's index). Seq scans are therefore off inside the function: each of its
 * statements has an index for what it reads, whatever the statistics say.
 *
 * Checked after graphile-worker's own migrations, at every start, so that a version of it that
 * replaces the function gets them again. They only make queueing cheaper: where they cannot be
 * set (another role owns the schema, a version of graphile-worker without this function) the
 * service starts all the same, and says so.
 */
const ADD_JOBS = 'graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)';
const ADD_JOBS_SETTINGS = ['plan_cache_mode=force_generic_plan', 'enable_seqscan=off'];
const SET_ADD_JOBS_SETTINGS = ADD_JOBS_SETTINGS.map((setting) => {
  const [name, value] = setting.split('=');
  return `alter function ${ADD_JOBS} set ${name} = ${value}`;
}).join('; ');

async function keepAddJobsPlans(client: pg.PoolClient, warn: (message: string) => void): Promise<void> {
  const { rows } = await client.query<{ proconfig: string[] | null }>(
    'select proconfig from pg_proc where oid = to_regprocedure($1)',
    [ADD_JOBS],
  );
  const [found] = rows;
  if (found === undefined) {
    warn(
      `${ADD_JOBS} was not found (another version of graphile-worker?): jobs are queued without its generic plans, which costs the database more CPU a job`,
    );
    return;
  }
  if (ADD_JOBS_SETTINGS.every((setting) => found.proconfig?.includes(setting))) return;
  try {
    await client.query(SET_ADD_JOBS_SETTINGS);
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    warn(
      `not allowed to set generic plans on ${ADD_JOBS} (another role owns it): jobs are queued without them, which costs the database more CPU a job; its owner can run: ${SET_ADD_JOBS_SETTINGS}`,
    );
  }
}

/**
 * Applies the schema's migrations and graphile-worker's. Several processes may start at
 * once on one database: an advisory lock makes the others wait for the first.
 */
export async function runMigrations(pool: pg.Pool, warn: (message: string) => void = () => {}): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      await runWorkerMigrations({ pgPool: pool, logger: quietWorkerLogger });
      await keepAddJobsPlans(client, warn);
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
