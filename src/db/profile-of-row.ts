import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './connection.ts';

/** The columns of a table whose rows belong to an owner and (maybe) one of its profiles. */
export interface ProfiledTable {
  table: PgTable;
  id: AnyPgColumn;
  ownerId: AnyPgColumn;
  profileId: AnyPgColumn;
}

/** The profile of the owner's row with this id; null when it has none, or there is no such row of the owner's. */
export async function profileIdOfRow(
  db: Queryable,
  { table, id, ownerId, profileId }: ProfiledTable,
  owner: string,
  rowId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ profileId })
    .from(table)
    .where(and(eq(ownerId, owner), eq(id, rowId)))
    .limit(1);
  return typeof row?.profileId === 'string' ? row.profileId : null;
}

/** What the audit log asks a module for the objects of one of its paths (`/v1/<collection>/{id}`): their profile, read from this table. */
export function profiledBy(
  collection: string,
  columns: ProfiledTable,
): { collection: string; profileOf(db: Queryable, ownerId: string, id: string): Promise<string | null> } {
  return { collection, profileOf: (db, ownerId, id) => profileIdOfRow(db, columns, ownerId, id) };
}
