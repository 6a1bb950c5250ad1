/** PostgreSQL's own counters for the bench's database: every process's work, the sandbox's included. */
import type pg from 'pg';

export interface PgStats {
  transactions: number;
  inserted: number;
  updated: number;
  deleted: number;
}

export async function pgStats(pool: pg.Pool): Promise<PgStats> {
  const { rows } = await pool.query<{ xacts: string; ins: string; upd: string; del: string }>(
    `select xact_commit + xact_rollback as xacts, tup_inserted as ins, tup_updated as upd, tup_deleted as del
     from pg_stat_database where datname = current_database()`,
  );
  const row = rows[0];
  return {
    transactions: Number(row?.xacts ?? 0),
    inserted: Number(row?.ins ?? 0),
    updated: Number(row?.upd ?? 0),
    deleted: Number(row?.del ?? 0),
  };
}
