import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
 * with them, a target's four writes, each committed before the call that needs it, in runs that
 * each hold one slot for their calls and writes, and none between them.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await dropPublishFloorTable(database.pool);
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

/**
 * Calls that note what each found committed (with `rows`) and answer after `ms`, and a pool for
 * the writes; together they count the targets with a call or a write in flight.
 */
function observed(options: { ms: number; rows: boolean; notReadyOnce?: (target: number) => boolean }) {
  const seen: { target: number; call: string; row: TargetRow | undefined }[] = [];
  const busy = new Map<number, number>();
  let most = 0;
  const during = async <T>(target: number, work: () => Promise<T>): Promise<T> => {
    busy.set(target, (busy.get(target) ?? 0) + 1);
    most = Math.max(most, busy.size);
    try {
      return await work();
    } finally {
      const left = (busy.get(target) ?? 1) - 1;
      if (left === 0) busy.delete(target);
      else busy.set(target, left);
    }
  };
  const observe = <T>(target: number, call: string, answer: T): Promise<T> =>
    during(target, async () => {
      seen.push({ target, call, row: options.rows ? await committedRow(target) : undefined });
      await sleep(options.ms);
      return answer;
    });
  const callsOf = (target: number): TargetCalls => ({
    quota: () => observe(target, 'quota', undefined),
    createContainer: () => observe(target, 'createContainer', `container-${target}`),
    containerWait: (containerId, reads) => {
      expect(containerId).toBe(`container-${target}`);
      const notReady = reads === 0 && options.notReadyOnce?.(target) === true;
      return observe(target, `containerWait ${reads}`, notReady ? 20 : null);
    },
    publish: (containerId) => {
      expect(containerId).toBe(`container-${target}`);
      return observe(target, 'publish', `post-${target}`);
    },
  });
  // Every write names its target first.
  const writes = {
    query: (config: pg.QueryConfig) => during(config.values?.[0] as number, () => database.pool.query(config)),
  };
  return { seen, callsOf, writes, most: () => most };
}

const order = (seen: { target: number; call: string }[]) => seen.map((s) => `${s.target} ${s.call}`);
/** The targets whose publication was asked for. */
const published = (seen: { target: number; call: string }[]) =>
  seen.filter((s) => s.call === 'publish').map((s) => s.target);

describe('runPublishFloor', () => {
  it('with writes: starts a target before its container is made and claims it before it is published, each once', async () => {
    await createPublishFloorTable(database.pool);
    const o = observed({ ms: 2, rows: true, notReadyOnce: (target) => target % 4 === 0 });
    const run = await runPublishFloor({
      targets: 12,
      concurrency: 3,
      firstReadMs: 5,
      callsOf: o.callsOf,
      writes: o.writes,
      sleep,
    });
    expect(run.postIds).toEqual(Array.from({ length: 12 }, (_, i) => `post-${i}`));
    expect(run.polls).toBe(3);
    expect(run.lateness).toHaveLength(12);
    // Each waited its first read's 5 ms (a timer may fire a fraction of a millisecond early by this clock).
    expect([...run.lateness].every((ms) => ms >= 4)).toBe(true);

    for (let target = 0; target < 12; target++) {
      const seen = o.seen.filter((s) => s.target === target);
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
    // Three runs at once, and their writes within them: no more targets busy than slots.
    expect(o.most()).toBe(3);
  });

  it('with writes: a run holds its slot for its calls and writes, and none while it waits for the next run', async () => {
    await createPublishFloorTable(database.pool);
    const o = observed({ ms: 2, rows: false });
    // Each wait between runs lasts until both containers are made: a first run holding its slot
    // through its wait would keep the other target's first run from ever making its container.
    let bothMade = () => {};
    const made = new Promise<void>((resolve) => {
      bothMade = resolve;
    });
    await runPublishFloor({
      targets: 2,
      concurrency: 1,
      firstReadMs: 100,
      callsOf: (target) => {
        const calls = o.callsOf(target);
        return {
          ...calls,
          createContainer: async () => {
            const id = await calls.createContainer();
            if (target === 1) bothMade();
            return id;
          },
        };
      },
      writes: o.writes,
      sleep: () => made,
    });
    expect(order(o.seen)).toEqual([
      '0 quota',
      '0 createContainer',
      '1 quota',
      '1 createContainer',
      '0 containerWait 0',
      '0 publish',
      '1 containerWait 0',
      '1 publish',
    ]);
    expect(o.most()).toBe(1);
  });

  it('without writes: each call holds one of the slots', async () => {
    const o = observed({ ms: 2, rows: false });
    const run = await runPublishFloor({ targets: 2, concurrency: 1, firstReadMs: 0, callsOf: o.callsOf, sleep });
    expect(run.postIds).toEqual(['post-0', 'post-1']);
    expect(run.polls).toBe(0);
    expect(o.seen).toHaveLength(8);
    // The second target's quota is read while the first waits for its next call's slot.
    expect(order(o.seen).slice(0, 4)).toEqual(['0 quota', '1 quota', '0 createContainer', '1 createContainer']);
  });

  it('fails the run when a call fails, once every other target has ended, its slot given back', async () => {
    await createPublishFloorTable(database.pool);
    const o = observed({ ms: 1, rows: false });
    await expect(
      runPublishFloor({
        targets: 4,
        concurrency: 1,
        firstReadMs: 0,
        callsOf: (target) => {
          const calls = o.callsOf(target);
          return {
            ...calls,
            quota: target === 1 ? () => Promise.reject(new Error('quota spent')) : calls.quota,
          };
        },
        writes: database.pool,
        sleep,
      }),
    ).rejects.toThrow('quota spent');
    expect(published(o.seen).sort()).toEqual([0, 2, 3]);
    expect(await committedRow(1)).toEqual({ status: 'publishing', container_id: null, platform_post_id: null });
  });

  it('fails a target whose claim finds it moved meanwhile, and never publishes it', async () => {
    await createPublishFloorTable(database.pool);
    const o = observed({ ms: 1, rows: false });
    await expect(
      runPublishFloor({
        targets: 2,
        concurrency: 2,
        firstReadMs: 0,
        callsOf: (target) => {
          const calls = o.callsOf(target);
          return {
            ...calls,
            containerWait: async (id, reads) => {
              // Another process claimed target 1 while its container was read.
              if (target === 1) {
                await database.pool.query(`update bench_publish_floor.targets set status = 'claimed' where id = 1`);
              }
              return await calls.containerWait(id, reads);
            },
          };
        },
        writes: database.pool,
        sleep,
      }),
    ).rejects.toThrow("floor: target 1's claim wrote 0 rows");
    expect(published(o.seen)).toEqual([0]);
    expect(await committedRow(0)).toMatchObject({ status: 'published', platform_post_id: 'post-0' });
  });
});

describe('slots', () => {
  it('runs at most its limit at once, the waiting ones in the order they came', async () => {
    const slot = slots(3);
    let active = 0;
    let most = 0;
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        slot(async () => {
          started.push(i);
          active += 1;
          most = Math.max(most, active);
          await sleep(1 + (i % 4));
          active -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('gives the slot back when the work fails', async () => {
    const slot = slots(1);
    await expect(slot(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    await expect(slot(async () => 'next')).resolves.toBe('next');
  });
});
