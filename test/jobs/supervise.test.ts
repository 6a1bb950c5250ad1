/**
 * A job pool that stops by itself is reported, so that the process stops with exit code 1 for
 * its supervisor instead of living on without taking jobs (docs/deployment.md, "Processes").
 * The pools are graphile-worker's own, on a real database; the stop is the one graphile-worker
 * makes after an error it deems fatal.
 */
import { EventEmitter } from 'node:events';
import { run, type WorkerEvents, type WorkerPool } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connection.ts';
import { superviseRunners } from '../../src/jobs/supervise.ts';
import { createTestDatabase } from '../helpers/database.ts';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function startPool(events = new EventEmitter() as WorkerEvents) {
  let workerPool: WorkerPool | undefined;
  const created = (event: { workerPool: WorkerPool }) => {
    workerPool = event.workerPool;
  };
  events.on('pool:create', created);
  const runner = await run({
    pgPool: database.pool,
    concurrency: 1,
    taskList: { nothing: async () => {} },
    noHandleSignals: true,
    pollInterval: 1000,
    events,
  });
  events.off('pool:create', created);
  if (!workerPool) throw new Error('graphile-worker created no pool');
  return { runner, workerPool, events };
}

describe('supervised job pools', () => {
  it('reports, once, a pool that stops without being asked to', async () => {
    // One set of events for both pools, as the service has.
    const first = await startPool();
    const second = await startPool(first.events);
    const reported: Error[] = [];
    const supervision = superviseRunners([first.runner, second.runner], first.events, (error) => reported.push(error));
    await first.workerPool.gracefulShutdown('Could not completeJobs; queue is in an inconsistent state; aborting.');
    await first.runner.promise.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported.map((e) => e.message)).toEqual([
      'a job pool stopped by itself: Could not completeJobs; queue is in an inconsistent state; aborting.',
    ]);
    // The process then stops the rest on purpose: no second report.
    supervision.stopping();
    await second.runner.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toHaveLength(1);
  });

  it('reports nothing when the pools are stopped on purpose', async () => {
    const { runner, events } = await startPool();
    const reported: Error[] = [];
    const supervision = superviseRunners([runner], events, (error) => reported.push(error));
    supervision.stopping();
    await runner.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual([]);
  });
});
