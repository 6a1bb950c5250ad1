import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { withEffects } from '../../src/db/with-effects.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query('create table effect_rows (id int primary key)');
  await database.pool.query('create table effect_log (row_id int)');
  await database.pool.query(`create function log_effect(id int) returns int language sql as
    'insert into effect_log values (id) returning row_id'`);
});
afterAll(() => database.close());

const logged = async () =>
  (await database.pool.query<{ row_id: number }>('select row_id from effect_log order by row_id')).rows.map(
    (r) => r.row_id,
  );

describe('withEffects', () => {
  it('shows the rule it exists for: a SELECT in WITH that nothing reads does not run', async () => {
    await database.db.execute(sql`
      with created as (insert into effect_rows values (1), (2) returning id),
      effect as (select log_effect(id) from created)
      select count(*) from created`);
    expect(await database.pool.query('select id from effect_rows order by id')).toMatchObject({
      rows: [{ id: 1 }, { id: 2 }],
    });
    expect(await logged()).toEqual([]);
  });

  it('runs each effect once, on the rows its CTEs made, and answers how many rows it acted on', async () => {
    const answer = await database.db.execute<{ n: number; effect_count: number }>(
      withEffects({
        with: [
          ['created', sql`insert into effect_rows values (10), (11), (12) returning id`],
          ['batch', sql`select count(*)::int as n from created`],
        ],
        effects: [['effect', sql`select log_effect(id) from created`]],
        select: sql`n`,
        from: sql`batch`,
      }),
    );
    expect(answer.rows).toEqual([{ n: 3, effect_count: 3 }]);
    expect(await logged()).toEqual([10, 11, 12]);
  });

  it('runs no effect when the final select yields no row', async () => {
    const answer = await database.db.execute(
      withEffects({
        with: [['created', sql`insert into effect_rows select 20 where false returning id`]],
        effects: [['effect', sql`select log_effect(21)`]],
        select: sql`id`,
        from: sql`created`,
      }),
    );
    expect(answer.rows).toEqual([]);
    expect(await logged()).not.toContain(21);
  });

  it('refuses a CTE name that is not a plain identifier, before anything runs', () => {
    expect(() =>
      withEffects({ with: [['x; drop table effect_rows', sql`select 1`]], effects: [], select: sql`1`, from: sql`x` }),
    ).toThrow('withEffects: "x; drop table effect_rows" is not a plain name');
  });
});
