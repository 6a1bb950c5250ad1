/** PostgreSQL's own counters for the bench's database: every process's work, the sandbox's included. */
import type pg from 'pg';
import { table } from './report.ts';
import { embeddedPool, type Server, type startServer, stopServer } from './server.ts';

export interface PgStats {
  transactions: number;
  inserted: number;
  updated: number;
  /** Of `updated`, the heap-only ones: a new row version on the same page and no index entry written. */
  hotUpdated: number;
  deleted: number;
  /** WAL written by the whole cluster, and how many of its records were full-page images (a page's first change after a checkpoint). */
  walBytes: number;
  walFullPages: number;
  /** Checkpoints begun, timed or requested. */
  checkpoints: number;
  /**
   * Pages of multixact offsets begun (2,048 multixacts a page): a row locked by two transactions
   * at once (a foreign key's check of one parent row, FOR KEY SHARE) needs a multixact.
   */
  multixactPages: number;
}

export async function pgStats(pool: pg.Pool): Promise<PgStats> {
  // pg_stat_wal and pg_stat_checkpointer are the cluster's: the bench's embedded PostgreSQL 18 serves it alone.
  const { rows } = await pool.query<{
    xacts: string;
    ins: string;
    upd: string;
    hot: string;
    del: string;
    wal_bytes: string;
    wal_fpi: string;
    checkpoints: string;
    multixact_pages: string;
  }>(
    `select xact_commit + xact_rollback as xacts, tup_inserted as ins, tup_updated as upd, tup_deleted as del,
       (select coalesce(sum(n_tup_hot_upd), 0) from pg_stat_all_tables) as hot,
       w.wal_bytes, w.wal_fpi, c.num_timed + c.num_requested as checkpoints,
       (select coalesce(sum(blks_zeroed), 0) from pg_stat_slru where name = 'MultiXactOffset') as multixact_pages
     from pg_stat_database, pg_stat_wal w, pg_stat_checkpointer c where datname = current_database()`,
  );
  const row = rows[0];
  return {
    transactions: Number(row?.xacts ?? 0),
    inserted: Number(row?.ins ?? 0),
    updated: Number(row?.upd ?? 0),
    hotUpdated: Number(row?.hot ?? 0),
    deleted: Number(row?.del ?? 0),
    walBytes: Number(row?.wal_bytes ?? 0),
    walFullPages: Number(row?.wal_fpi ?? 0),
    checkpoints: Number(row?.checkpoints ?? 0),
    multixactPages: Number(row?.multixact_pages ?? 0),
  };
}

/** What PostgreSQL did between two readings of its counters. */
export function pgStatsBetween(before: PgStats, after: PgStats): PgStats {
  return {
    transactions: after.transactions - before.transactions,
    inserted: after.inserted - before.inserted,
    updated: after.updated - before.updated,
    hotUpdated: after.hotUpdated - before.hotUpdated,
    deleted: after.deleted - before.deleted,
    walBytes: after.walBytes - before.walBytes,
    walFullPages: after.walFullPages - before.walFullPages,
    checkpoints: after.checkpoints - before.checkpoints,
    multixactPages: after.multixactPages - before.multixactPages,
  };
}

/** One statement's totals in pg_stat_statements. */
export interface Statement {
  query: string;
  toplevel: boolean;
  calls: number;
  totalMs: number;
  /** Plans made for it (a named statement PostgreSQL plans again at each call shows one a call), and their time. */
  plans: number;
  planMs: number;
}

/** pg_stat_statements' totals for the bench's database, the costliest first. */
export async function statements(pool: pg.Pool): Promise<Statement[]> {
  const { rows } = await pool.query<{
    query: string;
    toplevel: boolean;
    calls: string;
    total: number;
    plans: string;
    plan_total: number;
  }>(
    `select query, toplevel, calls, total_exec_time as total, plans, total_plan_time as plan_total from pg_stat_statements
     where dbid = (select oid from pg_database where datname = current_database())
     order by total_exec_time desc`,
  );
  return rows.map((r) => ({
    query: r.query.replace(/\s+/g, ' ').trim(),
    toplevel: r.toplevel,
    calls: Number(r.calls),
    totalMs: r.total,
    plans: Number(r.plans),
    planMs: r.plan_total,
  }));
}

/** A run's statements as a table, per unit of its work (a delivery, a request): those that took the most time, 15 unless BENCH_PG_STATEMENTS_SHOWN says how many. */
export function statementsReport(list: Statement[], units: number, unit: string, run: string): string {
  const top = list.filter((st) => st.toplevel);
  const total = top.reduce((sum, st) => sum + st.totalMs, 0);
  const calls = top.reduce((sum, st) => sum + st.calls, 0);
  const planned = top.reduce((sum, st) => sum + st.planMs, 0);
  const rows = list
    .slice(0, Number(process.env.BENCH_PG_STATEMENTS_SHOWN ?? 15))
    .map((st) => [
      st.toplevel ? '' : 'nested',
      (st.calls / units).toFixed(2),
      ((st.totalMs * 1000) / st.calls).toFixed(0),
      ((st.totalMs * 1000) / units).toFixed(0),
      `${((st.totalMs / total) * 100).toFixed(0)}%`,
      (st.plans / st.calls).toFixed(2),
      st.plans === 0 ? '' : ((st.planMs * 1000) / st.plans).toFixed(0),
      st.query.length > 110 ? `${st.query.slice(0, 107)}...` : st.query,
    ]);
  return [
    `pg_stat_statements during ${run}: ${(calls / units).toFixed(2)} top-level statements per ${unit}, ${((total * 1000) / units).toFixed(0)} µs of execution and ${((planned * 1000) / units).toFixed(0)} µs of planning per ${unit}`,
    table(
      [['', `calls/${unit}`, 'µs/call', `µs/${unit}`, 'share', 'plans/call', 'µs/plan', 'statement'], ...rows],
      [false, true, true, true, true, true, true, false],
    ),
  ].join('\n');
}

/**
 * Restarts the service with pg_stat_statements loaded (a postmaster setting, so the embedded
 * PostgreSQL must restart: stopping the only service process stops it). The caller then
 * creates the extension in its database.
 */
export async function restartWithStatements(
  server: Server,
  dataDir: string,
  startService: (options: Parameters<typeof startServer>[1]) => Promise<Server>,
  serverOptions: Parameters<typeof startServer>[1],
  progress: (text: string) => void,
): Promise<Server> {
  const admin = await embeddedPool(dataDir, 'bench-statements', 2);
  try {
    await admin.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
    await admin.query(`alter system set pg_stat_statements.track = 'all'`);
    await admin.query(`alter system set pg_stat_statements.track_planning = on`);
  } finally {
    await admin.end();
  }
  progress('restarting the server with pg_stat_statements ...\n');
  // Its own clean-up step then finds it stopped already.
  await stopServer(server.child);
  return await startService({ ...serverOptions, ownerKey: server.ownerKey });
}

/**
 * Has PostgreSQL log what can hold up every transaction for a while: every autovacuum, and every
 * lock waited for over 200 ms, every checkpoint, its times in UTC. A reload, no restart: read back
 * from its log by a paced run's report (slowest-second.ts).
 */
export async function logStalls(pool: pg.Pool): Promise<void> {
  await pool.query('alter system set log_autovacuum_min_duration = 0');
  await pool.query('alter system set log_lock_waits = on');
  await pool.query(`alter system set deadlock_timeout = '200ms'`);
  await pool.query('alter system set log_checkpoints = on');
  // The report reads the times back as UTC.
  await pool.query(`alter system set log_timezone = 'UTC'`);
  await pool.query('select pg_reload_conf()');
}
