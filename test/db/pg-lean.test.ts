import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/database.ts';

/**
 * Queries through the service's pool, with pg's two per-statement costs taken out
 * (src/db/pg-lean.ts): every shape of answer still comes back as PostgreSQL gave it, and a
 * query's configuration is the caller's still.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("a result's rows", () => {
  it('as objects: every column by its name, a repeated name once with its last value, a null as null', async () => {
    const { rows, fields } = await database.pool.query(
      `select 1 as id, 'a' as name, null::text as note, '2026-11-30T12:00:00Z'::timestamptz as at, 2 as id`,
    );
    expect(fields.map((f) => f.name)).toEqual(['id', 'name', 'note', 'at', 'id']);
    expect(rows).toEqual([{ id: 2, name: 'a', note: null, at: new Date('2026-11-30T12:00:00Z') }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('as objects, after a result with no rows and in a second result of the same query', async () => {
    const client = await database.pool.connect();
    try {
      const none = await client.query(`select 1 as a where false`);
      expect(none.rows).toEqual([]);
      expect(none.fields.map((f) => f.name)).toEqual(['a']);
      // A simple query of two statements answers a result for each, with columns of its own.
      const both = (await client.query(
        `select g as a from generate_series(1, 3) g; select 'x' as b, 'y' as c`,
      )) as unknown as { rows: unknown[] }[];
      expect(both.map((r) => r.rows)).toEqual([[{ a: 1 }, { a: 2 }, { a: 3 }], [{ b: 'x', c: 'y' }]]);
    } finally {
      client.release();
    }
  });

  it("as arrays (Drizzle's selects): each value parsed by its column's type, in the columns' order", async () => {
    const { rows } = await database.pool.query({
      text: `select 7::int as n, '{"k": [1]}'::jsonb as j, null::int as z, true as b`,
      rowMode: 'array',
    });
    expect(rows).toEqual([[7, { k: [1] }, null, true]]);
    const [row] = await database.db
      .select({ total: sql<number>`count(*)::int`, at: sql<string>`'2026-11-30'::date::text` })
      .from(sql`(values (1), (2)) v`);
    expect(row).toEqual({ total: 2, at: '2026-11-30' });
  });

  it('builds no empty row for a result whose rows are arrays, or that has none', async () => {
    // What the lazy empty row is for: pg's Result, as the pool's queries make it, holds none then.
    const client = await database.pool.connect();
    try {
      const seen: unknown[] = [];
      for (const [text, rowMode] of [
        ['select 1 as a, 2 as b', 'array'],
        ['select 1 as a where false', undefined],
      ] as const) {
        const query = new pg.Query({ text, ...(rowMode ? { rowMode } : {}) });
        await new Promise<void>((resolve, reject) => {
          query.on('end', () => resolve());
          query.on('error', reject);
          client.query(query);
        });
        seen.push(
          (query as unknown as { _result: { _prebuiltEmptyResultObject: unknown } })._result._prebuiltEmptyResultObject,
        );
      }
      expect(seen).toEqual([null, null]);
    } finally {
      client.release();
    }
  });

  it("leaves the caller's configuration as it was, with values given beside it used in its place", async () => {
    const config = { text: 'select $1::int as n', values: [1] };
    const { rows } = await database.pool.query(config, [2]);
    expect(rows).toEqual([{ n: 2 }]);
    expect(config).toEqual({ text: 'select $1::int as n', values: [1] });
    const named = { name: 'pg_lean_named', text: 'select $1::text as t', values: ['a'] };
    expect((await database.pool.query(named)).rows).toEqual([{ t: 'a' }]);
    expect((await database.pool.query(named, ['b'])).rows).toEqual([{ t: 'b' }]);
    expect(named).toEqual({ name: 'pg_lean_named', text: 'select $1::text as t', values: ['a'] });
  });

  it('copies a configuration with a hidden or read-only property as pg does: its text kept, values given beside it used', async () => {
    const hidden = Object.defineProperty({ values: [3] }, 'text', { value: 'select $1::int as n', enumerable: false });
    expect((await database.pool.query(hidden as { text: string; values: number[] })).rows).toEqual([{ n: 3 }]);
    const frozen = Object.freeze({ text: 'select $1::int as n' });
    expect((await database.pool.query(frozen, [4])).rows).toEqual([{ n: 4 }]);
  });
});
