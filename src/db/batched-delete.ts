import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connection.ts';

/**
 * Deletes the rows of `table` where `old` holds, at most `batch` a statement (each its own
 * transaction) until none is left, so a large backlog never holds one long transaction or one
 * burst of WAL; answers how many went. For the periodic clean-ups of what is kept for a time.
 */
export async function deleteInBatches(db: Db, table: PgTable, id: PgColumn, old: SQL, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${table} where ${id} in (select ${id} from ${table} where ${old} limit ${batch})`);
    const n = result.rowCount ?? 0;
    deleted += n;
    if (n < batch) return deleted;
  }
}
