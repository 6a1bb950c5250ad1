import { eq, sql } from 'drizzle-orm';
import { boolean, customType, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { rowAsValue } from '../../src/db/row-json.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table row_json_things (
    id text primary key, label text, tags text[] not null, count integer not null, done boolean,
    seen_at timestamptz not null, gone_at timestamptz, detail jsonb, "camelName" text)`);
});
afterAll(() => database.close());

const things = pgTable('row_json_things', {
  id: text('id').primaryKey(),
  label: text('label'),
  tags: text('tags').array().notNull(),
  count: integer('count').notNull(),
  done: boolean('done'),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull(),
  goneAt: timestamp('gone_at', { withTimezone: true, mode: 'date' }),
  detail: jsonb('detail').$type<{ reason: string; codes: number[] } | null>(),
  camelName: text('camelName'),
});

/** The row `id` names, as rowAsValue reads it inside another statement. */
async function asValue(id: string) {
  const [row] = await database.db
    .select({ thing: rowAsValue(things, eq(things.id, sql.placeholder('id'))) })
    .from(sql`(select) as one`)
    .prepare('row_json_thing')
    .execute({ id });
  return row?.thing;
}

describe('rowAsValue', () => {
  it('answers a row as a select of its table answers it, every kind of value and null alike', async () => {
    await database.db.execute(sql`insert into row_json_things values
      ('full', 'a "quoted" label, with\nlines', '{one,"two words",""}', 42, true,
       '2026-11-28 15:44:16.228937+00', '2026-01-02 03:04:05+05:30', '{"reason": "late", "codes": [1, 2]}', 'named'),
      ('sparse', null, '{}', 0, null, '2026-11-28 00:00:00+00', null, null, null)`);
    for (const id of ['full', 'sparse']) {
      const [selected] = await database.db.select().from(things).where(eq(things.id, id));
      expect(await asValue(id)).toStrictEqual(selected);
    }
    expect(await asValue('full')).toStrictEqual({
      id: 'full',
      label: 'a "quoted" label, with\nlines',
      tags: ['one', 'two words', ''],
      count: 42,
      done: true,
      seenAt: new Date('2026-11-28T15:44:16.228Z'),
      goneAt: new Date('2026-01-01T21:34:05Z'),
      detail: { reason: 'late', codes: [1, 2] },
      camelName: 'named',
    });
  });

  it('answers null when no row holds', async () => {
    expect(await asValue('none')).toBeNull();
  });

  it('refuses a table with a column whose JSON it cannot map back', () => {
    const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
    const withBytes = pgTable('row_json_bytes', { id: text('id').primaryKey(), logo: bytes('logo') });
    expect(() => rowAsValue(withBytes, eq(withBytes.id, 'x'))).toThrow(
      'rowAsValue cannot map these columns from JSON: logo',
    );
  });
});
