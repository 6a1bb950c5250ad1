/** Reading one of the sandbox's rows by its id, as every imitated call does for each object it names. */
import { eq, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { preparedPerDb } from '../../db/prepared.ts';
import type { Store } from '../platform.ts';

/**
 * The reader of `table`'s row by id, with a statement prepared once per database handle (named
 * for its table): a multiple-id read asks for each id's comment, post and container, and building
 * each query cost the server more than PostgreSQL took to run it.
 */
export function rowById<T extends PgTable & { id: PgColumn }>(
  table: T,
): (store: Store, id: string) => Promise<T['$inferSelect'] | undefined> {
  const statement = preparedPerDb((db) =>
    db
      .select()
      .from(table as PgTable)
      .where(eq(table.id, sql.placeholder('id')))
      .prepare(`sandbox_${getTableName(table)}_by_id`),
  );
  return async (store, id) => {
    const [row] = await statement(store.db).execute({ id });
    return row as T['$inferSelect'] | undefined;
  };
}
