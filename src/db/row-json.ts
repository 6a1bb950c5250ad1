import { type Column, getTableColumns, is, type SQL, sql } from 'drizzle-orm';
import { PgArray, type PgTable } from 'drizzle-orm/pg-core';

/**
 * Column types whose value `to_json` writes as their column maps it from the driver's text:
 * JSON strings, numbers, booleans and arrays of them, and timestamps as ISO 8601 strings. Not
 * bytea (hex in a string, where the driver gives a Buffer) nor bigint (a JSON number past 2^53).
 */
const MAPPED_FROM_JSON = new Set(['PgText', 'PgInteger', 'PgBoolean', 'PgTimestamp', 'PgJsonb']);

function mappedFromJson(column: Column): boolean {
  return is(column, PgArray) ? mappedFromJson(column.baseColumn) : MAPPED_FROM_JSON.has(column.columnType);
}

/**
 * A table's row where `where` holds (one row: the table's key), as one value of another
 * statement: `to_json` of the row, mapped back to the row as a select of the table maps it;
 * null when there is none. For a module's row read beside another module's, in that module's
 * statement: one round trip where two were.
 */
export function rowAsValue<T extends PgTable>(table: T, where: SQL): SQL<T['$inferSelect'] | null> {
  return rowJsonAsValue(table, sql`(select to_json(${table}) from ${table} where ${where})`);
}

/**
 * As rowAsValue, for `json`, an expression whose value is `to_json` of one of the table's rows
 * (or of a CTE's, returning the table's columns), or null.
 */
export function rowJsonAsValue<T extends PgTable>(table: T, json: SQL): SQL<T['$inferSelect'] | null> {
  const columns = Object.entries(getTableColumns(table));
  const unmapped = columns.filter(([, column]) => !mappedFromJson(column)).map(([key]) => key);
  if (unmapped.length > 0) throw new Error(`rowAsValue cannot map these columns from JSON: ${unmapped.join(', ')}`);
  return sql<T['$inferSelect'] | null>`${json}`.mapWith((value: Record<string, unknown>) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      // `to_json` names each value by its column, and writes SQL null as null.
      const field = value[column.name];
      row[key] = field === null || field === undefined ? null : column.mapFromDriverValue(field);
    }
    return row as T['$inferSelect'];
  });
}
