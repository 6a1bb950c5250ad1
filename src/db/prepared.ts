/**
 * Statements prepared once per database handle. Drizzle's `.prepare(name)` binds a query to
 * the handle it was built from, and for a small read building the query costs more than
 * PostgreSQL takes to run it; so each handle keeps the statement it built, and every call
 * only fills in the placeholders. The name makes each pooled connection plan it once.
 */
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from './connection.ts';

export function preparedPerDb<P>(build: (db: Db) => P): (db: Db) => P {
  const built = new WeakMap<Db, P>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

/**
 * A statement prepared per database handle (as `preparedPerDb`) for a read that is made both on
 * the database and in callers' transactions: undefined for a transaction, whose reads must run
 * on its own connection, not on the pool's, so the caller builds its query as usual then.
 */
export function preparedOutsideTransactions<P>(build: (db: Db) => P): (db: Queryable) => P | undefined {
  const perDb = preparedPerDb(build);
  return (db) => (db instanceof PgTransaction ? undefined : perDb(db));
}
