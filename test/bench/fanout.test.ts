import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { produce } from '../../bench/fanout.ts';
import type { Database } from '../../src/db/connection.ts';
import { owners } from '../../src/modules/owners/tables.ts';
import { installModules } from '../../src/modules.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * The webhook bench's paced producer: a transaction whose commit is held up does not hold up the
 * events due after it, so the run offers the rate it is meant to measure at.
 */

const OWNER = 'own_01jzfanoutbench00000000000';
/** The advisory lock the first event's insert waits for while the test holds it. */
const LOCK = 42_001;
let database: Database;

const steps = {
  checkInterrupted: () => {},
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  progress: () => true,
};

const committed = async () => {
  const { rows } = await database.pool.query<{ post_id: string }>(
    'select data->>$2 as post_id from events where owner_id = $1 order by 1',
    [OWNER, 'post_id'],
  );
  return rows.map((row) => row.post_id);
};

beforeAll(async () => {
  database = await createTestDatabase();
  installModules();
  await database.db
    .insert(owners)
    .values({ id: OWNER, name: 'Fan-out', email: 'fanout@example.test', createdAt: new Date() });
  // The first event (bench/fanout.ts's eventData(0)) waits for the lock; the others do not.
  await database.pool.query(`
    create function bench_test_hold_first() returns trigger language plpgsql as $$
    begin
      if new.data->>'post_id' = 'post_00000000' then perform pg_advisory_xact_lock(${LOCK}); end if;
      return new;
    end $$;
    create trigger bench_test_hold_first before insert on events
      for each row execute function bench_test_hold_first();`);
});

afterAll(async () => {
  await database.close();
});

describe('the paced producer', () => {
  it('commits the events due after a held-up transaction while that one waits, then every event once', async () => {
    const holder = await database.pool.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [LOCK]);
      const run = produce(database.db, OWNER, 5, 1, 1_000, steps, 8);
      const later = ['post_00000001', 'post_00000002', 'post_00000003', 'post_00000004'];
      expect(await eventually(async () => ((await committed()).length === 4 ? committed() : undefined))).toEqual(later);
      await holder.query('select pg_advisory_unlock($1)', [LOCK]);
      const produced = await run;
      expect(await committed()).toEqual(['post_00000000', ...later]);
      expect(produced.commits.size).toBe(5);
      expect(produced.firstCommit).toBeLessThan(produced.lastCommit);
    } finally {
      holder.release();
    }
  });
});
