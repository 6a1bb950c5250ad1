/**
 * Statements prepared once per database handle. Drizzle's `.prepare(name)` binds a query to
 * the handle it was built from, and for a small read building the query costs more than
 * PostgreSQL takes to run it; so each handle keeps the statement it built, and every call
 * only fills in the placeholders. The name makes each pooled connection plan it once.
 */
import { createHash } from 'node:crypto';
import { is, Param, Placeholder, type Query, SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PgColumn, PgDialect, type SelectedFieldsOrdered } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { type Db, isTransaction, type Queryable } from './connection.ts';

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
  return (db) => (isTransaction(db) ? undefined : perDb(db));
}

/**
 * Runs a query as a statement prepared under a name made from its text. For a statement put
 * together at each call from parts whose values are all parameters: its text is then one of a
 * few shapes, and each pooled connection plans each shape a few times (PostgreSQL then keeps a
 * generic plan) instead of at every call, which for a statement of several CTEs costs more than
 * running it. The text is built once: the name is made from it, and the statement prepared
 * from it, where Drizzle's `prepare(name)` would build it again (for a large statement, building
 * its text costs the process more than sending it).
 */
export async function executePreparedByText<Row>(
  db: Queryable,
  build: (db: Queryable) => SelectQuery<Row>,
): Promise<Row[]> {
  // Built here on `db`, so the statement runs on the connection the query is made for.
  return await executeBuilt<Row>(db, buildStatement(db, build), {});
}

/** A query Drizzle built, with the selection its rows are mapped by. */
type SelectQuery<Row> = { toSQL(): Query; readonly _: { readonly selectedFields: object; readonly result: Row[] } };

/**
 * A part of a statement whose text depends on its `shape` alone: what changes from call to call
 * is a placeholder in `sql` (`sql.placeholder(name)`, unbound to a column: its value is passed as
 * the driver takes it), filled from `values`.
 */
export interface StatementPart {
  /** Names everything the part's text depends on: two parts of one shape render alike. */
  readonly shape: string;
  readonly sql: SQL;
  readonly values: Readonly<Record<string, unknown>>;
}

/** The values of a statement's parts as one record; a placeholder two parts both fill is a mistake in their making. */
export function valuesOf(...parts: readonly (Pick<StatementPart, 'values'> | undefined)[]): Record<string, unknown> {
  const all: Record<string, unknown> = {};
  for (const part of parts) {
    const values = part?.values;
    if (values === undefined) continue;
    // for...in, not Object.entries: every shaped statement's call comes here, and the entries' arrays cost more than the copy.
    for (const name in values) {
      if (name in all) throw new Error(`placeholder ${name} is filled by two parts of one statement`);
      all[name] = values[name];
    }
  }
  return all;
}

/** A statement's text and parameters, the selection its rows are mapped by, and its name. */
interface BuiltStatement {
  query: Query;
  fields: SelectedFieldsOrdered;
  name: string;
}

function buildStatement<Row>(db: Queryable, build: (db: Queryable) => SelectQuery<Row>): BuiltStatement {
  const query = build(db);
  const text = query.toSQL();
  return { query: text, fields: flatFields(query._.selectedFields), name: nameOf(text) };
}

/** Runs a built statement, prepared under its name, with the values of its placeholders; its rows are Row's. */
async function executeBuilt<Row>(
  db: Queryable,
  built: BuiltStatement,
  values: Readonly<Record<string, unknown>>,
): Promise<Row[]> {
  const prepared = db._.session.prepareQuery<{ execute: Row[]; all: unknown; values: unknown }>(
    built.query,
    built.fields,
    built.name,
    true,
  );
  return await prepared.execute(values);
}

interface Placeholders {
  /** A shaped statement's placeholders' names, sorted, joined by commas. */
  placeholders: string;
}

/** Each shape's statement, built once: its text is the same on every handle (one dialect, no casing). */
const shapes = new Map<string, BuiltStatement & Placeholders>();

/**
 * Whether every run of a shaped statement builds it again and compares (the test suite sets it):
 * a shape whose text or fixed values differ from call to call is then an error where it is
 * made, not a statement quietly run with the first call's values.
 */
const checkShapes = process.env.SWITCHBOARD_CHECK_STATEMENT_SHAPES === '1';

/**
 * Runs a statement built once per `shape` (a key that names everything its text depends on),
 * prepared by its text as executePreparedByText does; every value that changes from call to
 * call is a placeholder, filled from `values`. For the statements of a hot path: building a
 * statement of several CTEs with Drizzle costs the process more than PostgreSQL takes to run it.
 */
export async function executeShaped<Row>(
  db: Queryable,
  shape: string,
  build: (db: Queryable) => SelectQuery<Row>,
  values: Readonly<Record<string, unknown>>,
): Promise<Row[]> {
  const built = builtOnce(shapes, shape, () => buildStatement(db, build), values);
  return await executeBuilt<Row>(db, built, values);
}

/**
 * The statement of `shape` in `cache`, made (by `make`) at the shape's first call, or at every
 * call where the test suite checks shapes; checked against the placeholders `values` fills.
 */
function builtOnce<B extends { query: Query }>(
  cache: Map<string, B & Placeholders>,
  shape: string,
  make: () => B,
  values: Readonly<Record<string, unknown>>,
): B & Placeholders {
  let built = cache.get(shape);
  if (built === undefined || checkShapes) {
    const statement = make();
    const fresh = {
      ...statement,
      placeholders: [...new Set(statement.query.params.flatMap(placeholderName))].sort().join(','),
    };
    if (built !== undefined && !sameText(built.query, fresh.query)) {
      throw new Error(`statement shape ${shape} was built as another text or with other fixed values`);
    }
    built ??= fresh;
    cache.set(shape, built);
  }
  // A value with no placeholder, or one without a value, is a shape whose key misses a part.
  const given = Object.keys(values).sort().join(',');
  if (given !== built.placeholders) {
    throw new Error(`statement shape ${shape} has placeholders ${built.placeholders}; values were given for ${given}`);
  }
  return built;
}

/** A parameter's placeholder name, if it is one. */
function placeholderName(param: unknown): string[] {
  if (is(param, Placeholder)) return [param.name];
  if (is(param, Param) && is(param.value, Placeholder)) return [param.value.name];
  return [];
}

/** The same text, the same placeholders and the same fixed values. */
function sameText(a: Query, b: Query): boolean {
  const fixed = (query: Query) => JSON.stringify(query.params.map((p) => placeholderName(p)[0] ?? { fixed: p }));
  return a.sql === b.sql && fixed(a) === fixed(b);
}

/** SQL to text and parameters, as every handle's own dialect makes them (no casing is set on any). */
const dialect = new PgDialect();

/** As executePreparedByText, for a statement written in SQL: its rows as PostgreSQL answers them, by column name. */
export async function executeSqlPreparedByText<Row extends Record<string, unknown> = Record<string, unknown>>(
  db: Queryable,
  statement: SQL,
  /** The values of the statement's placeholders, if it has any. */
  values: Readonly<Record<string, unknown>> = {},
): Promise<Row[]> {
  const built = dialect.sqlToQuery(statement);
  return await executeSqlBuilt<Row>(db, built, nameOf(built), values);
}

/** Each shape's statement written in SQL, built and named once (as `shapes`). */
const sqlShapes = new Map<string, { query: Query; name: string } & Placeholders>();

/**
 * As executeSqlPreparedByText, for a statement whose text depends on `shape` alone (every value
 * that changes from call to call a placeholder, filled from `values`): built, and named from its
 * text, once, as executeShaped builds its statements.
 */
export async function executeSqlShaped<Row extends Record<string, unknown> = Record<string, unknown>>(
  db: Queryable,
  shape: string,
  build: () => SQL,
  values: Readonly<Record<string, unknown>>,
  options: {
    /**
     * Sent unnamed, so PostgreSQL plans it for each call's values, as for a statement built at
     * every call: for one whose generic plan runs far longer than planning it each time.
     */
    planEachCall?: boolean;
  } = {},
): Promise<Row[]> {
  const built = builtOnce(
    sqlShapes,
    shape,
    () => {
      const query = dialect.sqlToQuery(build());
      return { query, name: nameOf(query) };
    },
    values,
  );
  return await executeSqlBuilt<Row>(db, built.query, options.planEachCall ? undefined : built.name, values);
}

async function executeSqlBuilt<Row extends Record<string, unknown>>(
  db: Queryable,
  built: Query,
  /** Undefined: sent unnamed, parsed and planned at each call. */
  name: string | undefined,
  values: Readonly<Record<string, unknown>>,
): Promise<Row[]> {
  // Without a selection Drizzle maps nothing: the driver's own result, rows as objects.
  const prepared = db._.session.prepareQuery<{ execute: pg.QueryResult<Row>; all: unknown; values: unknown }>(
    built,
    undefined,
    name,
    false,
  );
  return (await prepared.execute(values)).rows;
}

/**
 * Distinct strings as one `text[]` parameter (`= any(...)`, `<> all(...)`): a statement reading
 * them has one text for any number of them, where `in (...)` has one for each count.
 */
export function textArray(values: readonly string[]): SQL {
  return sql`${sql.param([...new Set(values)])}::text[]`;
}

/**
 * `column` is one of `values`, in two texts whatever their number: `= $n` for one value (the
 * usual case), whose prepared statement PostgreSQL then plans once and keeps; `= any(text[])` for
 * more, which it plans for each call's array (a generic plan guesses the array's length, and so
 * costs more than planning for the one given).
 */
export function oneOf(column: SQLWrapper, values: readonly string[]): SQL {
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? sql`${column} = ${distinct[0]}` : sql`${column} = any(${textArray(distinct)})`;
}

/**
 * `oneOf` as a part of a shaped statement (executeShaped), filling the placeholder `name`: its
 * shape says which of the two texts it is, and its value is the one id or the array of them.
 */
export function oneOfPart(column: SQLWrapper, values: readonly string[], name: string): StatementPart {
  const distinct = [...new Set(values)];
  return distinct.length === 1
    ? { shape: `${name}: one`, sql: sql`${column} = ${sql.placeholder(name)}`, values: { [name]: distinct[0] } }
    : {
        shape: `${name}: many`,
        sql: sql`${column} = any(${sql.placeholder(name)}::text[])`,
        values: { [name]: distinct },
      };
}

/** The two statements of a read by ids made once with placeholders, as `oneOf` writes it. */
export interface OneOfStatements<P> {
  /** For one id: placeholder `id`. */
  one: P;
  /** For several: placeholder `ids`, a text[]. */
  many: P;
}

/** `oneOf`'s two conditions on `column` for statements prepared once: `= $id` and `= any($ids)`. */
export function oneOfPlaceholders(column: SQLWrapper): OneOfStatements<SQL> {
  return {
    one: sql`${column} = ${sql.placeholder('id')}`,
    many: sql`${column} = any(${sql.placeholder('ids')}::text[])`,
  };
}

/** Runs the statement of the two that suits these ids (the one-id one for one distinct id), with the other values. */
export async function executeOneOf<R>(
  statements: OneOfStatements<{ execute(values: Record<string, unknown>): Promise<R> }>,
  ids: readonly string[],
  values: Record<string, unknown> = {},
): Promise<R> {
  const distinct = [...new Set(ids)];
  return distinct.length === 1
    ? await statements.one.execute({ ...values, id: distinct[0] })
    : await statements.many.execute({ ...values, ids: distinct });
}

/** A statement's name, from its text: the same text, the same statement on every connection. */
function nameOf(built: Query): string {
  return `by_text_${createHash('sha256').update(built.sql).digest('base64url').slice(0, 24)}`;
}

/** A flat selection (each key a column or an SQL expression) in the order Drizzle maps a row's values to it. */
function flatFields(fields: object): SelectedFieldsOrdered {
  return Object.entries(fields).map(([key, field]: [string, unknown]) => {
    if (!is(field, PgColumn) && !is(field, SQL) && !is(field, SQL.Aliased))
      throw new Error(`executePreparedByText maps flat selections only; ${key} is not a column or an SQL expression`);
    return { path: [key], field };
  });
}
