import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connection.ts';

/**
 * Deletes the rows of `table` where `old` holds, at most `batch` a statement (each its own
 * transaction) until none is left, so a large backlog never holds one long transaction or one
 * burst of WAL; answers how many went. For the periodic clean-ups of what is kept for a time.
 */
export async function deleteInBatches(db: Db, table: PgTable, id: PgColumn, old: SQL, batch: number): Promise<number> {
  return await deletePickedInBatches(
    db,
    table,
    id,
    (limit) => sql`select ${id} from ${table} where ${old} limit ${limit}`,
    batch,
  );
}

/**
 * As deleteInBatches, where `pick(limit)` selects the ids of at most `limit` rows due (a single
 * column), for a table whose due rows are found through an index that `old` alone would not use.
 */
export async function deletePickedInBatches(
  db: Db,
  table: PgTable,
  id: PgColumn,
  pick: (limit: number) => SQL,
  batch: number,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    // `= any(array(...))`, not `in (...)`: the ids are then looked up by the key's index, where
    // PostgreSQL planned `in` as a hash join over a scan of the whole table, at every batch.
    const result = await db.execute(sql`delete from ${table} where ${id} = any(array(${pick(batch)}))`);
    const n = result.rowCount ?? 0;
    deleted += n;
    if (n < batch) return deleted;
  }
}
