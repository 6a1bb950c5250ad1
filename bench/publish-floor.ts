/**
 * The publishing bench's floors: each target's adapter calls (the quota, the container's creation,
 * its reads until it is ready, the publication) made straight from the bench's process.
 *
 * Without `writes`, each call holds one of `concurrency` slots while it is in flight, and nothing
 * is written: the least publishing costs here, what the service is measured against.
 *
 * With `writes`, the same calls are made with the writes that publishing a target exactly once
 * needs, in the shape the service's design gives them: runs that each hold one slot for all they
 * do, as a worker's job does. The first writes the target's start, makes the calls that create its
 * container and writes the container; each later one reads the container, and once it is ready
 * writes the claim, publishes and writes the publication (two runs a target when the first read
 * finds it ready). Each write is one statement committed
 * on its own, and waited for before the run goes on: the start before the container is asked for
 * (a target is started once), the claim before the publication (never published twice). It leaves
 * out what the service also does (its job queue, its reads of the target, the account and the
 * medium, the post's status, the event), into a table of its own with no index but its key. So
 * it is a lower bound of what the service's design of publishing costs this machine.
 */
import type pg from 'pg';

export const PUBLISH_FLOOR_SCHEMA = 'bench_publish_floor';

/** Makes the floor's table anew, empty. */
export async function createPublishFloorTable(pool: pg.Pool): Promise<void> {
  await dropPublishFloorTable(pool);
  await pool.query(`create schema ${PUBLISH_FLOOR_SCHEMA}`);
  // Pages half full, as the service's targets: a target's later writes stay on its page.
  await pool.query(`create table ${PUBLISH_FLOOR_SCHEMA}.targets (id integer primary key, status text not null,
    container_id text, platform_post_id text, updated_at timestamptz not null) with (fillfactor = 50)`);
}

export async function dropPublishFloorTable(pool: pg.Pool): Promise<void> {
  await pool.query(`drop schema if exists ${PUBLISH_FLOOR_SCHEMA} cascade`);
}

/** One target's adapter calls. */
export interface TargetCalls {
  /** Reads the account's quota; throws when it is spent. */
  quota(): Promise<void>;
  /** Answers the container's id. */
  createContainer(): Promise<string>;
  /** Reads the container: null once it is ready, or how long to wait before reading it again. */
  containerWait(containerId: string, reads: number): Promise<number | null>;
  /** Answers the platform's id of the post. */
  publish(containerId: string): Promise<string>;
}

export interface PublishFloorOptions {
  targets: number;
  /** Slots: calls in flight at most, or with `writes` runs in flight at most. */
  concurrency: number;
  /** From the container's creation to its first read. */
  firstReadMs: number;
  callsOf(target: number): TargetCalls;
  /** Where the writes go (createPublishFloorTable): a pool; none when not given. */
  writes?: { query(config: pg.QueryConfig): Promise<pg.QueryResult> };
  sleep(ms: number): Promise<unknown>;
}

export interface PublishFloorRun {
  /** Per target, ms from the run's start to the publication's answer. */
  lateness: Float64Array;
  /** Container reads that found it not ready, in all. */
  polls: number;
  /** Per target, the platform's id of its post. */
  postIds: string[];
}

const statements = {
  start: `insert into ${PUBLISH_FLOOR_SCHEMA}.targets (id, status, updated_at) values ($1, 'publishing', now())`,
  container: `update ${PUBLISH_FLOOR_SCHEMA}.targets set container_id = $2, status = 'processing', updated_at = now() where id = $1 and status = 'publishing'`,
  claim: `update ${PUBLISH_FLOOR_SCHEMA}.targets set status = 'claimed', updated_at = now() where id = $1 and status = 'processing'`,
  published: `update ${PUBLISH_FLOOR_SCHEMA}.targets set platform_post_id = $2, status = 'published', updated_at = now() where id = $1 and status = 'claimed'`,
} as const;

/**
 * At most `limit` of the given functions running at once; the others wait in the order they came,
 * and a slot ended goes straight to the next of them.
 */
export function slots(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (active < limit) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/** Publishes every target as the options say; throws the first failure, once every target has ended. */
export async function runPublishFloor(options: PublishFloorOptions): Promise<PublishFloorRun> {
  const { targets, concurrency, firstReadMs, callsOf, writes, sleep } = options;
  const slot = slots(concurrency);
  // With writes a run holds a slot for all it does; without, each call holds one.
  const run = writes ? slot : <T>(work: () => Promise<T>) => work();
  const call = writes ? <T>(work: () => Promise<T>) => work() : slot;
  const write = async (name: keyof typeof statements, values: unknown[], target: number) => {
    if (!writes) return;
    const { rowCount } = await writes.query({ name: `bench_publish_floor_${name}`, text: statements[name], values });
    if (rowCount !== 1) throw new Error(`floor: target ${target}'s ${name} wrote ${rowCount} rows`);
  };
  const lateness = new Float64Array(targets);
  const postIds: string[] = new Array(targets);
  let polls = 0;
  const start = performance.now();
  let failure: { error: unknown } | undefined;
  const publishOne = async (target: number) => {
    const calls = callsOf(target);
    const containerId = await run(async () => {
      await write('start', [target], target);
      await call(() => calls.quota());
      const id = await call(() => calls.createContainer());
      await write('container', [target, id], target);
      return id;
    });
    await sleep(firstReadMs);
    for (let reads = 0; ; reads++) {
      const wait = await run(async () => {
        const ms = await call(() => calls.containerWait(containerId, reads));
        if (ms !== null) return ms;
        await write('claim', [target], target);
        const postId = await call(() => calls.publish(containerId));
        await write('published', [target, postId], target);
        postIds[target] = postId;
        return null;
      });
      if (wait === null) break;
      polls += 1;
      await sleep(wait);
    }
    lateness[target] = performance.now() - start;
  };
  await Promise.all(
    Array.from({ length: targets }, (_, target) =>
      publishOne(target).catch((error: unknown) => {
        failure ??= { error };
      }),
    ),
  );
  if (failure) throw failure.error;
  return { lateness, polls, postIds };
}
