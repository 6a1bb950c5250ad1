import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { preparedPerDb } from '../../src/db/prepared.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

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
