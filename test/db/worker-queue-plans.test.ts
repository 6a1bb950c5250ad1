import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function addJobsSettings(): Promise<string[] | null> {
  const { rows } = await database.pool.query<{ proconfig: string[] | null }>(
    `select proconfig from pg_proc where proname = 'add_jobs' and pronamespace = 'graphile_worker'::regnamespace`,
  );
  expect(rows).toHaveLength(1);
  return rows[0]?.proconfig ?? null;
}

const SETTINGS = ['plan_cache_mode=force_generic_plan', 'enable_seqscan=off'];

describe("graphile-worker's add_jobs", () => {
  it('keeps one generic plan per statement, set again at every start even if the function was replaced', async () => {
    expect(await addJobsSettings()).toEqual(SETTINGS);
    // As a version of graphile-worker that replaces the function would leave it.
    await database.pool.query('alter function graphile_worker.add_jobs(graphile_worker.job_spec[], boolean) reset all');
    expect(await addJobsSettings()).toBeNull();
    await runMigrations(database.pool);
    expect(await addJobsSettings()).toEqual(SETTINGS);
    // Jobs are still queued through it, keys and all.
    await database.pool.query(
      `select graphile_worker.add_job('delete_profile', json_build_object('profile_id', 'p1'), job_key => 'plans-test')`,
    );
    const { rows } = await database.pool.query(
      `select task_identifier, key from graphile_worker.jobs where key = 'plans-test'`,
    );
    expect(rows).toEqual([{ task_identifier: 'delete_profile', key: 'plans-test' }]);
  });

  it('lets the service start where the function is not there, and says so', async () => {
    const signature = 'graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)';
    await database.pool.query(`alter function ${signature} rename to add_jobs_elsewhere`);
    try {
      const warnings: string[] = [];
      await runMigrations(database.pool, (message) => warnings.push(message));
      expect(warnings).toEqual([
        `${signature} was not found (another version of graphile-worker?): jobs are queued without its generic plans, which costs the database more CPU a job`,
      ]);
    } finally {
      await database.pool.query(
        'alter function graphile_worker.add_jobs_elsewhere(graphile_worker.job_spec[], boolean) rename to add_jobs',
      );
    }
    const warnings: string[] = [];
    await runMigrations(database.pool, (message) => warnings.push(message));
    expect(warnings).toEqual([]);
    expect(await addJobsSettings()).toEqual(SETTINGS);
  });

  it('queues a job without reading the whole queue, however small the queue was when its plans were made', async () => {
    const client = await database.pool.connect();
    try {
      // Statistics that never catch up: the plans stay those made on an empty queue.
      await client.query('alter table graphile_worker._private_jobs set (autovacuum_enabled = false)');
      await client.query(
        `select graphile_worker.add_job('delete_profile', json_build_object('profile_id', 'p0'), run_at => now() + interval '1 day')`,
      );
      await client.query(
        `select graphile_worker.add_jobs(array(
          select ('delete_profile', json_build_object('profile_id', 'p' || n), null, now() + interval '1 day', 25, null, 0, null)::graphile_worker.job_spec
          from generate_series(1, 2000) n))`,
      );
      await client.query('begin');
      await client.query(`select graphile_worker.add_job('delete_profile', json_build_object('profile_id', 'p2001'))`);
      const { rows } = await client.query<{ seq_scan: string; idx_scan: string }>(
        `select seq_scan, idx_scan from pg_stat_xact_user_tables where relid = 'graphile_worker._private_jobs'::regclass`,
      );
      await client.query('commit');
      expect(rows).toEqual([{ seq_scan: '0', idx_scan: expect.any(String) }]);
    } finally {
      await client.query('rollback').catch(() => {});
      await client.query(`delete from graphile_worker._private_jobs`);
      await client.query('alter table graphile_worker._private_jobs reset (autovacuum_enabled)');
      client.release();
    }
  });
});
