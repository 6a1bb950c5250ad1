import { type SQL, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/db/connection.ts';
import {
  executeOneOf,
  executePreparedByText,
  executeShaped,
  executeSqlPreparedByText,
  executeSqlShaped,
  oneOf,
  oneOfPart,
  oneOfPlaceholders,
  preparedOutsideTransactions,
  preparedPerDb,
  textArray,
  valuesOf,
} from '../../src/db/prepared.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The statements prepared by their text on this connection whose text contains `text` (a table's name), the most run first. */
async function byTextStatementsOf(tx: Queryable, text: string) {
  const { rows } = await tx.execute<{ statement: string; executions: string; generic_plans: string }>(
    sql`select statement, generic_plans + custom_plans as executions, generic_plans from pg_prepared_statements
      where name like 'by_text_%' and statement like ${`%${text}%`} order by executions desc`,
  );
  return rows.map((r) => ({
    statement: r.statement,
    executions: Number(r.executions),
    generic: Number(r.generic_plans),
  }));
}

/** One column of the rows a statement written in SQL answers, run prepared by its text. */
async function columnOf<T>(tx: Queryable, column: string, statement: SQL): Promise<T[]> {
  return (await executeSqlPreparedByText(tx, statement)).map((row) => row[column] as T);
}

describe('preparedPerDb', () => {
  it('builds the statement once per database handle, and runs it with each call’s values', async () => {
    let builds = 0;
    const doubled = preparedPerDb((db) => {
      builds += 1;
      return db
        .select({ value: sql<number>`${sql.placeholder('n')}::int * 2` })
        .from(sql`(values (1)) as one (x)`)
        .prepare('prepared_test_doubled');
    });
    expect(await doubled(database.db).execute({ n: 3 })).toEqual([{ value: 6 }]);
    expect(await doubled(database.db).execute({ n: 21 })).toEqual([{ value: 42 }]);
    expect(builds).toBe(1);
  });
});

describe('preparedOutsideTransactions', () => {
  it('runs on the database, and leaves a transaction its own query, which sees what the transaction wrote', async () => {
    await database.pool.query('create table prepared_test_rows (id int primary key)');
    const count = preparedOutsideTransactions((db) =>
      db.select({ n: sql<number>`count(*)::int` }).from(sql`prepared_test_rows`).prepare('prepared_test_count'),
    );
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into prepared_test_rows values (1)`);
      expect(count(tx)).toBeUndefined();
      expect(await tx.execute(sql`select count(*)::int as n from prepared_test_rows`)).toMatchObject({
        rows: [{ n: 1 }],
      });
      // On the pool's connection the row is not there yet.
      expect(await count(database.db)?.execute()).toEqual([{ n: 0 }]);
    });
    expect(await count(database.db)?.execute()).toEqual([{ n: 1 }]);
  });
});

describe('executePreparedByText', () => {
  it('runs each call with its own values, and prepares one statement per text on a connection, planned generically after a few calls', async () => {
    await database.db.transaction(async (tx) => {
      const answers: unknown[] = [];
      for (let n = 1; n <= 8; n++) {
        // Built at each call, as a statement put together from parts is.
        answers.push(
          await executePreparedByText(tx, (handle) =>
            handle.select({ value: sql<number>`${n}::int * 2` }).from(sql`(values (1)) as one (x)`),
          ),
        );
      }
      expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [{ value: n * 2 }]));
      expect(
        await executePreparedByText(tx, (handle) =>
          handle.select({ value: sql<number>`${5}::int + 1` }).from(sql`(values (1)) as one (x)`),
        ),
      ).toEqual([{ value: 6 }]);
      const { rows } = await tx.execute<{ executions: number; generic_plans: number }>(
        sql`select generic_plans + custom_plans as executions, generic_plans::int from pg_prepared_statements
          where name like 'by_text_%' order by executions desc`,
      );
      // PostgreSQL plans a prepared statement for its values five times, then keeps a generic plan.
      expect(rows.map((r) => Number(r.executions))).toEqual([8, 1]);
      expect(Number(rows[0]?.generic_plans)).toBeGreaterThan(0);
    });
  });

  it('answers the rows as Drizzle maps them (dates, JSON, column names), and refuses a nested selection', async () => {
    const table = pgTable('prepared_test_mapped', {
      id: integer('id').primaryKey(),
      madeAt: timestamp('made_at', { withTimezone: true }).notNull(),
      detail: jsonb('detail'),
    });
    await database.pool.query(
      'create table prepared_test_mapped (id int primary key, made_at timestamptz not null, detail jsonb)',
    );
    const db = database.db;
    // As the events module runs a change: a data-modifying CTE, answered by a select of its rows.
    const inserted = db.$with('inserted').as(
      db
        .insert(table)
        .values({ id: 7, madeAt: new Date('2026-11-27T05:00:00.250Z'), detail: { kind: 'test', n: 1 } })
        .returning(),
    );
    expect(await executePreparedByText(db, (handle) => handle.with(inserted).select().from(inserted))).toEqual([
      { id: 7, madeAt: new Date('2026-11-27T05:00:00.250Z'), detail: { kind: 'test', n: 1 } },
    ]);
    const nested = (handle: Queryable) => handle.select({ row: { id: table.id } }).from(table);
    await expect(executePreparedByText(db, nested)).rejects.toThrow(/flat selections only; row is not/);
    expect((await database.pool.query('select count(*)::int as n from prepared_test_mapped')).rows).toEqual([{ n: 1 }]);
  });
});

describe('executeSqlShaped', () => {
  it('runs each call with its own values, as one statement per shape on a connection', async () => {
    await database.db.transaction(async (tx) => {
      const answers: unknown[] = [];
      for (let n = 1; n <= 5; n++) {
        const tripled = () => sql`select ${sql.placeholder('n')}::int * 3 as value`;
        answers.push(await executeSqlShaped(tx, 'test: sql tripled', tripled, { n }));
      }
      expect(answers).toEqual([1, 2, 3, 4, 5].map((n) => [{ value: n * 3 }]));
      expect((await byTextStatementsOf(tx, '::int * 3 as value')).map((r) => r.executions)).toEqual([5]);
    });
  });

  it('refuses a shape built again as another text or with another fixed value, and values that are not its placeholders', async () => {
    const fixed = (n: number) =>
      executeSqlShaped(database.db, 'test: sql fixed value', () => sql`select ${n}::int as value`, {});
    expect(await fixed(1)).toEqual([{ value: 1 }]);
    await expect(fixed(2)).rejects.toThrow('statement shape test: sql fixed value was built as another text');
    const doubled = (values: Record<string, unknown>) =>
      executeSqlShaped(
        database.db,
        'test: sql values checked',
        () => sql`select ${sql.placeholder('n')}::int * 2 as value`,
        values,
      );
    expect(await doubled({ n: 4 })).toEqual([{ value: 8 }]);
    await expect(doubled({ n: 4, m: 1 })).rejects.toThrow(
      'statement shape test: sql values checked has placeholders n; values were given for m,n',
    );
  });
});

describe('executeShaped', () => {
  it('runs each call with its own values, as one statement per shape on a connection', async () => {
    await database.db.transaction(async (tx) => {
      const answers: unknown[] = [];
      for (let n = 1; n <= 7; n++) {
        answers.push(
          await executeShaped(
            tx,
            'test: doubled',
            (handle) =>
              handle
                .select({ value: sql<number>`${sql.placeholder('n')}::int * ${2}` })
                .from(sql`(values (1)) as one (x)`),
            { n },
          ),
        );
      }
      expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => [{ value: n * 2 }]));
      expect((await byTextStatementsOf(tx, '::int * $2')).map((r) => r.executions)).toEqual([7]);
    });
  });

  it('refuses, where shapes are checked (as in every test), a shape built again as another text or with another fixed value', async () => {
    const fixed = (n: number) =>
      executeShaped(
        database.db,
        'test: a value written in',
        (handle) => handle.select({ value: sql<number>`${n}::int` }).from(sql`(values (1)) as one (x)`),
        {},
      );
    expect(await fixed(1)).toEqual([{ value: 1 }]);
    expect(await fixed(1)).toEqual([{ value: 1 }]);
    await expect(fixed(2)).rejects.toThrow('statement shape test: a value written in was built as another text');
    const text = (column: string) =>
      executeShaped(
        database.db,
        'test: a text',
        (handle) => handle.select({ value: sql<number>`${sql.raw(column)}` }).from(sql`(values (1)) as one (x)`),
        {},
      );
    expect(await text('x')).toEqual([{ value: 1 }]);
    await expect(text('x + 1')).rejects.toThrow('statement shape test: a text was built as another text');
  });
  it('refuses values that are not the shape’s placeholders: a key that misses a part of the statement', async () => {
    const doubled = (values: Record<string, unknown>) =>
      executeShaped(
        database.db,
        'test: values checked',
        (handle) =>
          handle.select({ value: sql<number>`${sql.placeholder('n')}::int * 2` }).from(sql`(values (1)) as one (x)`),
        values,
      );
    expect(await doubled({ n: 4 })).toEqual([{ value: 8 }]);
    await expect(doubled({ n: 4, m: 1 })).rejects.toThrow(
      'statement shape test: values checked has placeholders n; values were given for m,n',
    );
    await expect(doubled({})).rejects.toThrow(
      'statement shape test: values checked has placeholders n; values were given for ',
    );
  });
});

describe('valuesOf', () => {
  it('joins the values of a statement’s parts, and refuses a placeholder two parts fill', () => {
    expect(valuesOf({ values: { a: 1 } }, undefined, { values: { b: null } })).toEqual({ a: 1, b: null });
    expect(() => valuesOf({ values: { a: 1 } }, { values: { a: 1 } })).toThrow(
      'placeholder a is filled by two parts of one statement',
    );
  });
});

describe('executeSqlPreparedByText', () => {
  it('runs a statement written in SQL with each call’s values, prepared once per text on a connection', async () => {
    await database.pool.query('create table prepared_test_written (id int primary key, note text not null)');
    await database.db.transaction(async (tx) => {
      for (let n = 1; n <= 7; n++) {
        // As emitAll writes an event and its effects: a data-modifying CTE, then a select that runs it.
        await executeSqlPreparedByText(
          tx,
          sql`with written as (insert into prepared_test_written values (${n}, ${`note ${n}`}) returning id) select count(*) from written`,
        );
      }
      const { rows } = await tx.execute<{ executions: string; statement: string }>(
        sql`select generic_plans + custom_plans as executions, statement from pg_prepared_statements
          where name like 'by_text_%' and statement like '%prepared_test_written%'`,
      );
      expect(rows.map((r) => Number(r.executions))).toEqual([7]);
    });
    const written = await database.pool.query('select id, note from prepared_test_written order by id');
    expect(written.rows).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => ({ id: n, note: `note ${n}` })));
  });

  it('changes nothing when the statement fails, and the next call on the connection runs', async () => {
    await database.pool.query('create table prepared_test_unique (id int primary key)');
    await database.db.transaction(async (tx) => {
      await executeSqlPreparedByText(tx, sql`insert into prepared_test_unique values (${1})`);
    });
    await expect(
      database.db.transaction((tx) =>
        executeSqlPreparedByText(tx, sql`insert into prepared_test_unique values (${1})`),
      ),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    await database.db.transaction((tx) =>
      executeSqlPreparedByText(tx, sql`insert into prepared_test_unique values (${2})`),
    );
    expect((await database.pool.query('select id from prepared_test_unique order by id')).rows).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });

  it('answers the rows PostgreSQL returns, by column name, as the driver types them', async () => {
    await database.pool.query('create table prepared_test_counted (id text primary key, failures int not null)');
    await database.pool.query("insert into prepared_test_counted values ('a', 1), ('b', 4)");
    const rows = await executeSqlPreparedByText<{ id: string; failures: number; over: boolean }>(
      database.db,
      sql`update prepared_test_counted set failures = failures + ${2} where id = ${'b'}
        returning id, failures, failures >= ${5} as over`,
    );
    expect(rows).toEqual([{ id: 'b', failures: 6, over: true }]);
  });
});

describe('textArray', () => {
  it('passes any number of strings as one distinct text[] parameter: one statement text for every count', async () => {
    await database.pool.query(
      "create table prepared_test_keys (key text primary key); insert into prepared_test_keys values ('k1'), ('k2'), ('k3'), ('O''Brien')",
    );
    await database.db.transaction(async (tx) => {
      const found = (keys: string[]) =>
        columnOf<string>(
          tx,
          'key',
          sql`select key from prepared_test_keys where key = any(${textArray(keys)}) order by key`,
        );
      expect(await found(['k1'])).toEqual(['k1']);
      expect(await found(['k3', 'k1', 'k3', 'missing'])).toEqual(['k1', 'k3']);
      expect(await found(["O'Brien", 'k2'])).toEqual(["O'Brien", 'k2']);
      expect(await found([])).toEqual([]);
      expect((await byTextStatementsOf(tx, 'prepared_test_keys')).map((r) => r.executions)).toEqual([4]);
    });
  });
});

describe('oneOf', () => {
  it('finds the rows of one value or of several, in two statement texts, and keeps one plan for the one-value text', async () => {
    await database.pool.query(
      "create table prepared_test_one_of (key text primary key, n int not null); insert into prepared_test_one_of select 'k' || i, i from generate_series(1, 200) i",
    );
    await database.db.transaction(async (tx) => {
      const found = (keys: string[]) =>
        columnOf<number>(tx, 'n', sql`select n from prepared_test_one_of where ${oneOf(sql`key`, keys)} order by n`);
      for (let i = 1; i <= 8; i++) expect(await found([`k${i}`])).toEqual([i]);
      expect(await found(['k9', 'k9'])).toEqual([9]);
      expect(await found(['k12', 'k10', 'nothing'])).toEqual([10, 12]);
      expect(await found(['k3', 'k4'])).toEqual([3, 4]);
      const statements = await byTextStatementsOf(tx, 'prepared_test_one_of');
      expect(statements.map((r) => [r.statement.includes('any('), r.executions])).toEqual([
        [false, 9],
        [true, 2],
      ]);
      // Planned for its values five times, then the generic plan, as for any one-row lookup.
      expect(statements[0]?.generic).toBe(4);
    });
  });
});

describe('oneOfPart', () => {
  it('as a part of a shaped statement: one value or several, in two shapes, each a statement of its own', async () => {
    await database.pool.query(
      "create table prepared_test_keys_part (key text primary key, n int not null); insert into prepared_test_keys_part select 'k' || i, i from generate_series(1, 20) i",
    );
    await database.db.transaction(async (tx) => {
      const found = async (keys: string[]) => {
        const keyIs = oneOfPart(sql`key`, keys, 'keys');
        const rows = await executeShaped(
          tx,
          `test: one of part, ${keyIs.shape}`,
          (handle) =>
            handle
              .select({ n: sql<number>`n` })
              .from(sql`prepared_test_keys_part`)
              .where(sql`${keyIs.sql} and n < ${sql.placeholder('below')}::int`)
              .orderBy(sql`n`),
          valuesOf(keyIs, { values: { below: 15 } }),
        );
        return rows.map((r) => r.n);
      };
      expect(await found(['k1'])).toEqual([1]);
      expect(await found(['k2', 'k2'])).toEqual([2]);
      expect(await found(['k12', 'k10', 'k17', 'nothing'])).toEqual([10, 12]);
      expect(await found(['k3', 'k4'])).toEqual([3, 4]);
      // Both ran twice, so the order they are listed in says nothing: sorted.
      const statements = await byTextStatementsOf(tx, 'prepared_test_keys_part');
      expect(statements.map((r) => [r.statement.includes('any('), r.executions]).sort()).toEqual([
        [false, 2],
        [true, 2],
      ]);
    });
  });
});

describe('executeOneOf', () => {
  it('runs the one-id statement for one distinct id and the array statement for several, with the other values', async () => {
    await database.pool.query(
      "create table prepared_test_by_ids (id text primary key, owner text not null); insert into prepared_test_by_ids values ('a', 'o1'), ('b', 'o1'), ('c', 'o2')",
    );
    const statements = preparedPerDb((db) => {
      const idIs = oneOfPlaceholders(sql`id`);
      const read = (condition: SQL, name: string) =>
        db
          .select({ id: sql<string>`id` })
          .from(sql`prepared_test_by_ids`)
          .where(sql`${condition} and owner = ${sql.placeholder('owner')}`)
          .orderBy(sql`id`)
          .prepare(name);
      return { one: read(idIs.one, 'prepared_test_by_id'), many: read(idIs.many, 'prepared_test_by_ids') };
    });
    // Which of the two ran, for each call: the real statements, each noting its turn.
    const ran: string[] = [];
    type Read = ReturnType<typeof statements>['one'];
    const noting = (name: string, p: Read) => ({
      execute: (values: Record<string, unknown>) => {
        ran.push(name);
        return p.execute(values);
      },
    });
    const { one, many } = statements(database.db);
    const pair = { one: noting('one', one), many: noting('many', many) };
    const found = async (ids: string[]) => (await executeOneOf(pair, ids, { owner: 'o1' })).map((r) => r.id);
    expect(await found(['b'])).toEqual(['b']);
    expect(await found(['a', 'a'])).toEqual(['a']);
    expect(await found(['c', 'b', 'a'])).toEqual(['a', 'b']);
    expect(await found(['c'])).toEqual([]);
    expect(ran).toEqual(['one', 'one', 'many', 'one']);
  });
});
