import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublishFloorTable,
  dropPublishFloorTable,
  runPublishFloor,
  slots,
  type TargetCalls,
} from '../../bench/publish-floor.ts';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/database.ts';

/**
 * The publishing bench's floors: without writes, the adapter calls alone, each holding a slot;
 * with them, a target's four writes, each committed before the call that needs it, in two runs
 * of one slot each.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface TargetRow {
  status: string;
  container_id: string | null;
  platform_post_id: string | null;
}

/** The target's row as another connection sees it: only what is committed. */
async function committedRow(target: number): Promise<TargetRow | undefined> {
  const { rows } = await database.pool.query<TargetRow>(
    'select status, container_id, platform_post_id from bench_publish_floor.targets where id = $1',
    [target],
  );
  return rows[0];
}

/** Calls that note what each found committed, answer after `ms`, and count how many are in flight. */
function observedCalls(options: { ms: number; notReadyOnce: (target: number) => boolean }) {
  const seen: { target: number; call: string; row: TargetRow | undefined }[] = [];
  let inFlight = 0;
  let most = 0;
  const observe = async <T>(target: number, call: string, answer: T): Promise<T> => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    try {
      seen.push({ target, call, row: await committedRow(target).catch(() => undefined) });
      await sleep(options.ms);
      return answer;
    } finally {
      inFlight -= 1;
    }
  };
  const callsOf = (target: number): TargetCalls => ({
    quota: () => observe(target, 'quota', undefined),
    createContainer: () => observe(target, 'createContainer', `container-${target}`),
    containerWait: (containerId, reads) => {
      expect(containerId).toBe(`container-${target}`);
      return observe(target, `containerWait ${reads}`, reads === 0 && options.notReadyOnce(target) ? 20 : null);
    },
    publish: (containerId) => {
      expect(containerId).toBe(`container-${target}`);
      return observe(target, 'publish', `post-${target}`);
    },
  });
  return { seen, callsOf, most: () => most };
}

describe('runPublishFloor', () => {
  it('with writes: starts a target before its container is made and claims it before it is published, each once', async () => {
    await createPublishFloorTable(database.pool);
    const calls = observedCalls({ ms: 2, notReadyOnce: (target) => target % 4 === 0 });
    const run = await runPublishFloor({
      targets: 12,
      concurrency: 3,
      firstReadMs: 5,
      callsOf: calls.callsOf,
      writes: database.pool,
      sleep,
    });
    expect(run.postIds).toEqual(Array.from({ length: 12 }, (_, i) => `post-${i}`));
    expect(run.polls).toBe(3);
    expect(run.lateness).toHaveLength(12);
    expect([...run.lateness].every((ms) => ms > 5)).toBe(true);

    for (let target = 0; target < 12; target++) {
      const seen = calls.seen.filter((s) => s.target === target);
      const notReady = target % 4 === 0;
      expect(seen.map((s) => s.call)).toEqual([
        'quota',
        'createContainer',
        'containerWait 0',
        ...(notReady ? ['containerWait 1'] : []),
        'publish',
      ]);
      const started = { status: 'publishing', container_id: null, platform_post_id: null };
      const made = { status: 'processing', container_id: `container-${target}`, platform_post_id: null };
      expect(seen.map((s) => s.row)).toEqual([
        started,
        started,
        made,
        ...(notReady ? [made] : []),
        { status: 'claimed', container_id: `container-${target}`, platform_post_id: null },
      ]);
      expect(await committedRow(target)).toEqual({
        status: 'published',
        container_id: `container-${target}`,
        platform_post_id: `post-${target}`,
      });
    }
    expect(calls.most()).toBeLessThanOrEqual(3);
    await dropPublishFloorTable(database.pool);
  });

  it('without writes: each call holds one of the slots, and nothing is written', async () => {
    const calls = observedCalls({ ms: 5, notReadyOnce: () => false });
    const run = await runPublishFloor({ targets: 6, concurrency: 2, firstReadMs: 0, callsOf: calls.callsOf, sleep });
    expect(run.postIds).toEqual(Array.from({ length: 6 }, (_, i) => `post-${i}`));
    expect(run.polls).toBe(0);
    expect(calls.seen).toHaveLength(24);
    expect(calls.most()).toBe(2);
    expect(calls.seen.every((s) => s.row === undefined)).toBe(true);
  });

  it('fails the run when a call fails, once every other target has ended', async () => {
    await createPublishFloorTable(database.pool);
    const calls = observedCalls({ ms: 1, notReadyOnce: () => false });
    const published: number[] = [];
    await expect(
      runPublishFloor({
        targets: 4,
        concurrency: 2,
        firstReadMs: 0,
        callsOf: (target) => {
          const c = calls.callsOf(target);
          return {
            ...c,
            quota: target === 1 ? () => Promise.reject(new Error('quota spent')) : c.quota,
            publish: async (id) => {
              const postId = await c.publish(id);
              published.push(target);
              return postId;
            },
          };
        },
        writes: database.pool,
        sleep,
      }),
    ).rejects.toThrow('quota spent');
    expect(published.sort()).toEqual([0, 2, 3]);
    expect(await committedRow(1)).toEqual({ status: 'publishing', container_id: null, platform_post_id: null });
    await dropPublishFloorTable(database.pool);
  });
});

describe('slots', () => {
  it('runs at most its limit at once, the waiting ones in the order they came', async () => {
    const slot = slots(3);
    let active = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        slot(async () => {
          order.push(i);
          active += 1;
          most = Math.max(most, active);
          await sleep(1 + (i % 4));
          active -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
