import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { jobSql } from '../../src/jobs/queue.ts';
import { defineWorkflow, transition, workflowTable } from '../../src/jobs/workflow.ts';
import { createTestDatabase } from '../helpers/database.ts';

/** A table of this test's own, so the move and its effect are all that happens. */
const lamps = pgTable('workflow_effect_lamps', {
  id: text('id').primaryKey(),
  power: text('power').notNull(),
  note: text('note'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  detail: jsonb('detail'),
});
const lampStates = workflowTable(
  defineWorkflow({
    name: 'lamp',
    states: { off: { power: 'off' }, on: { power: 'on' } },
    initial: ['off'],
    transitions: { switch_on: { from: ['off'], to: 'on' } },
  }),
  lamps,
  lamps.id,
);

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `create table workflow_effect_lamps (id text primary key, power text not null, note text, updated_at timestamptz not null, detail jsonb)`,
  );
});
afterAll(async () => await database.close());

/** The jobs graphile-worker holds for these lamps (its `jobs` view shows no payloads). */
async function jobsOf(ids: string[]): Promise<{ payload: { target_id: string }; key: string | null }[]> {
  const { rows } = await database.pool.query(
    `select j.payload, j.key from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = 'publish_target' and j.payload->>'target_id' = any($1::text[])`,
    [ids],
  );
  return rows;
}

describe('a transition with an effect in the same statement', () => {
  it('answers the moved row and queues its job once; a move that does not take effect queues nothing', async () => {
    await database.pool.query(
      `insert into workflow_effect_lamps values ('a', 'off', null, now()), ('b', 'on', null, now())`,
    );
    const queue = jobSql(
      'publish_target',
      { target_id: sql`moved.id` },
      { jobKey: sql`'lamp:' || moved.id`, runAt: sql`(now() + interval '1 hour')` },
    );
    const moved = await transition(database.db, lampStates, 'a', 'switch_on', {
      set: { note: 'lit' },
      effect: { shape: 'test: queue a lamp job', sql: sql`select ${queue} from moved`, values: {} },
    });
    expect(moved).toMatchObject({ id: 'a', power: 'on', note: 'lit' });
    expect(moved?.updatedAt).toBeInstanceOf(Date);
    // 'b' is on already: switch_on does not take effect, and its effect does not run.
    const refused = await transition(database.db, lampStates, 'b', 'switch_on', {
      effect: { shape: 'test: queue a lamp job', sql: sql`select ${queue} from moved`, values: {} },
    });
    expect(refused).toBeNull();
    expect(await jobsOf(['a', 'b'])).toEqual([{ payload: { target_id: 'a' }, key: 'lamp:a' }]);
    const { rows } = await database.pool.query('select id, power, note from workflow_effect_lamps order by id');
    expect(rows).toEqual([
      { id: 'a', power: 'on', note: 'lit' },
      { id: 'b', power: 'on', note: null },
    ]);
  });

  it('dates the move by the time the caller gives with the other columns, else by the clock', async () => {
    await database.pool.query(
      `insert into workflow_effect_lamps values ('c', 'off', null, now()), ('d', 'off', null, now())`,
    );
    const at = new Date('2020-01-02T03:04:05.678Z');
    expect(await transition(database.db, lampStates, 'c', 'switch_on', { set: { updatedAt: at } })).toMatchObject({
      id: 'c',
      power: 'on',
      updatedAt: at,
    });
    const before = Date.now();
    const moved = await transition(database.db, lampStates, 'd', 'switch_on');
    expect(moved?.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('writes each call’s own values with one statement of a shape: JSON as JSON, null as SQL NULL', async () => {
    await database.pool.query(
      `insert into workflow_effect_lamps values ('e', 'off', null, now(), '{"old": true}'), ('f', 'off', 'old', now(), '{"old": true}')`,
    );
    const e = await transition(database.db, lampStates, 'e', 'switch_on', {
      set: { note: 'first', detail: { watts: 40 } },
    });
    const f = await transition(database.db, lampStates, 'f', 'switch_on', { set: { note: null, detail: null } });
    expect(e).toMatchObject({ id: 'e', note: 'first', detail: { watts: 40 } });
    expect(f).toMatchObject({ id: 'f', note: null, detail: null });
    const { rows } = await database.pool.query(
      `select id, note, detail, detail is null as sql_null from workflow_effect_lamps where id in ('e', 'f') order by id`,
    );
    expect(rows).toEqual([
      { id: 'e', note: 'first', detail: { watts: 40 }, sql_null: false },
      { id: 'f', note: null, detail: null, sql_null: true },
    ]);
  });
});
